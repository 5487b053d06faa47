package tree

import (
	"fmt"
	"slices"
	"strings"
)

// Flat is a document tree laid out in post-order arrays, indexed by a node's
// post-order position: node i's subtree is the range [i-Size[i]+1, i], the
// root is the last node, and a node's children are the subtrees that end
// just before it.
//
// It is the form the diff works on. A *Node costs 104 bytes and a pointer
// in its parent's Children; a node here costs about 30 (and 4 more as a
// child of a node with many, whose list of children it keeps) and holds no
// pointer (the values are one string, each node's the range up to its
// end offset), and its neighbours are its neighbours in memory: on a
// document of ten megabytes that is the difference between a working set
// that stays in the processor's cache and one that does not, and between a
// parse the garbage collector scans and one it barely sees. A Flat keeps
// nothing of its input: the buffer a document was parsed from can be freed
// once it is built. The XML parser builds a Flat directly
// (markup.ParseXMLFlat); Flatten builds one from a *Node tree, and
// Document or Subtree build *Node trees back.
type Flat struct {
	Kind []Kind
	// Size is the number of nodes in each node's subtree, Parent the index
	// of its parent (-1 for the root), Pos its 0-based index among its
	// siblings.
	Size, Parent, Pos []int32
	// XID holds the nodes' XIDs; nil while the document has none.
	XID []XID
	// NextXID, IDAttrs, Prolog, Doctype, DoctypeAfter, Epilog and HTML
	// are the Document's.
	NextXID      XID
	IDAttrs      map[string]string
	Prolog       []*Node
	Doctype      string
	DoctypeAfter int
	Epilog       []*Node
	HTML         bool

	name     []int32  // index into names of each node's name
	names    []string // the distinct names, names[0] == ""
	text     string   // the values, one after the other
	valueEnd []uint32 // node i's value is text[valueEnd[i-1]:valueEnd[i]]
	attrEnd  []int32  // node i's attributes are attrs[attrEnd[i-1]:attrEnd[i]]
	attrs    []Attr
	// attrNames holds the distinct names of attrs, each its own key.
	attrNames map[string]string
	// wide holds the children, in document order, of each node that has
	// at least wideFanout of them (see ChildList), but for a node closed
	// over children that had a parent already (see FlatBuilder.add).
	wide map[int32][]int32
}

// wideFanout is the number of children from which a node's list of them
// is kept (Flat.wide), not found again by each ChildList. Found, the list
// is a chain of dependent reads of Size, a subtree apart: for the root of
// a 10 MB document of 71 000 records, 45 000 cache lines, each read only
// once the one before has come, from main memory where Size is larger than
// the processor's cache; the diff asks for it a dozen times.
const wideFanout = 32

// maxText is the most text a Flat holds in its values, and in its attribute
// values: their offsets are 32-bit.
const maxText = 1<<32 - 1

// Value returns the value of node i: the data of a text, comment or
// processing instruction, "" for an element.
func (f *Flat) Value(i int32) string {
	start := uint32(0)
	if i > 0 {
		start = f.valueEnd[i-1]
	}
	return f.text[start:f.valueEnd[i]]
}

// Len returns the number of nodes.
func (f *Flat) Len() int { return len(f.Kind) }

// Root returns the index of the root: the last node.
func (f *Flat) Root() int32 { return int32(len(f.Kind) - 1) }

// Name returns the name of node i: an element's name or a processing
// instruction's target, "" for other nodes.
func (f *Flat) Name(i int32) string { return f.names[f.name[i]] }

// NameID returns the index of node i's name among Names: equal names have
// equal indexes within one Flat.
func (f *Flat) NameID(i int32) int32 { return f.name[i] }

// Names returns the distinct names of the document, indexed by NameID; the
// first is "".
func (f *Flat) Names() []string { return f.names }

// Attrs returns the attributes of node i, in document order. The slice is
// shared: do not modify it.
func (f *Flat) Attrs(i int32) []Attr {
	start := int32(0)
	if i > 0 {
		start = f.attrEnd[i-1]
	}
	return f.attrs[start:f.attrEnd[i]:f.attrEnd[i]]
}

// HasAttrNamed reports whether some node of f has an attribute called
// name: a look in the names the builder interned, where a pass over the
// attributes would read them all (a stream of megabytes on a large
// document, which the diff's delta asks of both versions).
func (f *Flat) HasAttrNamed(name string) bool {
	_, ok := f.attrNames[name]
	return ok
}

// Attr returns the value of node i's attribute called name and whether it
// exists.
func (f *Flat) Attr(i int32, name string) (string, bool) {
	for _, a := range f.Attrs(i) {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Children calls visit with the index of each child of node i, last child
// first.
func (f *Flat) Children(i int32, visit func(c int32)) {
	for c, start := i-1, i-f.Size[i]; c > start; c -= f.Size[c] {
		visit(c)
	}
}

// keptChildren returns the list the Flat keeps of the children of node i,
// if it keeps one (f.wide): only a node of more than wideFanout nodes may
// have one, and the others are spared the look-up.
func (f *Flat) keptChildren(i int32) ([]int32, bool) {
	if f.wide == nil || f.Size[i] <= wideFanout {
		return nil, false
	}
	kids, ok := f.wide[i]
	return kids, ok
}

// AppendChildren appends the indexes of the children of node i to buf,
// last child first as Children visits them, and returns the extended
// buffer. Unlike Children, it copies the list the Flat keeps of the
// children of a node that has many (wideFanout), making room for them
// first.
func (f *Flat) AppendChildren(buf []int32, i int32) []int32 {
	if kids, ok := f.keptChildren(i); ok {
		buf = slices.Grow(buf, len(kids))
		for k := len(kids) - 1; k >= 0; k-- {
			buf = append(buf, kids[k])
		}
		return buf
	}
	for c, start := i-1, i-f.Size[i]; c > start; c -= f.Size[c] {
		buf = append(buf, c)
	}
	return buf
}

// ChildCount returns the number of children of node i: one more than the
// position of its last child.
func (f *Flat) ChildCount(i int32) int {
	if f.Size[i] == 1 {
		return 0
	}
	return int(f.Pos[i-1]) + 1
}

// ChildList returns the indexes of the children of node i in document
// order, appended to buf[:0]: a copy of the list the Flat keeps for a node
// with many children (wideFanout), found by walking Size otherwise.
func (f *Flat) ChildList(i int32, buf []int32) []int32 {
	if kids, ok := f.keptChildren(i); ok {
		return append(buf[:0], kids...)
	}
	// Fewer than wideFanout: gathered last first, then reversed.
	buf = f.AppendChildren(buf[:0], i)
	slices.Reverse(buf)
	return buf
}

// FlatBuilder builds a Flat node by node in post-order: a leaf when it is
// read, an element when it closes. The zero value is ready to use. It
// copies every string it is given, so that the Flat keeps nothing of the
// caller's buffers.
type FlatBuilder struct {
	f     Flat
	text  strings.Builder  // the values
	atext strings.Builder  // the attribute values
	ids   map[string]int32 // element names, by index in f.names
	last  string           // the name interned last, and its index: runs of one name
	lastI int32
	// attrNames interns attribute names; attrs holds the attributes until
	// atext is complete, their values as ranges of it.
	attrNames map[string]string
	attrs     []flatAttr
	tooLong   bool // text or atext passed maxText
}

type flatAttr struct {
	name       string
	start, end uint32
}

// Grow makes room for about n more nodes, attrs more attributes and text
// more bytes of values, so that a caller who knows the size of its input
// can avoid growing the arrays step by step.
func (b *FlatBuilder) Grow(n, attrs, text int) {
	f := &b.f
	b.attrs = slices.Grow(b.attrs, attrs)
	f.Kind = slices.Grow(f.Kind, n)
	f.valueEnd = slices.Grow(f.valueEnd, n)
	f.Size = slices.Grow(f.Size, n)
	f.Parent = slices.Grow(f.Parent, n)
	f.Pos = slices.Grow(f.Pos, n)
	f.name = slices.Grow(f.name, n)
	f.attrEnd = slices.Grow(f.attrEnd, n)
	b.text.Grow(text)
}

// Len returns the number of nodes added so far: the index the next node
// will have. An element's Mark is the Len before its first child.
func (b *FlatBuilder) Len() int32 { return int32(len(b.f.Kind)) }

// intern returns the index of name in the names table.
func (b *FlatBuilder) intern(name string) int32 {
	if name == "" {
		return 0
	}
	if name == b.last && b.lastI > 0 {
		return b.lastI
	}
	if b.ids == nil {
		b.ids = make(map[string]int32)
		b.f.names = append(b.f.names[:0], "")
	}
	id, ok := b.ids[name]
	if !ok {
		name = strings.Clone(name)
		id = int32(len(b.f.names))
		b.f.names = append(b.f.names, name)
		b.ids[name] = id
	}
	b.last, b.lastI = b.f.names[id], id
	return id
}

// internAttr returns a copy of the attribute name, one per distinct name.
func (b *FlatBuilder) internAttr(name string) string {
	if b.attrNames == nil {
		b.attrNames = make(map[string]string)
	}
	c, ok := b.attrNames[name]
	if !ok {
		c = strings.Clone(name)
		b.attrNames[c] = c
	}
	return c
}

// appendText adds s to t and returns its end offset.
func (b *FlatBuilder) appendText(t *strings.Builder, s string) uint32 {
	if t.Len()+len(s) > maxText {
		b.tooLong = true
		return uint32(t.Len())
	}
	t.WriteString(s)
	return uint32(t.Len())
}

// Leaf adds a text, comment or processing-instruction node.
func (b *FlatBuilder) Leaf(kind Kind, name, value string) {
	b.add(kind, b.Len(), name, value, nil)
}

// Element adds an element whose children are the nodes added since mark
// (the builder's Len when the element opened), with a copy of attrs.
func (b *FlatBuilder) Element(mark int32, name string, attrs []Attr) {
	b.add(Element, mark, name, "", attrs)
}

// add adds a node of any kind whose children are the nodes added since
// mark.
func (b *FlatBuilder) add(kind Kind, mark int32, name, value string, attrs []Attr) {
	f := &b.f
	i := int32(len(f.Kind))
	mark = min(max(mark, 0), i)
	f.Kind = append(f.Kind, kind)
	f.valueEnd = append(f.valueEnd, b.appendText(&b.text, value))
	f.name = append(f.name, b.intern(name))
	f.Size = append(f.Size, i-mark+1)
	f.Parent = append(f.Parent, -1)
	f.Pos = append(f.Pos, 0)
	for _, a := range attrs {
		start := uint32(b.atext.Len())
		b.attrs = append(b.attrs, flatAttr{b.internAttr(a.Name), start, b.appendText(&b.atext, a.Value)})
	}
	f.attrEnd = append(f.attrEnd, int32(len(b.attrs)))
	// The children are the subtrees ending just before i, from the last
	// back: count them, then number them.
	n := int32(0)
	for c := i - 1; c >= mark; c -= f.Size[c] {
		n++
	}
	var kids []int32
	if n >= wideFanout {
		kids = make([]int32, n)
	}
	for c := i - 1; c >= mark; c -= f.Size[c] {
		n--
		if kids != nil {
			// Not kept where a child has a parent already: elements
			// closed out of order (the builder does not check), whose
			// lists could hold a node many times over.
			if f.Parent[c] >= 0 {
				kids = nil
			} else {
				kids[n] = c
			}
		}
		f.Parent[c], f.Pos[c] = i, n
	}
	if kids != nil {
		if f.wide == nil {
			f.wide = make(map[int32][]int32)
		}
		f.wide[i] = kids
	}
}

// Flat returns the tree built, which must have exactly one root, and
// resets the builder.
func (b *FlatBuilder) Flat() (*Flat, error) {
	f, text, atext, attrs, tooLong := b.f, b.text.String(), b.atext.String(), b.attrs, b.tooLong
	f.attrNames = b.attrNames
	if b.text.Cap() > len(text)+len(text)/4+4096 {
		// Grow was told of more text than came (markup is most of the
		// input): keep only what is used.
		text = strings.Clone(text)
	}
	*b = FlatBuilder{}
	if len(f.Kind) == 0 || int(f.Size[len(f.Size)-1]) != len(f.Kind) {
		return nil, fmt.Errorf("tree: a flat tree needs exactly one root")
	}
	if tooLong {
		return nil, fmt.Errorf("tree: a flat tree holds at most %d bytes of values", int64(maxText))
	}
	if f.names == nil {
		f.names = []string{""}
	}
	if cap(f.Kind) > 2*len(f.Kind)+4096 {
		// Grow was told far more nodes than came (a document of CDATA
		// full of '<'): keep only what is used.
		f.Kind, f.valueEnd, f.Size, f.Parent, f.Pos = slices.Clone(f.Kind), slices.Clone(f.valueEnd), slices.Clone(f.Size), slices.Clone(f.Parent), slices.Clone(f.Pos)
		f.name, f.attrEnd = slices.Clone(f.name), slices.Clone(f.attrEnd)
	}
	f.text = text
	f.attrs = make([]Attr, len(attrs))
	for k, a := range attrs {
		f.attrs[k] = Attr{Name: a.name, Value: atext[a.start:a.end]}
	}
	return &f, nil
}

// Flatten lays out the subtree of n as a Flat and returns it with the nodes
// in post-order, each with its Post set to its index plus one. The Flat has
// the nodes' XIDs if n has one. Values and attribute strings are copied.
func Flatten(n *Node) (*Flat, []*Node) {
	// Counting first sizes every per-node array once (growing them by
	// doubling cost a third of the time of a diff of Documents), and the
	// values and attribute values too: grown as they came, each step a
	// copy of the text so far into fresh memory, they cost the tree
	// differ of a large page about as much as parsing it.
	size, attrs, text, atext := 0, 0, 0, 0
	Walk(n, func(m *Node) bool {
		size++
		text += len(m.Value)
		attrs += len(m.Attrs)
		for _, a := range m.Attrs {
			atext += len(a.Value)
		}
		return true
	})
	var b FlatBuilder
	b.Grow(size, attrs, min(text, maxText))
	b.atext.Grow(min(atext, maxText))
	nodes := make([]*Node, 0, size)
	type frame struct {
		node *Node
		next int
		mark int32
	}
	stack := []frame{{node: n}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.node.Children) {
			c := top.node.Children[top.next]
			top.next++
			if len(c.Children) > 0 {
				stack = append(stack, frame{node: c, mark: b.Len()})
			} else {
				c.Post = b.Len() + 1
				nodes = append(nodes, c)
				b.add(c.Kind, b.Len(), c.Name, c.Value, c.Attrs)
			}
			continue
		}
		// Any node with children, an element or not (a tree built by
		// hand may hang children under a text node), keeps them.
		m := top.node
		m.Post = b.Len() + 1
		nodes = append(nodes, m)
		b.add(m.Kind, top.mark, m.Name, m.Value, m.Attrs)
		stack = stack[:len(stack)-1]
	}
	f, _ := b.Flat() // one root by construction
	if n.XID != 0 {
		f.XID = make([]XID, len(nodes))
		for i, m := range nodes {
			f.XID[i] = m.XID
		}
	}
	return f, nodes
}

// FlattenDocument is Flatten of d's root, with d's NextXID, IDAttrs,
// prolog, DOCTYPE, epilog and HTML.
func FlattenDocument(d *Document) (*Flat, []*Node) {
	f, nodes := Flatten(d.Root)
	f.NextXID, f.IDAttrs, f.Prolog, f.Doctype, f.DoctypeAfter, f.Epilog, f.HTML = d.NextXID, d.IDAttrs, d.Prolog, d.Doctype, d.DoctypeAfter, d.Epilog, d.HTML
	return f, nodes
}

// Subtree builds node i's subtree as *Node values allocated from arena,
// leaving out every proper descendant for which skip (when not nil)
// returns true, with its subtree. Each node gets its XID (when the Flat has
// XIDs) and its Post set to its index in f plus one.
func (f *Flat) Subtree(i int32, arena *Document, skip func(int32) bool) *Node {
	type frame struct {
		src int32
		dst *Node
	}
	root := f.newNode(arena, i)
	if f.Size[i] == 1 {
		return root // a leaf, as most updated or moved nodes are
	}
	// Most subtrees built are small: their stack and child lists stay in
	// these buffers, off the heap.
	var stackBuf [32]frame
	var kidsBuf [32]int32
	stack := append(stackBuf[:0], frame{i, root})
	kids := kidsBuf[:0]
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids = f.ChildList(fr.src, kids)
		if skip != nil {
			kept := kids[:0]
			for _, c := range kids {
				if !skip(c) {
					kept = append(kept, c)
				}
			}
			kids = kept
		}
		if len(kids) == 0 {
			continue
		}
		// The children in one allocation of their exact number.
		fr.dst.Children = make([]*Node, len(kids))
		start := len(stack)
		for k, c := range kids {
			cc := f.newNode(arena, c)
			cc.Parent = fr.dst
			fr.dst.Children[k] = cc
			stack = append(stack, frame{c, cc})
		}
		// Any order visits every node; keep document order for the
		// arena's locality.
		slices.Reverse(stack[start:])
	}
	return root
}

// newNode allocates a copy of node i, without children.
func (f *Flat) newNode(arena *Document, i int32) *Node {
	n := arena.NewNode(f.Kind[i], f.Name(i), f.Value(i))
	if a := f.Attrs(i); len(a) > 0 {
		n.Attrs = slices.Clone(a)
	}
	if f.XID != nil {
		n.XID = f.XID[i]
	}
	n.Post = i + 1
	return n
}

// Document builds the whole tree as a Document.
func (f *Flat) Document() *Document {
	d := &Document{NextXID: f.NextXID, IDAttrs: f.IDAttrs, Prolog: f.Prolog, Doctype: f.Doctype, DoctypeAfter: f.DoctypeAfter, Epilog: f.Epilog, HTML: f.HTML}
	d.allocated = f.Len()
	d.Root = f.Subtree(f.Root(), d, nil)
	return d
}
