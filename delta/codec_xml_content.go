package delta

import (
	"encoding/xml"

	"github.com/vigil-web/vigil/tree"
)

// The content of an XyDelta XML operation: the subtree inside a <d> or
// <i>, read into a tree.Node.

// content reads the subtree inside a <d> or <i>, up to its end tag, and
// returns its root: nil when there is nothing but white space around no
// node and no text; a text node when there is only text (kept byte-exact);
// otherwise the one element, comment or processing instruction, white space
// around it being layout.
func (dec *xmlDecoder) content(start xml.StartElement) (*tree.Node, error) {
	top := &tree.Node{Kind: tree.Element} // collects the top-level nodes
	stack := []*tree.Node{top}
	tags := []string{qname(start.Name)} // the tag that closes each stack entry
	var text []byte
	pending := false
	flush := func() {
		if pending {
			stack[len(stack)-1].AppendChild(dec.arena.NewNode(tree.Text, "", string(text)))
		}
		text, pending = text[:0], false
	}
	for {
		t, err := dec.token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.CharData:
			if len(t) == 0 { // the text separator
				pending = true
				flush()
				continue
			}
			text = append(text, t...)
			pending = true
		case xml.StartElement:
			flush()
			if err := dec.attrsOnce(t); err != nil {
				return nil, err
			}
			tag := qname(t.Name)
			switch tag {
			case xyComment, xyPI:
				n, err := dec.escapedLeaf(t)
				if err != nil {
					return nil, err
				}
				stack[len(stack)-1].AppendChild(n)
				continue
			case xyAttr:
				if len(stack) == 1 {
					return nil, dec.errorf("<%s> outside an element", xyAttr)
				}
				a, err := dec.escapedLeaf(t)
				if err != nil {
					return nil, err
				}
				p := stack[len(stack)-1]
				p.Attrs = append(p.Attrs, tree.Attr{Name: a.Name, Value: a.Value})
				continue
			}
			if len(stack) > MaxContentDepth {
				return nil, dec.errorf("content nested deeper than %d", MaxContentDepth)
			}
			n := dec.arena.NewElement(tag)
			named := false // an xy:element's name, which may be "xy:element" itself
			for _, a := range t.Attr {
				if tag == xyElement && (qname(a.Name) == "name" || isXYDeclaration(a)) {
					if qname(a.Name) == "name" {
						n.Name, named = a.Value, true
					}
					continue
				}
				n.Attrs = append(n.Attrs, tree.Attr{Name: qname(a.Name), Value: a.Value})
			}
			if tag == xyElement && (!named || n.Name == "") {
				return nil, dec.errorf("<%s> needs a name", xyElement)
			}
			stack[len(stack)-1].AppendChild(n)
			stack = append(stack, n)
			tags = append(tags, tag)
		case xml.EndElement:
			flush()
			if qname(t.Name) != tags[len(tags)-1] {
				if len(stack) == 1 {
					return nil, dec.errorf("unexpected </%s>, want </%s>", qname(t.Name), tags[0])
				}
				return nil, dec.errorf("</%s> closes <%s>", qname(t.Name), tags[len(tags)-1])
			}
			if len(stack) == 1 {
				return dec.contentRoot(top)
			}
			stack, tags = stack[:len(stack)-1], tags[:len(tags)-1]
		case xml.Comment:
			flush()
			stack[len(stack)-1].AppendChild(dec.arena.NewNode(tree.Comment, "", string(t)))
		case xml.ProcInst:
			flush()
			stack[len(stack)-1].AppendChild(dec.arena.NewNode(tree.ProcInst, t.Target, string(t.Inst)))
		case xml.Directive:
			return nil, dec.errorf("a directive <!%s> in content", clip(string(t)))
		}
	}
}

// isXYDeclaration reports whether a is an xy: element's declaration of
// its namespace (xyDeclaration).
func isXYDeclaration(a xml.Attr) bool {
	return a.Name.Space == "xmlns" && a.Name.Local == "xy" && a.Value == xyNamespace
}

// escapedLeaf reads an <xy:comment>, <xy:pi> or <xy:attr> up to its end
// (an attribute comes back as a node with its name and value).
func (dec *xmlDecoder) escapedLeaf(start xml.StartElement) (*tree.Node, error) {
	n := &tree.Node{Kind: tree.Comment}
	if tag := qname(start.Name); tag != xyComment {
		n.Kind = tree.ProcInst
		key := "target"
		if tag == xyAttr {
			key = "name"
		}
		for _, a := range start.Attr {
			if qname(a.Name) == key {
				n.Name = a.Value
			}
		}
		if n.Name == "" {
			return nil, dec.errorf("<%s> needs a %s", tag, key)
		}
	}
	var text []byte
	for {
		t, err := dec.token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.CharData:
			text = append(text, t...)
		case xml.EndElement:
			if t.Name != start.Name {
				return nil, dec.errorf("unexpected </%s>", qname(t.Name))
			}
			n.Value = string(text)
			return n, nil
		default:
			return nil, dec.errorf("<%s> holds only text", qname(start.Name))
		}
	}
}

func (dec *xmlDecoder) contentRoot(top *tree.Node) (*tree.Node, error) {
	var root *tree.Node
	texts := 0
	for _, c := range top.Children {
		if c.Kind != tree.Text {
			if root != nil {
				return nil, dec.errorf("content holds more than one subtree")
			}
			root = c
			continue
		}
		texts++
	}
	if root == nil {
		switch texts {
		case 0:
			return nil, nil
		case 1:
			c := top.Children[0]
			c.Parent = nil
			return c, nil
		}
		return nil, dec.errorf("content holds more than one text")
	}
	for _, c := range top.Children {
		if c.Kind == tree.Text && !isSpace([]byte(c.Value)) {
			return nil, dec.errorf("content holds text beside its subtree")
		}
	}
	root.Parent = nil
	return root, nil
}
