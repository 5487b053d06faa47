package xmlpatch

import (
	"strings"
	"unicode/utf8"

	"github.com/vigil-web/vigil/tree"
)

// The namespaces XML binds itself, and the one an undeclared prefix is
// taken to be bound to.
const (
	xmlNamespace   = "http://www.w3.org/XML/1998/namespace"
	xmlnsNamespace = "http://www.w3.org/2000/xmlns/"
	// undeclaredNamespace is followed by the prefix: a name whose prefix
	// its document never declares (<fb:like> on an HTML page) is in
	// urn:vigil:undeclared:fb, as the delta package writes it.
	undeclaredNamespace = "urn:vigil:undeclared:"
)

// isNameStart and isNameChar are the NameStartChar and NameChar
// productions of XML 1.0 (fifth edition), without the colon.
func isNameStart(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_':
		return true
	case r < 0xC0:
		return false
	}
	return r <= 0xD6 || r >= 0xD8 && r <= 0xF6 || r >= 0xF8 && r <= 0x2FF ||
		r >= 0x370 && r <= 0x37D || r >= 0x37F && r <= 0x1FFF || r >= 0x200C && r <= 0x200D ||
		r >= 0x2070 && r <= 0x218F || r >= 0x2C00 && r <= 0x2FEF || r >= 0x3001 && r <= 0xD7FF ||
		r >= 0xF900 && r <= 0xFDCF || r >= 0xFDF0 && r <= 0xFFFD || r >= 0x10000 && r <= 0xEFFFF
}

func isNameChar(r rune) bool {
	return isNameStart(r) || r >= '0' && r <= '9' || r == '-' || r == '.' || r == 0xB7 ||
		r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}

// isNCName reports whether s is an XML name without a colon.
func isNCName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == utf8.RuneError || !(isNameChar(r) && (i > 0 || isNameStart(r))) {
			return false
		}
	}
	return true
}

// isQName reports whether s is a qualified name (NCName or
// NCName:NCName).
func isQName(s string) bool {
	p, l, ok := strings.Cut(s, ":")
	if !ok {
		return isNCName(s)
	}
	return isNCName(p) && isNCName(l)
}

// splitQName splits a qualified name into its prefix ("" for none) and
// local part.
func splitQName(s string) (prefix, local string) {
	if p, l, ok := strings.Cut(s, ":"); ok {
		return p, l
	}
	return "", s
}

// elementName reports whether an element name can stand in a selector
// and a patch: a qualified name whose prefix is not xmlns.
func elementName(s string) bool {
	return isQName(s) && !strings.HasPrefix(s, "xmlns:")
}

// declaration reports whether an attribute name is a namespace
// declaration, and the prefix it declares ("" for the default namespace).
func declaration(name string) (prefix string, ok bool) {
	if name == "xmlns" {
		return "", true
	}
	return strings.CutPrefix(name, "xmlns:")
}

// validDeclaration reports whether Namespaces in XML allows a declaration
// binding prefix ("" for the default namespace) to uri: not of the xmlns
// prefix, nor to the xmlns namespace, the xml namespace for the xml
// prefix only and only it for that prefix, and no empty URI for a prefix.
func validDeclaration(prefix, uri string) bool {
	switch {
	case prefix == "xmlns", uri == xmlnsNamespace:
		return false
	case prefix == "xml" || uri == xmlNamespace:
		return prefix == "xml" && uri == xmlNamespace
	case prefix != "":
		return uri != "" && isNCName(prefix)
	}
	return true
}

// isSpace reports whether s is white space only, as XML defines it
// (space, tab, carriage return, line feed), and not empty.
func isSpace(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// scope is the namespace bindings in scope at an element: a frame per
// element that declares any, linked to the frame of the nearest ancestor
// that does. The zero *scope (nil) binds nothing but xml.
type scope struct {
	parent *scope
	decls  []tree.Attr // Name is the prefix ("" for the default), Value the URI
	// index maps prefixes to URIs in a frame of a patch's declarations
	// (it may declare thousands), so that a lookup does not read them
	// all; nil in a document's frames, which are made afresh at each
	// visit.
	index map[string]string
	// w counts the frames lookups go through, in the frames of a
	// document that Apply reads; nil elsewhere.
	w *work
}

// docScope returns the scope at the document node, which binds nothing
// but xml, with w counting the work of lookups in the frames pushed on
// it: nil when w is nil.
func docScope(w *work) *scope {
	if w == nil {
		return nil
	}
	return &scope{w: w}
}

// work returns the counter of s's lookups, nil for none.
func (s *scope) work() *work {
	if s == nil {
		return nil
	}
	return s.w
}

// declare returns s with the declarations m (prefix to URI) of a patch's
// element in one frame, indexed.
func (s *scope) declare(m map[string]string) *scope {
	if len(m) == 0 {
		return s
	}
	f := &scope{parent: s, decls: make([]tree.Attr, 0, len(m)), index: m}
	for _, k := range sortedKeys(m) {
		f.decls = append(f.decls, tree.Attr{Name: k, Value: m[k]})
	}
	return f
}

// push returns the scope inside an element with the given attributes:
// s itself when the element declares nothing.
func (s *scope) push(attrs []tree.Attr) *scope {
	s.work().add(len(attrs))
	var decls []tree.Attr
	for _, a := range attrs {
		if p, ok := declaration(a.Name); ok {
			decls = append(decls, tree.Attr{Name: p, Value: a.Value})
		}
	}
	if decls == nil {
		return s
	}
	return &scope{parent: s, decls: decls, w: s.work()}
}

// bind returns s with prefix bound to uri.
func (s *scope) bind(prefix, uri string) *scope {
	return &scope{parent: s, decls: []tree.Attr{{Name: prefix, Value: uri}}, w: s.work()}
}

// lookup returns the namespace a prefix is bound to ("" for the default
// namespace when none is declared, or undeclared in the empty
// namespace), and whether a declaration binds it.
func (s *scope) lookup(prefix string) (string, bool) {
	switch prefix {
	case "xml":
		return xmlNamespace, true
	case "xmlns":
		return xmlnsNamespace, true
	}
	w := s.work()
	for f := s; f != nil; f = f.parent {
		if f.index != nil {
			if u, ok := f.index[prefix]; ok {
				return u, true
			}
			continue
		}
		w.add(1 + len(f.decls))
		for i := len(f.decls) - 1; i >= 0; i-- {
			if f.decls[i].Name == prefix {
				return f.decls[i].Value, true
			}
		}
	}
	return "", false
}

// uri returns the namespace of prefix in a document's tree: its binding,
// or, for a prefix the document never declares, urn:vigil:undeclared:
// and the prefix.
func (s *scope) uri(prefix string) string {
	u, ok := s.lookup(prefix)
	if !ok && prefix != "" {
		return undeclaredNamespace + prefix
	}
	return u
}

// prefixFor returns a prefix other than "" that s binds to uri and that
// no nearer declaration rebinds, and whether there is one.
func (s *scope) prefixFor(uri string) (string, bool) {
	if uri == xmlNamespace {
		return "xml", true
	}
	w := s.work()
	for f := s; f != nil; f = f.parent {
		w.add(1 + len(f.decls))
		for i := len(f.decls) - 1; i >= 0; i-- {
			d := f.decls[i]
			if d.Name != "" && d.Value == uri {
				if u, _ := s.lookup(d.Name); u == uri {
					return d.Name, true
				}
			}
		}
	}
	return "", false
}

// scopeOf returns the bindings in scope at n (its own declarations
// included), walking up to the root; w counts the walk, and the lookups
// in the scope returned.
func scopeOf(n *tree.Node, w *work) *scope {
	var chain []*tree.Node
	for m := n; m != nil; m = m.Parent {
		if m.Kind == tree.Element {
			chain = append(chain, m)
		}
	}
	w.add(len(chain))
	s := docScope(w)
	for i := len(chain) - 1; i >= 0; i-- {
		s = s.push(chain[i].Attrs)
	}
	return s
}

// expanded is an expanded name: a namespace and a local part.
type expanded struct{ uri, local string }

// elementExpanded returns the expanded name of an element whose scope
// (its own declarations included) is s.
func elementExpanded(name string, s *scope) expanded {
	p, l := splitQName(name)
	return expanded{s.uri(p), l}
}

// attrExpanded returns the expanded name of an attribute of an element
// whose scope is s: an unprefixed attribute is in no namespace.
func attrExpanded(name string, s *scope) expanded {
	p, l := splitQName(name)
	if p == "" {
		return expanded{"", l}
	}
	return expanded{s.uri(p), l}
}
