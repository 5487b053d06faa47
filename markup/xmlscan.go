package markup

import (
	"strings"
	"unicode/utf8"

	"github.com/vigil-web/vigil/tree"
)

// The XML parser is a hand-written scanner over the whole decoded document
// held as one string. Names, attribute values and text that need no
// rewriting (no references, no white-space normalisation) are substrings of
// that string, so a data-oriented document is parsed with very few
// allocations beyond the nodes themselves, which come from the document's
// slab. Open elements are kept on an explicit stack, never on the goroutine
// stack, so nesting depth costs heap memory only.

// Byte classes for the scanner.
const (
	cName      = 1 << iota // may appear in a name
	cNameStart             // may start a name
	cTextStop              // ends a run of character data: < & ]
	cAttrStop              // ends a run in an attribute value: < & tab newline quotes
	cSpace                 // XML white space
)

var class [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		var k uint8
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == ':', c >= 0x80:
			k = cName | cNameStart
		case c >= '0' && c <= '9', c == '-', c == '.':
			k = cName
		}
		switch c {
		case '<', '&', ']':
			k |= cTextStop
		}
		switch c {
		case '<', '&', '\t', '\n', '\r', '"', '\'':
			k |= cAttrStop
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			k |= cSpace
		}
		class[c] = k
	}
}

// frame is an open element.
type frame struct {
	node      *tree.Node // nil when building a tree.Flat
	name      string
	kidStart  int   // index in xmlParser.kids of this element's first child
	mark      int32 // building a Flat: the builder's Len when it opened
	attrStart int   // building a Flat: where its attributes begin in openAttrs
	nsLen     int   // length of xmlParser.ns before this element's declarations
	preserve  bool  // inside xml:space="preserve", or an XHTML pre (see xhtmlPreserves)
	xhtml     bool  // the default namespace in scope is XHTML's
	mixed     bool  // a child so far is text other than white space
	off       int   // offset of the start tag in the outermost input
}

// nsBinding is an in-scope namespace prefix.
type nsBinding struct {
	prefix string
	uri    string
	undecl bool // xmlns:p="" (XML 1.1 style undeclaration)
	// outer is the index in xmlParser.ns of the binding of the same
	// prefix that this one hides, -1 for none.
	outer int
}

// nsScan is the number of bindings in scope up to which a prefix is looked
// up by scanning them; above it, through xmlParser.nsAt, so that a document
// declaring thousands of prefixes does not cost a scan per name.
const nsScan = 8

// input is a suspended input: the document, or an entity's replacement text
// being parsed as content.
type input struct {
	s      string // the suspended input
	i      int    // where to resume in s: after the entity reference
	refOff int    // offset of the reference in s
	entity string // the entity whose replacement text replaced s
	depth  int    // number of open elements when the entity was entered
}

// xmlParser is the state of one parse: the input (the document, or an
// entity's replacement text with the document suspended in inputs), the
// open elements, and the document being built.
type xmlParser struct {
	s    string // current input
	i    int    // position in s
	src  string // the document
	opt  Options
	doc  *tree.Document
	keep bool // Whitespace == Keep
	// flat, when set, receives the tree instead of doc (which keeps the
	// prolog, epilog, DOCTYPE and ID attributes); openAttrs holds the
	// attributes of the open elements, which the builder takes when each
	// closes.
	flat      *tree.FlatBuilder
	openAttrs []tree.Attr

	stack []frame
	kids  []*tree.Node // children of the open elements, stacked
	ptrs  []*tree.Node // slab for Children slices
	chunk int          // size of the next ptrs slab; half that for attrs
	attrs []tree.Attr  // slab for Attrs slices
	sc    []tree.Attr  // scratch: attributes of the current start tag
	seen  attrNames    // names in sc, for tags with many attributes
	ns    []nsBinding
	nsAt  map[string]int // index in ns of the innermost binding of each prefix

	// Pending character data: a span of s, or buf.
	text struct {
		has        bool
		inBuf      bool
		start, end int
		off        int // offset in the outermost input where it began
		buf        []byte
	}

	// afterElem tells whether the last child added to the innermost open
	// element is an element: white space after it may separate words.
	afterElem bool

	sawRoot    bool
	sawDoctype bool
	xhtml      bool // the DOCTYPE names XHTML: HTML entities are known

	inputs   []input // suspended inputs while parsing entity text
	entities map[string]*entity
	expanded int64 // bytes produced by entity references so far
}

// errAt returns a SyntaxError at offset off of the current input; inside
// an entity's replacement text it points at the outermost entity reference
// and names the entity.
func (p *xmlParser) errAt(off int, format string, args ...any) *SyntaxError {
	if len(p.inputs) > 0 {
		name := p.inputs[len(p.inputs)-1].entity
		return syntaxErrorAt(p.src, p.inputs[0].refOff, "in the replacement text of entity &%s;: "+format, append([]any{name}, args...)...)
	}
	return syntaxErrorAt(p.src, off, format, args...)
}

// outerOff returns the current position in the document.
func (p *xmlParser) outerOff() int { return p.outerOffAt(p.i) }

// outerOffAt returns the position in the document of offset a of the
// current input: a itself, or the outermost entity reference.
func (p *xmlParser) outerOffAt(a int) int {
	if len(p.inputs) > 0 {
		return p.inputs[0].refOff
	}
	return a
}

// parse parses the whole input into p.doc: a loop over markup and
// character data, with no recursion.
func (p *xmlParser) parse() error {
	for {
		if p.i >= len(p.s) {
			if len(p.inputs) == 0 {
				break
			}
			if err := p.popInput(); err != nil {
				return err
			}
			continue
		}
		if p.s[p.i] != '<' {
			if err := p.charData(); err != nil {
				return err
			}
			continue
		}
		if p.i+1 >= len(p.s) {
			return p.errAt(p.i+1, "unexpected end of input after '<': expected a name, '/', '!' or '?'")
		}
		var err error
		switch p.s[p.i+1] {
		case '/':
			err = p.endTag()
		case '!':
			rest := p.s[p.i:]
			switch {
			case strings.HasPrefix(rest, "<!--"):
				err = p.comment()
			case strings.HasPrefix(rest, "<![CDATA["):
				err = p.cdata()
			case strings.HasPrefix(rest, "<!DOCTYPE"):
				err = p.doctype()
			default:
				err = p.errAt(p.i, "expected '<!--', '<![CDATA[' or '<!DOCTYPE' after '<!'")
			}
		case '?':
			err = p.procInst()
		default:
			err = p.startTag()
		}
		if err != nil {
			return err
		}
	}
	if err := p.flushText(false); err != nil {
		return err
	}
	if len(p.stack) > 0 {
		f := p.stack[len(p.stack)-1]
		line, col := position(p.src, f.off)
		return p.errAt(len(p.s), "unexpected end of input: expected </%s> to close <%s> opened at line %d, column %d", f.name, f.name, line, col)
	}
	if !p.sawRoot {
		return p.errAt(len(p.s), "unexpected end of input: expected a root element")
	}
	return nil
}

// scanName returns the end of the name starting at i (i if there is none).
func (p *xmlParser) scanName(i int) int {
	s := p.s
	if i >= len(s) || class[s[i]]&cNameStart == 0 {
		return i
	}
	i++
	for i < len(s) && class[s[i]]&cName != 0 {
		i++
	}
	return i
}

// skipSpace returns the offset of the first byte at or after i that is not
// XML white space.
func (p *xmlParser) skipSpace(i int) int {
	for i < len(p.s) && class[p.s[i]]&cSpace != 0 {
		i++
	}
	return i
}

// describe names the byte at i for an error message.
func (p *xmlParser) describe(i int) string {
	if i >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[i:])
	switch r {
	case '\n':
		return "a newline"
	case '"', '\'':
		return "a quote"
	}
	return "'" + string(r) + "'"
}

// startTag parses a start tag or an empty-element tag at p.i.
func (p *xmlParser) startTag() error {
	s := p.s
	tagOff := p.i
	i := tagOff + 1
	j := p.scanName(i)
	if j == i {
		return p.errAt(i, "expected an element name after '<', found %s", p.describe(i))
	}
	name := s[i:j]
	if err := p.flushText(true); err != nil {
		return err
	}
	p.afterElem = false
	if len(p.stack) == 0 && p.sawRoot {
		return p.errAt(tagOff, "second root element <%s>: a document has exactly one root element", name)
	}
	if len(p.stack) >= p.opt.MaxDepth {
		return &LimitError{Option: "MaxDepth", Max: int64(p.opt.MaxDepth), Err: p.errAt(tagOff, "elements nested deeper than the limit of %d", p.opt.MaxDepth)}
	}
	p.sc = p.sc[:0]
	i = j
	empty := false
	for {
		k := p.skipSpace(i)
		if k >= len(s) {
			return p.errAt(k, "unexpected end of input in the start tag <%s>: expected '>'", name)
		}
		c := s[k]
		if c == '>' {
			i = k + 1
			break
		}
		if c == '/' {
			if k+1 < len(s) && s[k+1] == '>' {
				i = k + 2
				empty = true
				break
			}
			return p.errAt(k+1, "expected '>' after '/' in the tag <%s>", name)
		}
		if k == i {
			return p.errAt(k, "expected white space, '>' or '/>' in the start tag <%s>, found %s", name, p.describe(k))
		}
		a := p.scanName(k)
		if a == k {
			return p.errAt(k, "expected an attribute name, '>' or '/>' in the start tag <%s>, found %s", name, p.describe(k))
		}
		aname := s[k:a]
		a = p.skipSpace(a)
		if a >= len(s) || s[a] != '=' {
			return p.errAt(a, "expected '=' after the attribute name %s, found %s", aname, p.describe(a))
		}
		a = p.skipSpace(a + 1)
		if a >= len(s) || (s[a] != '"' && s[a] != '\'') {
			return p.errAt(a, "expected a quoted value for the attribute %s, found %s", aname, p.describe(a))
		}
		val, end, err := p.attrValue(a)
		if err != nil {
			return err
		}
		if p.duplicate(aname) {
			return p.errAt(k, "duplicate attribute %s in <%s>", aname, name)
		}
		p.sc = append(p.sc, tree.Attr{Name: aname, Value: val})
		i = end
	}
	p.i = i

	var parent *frame
	preserve, xhtml := false, false
	if len(p.stack) > 0 {
		parent = &p.stack[len(p.stack)-1]
		preserve, xhtml = parent.preserve, parent.xhtml
	}
	nsLen := len(p.ns)
	if len(p.sc) > 0 {
		for _, a := range p.sc {
			switch {
			case a.Name == "xml:space":
				preserve = a.Value == "preserve"
			case a.Name == "xmlns":
				xhtml = a.Value == xhtmlNamespace
			case strings.HasPrefix(a.Name, "xmlns:"):
				prefix := a.Name[len("xmlns:"):]
				if prefix == "xmlns" || (prefix == "xml" && a.Value != xmlNamespace) {
					return p.errAt(tagOff, "the prefix %s cannot be declared in <%s>", prefix, name)
				}
				p.bind(prefix, a.Value)
			}
		}
	}
	if err := p.checkPrefix(name, tagOff, name, false); err != nil {
		return err
	}
	if !preserve && (xhtml || len(p.ns) > 0) && p.xhtmlPreserves(name, xhtml) {
		preserve = true
	}
	prefixed := 0
	for _, a := range p.sc {
		if err := p.checkPrefix(a.Name, tagOff, name, true); err != nil {
			return err
		}
		if strings.IndexByte(a.Name, ':') >= 0 {
			prefixed++
		}
	}
	if prefixed > 1 {
		if err := p.checkExpandedNames(tagOff, name, prefixed); err != nil {
			return err
		}
	}
	if p.flat != nil {
		p.sawRoot = true
		p.stack = append(p.stack, frame{name: name, mark: p.flat.Len(), attrStart: len(p.openAttrs), nsLen: nsLen, preserve: preserve, xhtml: xhtml, off: p.outerOffAt(tagOff)})
		p.openAttrs = append(p.openAttrs, p.sc...)
		if empty {
			p.closeTop()
		}
		return nil
	}
	n := p.doc.NewElement(name)
	if len(p.sc) > 0 {
		n.Attrs = p.allocAttrs(p.sc)
	}
	if parent != nil {
		n.Parent = parent.node
		p.kids = append(p.kids, n)
	} else {
		p.doc.Root = n
		p.sawRoot = true
	}
	p.stack = append(p.stack, frame{node: n, name: name, kidStart: len(p.kids), nsLen: nsLen, preserve: preserve, xhtml: xhtml, off: p.outerOffAt(tagOff)})
	if empty {
		p.closeTop()
	}
	return nil
}

// duplicate reports whether the start tag being parsed already has an
// attribute called name (see attrNames).
func (p *xmlParser) duplicate(name string) bool { return p.seen.has(p.sc, name) }

const xmlNamespace = "http://www.w3.org/XML/1998/namespace"

// checkVersion reads the version number of the XML declaration from
// offset i, just after the word version, to offset end, where the
// declaration's "?>" stands, and reports an error unless it is 1.0 or
// another 1.x, which XML 1.0 processors read as 1.0.
func (p *xmlParser) checkVersion(i, end int) error {
	s := p.s[:end]
	i = p.skipSpace(i)
	if i >= len(s) || s[i] != '=' {
		return p.errAt(i, "expected '=' after version in the XML declaration, found %s", p.describe(i))
	}
	i = p.skipSpace(i + 1)
	if i >= len(s) || (s[i] != '"' && s[i] != '\'') {
		return p.errAt(i, "expected a quoted version number in the XML declaration, found %s", p.describe(i))
	}
	n := strings.IndexByte(s[i+1:], s[i])
	if n < 0 {
		return p.errAt(i, "expected the closing quote of the XML declaration's version")
	}
	v := s[i+1 : i+1+n]
	if minor, ok := strings.CutPrefix(v, "1."); !ok || minor == "" || strings.Trim(minor, "0123456789") != "" {
		return p.errAt(i+1, "XML version %q is not supported: expected 1.0", v)
	}
	return nil
}

// checkPrefix reports an error if the qualified name qn uses a prefix that
// is not declared.
func (p *xmlParser) checkPrefix(qn string, off int, elem string, attr bool) error {
	colon := strings.IndexByte(qn, ':')
	if colon < 0 {
		return nil
	}
	prefix := qn[:colon]
	if prefix == "" || colon == len(qn)-1 || strings.IndexByte(qn[colon+1:], ':') >= 0 {
		return p.errAt(off, "%s is not a valid qualified name (prefix:local) in <%s>", qn, elem)
	}
	if prefix == "xml" || (attr && prefix == "xmlns") {
		return nil
	}
	if k := p.binding(prefix); k >= 0 && !p.ns[k].undecl {
		return nil
	}
	what := "element"
	if attr {
		what = "attribute " + qn + " of"
	}
	return p.errAt(off, "undeclared namespace prefix %s in the %s <%s>", prefix, what, elem)
}

// checkExpandedNames reports an error if two attributes of the start tag
// being parsed have one expanded name: the same local name under two
// prefixes bound to one namespace (the namespaces recommendation's
// "Attributes Unique"). It is called for tags with two prefixed
// attributes or more (prefixed of them); from manyAttrs on, the names are
// found through a set, as attrNames finds duplicates: a tag with thousands
// would otherwise take time quadratic in their number.
func (p *xmlParser) checkExpandedNames(off int, elem string, prefixed int) error {
	type expanded struct{ uri, local string }
	var first map[expanded]string // the name each expanded name was first written with
	if prefixed >= manyAttrs {
		first = make(map[expanded]string, prefixed)
	}
	for x, a := range p.sc {
		pa, la, ok := strings.Cut(a.Name, ":")
		if !ok || pa == "xmlns" {
			continue
		}
		if first != nil {
			k := expanded{p.uriOf(pa), la}
			if name, ok := first[k]; ok {
				return p.errAt(off, "attributes %s and %s of <%s> have one name: %s in the namespace %q", name, a.Name, elem, la, k.uri)
			}
			first[k] = a.Name
			continue
		}
		for _, b := range p.sc[x+1:] {
			pb, lb, ok := strings.Cut(b.Name, ":")
			if !ok || lb != la || pb == pa || pb == "xmlns" {
				continue
			}
			if ua := p.uriOf(pa); ua == p.uriOf(pb) {
				return p.errAt(off, "attributes %s and %s of <%s> have one name: %s in the namespace %q", a.Name, b.Name, elem, la, ua)
			}
		}
	}
	return nil
}

// xhtmlPreserves reports whether the element called name is one of
// XHTML's whose text keeps its white space (pre, textarea, script, ...: see
// preserveHTML), as an HTML parser keeps it: an XHTML page read as XML
// keeps its code listings as the same page read as HTML does. xhtml says
// whether the default namespace in scope is XHTML's; a prefixed name is
// XHTML's when its prefix is bound to that namespace. Call it once the
// element's declarations are bound; the caller, on the parser's hot path,
// calls it only when xhtml is set or some prefix is bound.
func (p *xmlParser) xhtmlPreserves(name string, xhtml bool) bool {
	prefix, local, prefixed := strings.Cut(name, ":")
	if !prefixed {
		return xhtml && preserveHTML[name]
	}
	return preserveHTML[local] && p.uriOf(prefix) == xhtmlNamespace
}

// uriOf returns the namespace a declared prefix is bound to.
func (p *xmlParser) uriOf(prefix string) string {
	if prefix == "xml" {
		return xmlNamespace
	}
	if k := p.binding(prefix); k >= 0 {
		return p.ns[k].uri
	}
	return ""
}

// bind declares prefix for the element being opened, bound to uri, or
// undeclares it when uri is empty.
func (p *xmlParser) bind(prefix, uri string) {
	undecl := uri == ""
	if p.nsAt == nil {
		p.nsAt = map[string]int{}
	}
	outer, ok := p.nsAt[prefix]
	if !ok {
		outer = -1
	}
	p.nsAt[prefix] = len(p.ns)
	p.ns = append(p.ns, nsBinding{prefix: prefix, uri: uri, undecl: undecl, outer: outer})
}

// unbind drops the bindings from the n-th on, as their element closes.
func (p *xmlParser) unbind(n int) {
	for k := len(p.ns) - 1; k >= n; k-- {
		if b := p.ns[k]; b.outer >= 0 {
			p.nsAt[b.prefix] = b.outer
		} else {
			delete(p.nsAt, b.prefix)
		}
	}
	p.ns = p.ns[:n]
}

// binding returns the index in ns of the innermost binding of prefix, or
// -1.
func (p *xmlParser) binding(prefix string) int {
	if len(p.ns) > nsScan {
		if k, ok := p.nsAt[prefix]; ok {
			return k
		}
		return -1
	}
	for k := len(p.ns) - 1; k >= 0; k-- {
		if p.ns[k].prefix == prefix {
			return k
		}
	}
	return -1
}

// allocAttrs copies attrs into the attribute slab.
func (p *xmlParser) allocAttrs(a []tree.Attr) []tree.Attr {
	k := len(a)
	if cap(p.attrs)-len(p.attrs) < k {
		p.attrs = make([]tree.Attr, 0, max(p.chunk/2, k))
	}
	l := len(p.attrs)
	out := p.attrs[l : l+k : l+k]
	copy(out, a)
	p.attrs = p.attrs[:l+k]
	return out
}

// allocPtrs copies nodes into the pointer slab.
func (p *xmlParser) allocPtrs(a []*tree.Node) []*tree.Node {
	k := len(a)
	if k == 0 {
		return nil
	}
	if cap(p.ptrs)-len(p.ptrs) < k {
		p.ptrs = make([]*tree.Node, 0, max(p.chunk, k))
		p.chunk = min(p.chunk*2, 4096) // small documents get small slabs
	}
	l := len(p.ptrs)
	out := p.ptrs[l : l+k : l+k]
	copy(out, a)
	p.ptrs = p.ptrs[:l+k]
	return out
}

// attrValue parses the quoted attribute value at q and returns it and the
// offset after the closing quote. References are expanded and tabs and
// newlines become spaces, as XML's attribute-value normalisation requires.
func (p *xmlParser) attrValue(q int) (string, int, error) {
	s := p.s
	quote := s[q]
	i := q + 1
	start := i
	for i < len(s) && class[s[i]]&cAttrStop == 0 {
		i++
	}
	if i < len(s) && s[i] == quote {
		return s[start:i], i + 1, nil
	}
	// Slow path: build the value in the text buffer, which is empty here
	// (text is flushed before a tag).
	t := &p.text
	t.buf = append(t.buf[:0], s[start:i]...)
	t.has, t.inBuf = true, true
	defer func() { t.has, t.inBuf = false, false }()
	for {
		if i >= len(s) {
			return "", 0, p.errAt(i, "unexpected end of input in an attribute value: expected the closing quote %c", quote)
		}
		c := s[i]
		switch c {
		case quote:
			return string(t.buf), i + 1, nil
		case '<':
			return "", 0, p.errAt(i, "'<' is not allowed in an attribute value (write '&lt;')")
		case '&':
			p.i = i
			if err := p.reference(true); err != nil {
				return "", 0, err
			}
			i = p.i
		case '\t', '\n', '\r':
			t.buf = append(t.buf, ' ')
			i++
		default:
			t.buf = append(t.buf, c)
			i++
		}
	}
}

// endTag parses an end tag at p.i.
func (p *xmlParser) endTag() error {
	s := p.s
	off := p.i
	i := off + 2
	j := p.scanName(i)
	if j == i {
		return p.errAt(i, "expected an element name after '</', found %s", p.describe(i))
	}
	name := s[i:j]
	k := p.skipSpace(j)
	if k >= len(s) || s[k] != '>' {
		return p.errAt(k, "expected '>' at the end of the end tag </%s>, found %s", name, p.describe(k))
	}
	if err := p.flushText(false); err != nil {
		return err
	}
	if len(p.stack) == 0 {
		return p.errAt(off, "end tag </%s> without a matching start tag", name)
	}
	top := p.stack[len(p.stack)-1]
	if len(p.inputs) > 0 && len(p.stack) <= p.inputs[len(p.inputs)-1].depth {
		return p.errAt(off, "end tag </%s> closes an element opened outside the entity", name)
	}
	if top.name != name {
		line, col := position(p.src, top.off)
		return p.errAt(off, "end tag </%s> does not match the start tag <%s> at line %d, column %d: expected </%s>", name, top.name, line, col, top.name)
	}
	p.i = k + 1
	p.closeTop()
	return nil
}

// closeTop closes the innermost open element.
func (p *xmlParser) closeTop() {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	p.afterElem = true
	p.unbind(f.nsLen)
	if p.flat != nil {
		p.flat.Element(f.mark, f.name, p.openAttrs[f.attrStart:])
		clear(p.openAttrs[f.attrStart:])
		p.openAttrs = p.openAttrs[:f.attrStart]
		return
	}
	f.node.Children = p.allocPtrs(p.kids[f.kidStart:])
	clear(p.kids[f.kidStart:])
	p.kids = p.kids[:f.kidStart]
}

// comment parses a comment at p.i.
func (p *xmlParser) comment() error {
	s := p.s
	off := p.i
	start := off + 4
	k := strings.Index(s[start:], "--")
	if k < 0 {
		return p.errAt(len(s), "unexpected end of input in a comment: expected '-->'")
	}
	end := start + k
	if end+2 >= len(s) || s[end+2] != '>' {
		return p.errAt(end, "'--' is not allowed inside a comment: expected '-->'")
	}
	if err := p.flushText(false); err != nil {
		return err
	}
	p.i = end + 3
	p.addMisc(tree.Comment, "", s[start:end])
	return nil
}

// addMisc adds a comment or processing instruction where it belongs: in the
// open element, the prolog or the epilog.
func (p *xmlParser) addMisc(kind tree.Kind, name, value string) {
	p.afterElem = false
	if len(p.stack) > 0 && p.flat != nil {
		p.flat.Leaf(kind, name, value)
		return
	}
	n := p.doc.NewNode(kind, name, value)
	switch {
	case len(p.stack) > 0:
		n.Parent = p.stack[len(p.stack)-1].node
		p.kids = append(p.kids, n)
	case p.sawRoot:
		p.doc.Epilog = append(p.doc.Epilog, n)
	default:
		p.doc.Prolog = append(p.doc.Prolog, n)
	}
}

// cdata parses a CDATA section at p.i; its content joins the pending text.
func (p *xmlParser) cdata() error {
	s := p.s
	off := p.i
	if len(p.stack) == 0 {
		return p.errAt(off, "CDATA section outside the root element")
	}
	start := off + len("<![CDATA[")
	k := strings.Index(s[start:], "]]>")
	if k < 0 {
		return p.errAt(len(s), "unexpected end of input in a CDATA section: expected ']]>'")
	}
	if k > 0 {
		p.addSpan(start, start+k)
	}
	p.i = start + k + 3
	return nil
}

// procInst parses a processing instruction (or the XML declaration) at p.i.
func (p *xmlParser) procInst() error {
	s := p.s
	off := p.i
	i := off + 2
	j := p.scanName(i)
	if j == i {
		return p.errAt(i, "expected a processing-instruction target after '<?', found %s", p.describe(i))
	}
	target := s[i:j]
	k := strings.Index(s[j:], "?>")
	if k < 0 {
		return p.errAt(len(s), "unexpected end of input in the processing instruction <?%s: expected '?>'", target)
	}
	end := j + k
	if end > j && class[s[j]]&cSpace == 0 {
		return p.errAt(j, "expected white space after the processing-instruction target %s", target)
	}
	data := strings.TrimLeft(s[j:end], " \t\n\r")
	if strings.EqualFold(target, "xml") {
		// White space before the declaration is tolerated, though XML
		// forbids it: generated feeds often start with a newline.
		atStart := len(p.inputs) == 0 && isXMLSpace(p.s[:off]) && len(p.doc.Prolog) == 0 && !p.sawDoctype && !p.sawRoot
		if target != "xml" || !atStart {
			if target == "xml" {
				return p.errAt(off, "the XML declaration is allowed only at the very start of the document")
			}
			return p.errAt(i, "the processing-instruction target %s is reserved", target)
		}
		if !strings.HasPrefix(data, "version") {
			return p.errAt(j, "expected version=\"1.0\" in the XML declaration")
		}
		if err := p.checkVersion(end-len(data)+len("version"), end); err != nil {
			return err
		}
	}
	if err := p.flushText(false); err != nil {
		return err
	}
	p.i = end + 2
	p.addMisc(tree.ProcInst, target, data)
	return nil
}
