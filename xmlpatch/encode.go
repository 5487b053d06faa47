package xmlpatch

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/xmltext"
)

// textBoundary ends a text node inside content when the next sibling is a
// text too, and stands for an empty text node: an empty CDATA section,
// which any XML parser reads as nothing, but which the decoder reads as
// the boundary of a text node, as the delta package's codec does. A
// document read by a parser has neither adjacent nor empty text nodes,
// so a patch of two parsed versions holds none.
const textBoundary = "<![CDATA[]]>"

// Encode writes p as an XML document: the document element with its
// namespace declarations, one operation a line, each with its content
// written compactly and byte for byte (white space is content in RFC
// 5261). It fails, wrapping ErrInexpressible, on content that XML cannot
// hold.
func Encode(w io.Writer, p *Patch) error {
	e := &encoder{w: bufio.NewWriter(w)}
	root := p.Root
	if root == "" {
		root = DefaultRoot
	}
	if !elementName(root) {
		return fmt.Errorf("xml patch: root element name %q is not an XML name", root)
	}
	prefix, _ := splitQName(root)
	if root == prefix { // no colon
		prefix = ""
	}
	e.str("<" + root)
	e.decls(p.Namespaces)
	e.str(">\n")
	for i := range p.Ops {
		op := &p.Ops[i]
		name := op.Kind.String()
		if op.Kind < Add || op.Kind > Remove {
			return fmt.Errorf("xml patch: operation %d: unknown kind %d", i+1, op.Kind)
		}
		if prefix != "" {
			name = prefix + ":" + name
		}
		e.str("<" + name)
		e.attr("sel", op.Sel)
		if op.Pos != "" {
			e.attr("pos", op.Pos)
		}
		if op.Type != "" {
			e.attr("type", op.Type)
		}
		if op.WS != "" {
			e.attr("ws", op.WS)
		}
		e.decls(op.Namespaces)
		if len(op.Content) == 0 {
			e.str("/>\n")
		} else {
			e.str(">")
			e.nodes(op.Content)
			e.str("</" + name + ">\n")
		}
		if e.err != nil {
			return fmt.Errorf("xml patch: operation %d (<%s sel=%q>): %w", i+1, op.Kind, clip(op.Sel, 120), e.err)
		}
	}
	e.str("</" + root + ">\n")
	if e.err != nil {
		return fmt.Errorf("xml patch: %w", e.err)
	}
	return e.w.Flush()
}

type encoder struct {
	w   *bufio.Writer
	err error
}

func (e *encoder) str(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *encoder) fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("%w: "+format, append([]any{ErrInexpressible}, args...)...)
	}
}

func (e *encoder) decls(m map[string]string) {
	for _, k := range sortedKeys(m) {
		if k == "" {
			e.attr("xmlns", m[k])
		} else {
			e.attr("xmlns:"+k, m[k])
		}
	}
}

// The escapers of Encode write the characters a parser would not read
// back as they are as references: & and < and a carriage return
// everywhere, > in text (so that no ]]> stands there), and in an attribute
// value " and the white space a parser normalises; hexadecimal references;
// a character XML cannot hold is an error.
var (
	textEscaper = xmltext.NewEscaper(xmltext.Text, xmltext.Options{HexRefs: true})
	attrEscaper = xmltext.NewEscaper(xmltext.Attr, xmltext.Options{HexRefs: true})
)

// attr writes name="value".
func (e *encoder) attr(name, value string) {
	e.str(" " + name + `="`)
	e.escaped(value, attrEscaper)
	e.str(`"`)
}

// text writes character data byte for byte.
func (e *encoder) text(s string) {
	e.escaped(s, textEscaper)
}

// escaped writes s with esc, failing on a character XML cannot hold.
func (e *encoder) escaped(s string, esc *xmltext.Escaper) {
	if e.err != nil {
		return
	}
	err := esc.Escape(e.w, s)
	if ce := (*xmltext.CharError)(nil); errors.As(err, &ce) {
		e.fail("%v in %q", ce, clip(s, 40))
	} else {
		e.err = err
	}
}

// rawChars reports whether s can stand as it is in a comment or a
// processing instruction, failing if not: it must hold only characters
// XML allows, and no carriage return, which a parser reads as a line feed
// and which no reference can stand for there.
func (e *encoder) rawChars(s string) bool {
	if err := xmltext.Check(s); err != nil {
		e.fail("%v in %q", err, clip(s, 40))
		return false
	}
	if strings.ContainsRune(s, '\r') {
		e.fail("%q holds a carriage return, which a comment or processing instruction cannot keep", clip(s, 40))
		return false
	}
	return true
}

// nodes writes a list of sibling nodes and their subtrees, iteratively.
func (e *encoder) nodes(list []*tree.Node) {
	type frame struct {
		list []*tree.Node
		next int
		end  string // the end tag of the element whose children these are
	}
	stack := []frame{{list: list}}
	for len(stack) > 0 && e.err == nil {
		top := &stack[len(stack)-1]
		if top.next == len(top.list) {
			e.str(top.end)
			stack = stack[:len(stack)-1]
			continue
		}
		n := top.list[top.next]
		var prev *tree.Node
		if top.next > 0 {
			prev = top.list[top.next-1]
		}
		top.next++
		switch n.Kind {
		case tree.Text:
			if prev != nil && prev.Kind == tree.Text && prev.Value != "" {
				e.str(textBoundary) // ends the previous text
			}
			if n.Value == "" {
				e.str(textBoundary)
			} else {
				e.text(n.Value)
			}
		case tree.Comment:
			if strings.Contains(n.Value, "--") || strings.HasSuffix(n.Value, "-") {
				e.fail("comment %q holds \"--\" or ends with \"-\"", clip(n.Value, 40))
			} else if e.rawChars(n.Value) {
				e.str("<!--" + n.Value + "-->")
			}
		case tree.ProcInst:
			e.pi(n)
		case tree.Element:
			if !elementName(n.Name) {
				e.fail("element name %q is not an XML name", clip(n.Name, 40))
				continue
			}
			e.str("<" + n.Name)
			for _, a := range n.Attrs {
				e.checkAttr(a)
				e.attr(a.Name, a.Value)
			}
			if len(n.Children) == 0 {
				e.str("/>")
				continue
			}
			e.str(">")
			stack = append(stack, frame{list: n.Children, end: "</" + n.Name + ">"})
		default:
			e.fail("node of kind %s", n.Kind)
		}
	}
}

func (e *encoder) pi(n *tree.Node) {
	switch {
	case !isNCName(n.Name) || strings.EqualFold(n.Name, "xml"):
		e.fail("processing instruction target %q is not allowed", clip(n.Name, 40))
	case strings.Contains(n.Value, "?>"):
		e.fail("processing instruction data %q holds \"?>\"", clip(n.Value, 40))
	case n.Value != "" && strings.ContainsRune(" \t\r\n", rune(n.Value[0])):
		e.fail("processing instruction data %q starts with white space", clip(n.Value, 40))
	case !e.rawChars(n.Value):
	case n.Value == "":
		e.str("<?" + n.Name + "?>")
	default:
		e.str("<?" + n.Name + " " + n.Value + "?>")
	}
}

// checkAttr fails on an attribute XML's namespace rules do not allow.
func (e *encoder) checkAttr(a tree.Attr) {
	if !isQName(a.Name) {
		e.fail("attribute name %q is not an XML name", clip(a.Name, 40))
		return
	}
	p, ok := declaration(a.Name)
	switch {
	case !ok:
		if pre, _ := splitQName(a.Name); pre == "xmlns" {
			e.fail("attribute %q uses the xmlns prefix", a.Name)
		}
	case !validDeclaration(p, a.Value):
		e.fail("namespace declaration %s=%q is not allowed", a.Name, clip(a.Value, 40))
	}
}
