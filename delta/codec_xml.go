package delta

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/xmltext"
)

// EncodeXML writes deltas as one XyDelta document, a <unit_delta> with one
// <t> per delta in the order given (a multi-step delta: each <t> goes from
// its from version to its to version). See the package documentation for
// the format. It fails if a value cannot be written in XML: a character XML
// forbids, a comment holding "--" or ending with "-", a processing
// instruction holding "?>" or starting with white space.
func EncodeXML(w io.Writer, ds ...*Delta) error {
	bw := bufio.NewWriter(w)
	e := &xmlEncoder{w: bw}
	e.str("<unit_delta>\n")
	for k, d := range ds {
		e.str("<t")
		if d.From != "" {
			e.attr("from", d.From)
		}
		if d.To != "" {
			e.attr("to", d.To)
		}
		// A map without XIDs has no string form (its next-free counter alone
		// is not written).
		if d.FromXIDMap.Len() > 0 {
			e.attr("fromXidMap", d.FromXIDMap.String())
		}
		if d.ToXIDMap.Len() > 0 {
			e.attr("toXidMap", d.ToXIDMap.String())
		}
		if d.FromFingerprint != 0 {
			e.attr("fromFingerprint", fingerprintString(d.FromFingerprint))
		}
		if d.ToFingerprint != 0 {
			e.attr("toFingerprint", fingerprintString(d.ToFingerprint))
		}
		for _, p := range declaredPrefixes(d) {
			uri, ok := d.Namespaces[p]
			if !ok {
				uri = undeclaredNamespace + p
			}
			e.attr("xmlns:"+p, uri)
		}
		e.str(">\n")
		if e.err != nil {
			return fmt.Errorf("encode delta %d, its <t>: %w", k+1, e.err)
		}
		for i := range d.Ops {
			e.op(&d.Ops[i])
			if e.err != nil {
				return fmt.Errorf("encode delta %d, operation %d (%s): %w", k+1, i+1, d.Ops[i].header(), e.err)
			}
		}
		if d.Outside != nil {
			e.outside(d.Outside)
			if e.err != nil {
				return fmt.Errorf("encode delta %d, outside the root: %w", k+1, e.err)
			}
		}
		e.str("</t>\n")
	}
	e.str("</unit_delta>\n")
	if e.err != nil {
		return e.err
	}
	return bw.Flush()
}

type xmlEncoder struct {
	w   *bufio.Writer
	err error
}

// outside writes a change outside the root element (Vigil extension):
//
//	<outside>
//	<old doctype="html"><prolog><!-- a --></prolog><epilog><?pi x?></epilog></old>
//	<new doctype="html"><prolog><!-- b --></prolog></new>
//	</outside>
//
// one prolog or epilog element per comment or processing instruction, in
// order; no doctype attribute for no DOCTYPE, and a doctype-after
// attribute, when not 0, for how many prolog nodes precede the DOCTYPE.
func (e *xmlEncoder) outside(o *Outside) {
	e.str("<outside>\n")
	for _, side := range []struct {
		tag string
		s   Surroundings
	}{{"old", o.Old}, {"new", o.New}} {
		e.str("<" + side.tag)
		if side.s.Doctype != "" {
			e.attr("doctype", side.s.Doctype)
		}
		if side.s.DoctypeAfter != 0 {
			e.attr("doctype-after", strconv.Itoa(side.s.DoctypeAfter))
		}
		e.str(">")
		for _, list := range []struct {
			tag   string
			nodes []*tree.Node
		}{{"prolog", side.s.Prolog}, {"epilog", side.s.Epilog}} {
			for _, n := range list.nodes {
				e.str("<" + list.tag + ">")
				e.content(n, "", false)
				e.str("</" + list.tag + ">")
			}
		}
		e.str("</" + side.tag + ">\n")
	}
	e.str("</outside>\n")
}

func (e *xmlEncoder) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *xmlEncoder) attr(name, value string) {
	e.str(" " + name + `="`)
	e.escape(value, true)
	e.str(`"`)
}

// The escapers of the encoder, byte-exact for encoding/xml and any
// conforming parser: carriage returns (and, in attributes, tabs and
// newlines) become hexadecimal character references, which are not
// normalised away; > is escaped in attributes too; a character XML cannot
// hold is an error.
var (
	textEscaper = xmltext.NewEscaper(xmltext.Text, xmltext.Options{HexRefs: true})
	attrEscaper = xmltext.NewEscaper(xmltext.Attr, xmltext.Options{HexRefs: true, EscapeGT: true})
)

// escape writes s as character data or an attribute value.
func (e *xmlEncoder) escape(s string, inAttr bool) {
	if e.err != nil {
		return
	}
	esc := textEscaper
	if inAttr {
		esc = attrEscaper
	}
	e.err = charError(s, esc.Escape(e.w, s))
}

// checkXMLChars reports a character that XML 1.0 cannot hold.
func checkXMLChars(s string) error {
	return charError(s, xmltext.Check(s))
}

// charError says where in s an *xmltext.CharError is; other errors it
// returns as they are.
func charError(s string, err error) error {
	var ce *xmltext.CharError
	switch {
	case !errors.As(err, &ce):
		return err
	case ce.Rune == utf8.RuneError:
		return fmt.Errorf("invalid UTF-8 at byte %d of %q", ce.Offset, clip(s))
	default:
		return fmt.Errorf("character %U at byte %d of %q is not allowed in XML", ce.Rune, ce.Offset, clip(s))
	}
}

func (e *xmlEncoder) op(op *Op) {
	e.str("<" + op.Kind.String())
	switch op.Kind {
	case Delete, Insert:
		e.attr("par", strconv.FormatUint(uint64(op.Parent), 10))
		e.attr("pos", strconv.Itoa(op.Pos))
		e.attr("xm", op.XIDs.String())
		if op.Move {
			e.attr("move", "yes")
		}
		if op.Update {
			e.attr("update", "yes")
		}
		// The default namespace at the content's place is declared on the
		// content's root, which the decoder is told is not its own
		// attribute; the operation, as the delta, is in no namespace.
		def, hasDef := op.Namespaces[""]
		if hasDef {
			if err := validateOpNamespaces(op); err != nil {
				if e.err == nil {
					e.err = err
				}
				return
			}
			e.attr(addedXmlns, "yes")
		}
		if len(op.Namespaces) > 0 {
			for _, p := range slices.Sorted(maps.Keys(op.Namespaces)) {
				if p != "" {
					e.attr("xmlns:"+p, op.Namespaces[p])
				}
			}
		}
		if op.Content == nil {
			e.str("/>\n")
			return
		}
		e.str(">")
		if op.Content.Kind == tree.Text {
			e.escape(op.Content.Value, false) // a text root needs no separator
		} else {
			e.content(op.Content, def, hasDef)
		}
		e.str("</" + op.Kind.String() + ">\n")
		return
	case AttrDelete:
		e.attr("xid", strconv.FormatUint(uint64(op.Node), 10))
		e.attr("a", op.Name)
		e.attr("v", op.OldValue)
	case AttrInsert:
		e.attr("xid", strconv.FormatUint(uint64(op.Node), 10))
		e.attr("a", op.Name)
		e.attr("v", op.NewValue)
	case AttrUpdate:
		e.attr("xid", strconv.FormatUint(uint64(op.Node), 10))
		e.attr("a", op.Name)
		e.attr("ov", op.OldValue)
		e.attr("nv", op.NewValue)
	case Rename:
		e.attr("xid", strconv.FormatUint(uint64(op.Node), 10))
		e.attr("ov", op.OldValue)
		e.attr("nv", op.NewValue)
	default:
		if e.err == nil {
			e.err = fmt.Errorf("unknown operation kind %d", op.Kind)
		}
	}
	e.str("/>\n")
}

// A comment or processing instruction whose text an XML comment or PI
// cannot hold (HTML comments may hold "--"; a PI's data may start with
// white space; neither keeps a carriage return) is written as one of these
// elements, with the text as its content.
// Likewise an element or attribute whose name is not a plain XML name (an
// HTML parser keeps names such as "<" or "@click"), or is one of these.
const (
	xyComment = "xy:comment"
	xyPI      = "xy:pi"      // with the target in a target attribute
	xyElement = "xy:element" // with the element's name in a name attribute
	xyAttr    = "xy:attr"    // a child of its element: name attribute, value as text
)

// xyNamespace is the namespace of the xy: elements above. Each declares it
// (xyDeclaration), so that the delta is namespace-well-formed; they are
// rare, and a declaration on the root would cost every delta's readers.
const (
	xyNamespace   = "urn:vigil:xydelta"
	xyDeclaration = ` xmlns:xy="` + xyNamespace + `"`
)

// undeclaredNamespace is the namespace an encoded delta binds a prefix to
// that its contents use and their documents do not declare (an HTML page
// may write <fb:like>), followed by the prefix: a namespace-aware reader
// needs one, and the decoder does not take it for the documents'.
const undeclaredNamespace = "urn:vigil:undeclared:"

// plainName reports whether name can be written as an XML name and read
// back the same by any parser: ASCII letters, digits, '_', '-', '.', and at
// most one ':' inside, starting with a letter or '_', and not reserved.
func plainName(name string) bool {
	if name == "" || name == xyComment || name == xyPI || name == xyElement || name == xyAttr {
		return false
	}
	colons := 0
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case c >= '0' && c <= '9', c == '-', c == '.':
			if i == 0 {
				return false
			}
		case c == ':':
			colons++
			if i == 0 || i == len(name)-1 || colons > 1 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// textSeparator ends a text node inside content when the next sibling is a
// text too, or when the text is empty: an empty CDATA section, which every
// XML parser reads as nothing, but which encoding/xml reports as a token of
// its own, so the decoder can tell two adjacent text nodes from one.
const textSeparator = "<![CDATA[]]>"

// content writes a subtree compactly, iteratively, and, if declare is
// set, a declaration of def as the default namespace on its root (an
// element, with no xmlns attribute of its own: see validateOpNamespaces).
func (e *xmlEncoder) content(root *tree.Node, def string, declare bool) {
	type frame struct {
		n    *tree.Node
		next int
	}
	stack := []frame{{root, -1}}
	for len(stack) > 0 && e.err == nil {
		top := &stack[len(stack)-1]
		n := top.n
		if top.next == -1 {
			top.next = 0
			switch n.Kind {
			case tree.Text:
				e.escape(n.Value, false)
				if n.Value == "" || len(stack) > 1 && nextIsText(stack[len(stack)-2].n, stack[len(stack)-2].next-1) {
					e.str(textSeparator)
				}
			case tree.Comment:
				if strings.Contains(n.Value, "--") || strings.HasSuffix(n.Value, "-") || strings.ContainsRune(n.Value, '\r') {
					// HTML allows what an XML comment cannot hold.
					e.str("<" + xyComment + xyDeclaration + ">")
					e.escape(n.Value, false)
					e.str("</" + xyComment + ">")
					break
				}
				e.str("<!--")
				e.escapeRaw(n.Value)
				e.str("-->")
			case tree.ProcInst:
				if strings.Contains(n.Value, "?>") || strings.TrimLeft(n.Value, " \t\r\n") != n.Value || strings.ContainsRune(n.Value, '\r') || !plainName(n.Name) || strings.EqualFold(n.Name, "xml") {
					e.str("<" + xyPI + xyDeclaration)
					e.attr("target", n.Name)
					e.str(">")
					e.escape(n.Value, false)
					e.str("</" + xyPI + ">")
					break
				}
				e.str("<?")
				e.escapeRaw(n.Name)
				if n.Value != "" {
					e.str(" ")
					e.escapeRaw(n.Value)
				}
				e.str("?>")
			case tree.Element:
				tag := n.Name
				if !elementAsName(n.Name) {
					tag = xyElement
				}
				e.str("<" + tag)
				if declare && n == root {
					e.attr(defaultNamespace, def)
				}
				if tag == xyElement {
					e.str(xyDeclaration)
					e.attr("name", n.Name)
				}
				// Attributes XML cannot hold in the tag are written as
				// children (see attrAsName).
				inTag := func(a tree.Attr) bool { return attrAsName(tag, a) }
				odd := 0
				for _, a := range n.Attrs {
					if inTag(a) {
						e.attr(a.Name, a.Value)
					} else {
						odd++
					}
				}
				if len(n.Children) == 0 && odd == 0 {
					e.str("/>")
					stack = stack[:len(stack)-1]
					continue
				}
				e.str(">")
				for _, a := range n.Attrs {
					if !inTag(a) {
						e.str("<" + xyAttr + xyDeclaration)
						e.attr("name", a.Name)
						e.str(">")
						e.escape(a.Value, false)
						e.str("</" + xyAttr + ">")
					}
				}
			default:
				e.err = fmt.Errorf("node of invalid kind %d", n.Kind)
			}
		}
		if n.Kind == tree.Element && top.next < len(n.Children) {
			c := n.Children[top.next]
			top.next++
			stack = append(stack, frame{c, -1})
			continue
		}
		if n.Kind == tree.Element {
			if elementAsName(n.Name) {
				e.str("</" + n.Name + ">")
			} else {
				e.str("</" + xyElement + ">")
			}
		}
		stack = stack[:len(stack)-1]
	}
}

// nextIsText reports whether child i+1 of p exists and is a text.
func nextIsText(p *tree.Node, i int) bool {
	return i+1 < len(p.Children) && p.Children[i+1].Kind == tree.Text
}

// escapeRaw writes a name, comment or PI text after checking its characters.
func (e *xmlEncoder) escapeRaw(s string) {
	if e.err == nil {
		if err := checkXMLChars(s); err != nil {
			e.err = err
			return
		}
		if strings.ContainsRune(s, '\r') {
			e.err = fmt.Errorf("a carriage return in %q cannot be kept in a comment, name or processing instruction", clip(s))
			return
		}
	}
	e.str(s)
}
