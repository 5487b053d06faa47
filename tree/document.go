package tree

import (
	"fmt"
	"math"
	"strings"
	"unsafe"
)

// Document is a parsed document: its root element, the nodes around it, and
// the next XID to allocate.
type Document struct {
	Root *Node
	// Prolog holds what precedes the root element (the XML declaration as a
	// ProcInst named "xml", comments, processing instructions); Doctype is the
	// DOCTYPE declaration's text without "<!DOCTYPE" and ">", if any.
	Prolog  []*Node
	Doctype string
	// DoctypeAfter is how many of Prolog's comments and processing
	// instructions, the XML declaration aside, precede the DOCTYPE: 0 writes
	// it first (after the declaration, which always comes first), and a
	// count past the end writes it last, just before the root.
	DoctypeAfter int
	// Epilog holds comments and processing instructions after the root.
	Epilog []*Node
	// NextXID is the next XID to allocate: larger than every XID in the tree.
	NextXID XID
	// IDAttrs maps an element name to the name of its ID attribute, as
	// declared in the document's DTD (<!ATTLIST person id ID #REQUIRED>).
	IDAttrs map[string]string
	// HTML reports that an HTML parser read the document
	// (markup.ParseHTML). Such a parser reads an XML declaration,
	// <?xml version="1.0"?>, as a comment (IsXMLDeclarationComment), and
	// package delta leaves such comments before the root out of what it
	// compares there. In a document read as XML, or built by hand, every
	// comment is the document's own, whatever its text.
	HTML bool

	slab      []Node // nodes are allocated from here in chunks
	allocated int    // nodes allocated by NewNode: a capacity hint
}

// maxSlab is the most nodes a slab holds: as many as fit 64 KiB, a multiple
// of the runtime's 8 KiB pages, so that large slabs waste no rounding.
const maxSlab = 64 << 10 / int(unsafe.Sizeof(Node{}))

// NewNode allocates a node of the given kind owned by d. Allocating from the
// document amortises allocation over many nodes, which matters for large
// documents; slabs grow with the document, so that a small one stays small.
func (d *Document) NewNode(kind Kind, name, value string) *Node {
	if len(d.slab) == 0 {
		d.slab = make([]Node, min(max(d.allocated, 16), maxSlab))
	}
	n := &d.slab[0]
	d.slab = d.slab[1:]
	d.allocated++
	n.Kind, n.Name, n.Value = kind, name, value
	return n
}

// NewElement allocates an element named name.
func (d *Document) NewElement(name string) *Node { return d.NewNode(Element, name, "") }

// NewText allocates a text node.
func (d *Document) NewText(value string) *Node { return d.NewNode(Text, "", value) }

// AssignXIDs numbers every node of the tree in post-order from 1 and sets
// NextXID to one past the root's XID, as for a first version.
func (d *Document) AssignXIDs() {
	var next XID = 1
	PostOrder(d.Root, func(n *Node) {
		n.XID = next
		next++
	})
	d.NextXID = next
}

// XIDMap returns the document's XID-map: the XIDs of the tree in post-order
// and the next free XID.
func (d *Document) XIDMap() XIDMap {
	m := SubtreeXIDMap(d.Root)
	m.Next = d.NextXID
	return m
}

// SetXIDMap gives the tree the XIDs of m, in post-order, and sets NextXID.
// It fails, leaving the tree as it was, if m does not have exactly one XID
// per node, repeats an XID, or holds the largest XID, which would leave
// none to allocate next, or gives it as the next XID (Next), which would
// be allocated, and the one after it wrap to 0.
func (d *Document) SetXIDMap(m XIDMap) error {
	top := m.Max()
	if top == math.MaxUint64 {
		return fmt.Errorf("XID-map holds XID %d, the largest, which leaves none to allocate next", top)
	}
	if m.Next == math.MaxUint64 {
		return fmt.Errorf("XID-map gives XID %d, the largest, as the next to allocate, which leaves none to allocate after it", m.Next)
	}
	if err := SetSubtreeXIDs(d.Root, m.XIDs); err != nil {
		return err
	}
	d.NextXID = max(m.Next, top+1)
	return nil
}

// ByXID returns an index of the tree's nodes by XID. Nodes without an XID are
// left out.
func (d *Document) ByXID() map[XID]*Node {
	idx := make(map[XID]*Node)
	if d.Root == nil {
		return idx
	}
	Walk(d.Root, func(n *Node) bool {
		if n.XID != 0 {
			idx[n.XID] = n
		}
		return true
	})
	return idx
}

// SplitProlog returns the XML declaration of d's prolog (nil when there is
// none), and the rest of the prolog before and after the DOCTYPE's place.
// The declaration is the prolog's first node when IsXMLDeclaration says it
// is one.
func (d *Document) SplitProlog() (decl *Node, before, after []*Node) {
	return SplitProlog(d.Prolog, d.DoctypeAfter)
}

// SplitProlog is Document.SplitProlog for a prolog held outside a
// Document (a Flat's, a delta's): prolog is the nodes before the root and
// doctypeAfter the DoctypeAfter that places the DOCTYPE among them, the
// declaration aside; a negative count is 0, one past the end is the end.
// The parts share prolog's array.
func SplitProlog(prolog []*Node, doctypeAfter int) (decl *Node, before, after []*Node) {
	if len(prolog) > 0 && IsXMLDeclaration(prolog[0]) {
		decl, prolog = prolog[0], prolog[1:]
	}
	k := min(max(doctypeAfter, 0), len(prolog))
	return decl, prolog[:k], prolog[k:]
}

// IsXMLDeclaration reports whether n is an XML declaration as markup's XML
// parser reads one: a processing instruction whose target is xml, which
// XML reserves for the declaration and the parser takes only at the very
// start, as Prolog's first node. That node is the document's declaration:
// SplitProlog sets it apart, the writers write it as the declaration,
// DoctypeAfter does not count it, and XPath's data model (package
// xmlpatch) has no node for it. Elsewhere in a prolog, where only a tree
// built by hand has one, it is still no comment or processing instruction
// of the document (the writers refuse it).
//
// What an HTML parser makes of a declaration is not one: see
// IsXMLDeclarationComment.
func IsXMLDeclaration(n *Node) bool {
	return n != nil && n.Kind == ProcInst && strings.EqualFold(n.Name, "xml")
}

// IsXMLDeclarationComment reports whether n is the comment an HTML parser
// makes of an XML declaration: HTML has no processing instructions, and
// reads <?xml version="1.0"?> as the comment "?xml version="1.0"?",
// wherever it stands (before the DOCTYPE or after it, after other
// comments). Such a node is a comment for every purpose of a Document: it
// is no declaration for SplitProlog, DoctypeAfter counts it, the writers
// write it as the comment <!--?xml version="1.0"?-->, and an XPath
// selector (package xmlpatch) addresses it as a comment, as a browser's
// DOM holds it. Only package delta, when it compares what stands before
// the root of two versions, takes it for the declaration it was written
// as, so that XHTML read as XML in one version and as HTML in the next is
// no change; and only in a document an HTML parser read (Document.HTML):
// read as XML, <!--?xml version="1.0"?--> is a comment its author wrote.
func IsXMLDeclarationComment(n *Node) bool {
	if n == nil || n.Kind != Comment {
		return false
	}
	v := n.Value
	return len(v) >= 5 && strings.EqualFold(v[:4], "?xml") &&
		(v[4] == ' ' || v[4] == '\t' || v[4] == '\n' || v[4] == '\r') && strings.HasSuffix(v, "?")
}

// Clone returns a deep copy of d; the copy shares nothing with d.
func (d *Document) Clone() *Document {
	c := &Document{Doctype: d.Doctype, DoctypeAfter: d.DoctypeAfter, NextXID: d.NextXID, HTML: d.HTML}
	if d.IDAttrs != nil {
		c.IDAttrs = make(map[string]string, len(d.IDAttrs))
		for k, v := range d.IDAttrs {
			c.IDAttrs[k] = v
		}
	}
	if d.Root != nil {
		c.Root = c.CloneNode(d.Root)
	}
	for _, n := range d.Prolog {
		c.Prolog = append(c.Prolog, c.CloneNode(n))
	}
	for _, n := range d.Epilog {
		c.Epilog = append(c.Epilog, c.CloneNode(n))
	}
	return c
}

// CloneNode returns a deep copy of n's subtree, XIDs included, allocated in d.
// The copy has no parent.
func (d *Document) CloneNode(n *Node) *Node {
	type frame struct{ src, dst *Node }
	root := d.copyOne(n)
	stack := []frame{{n, root}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(f.src.Children) == 0 {
			continue
		}
		f.dst.Children = make([]*Node, len(f.src.Children))
		for i, c := range f.src.Children {
			cc := d.copyOne(c)
			cc.Parent = f.dst
			f.dst.Children[i] = cc
			stack = append(stack, frame{c, cc})
		}
	}
	return root
}

func (d *Document) copyOne(n *Node) *Node {
	c := d.NewNode(n.Kind, n.Name, n.Value)
	c.XID = n.XID
	if len(n.Attrs) > 0 {
		c.Attrs = append([]Attr(nil), n.Attrs...)
	}
	return c
}
