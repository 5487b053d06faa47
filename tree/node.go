package tree

// Kind is the kind of a node.
type Kind uint8

// The kinds of nodes. The zero Kind is invalid.
const (
	Element  Kind = iota + 1 // an element, with a name, attributes and children
	Text                     // character data (CDATA sections become text)
	Comment                  // a comment; Value holds its text
	ProcInst                 // a processing instruction; Name is the target, Value the data
)

// String returns the name of the kind.
func (k Kind) String() string {
	switch k {
	case Element:
		return "element"
	case Text:
		return "text"
	case Comment:
		return "comment"
	case ProcInst:
		return "processing-instruction"
	}
	return "invalid"
}

// Attr is an attribute of an element. Name is the qualified name as written
// (prefix:local); namespace declarations are attributes named xmlns or
// xmlns:prefix.
type Attr struct {
	Name  string
	Value string
}

// Node is a node of a document tree. Text, comment and processing-instruction
// nodes have no children and no attributes.
type Node struct {
	Kind Kind
	// Post is the node's 1-based post-order rank in the subtree last passed
	// to Flatten (or built by Flat.Subtree: its index there plus one).
	// Algorithms use it to index per-node arrays; it is
	// scratch state, not part of the document's content. (It sits next to
	// Kind so that the two share one word.)
	Post int32

	Name     string // element name or processing-instruction target
	Value    string // text, comment or processing-instruction data
	Attrs    []Attr
	Parent   *Node
	Children []*Node
	XID      XID // persistent identifier; 0 when not assigned
}

// IsLeaf reports whether n cannot have children (text, comment, PI).
func (n *Node) IsLeaf() bool { return n.Kind != Element }

// Attr returns the value of the attribute called name and whether it exists.
func (n *Node) Attr(name string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// SetAttr sets the attribute called name, appending it if it is new.
func (n *Node) SetAttr(name, value string) {
	for i := range n.Attrs {
		if n.Attrs[i].Name == name {
			n.Attrs[i].Value = value
			return
		}
	}
	n.Attrs = append(n.Attrs, Attr{Name: name, Value: value})
}

// RemoveAttr removes the attribute called name and reports whether it existed.
func (n *Node) RemoveAttr(name string) bool {
	for i := range n.Attrs {
		if n.Attrs[i].Name == name {
			n.Attrs = append(n.Attrs[:i:i], n.Attrs[i+1:]...)
			return true
		}
	}
	return false
}

// Index returns the 0-based position of n among its parent's children, or -1
// for a root. It costs O(number of siblings). n.Parent's children must hold
// n, as in every tree the parsers, the decoders and Clone build: a node
// whose Parent link its parent does not return is a bug of the code that
// linked it, and Index panics on it, as indexing a slice out of range does.
func (n *Node) Index() int {
	if n.Parent == nil {
		return -1
	}
	for i, c := range n.Parent.Children {
		if c == n {
			return i
		}
	}
	panic("tree: node not among its parent's children")
}

// Indexes gives the positions of nodes among their parents' children, as
// Index does, numbering all of a parent's children the first time one of
// them is asked for: Index scans the siblings at every call, which takes
// time quadratic in a list's length to place each of its items. The zero
// value is ready to use; the tree must not change while it is in use.
type Indexes struct {
	pos map[*Node]int
}

// Of returns the 0-based position of n among its parent's children, or -1
// for a root. n.Parent's children must hold n, as for Index.
func (x *Indexes) Of(n *Node) int {
	if n.Parent == nil {
		return -1
	}
	if i, ok := x.pos[n]; ok {
		return i
	}
	if x.pos == nil {
		x.pos = map[*Node]int{}
	}
	for i, c := range n.Parent.Children {
		x.pos[c] = i
	}
	if i, ok := x.pos[n]; ok {
		return i
	}
	panic("tree: node not among its parent's children")
}

// AppendChild adds c as the last child of n. c must not have a parent.
func (n *Node) AppendChild(c *Node) {
	c.Parent = n
	n.Children = append(n.Children, c)
}

// InsertChild inserts c so that it becomes child number i (0-based) of n.
// It panics if i is out of range, like a slice index.
func (n *Node) InsertChild(i int, c *Node) {
	c.Parent = n
	n.Children = append(n.Children, nil)
	copy(n.Children[i+1:], n.Children[i:])
	n.Children[i] = c
}

// RemoveChild removes and returns child number i (0-based) of n.
func (n *Node) RemoveChild(i int) *Node {
	c := n.Children[i]
	copy(n.Children[i:], n.Children[i+1:])
	n.Children[len(n.Children)-1] = nil
	n.Children = n.Children[:len(n.Children)-1]
	c.Parent = nil
	return c
}

// DropDetached removes from n's children those whose Parent is no longer n,
// keeping the others in order. A caller that takes many children out of a
// long list clears their Parent and calls it once, where RemoveChild would
// shift the rest of the list at every removal.
func (n *Node) DropDetached() {
	kept := n.Children[:0]
	for _, c := range n.Children {
		if c.Parent == n {
			kept = append(kept, c)
		}
	}
	clear(n.Children[len(kept):])
	n.Children = kept
}

// Text returns the concatenated text of all text nodes in n's subtree, in
// document order.
func (n *Node) Text() string {
	if n.Kind == Text {
		return n.Value
	}
	var b []byte
	Walk(n, func(m *Node) bool {
		if m.Kind == Text {
			b = append(b, m.Value...)
		}
		return true
	})
	return string(b)
}

// Size returns the number of nodes in n's subtree, n included.
func (n *Node) Size() int {
	size := 0
	Walk(n, func(*Node) bool { size++; return true })
	return size
}
