package xmlpatch

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/xmltext"
)

// Limits on what Decode accepts, so that a hostile patch cannot make it
// allocate without bound (beyond the size of its input, which the caller
// bounds).
const (
	// MaxOps is the most operations a patch may hold.
	MaxOps = 1 << 22
	// MaxDepth is the deepest the content of an operation may nest.
	MaxDepth = 1 << 20
)

// Decode reads a patch document: any document element (diff, or one the
// writer chose) whose element children are add, replace and remove
// operations, in any namespace, read by their local names. Errors are
// *SyntaxError values with the line and column of the offending token;
// their condition is InvalidDiffFormat, or InvalidNamespacePrefix for an
// undeclared prefix, InvalidEntityDeclaration for an undeclared entity or
// a DTD, InvalidCharacterSet for another encoding than UTF-8.
//
// Every prefix the patch uses must be declared in it; white space between
// operations is ignored, and the content of an operation is kept byte for
// byte. Attributes other than sel, pos, type, ws and namespace
// declarations are refused on an operation, except prefixed ones
// (extensions), which are ignored; their values are checked by Apply.
func Decode(r io.Reader) (*Patch, error) {
	cols := xmltext.NewColumnReader(r)
	d := &decoder{x: xml.NewDecoder(cols), cols: cols}
	d.x.Strict = true
	p, err := d.patch()
	if err != nil {
		return nil, err
	}
	return p, nil
}

type decoder struct {
	x         *xml.Decoder
	cols      *xmltext.ColumnReader // x's input, for columns in characters
	line, col int                   // where the current token starts
}

// inputPos is the decoder's position, its column in characters.
func (d *decoder) inputPos() (line, col int) {
	line, col = d.x.InputPos()
	return d.cols.Pos(line, col, d.x.InputOffset())
}

func (d *decoder) errorf(cond Condition, format string, args ...any) error {
	return &SyntaxError{Line: d.line, Column: d.col, Cond: cond, Msg: fmt.Sprintf(format, args...)}
}

// token returns the next token, with its position in d.line and d.col.
func (d *decoder) token() (xml.Token, error) {
	d.line, d.col = d.inputPos()
	t, err := d.x.RawToken()
	if err == nil {
		return t, nil
	}
	if err == io.EOF {
		return nil, d.errorf(InvalidDiffFormat, "unexpected end of the document")
	}
	var se *xml.SyntaxError
	msg := err.Error()
	if errors.As(err, &se) {
		msg = se.Msg
		d.line, d.col = d.inputPos()
	}
	cond := InvalidDiffFormat
	switch {
	case strings.Contains(msg, "entity"):
		cond = InvalidEntityDeclaration
	case strings.Contains(msg, "encoding"), strings.Contains(msg, "CharsetReader"):
		cond = InvalidCharacterSet
	}
	return nil, &SyntaxError{Line: d.line, Column: d.col, Cond: cond, Msg: msg}
}

func rawName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// attrs returns an element's attributes as written, refusing one given
// twice, and its namespace declarations.
func (d *decoder) attrs(t xml.StartElement) ([]tree.Attr, map[string]string, error) {
	if len(t.Attr) == 0 {
		return nil, nil, nil
	}
	out := make([]tree.Attr, 0, len(t.Attr))
	var decls map[string]string
	seen := make(map[string]bool, len(t.Attr))
	for _, a := range t.Attr {
		name := rawName(a.Name)
		if seen[name] {
			return nil, nil, d.errorf(InvalidDiffFormat, "<%s> has attribute %s twice", rawName(t.Name), name)
		}
		seen[name] = true
		if p, ok := declaration(name); ok {
			if !validDeclaration(p, a.Value) {
				return nil, nil, d.errorf(InvalidNamespaceURI, "namespace declaration %s=%q is not allowed", name, a.Value)
			}
			if decls == nil {
				decls = map[string]string{}
			}
			decls[p] = a.Value
		}
		out = append(out, tree.Attr{Name: name, Value: a.Value})
	}
	return out, decls, nil
}

// checkNames refuses a prefix the scope does not bind.
func (d *decoder) checkNames(s *scope, t xml.StartElement) error {
	check := func(prefix, name string) error {
		if prefix == "" || prefix == "xmlns" {
			return nil
		}
		if _, ok := s.lookup(prefix); !ok {
			return d.errorf(InvalidNamespacePrefix, "prefix %s of %s is not declared", prefix, name)
		}
		return nil
	}
	if err := check(t.Name.Space, rawName(t.Name)); err != nil {
		return err
	}
	for _, a := range t.Attr {
		if err := check(a.Name.Space, rawName(a.Name)); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) patch() (*Patch, error) {
	p := &Patch{}
	// Before the document element.
	var root xml.StartElement
	for {
		t, err := d.token()
		if err != nil {
			return nil, err
		}
		if done, err := d.outside(t); err != nil {
			return nil, err
		} else if done {
			continue
		}
		root = t.(xml.StartElement)
		break
	}
	p.Root = rawName(root.Name)
	_, decls, err := d.attrs(root)
	if err != nil {
		return nil, err
	}
	p.Namespaces = decls
	s := (*scope)(nil).declare(decls)
	if err := d.checkNames(s, root); err != nil {
		return nil, err
	}
	// The operations.
	for {
		t, err := d.token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			if len(p.Ops) >= MaxOps {
				return nil, d.errorf(InvalidDiffFormat, "more than %d operations", MaxOps)
			}
			op, err := d.op(s, t)
			if err != nil {
				return nil, err
			}
			p.Ops = append(p.Ops, *op)
		case xml.EndElement:
			if rawName(t.Name) != p.Root {
				return nil, d.errorf(InvalidDiffFormat, "</%s> closes <%s>", rawName(t.Name), p.Root)
			}
			return p, d.end()
		case xml.CharData:
			if len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
				return nil, d.errorf(InvalidDiffFormat, "text in <%s>: only operations belong there", p.Root)
			}
		case xml.Directive:
			return nil, d.errorf(InvalidDiffFormat, "<!%s> in <%s>", clip(string(t), 20), p.Root)
		}
		// Comments and processing instructions between operations are
		// ignored.
	}
}

// outside handles a token before the document element: it returns true
// for one that is allowed there, false for the start of the document
// element, and an error for anything else.
func (d *decoder) outside(t xml.Token) (bool, error) {
	switch t := t.(type) {
	case xml.StartElement:
		return false, nil
	case xml.CharData:
		if len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
			return false, d.errorf(InvalidDiffFormat, "text outside the document element")
		}
	case xml.Directive:
		if bytes.ContainsRune(t, '[') || !bytes.HasPrefix(t, []byte("DOCTYPE")) {
			return false, d.errorf(InvalidEntityDeclaration, "a DTD with declarations is not read")
		}
	case xml.EndElement:
		return false, d.errorf(InvalidDiffFormat, "unexpected </%s>", rawName(t.Name))
	}
	return true, nil
}

// end reads what follows the document element: comments, processing
// instructions and white space only.
func (d *decoder) end() error {
	for {
		d.line, d.col = d.inputPos()
		t, err := d.x.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return d.errorf(InvalidDiffFormat, "%v", err)
		}
		switch t := t.(type) {
		case xml.Comment, xml.ProcInst:
		case xml.CharData:
			if len(bytes.TrimLeft(t, " \t\r\n")) > 0 {
				return d.errorf(InvalidDiffFormat, "content after the document element")
			}
		default:
			return d.errorf(InvalidDiffFormat, "content after the document element")
		}
	}
}

// op reads an operation element and its content.
func (d *decoder) op(s *scope, t xml.StartElement) (*Op, error) {
	op := &Op{Line: d.line, Column: d.col}
	switch t.Name.Local {
	case "add":
		op.Kind = Add
	case "replace":
		op.Kind = Replace
	case "remove":
		op.Kind = Remove
	default:
		return nil, d.errorf(InvalidDiffFormat, "<%s> is not an operation (add, replace or remove)", rawName(t.Name))
	}
	_, decls, err := d.attrs(t)
	if err != nil {
		return nil, err
	}
	op.Namespaces = decls
	s = s.declare(decls)
	if err := d.checkNames(s, t); err != nil {
		return nil, err
	}
	hasSel := false
	for _, a := range t.Attr {
		name := rawName(a.Name)
		switch {
		case name == "sel":
			op.Sel, hasSel = a.Value, true
		case name == "pos" && op.Kind == Add:
			op.Pos = a.Value
		case name == "type" && op.Kind == Add:
			op.Type = a.Value
		case name == "ws" && op.Kind == Remove:
			op.WS = a.Value
		case name == "xmlns", a.Name.Space != "":
			// A namespace declaration, or an extension.
		default:
			return nil, d.errorf(InvalidDiffFormat, "<%s> has no attribute %s", rawName(t.Name), name)
		}
	}
	if !hasSel {
		return nil, d.errorf(InvalidDiffFormat, "<%s> needs attribute sel", rawName(t.Name))
	}
	content, err := d.content(s, rawName(t.Name))
	if err != nil {
		return nil, err
	}
	if op.Kind == Remove {
		if _, ok := text(content); !ok || strings.TrimLeft(textOf(content), " \t\r\n") != "" {
			return nil, d.errorf(InvalidDiffFormat, "<%s> has content: a remove has none", rawName(t.Name))
		}
		content = nil
	}
	op.Content = content
	return op, nil
}

func textOf(nodes []*tree.Node) string {
	s, _ := text(nodes)
	return s
}

// content reads the children of an operation element up to its end tag,
// iteratively. A text node is extended by the character data that
// follows it, up to an empty CDATA section (textBoundary), which ends it
// or, where no text is open, stands for an empty text node.
func (d *decoder) content(s *scope, opName string) ([]*tree.Node, error) {
	type frame struct {
		n     *tree.Node // nil for the operation element
		name  string
		scope *scope
	}
	root := &tree.Node{Kind: tree.Element}
	stack := []frame{{root, opName, s}}
	open := false // the last child of the top is a text that continues
	for {
		t, err := d.token()
		if err != nil {
			return nil, err
		}
		top := &stack[len(stack)-1]
		switch t := t.(type) {
		case xml.StartElement:
			open = false
			if len(stack) > MaxDepth {
				return nil, d.errorf(InvalidDiffFormat, "content nested deeper than %d", MaxDepth)
			}
			attrs, _, err := d.attrs(t)
			if err != nil {
				return nil, err
			}
			sc := top.scope.push(attrs)
			if err := d.checkNames(sc, t); err != nil {
				return nil, err
			}
			n := &tree.Node{Kind: tree.Element, Name: rawName(t.Name), Attrs: attrs}
			top.n.AppendChild(n)
			stack = append(stack, frame{n, n.Name, sc})
		case xml.EndElement:
			open = false
			if rawName(t.Name) != top.name {
				return nil, d.errorf(InvalidDiffFormat, "</%s> closes <%s>", rawName(t.Name), top.name)
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				kids := root.Children
				for _, c := range kids {
					c.Parent = nil
				}
				return kids, nil
			}
		case xml.CharData:
			kids := top.n.Children
			switch {
			case len(t) > 0 && open:
				last := kids[len(kids)-1]
				last.Value += string(t)
			case len(t) > 0:
				top.n.AppendChild(&tree.Node{Kind: tree.Text, Value: string(t)})
				open = true
			case open:
				open = false
			default:
				top.n.AppendChild(&tree.Node{Kind: tree.Text})
			}
		case xml.Comment:
			open = false
			top.n.AppendChild(&tree.Node{Kind: tree.Comment, Value: string(t)})
		case xml.ProcInst:
			open = false
			if strings.EqualFold(t.Target, "xml") {
				return nil, d.errorf(InvalidDiffFormat, "an XML declaration inside an operation")
			}
			top.n.AppendChild(&tree.Node{Kind: tree.ProcInst, Name: t.Target, Value: strings.TrimLeft(string(t.Inst), " \t\r\n")})
		case xml.Directive:
			return nil, d.errorf(InvalidDiffFormat, "<!%s> inside an operation", clip(string(t), 20))
		}
	}
}
