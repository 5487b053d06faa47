package markup

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/xmltext"
)

// WriteXML writes d as XML in UTF-8. By default the output is compact: no
// white space is added, so ParseXML of the output with the Keep policy gives
// back d's tree. The XML declaration, if d has one, is written with its
// encoding changed to UTF-8; the DOCTYPE follows it, then the other prolog
// nodes. Text escapes &, < and > (so "]]>" never appears) and carriage
// returns; attribute values escape &, <, " and tab, newline and carriage
// return, which attribute-value normalisation would otherwise turn into
// spaces. Characters that XML cannot hold (control characters, U+FFFE,
// U+FFFF and bytes that are not UTF-8, which a tree built by hand may hold)
// are written as U+FFFD, in comments, processing instructions and the
// DOCTYPE too; a comment's "--" becomes "- -". An element or attribute name
// that is not an XML name (HTML accepts almost anything as an attribute
// name) is an error, as is a processing-instruction target that is not
// one, or is xml other than in the XML declaration. Namespace prefixes are not checked: a
// tree parsed from HTML may use a prefix without declaring it (o:p from
// word processors), which ParseXML then refuses.
func WriteXML(w io.Writer, d *tree.Document, opt *WriteOptions) error {
	if d == nil || d.Root == nil {
		return errors.New("markup: write XML: document has no root element")
	}
	x := newXMLWriter(w, opt)
	if opt == nil || !opt.OmitProlog {
		decl, before, after := d.SplitProlog()
		if decl != nil {
			x.str("<?xml ")
			x.str(utf8Decl(decl.Value))
			x.str("?>")
			x.line()
		}
		for _, n := range before {
			x.node(n)
			x.line()
		}
		if d.Doctype != "" {
			x.str("<!DOCTYPE ")
			x.escape(d.Doctype, rawEscaper)
			x.str(">")
			x.line()
		}
		for _, n := range after {
			x.node(n)
			x.line()
		}
	}
	x.node(d.Root)
	if opt == nil || !opt.OmitProlog {
		for _, n := range d.Epilog {
			x.line()
			x.node(n)
		}
	}
	if x.indent != "" {
		x.str("\n")
	}
	return x.flush()
}

// WriteNodeXML writes the subtree at n as XML, compactly unless opt asks for
// indentation, which is then as in n's document: none where an ancestor
// keeps white space as content (xml:space="preserve", an XHTML pre).
// Namespace prefixes declared on n's ancestors are not redeclared.
func WriteNodeXML(w io.Writer, n *tree.Node, opt *WriteOptions) error {
	if n == nil {
		return errors.New("markup: write XML: nil node")
	}
	x := newXMLWriter(w, opt)
	x.node(n)
	return x.flush()
}

// utf8Decl returns the pseudo-attributes of an XML declaration with the
// encoding, if any, replaced by UTF-8.
func utf8Decl(v string) string {
	i := strings.Index(v, "encoding")
	if i < 0 {
		return v
	}
	j := i + len("encoding")
	for j < len(v) && isXMLSpaceByte(v[j]) {
		j++
	}
	if j >= len(v) || v[j] != '=' {
		return v
	}
	j++
	for j < len(v) && isXMLSpaceByte(v[j]) {
		j++
	}
	if j >= len(v) || (v[j] != '"' && v[j] != '\'') {
		return v
	}
	k := strings.IndexByte(v[j+1:], v[j])
	if k < 0 {
		return v
	}
	return v[:j+1] + "UTF-8" + v[j+1+k:]
}

// xmlWriter writes XML to a buffered writer and keeps the first error.
type xmlWriter struct {
	w      *bufio.Writer
	indent string
	err    error
	// stopped is set after an HTML plaintext element's content: nothing
	// can follow it, since the tokenizer reads the rest as its text.
	stopped bool
}

func newXMLWriter(w io.Writer, opt *WriteOptions) *xmlWriter {
	x := &xmlWriter{w: bufio.NewWriterSize(w, 64<<10)}
	if opt != nil {
		x.indent = opt.Indent
	}
	return x
}

func (x *xmlWriter) str(s string) {
	if x.err == nil && !x.stopped {
		_, x.err = x.w.WriteString(s)
	}
}

func (x *xmlWriter) byte(c byte) {
	if x.err == nil && !x.stopped {
		x.err = x.w.WriteByte(c)
	}
}

// line writes a newline between top-level nodes when indenting.
func (x *xmlWriter) line() {
	if x.indent != "" {
		x.byte('\n')
	}
}

// maxIndentDepth caps indentation, so that a deeply nested document's
// indented output stays linear in its size.
const maxIndentDepth = 100

func (x *xmlWriter) newline(depth int) {
	x.byte('\n')
	for i := 0; i < min(depth, maxIndentDepth); i++ {
		x.str(x.indent)
	}
}

func (x *xmlWriter) flush() error {
	if x.err != nil {
		return x.err
	}
	return x.w.Flush()
}

// node writes the subtree at n without recursion.
func (x *xmlWriter) node(n *tree.Node) {
	type frame struct {
		n        *tree.Node
		next     int
		preserve bool // inside xml:space="preserve" or an XHTML pre: nothing indented
		xhtml    bool // the default namespace in scope is XHTML's
		mark     int  // the length of scope.prefixes before n's declarations
		indent   bool // children go on their own lines
	}
	if n.Kind != tree.Element || len(n.Children) == 0 {
		x.leaf(n)
		return
	}
	x.startTag(n, false)
	// Where white space is content only matters to indentation: a compact
	// writer does not follow it.
	indenting := x.indent != ""
	var scope spaceScope
	top := frame{n: n}
	if indenting {
		top.preserve, top.xhtml = scope.above(n)
		top.preserve, top.xhtml, top.mark = scope.enter(n, top.preserve, top.xhtml)
		top.indent = !top.preserve && !hasText(n)
	}
	stack := []frame{top}
	for len(stack) > 0 && x.err == nil {
		top := &stack[len(stack)-1]
		if top.next == len(top.n.Children) {
			if top.indent {
				x.newline(len(stack) - 1)
			}
			x.str("</")
			x.str(top.n.Name)
			x.byte('>')
			if indenting {
				scope.leave(top.mark)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		c := top.n.Children[top.next]
		top.next++
		if top.indent {
			x.newline(len(stack))
		}
		if c.Kind != tree.Element || len(c.Children) == 0 {
			x.leaf(c)
			continue
		}
		x.startTag(c, false)
		f := frame{n: c}
		if indenting {
			f.preserve, f.xhtml, f.mark = scope.enter(c, top.preserve, top.xhtml)
			f.indent = !f.preserve && !hasText(c)
		}
		stack = append(stack, f)
	}
}

// spaceScope follows, down a tree being written, where white space is
// content as a parse sees it (xml:space, an XHTML pre: see
// xmlParser.xhtmlPreserves), so that the writer indents nowhere a parse
// would keep the white space it adds. It keeps the prefixes in scope that
// are bound, so that a prefixed pre is looked up in one step, not through
// its ancestors (quadratic in a deep document's depth).
type spaceScope struct {
	prefixes []prefixBinding // the xmlns:p declarations in scope, innermost last
	at       map[string]int  // prefix -> its innermost binding in prefixes
}

// prefixBinding is one xmlns:p declaration in a spaceScope.
type prefixBinding struct {
	prefix string
	xhtml  bool // bound to XHTML's namespace
	outer  int  // the binding of prefix it hides, -1 for none
}

// above enters the ancestors of n, from the root down, and returns
// whether white space is content in n's parent and whether the default
// namespace there is XHTML's: a subtree written on its own is indented as
// it would be in its document.
func (s *spaceScope) above(n *tree.Node) (preserve, xhtml bool) {
	var path []*tree.Node
	for a := n.Parent; a != nil; a = a.Parent {
		path = append(path, a)
	}
	for i := len(path) - 1; i >= 0; i-- {
		if path[i].Kind == tree.Element {
			preserve, xhtml, _ = s.enter(path[i], preserve, xhtml)
		}
	}
	return preserve, xhtml
}

// enter binds element n's prefix declarations and reports whether white
// space is content inside n, by its xml:space attribute, else as inside
// its parent (inParent), or as in an XHTML pre: a parse keeps white space
// alone there, so the writer adds none. xhtml says whether the default
// namespace is XHTML's in n's parent; xhtmlIn whether it is in n. mark is
// what leave takes when n closes.
func (s *spaceScope) enter(n *tree.Node, inParent, xhtml bool) (preserved, xhtmlIn bool, mark int) {
	mark = len(s.prefixes)
	preserved, xhtmlIn = inParent, xhtml
	for _, a := range n.Attrs {
		switch {
		case a.Name == "xml:space":
			preserved = a.Value == "preserve"
		case a.Name == "xmlns":
			xhtmlIn = a.Value == xhtmlNamespace
		case strings.HasPrefix(a.Name, "xmlns:"):
			s.bind(a.Name[len("xmlns:"):], a.Value == xhtmlNamespace)
		}
	}
	if preserved {
		return true, xhtmlIn, mark
	}
	prefix, local, prefixed := strings.Cut(n.Name, ":")
	switch {
	case !prefixed:
		preserved = xhtmlIn && preserveHTML[n.Name]
	case preserveHTML[local]:
		k, ok := s.at[prefix]
		preserved = ok && s.prefixes[k].xhtml
	}
	return preserved, xhtmlIn, mark
}

// bind declares prefix, bound to XHTML's namespace or not.
func (s *spaceScope) bind(prefix string, xhtml bool) {
	if s.at == nil {
		s.at = map[string]int{}
	}
	outer, ok := s.at[prefix]
	if !ok {
		outer = -1
	}
	s.at[prefix] = len(s.prefixes)
	s.prefixes = append(s.prefixes, prefixBinding{prefix: prefix, xhtml: xhtml, outer: outer})
}

// leave drops the bindings from the mark-th on, as their element closes.
func (s *spaceScope) leave(mark int) {
	for i := len(s.prefixes) - 1; i >= mark; i-- {
		b := s.prefixes[i]
		if b.outer < 0 {
			delete(s.at, b.prefix)
		} else {
			s.at[b.prefix] = b.outer
		}
	}
	s.prefixes = s.prefixes[:mark]
}

// hasText reports whether n has a text child.
func hasText(n *tree.Node) bool {
	for _, c := range n.Children {
		if c.Kind == tree.Text {
			return true
		}
	}
	return false
}

// isXMLName reports whether s is an XML name (loosely for non-ASCII: any
// character XML can hold is accepted).
func isXMLName(s string) bool {
	return isASCIIName(s) || isNonASCIIName(s)
}

// isASCIIName reports whether s is an XML name of ASCII characters only.
// It is small enough to be inlined, and the writer calls it before
// isNonASCIIName: most names are ASCII.
func isASCIIName(s string) bool {
	if s == "" || asciiName[s[0]]&cNameStart == 0 {
		return false
	}
	for i := 1; i < len(s); i++ {
		if asciiName[s[i]]&cName == 0 {
			return false
		}
	}
	return true
}

// asciiName classes the ASCII bytes of names as class does, and no byte
// from 0x80 up.
var asciiName = func() (t [256]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == ':':
			t[c] = cName | cNameStart
		case c >= '0' && c <= '9', c == '-', c == '.':
			t[c] = cName
		}
	}
	return t
}()

// isNonASCIIName reports whether s, which is not an ASCII name, is an
// XML name holding characters outside ASCII.
func isNonASCIIName(s string) bool {
	if s == "" || class[s[0]]&cNameStart == 0 {
		return false
	}
	for i := 1; i < len(s); i++ {
		if class[s[i]]&cName == 0 {
			return false
		}
	}
	return xmltext.Check(s) == nil
}

// badName records an error for a name XML cannot hold.
func (x *xmlWriter) badName(what, name string, n *tree.Node) {
	if x.err == nil {
		x.err = fmt.Errorf("markup: write XML: %s %q at %s: %w (a tree parsed from HTML may need WriteHTML)", what, name, tree.Path(n), ErrNotXML)
	}
}

// startTag writes n's start tag, or an empty-element tag if empty.
func (x *xmlWriter) startTag(n *tree.Node, empty bool) {
	if !isASCIIName(n.Name) && !isNonASCIIName(n.Name) {
		x.badName("element name", n.Name, n)
	}
	for _, a := range n.Attrs {
		if !isASCIIName(a.Name) && !isNonASCIIName(a.Name) {
			x.badName("attribute name", a.Name, n)
		}
	}
	x.byte('<')
	x.str(n.Name)
	for _, a := range n.Attrs {
		x.byte(' ')
		x.str(a.Name)
		x.str(`="`)
		x.escape(a.Value, attrEscaper)
		x.byte('"')
	}
	if empty {
		x.byte('/')
	}
	x.byte('>')
}

// leaf writes a node without children.
func (x *xmlWriter) leaf(n *tree.Node) {
	switch n.Kind {
	case tree.Element:
		x.startTag(n, true)
	case tree.Text:
		x.escape(n.Value, textEscaper)
	case tree.Comment:
		x.str("<!--")
		x.escape(commentText(n.Value), rawEscaper)
		x.str("-->")
	case tree.ProcInst:
		// The XML declaration is written apart, from the prolog's first
		// node: xml is a reserved target anywhere else.
		if !isXMLName(n.Name) || strings.EqualFold(n.Name, "xml") {
			x.badName("processing-instruction target", n.Name, n)
		}
		x.str("<?")
		x.str(n.Name)
		if n.Value != "" {
			x.byte(' ')
			x.escape(strings.ReplaceAll(n.Value, "?>", "? >"), rawEscaper)
		}
		x.str("?>")
	}
}

// commentText makes v safe inside <!-- -->.
func commentText(v string) string {
	for strings.Contains(v, "--") {
		v = strings.ReplaceAll(v, "--", "- -")
	}
	if strings.HasSuffix(v, "-") {
		v += " "
	}
	return v
}

// The escapers of WriteXML: decimal character references, > escaped in
// text only, U+FFFD for a character XML cannot hold.
var (
	textEscaper = xmltext.NewEscaper(xmltext.Text, xmltext.Options{Replace: true})
	attrEscaper = xmltext.NewEscaper(xmltext.Attr, xmltext.Options{Replace: true})
	rawEscaper  = xmltext.NewEscaper(xmltext.Raw, xmltext.Options{Replace: true})
)

// escape writes s with esc.
func (x *xmlWriter) escape(s string, esc *xmltext.Escaper) {
	if x.err == nil && !x.stopped {
		x.err = esc.Escape(x.w, s)
	}
}
