package delta

import (
	"fmt"
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// OpKind is the kind of an elementary operation.
type OpKind uint8

// The operations of XyDelta. A move is a Delete and an Insert with Move set
// and the same XID; a text update is a Delete and an Insert with Update set.
const (
	Delete     OpKind = iota + 1 // <d>: remove a subtree (or detach it, for a move)
	Insert                       // <i>: add a subtree (or reattach it, for a move)
	AttrDelete                   // <ad>: remove an attribute of an element
	AttrInsert                   // <ai>: add an attribute to an element
	AttrUpdate                   // <au>: change the value of an attribute
	Rename                       // <rn>: change an element's name (Vigil extension)
)

// String returns the XyDelta element name of the kind.
func (k OpKind) String() string {
	switch k {
	case Delete:
		return "d"
	case Insert:
		return "i"
	case AttrDelete:
		return "ad"
	case AttrInsert:
		return "ai"
	case AttrUpdate:
		return "au"
	case Rename:
		return "rn"
	}
	return fmt.Sprintf("OpKind(%d)", k)
}

// Op is one elementary operation of a delta.
//
// Delete and Insert address a subtree by the XID of its parent (Parent) and
// its 1-based position among the parent's children (Pos): in the old version
// for a delete, in the new version for an insert. XIDs lists the XIDs of the
// subtree in post-order, its root last. Content holds the subtree itself, with
// those XIDs, so that the operation can be applied in both directions; a move
// carries no content and only the XID of the moved root.
//
// AttrDelete, AttrInsert, AttrUpdate and Rename address an element by its XID
// (Node). Name is the attribute's name; OldValue and NewValue are the values
// before and after (the attribute's value for ad and ai, the element names for
// rn), so that every operation can be inverted.
type Op struct {
	Kind OpKind
	// Move and Update belong with Parent, Pos and XIDs below; beside Kind
	// they fill the room its alignment leaves, and an operation takes 128
	// bytes rather than 136 (a delta of a large document holds tens of
	// thousands). So does at.
	Move   bool
	Update bool
	// at is where the operation was decoded from: 1 + its index in its
	// delta's places, or 0 for an operation made in memory. It follows
	// the operation when the list is reordered (Canonicalize) or copied
	// (Invert, Rebase).
	at uint32

	Parent  tree.XID
	Pos     int
	XIDs    tree.XIDMap
	Content *tree.Node
	// Namespaces binds the prefixes Content uses where its place in the
	// document binds them otherwise than the delta does (Delta.Namespaces:
	// a prefix bound to two URIs in two parts of a document), and, under
	// the empty prefix, the default namespace at Content's place when
	// Content is an element in one that it does not declare itself (an
	// xmlns attribute of an ancestor: an entry of an Atom feed); nil for
	// none. Like the delta's, it is how the operation is written.
	Namespaces map[string]string

	Node     tree.XID
	Name     string
	OldValue string
	NewValue string
}

// Root returns the XID of the subtree a Delete or Insert acts on.
func (op *Op) Root() tree.XID { return op.XIDs.Root() }

// Delta is the change from one version of a document to the next: a set of
// operations, and the XID-maps of both versions.
//
// Ops are kept in XyScript order (see Canonicalize): attribute operations and
// renames first, then deletes from right to left with descendants before
// their ancestors, then inserts from left to right with ancestors before their
// descendants. In that order every Delete position refers to the old version
// and every Insert position to the new one.
type Delta struct {
	From, To             string // labels of the two versions (file names, version ids); may be empty
	FromXIDMap, ToXIDMap tree.XIDRanges
	// FromFingerprint and ToFingerprint are the fingerprints of the two
	// versions' trees (tree.FingerprintOf), 0 when unknown: a document a
	// delta is applied to must have the source's (see CheckSource). They
	// are of the root element alone, not of what stands outside it
	// (Outside; Follows compares both).
	FromFingerprint, ToFingerprint tree.Fingerprint
	Ops                            []Op
	// Namespaces binds the namespace prefixes that the contents of Ops use
	// to the URIs their documents bind them to at the contents' places, so
	// that the delta written as XML is namespace-well-formed for any XML
	// tool: a content's own declarations are inside it, these stand on the
	// delta's <t>, and an operation whose place binds a prefix otherwise
	// has its own (Op.Namespaces), as has one whose content is in a
	// default namespace. It is nil when no content uses a prefix its
	// documents bind. It is how the delta is written, not what it
	// does: Equal and Apply ignore it.
	Namespaces map[string]string
	// Outside is the change outside the root element (DOCTYPE, comments
	// and processing instructions around the root), or nil for none.
	Outside *Outside
	// places are where the decoder read the operations, in the order it
	// read them (Op.at), for the errors of Validate and Apply; nil for a
	// delta made in memory. Invert and Rebase share them.
	places []place
}

// place is where an operation starts in its delta file: a line and a
// column in characters, from 1. Two 32-bit numbers (8 bytes an
// operation) rather than the offsets the decoders have: the XML decoder
// reads a stream it cannot go back to to count lines when an error comes.
type place struct{ line, col uint32 }

// newPlace returns the place at line and col, held up to the largest
// 32-bit number (a file of 4 GiB on a line).
func newPlace(line, col int) place {
	clamp := func(n int) uint32 { return uint32(min(max(n, 0), 1<<32-1)) }
	return place{clamp(line), clamp(col)}
}

// placeOf returns the place in its file of d's operation i, or ok false.
func (d *Delta) placeOf(i int) (line, col int, ok bool) {
	if i < 0 || i >= len(d.Ops) {
		return 0, 0, false
	}
	k := int(d.Ops[i].at)
	if k == 0 || k > len(d.places) {
		return 0, 0, false
	}
	p := d.places[k-1]
	return int(p.line), int(p.col), true
}

// opNumber returns the number, from 1, of d's operation i in d's file:
// the order it was read in, which Canonicalize and Invert do not keep;
// i+1 for an operation made in memory.
func (d *Delta) opNumber(i int) int {
	if _, _, ok := d.placeOf(i); ok {
		return int(d.Ops[i].at)
	}
	return i + 1
}

// locate gives err, when it is an *OpError about one of d's operations
// without a place, the place of that operation in d's file and its
// number there.
func (d *Delta) locate(err error) error {
	if len(d.places) == 0 {
		return err
	}
	if oe, ok := err.(*OpError); ok && oe.Line == 0 {
		if line, col, ok := d.placeOf(oe.Index); ok {
			oe.Line, oe.Column = line, col
			oe.num = d.opNumber(oe.Index)
		}
	}
	return err
}

// Empty reports whether the delta changes nothing.
func (d *Delta) Empty() bool { return len(d.Ops) == 0 && d.Outside == nil }

// Stats counts the changes of a delta the way a user reads them: a move or
// an update counts once, not as its two halves.
type Stats struct {
	Inserts, Deletes, Moves, Updates  int // subtrees inserted, deleted, moved; texts updated
	InsertedNodes, DeletedNodes       int // nodes in the inserted and deleted subtrees
	AttrInserts, AttrDeletes, AttrUpd int
	Renames                           int
	Outside                           bool // what stands outside the root element changed
}

// Stats returns the counts of d's operations.
func (d *Delta) Stats() Stats {
	s := Stats{Outside: d.Outside != nil}
	for i := range d.Ops {
		op := &d.Ops[i]
		switch op.Kind {
		case Delete:
			switch {
			case op.Move:
				s.Moves++
			case op.Update:
				s.Updates++
			default:
				s.Deletes++
				s.DeletedNodes += len(op.XIDs.XIDs)
			}
		case Insert:
			if !op.Move && !op.Update {
				s.Inserts++
				s.InsertedNodes += len(op.XIDs.XIDs)
			}
		case AttrDelete:
			s.AttrDeletes++
		case AttrInsert:
			s.AttrInserts++
		case AttrUpdate:
			s.AttrUpd++
		case Rename:
			s.Renames++
		}
	}
	return s
}

// Cost is the seed's edit cost (thesis §5.1): one per inserted or deleted
// node, one per text or attribute update, one per rename, and moveCost per
// moved subtree (1 in the seed's move experiments); and one for a change
// outside the root element.
func (d *Delta) Cost(moveCost int) int {
	s := d.Stats()
	c := s.InsertedNodes + s.DeletedNodes + s.Updates + s.AttrInserts + s.AttrDeletes + s.AttrUpd + s.Renames + s.Moves*moveCost
	if s.Outside {
		c++
	}
	return c
}

// String returns a one-line description of op for messages and tests, such
// as `d par=14 pos=1 xm=(13) move` or `au xid=2 a=b ov="2" nv="3"`.
func (op *Op) String() string {
	switch op.Kind {
	case Delete, Insert:
		s := fmt.Sprintf("%s par=%d pos=%d xm=%s", op.Kind, op.Parent, op.Pos, op.XIDs)
		if op.Move {
			s += " move"
		}
		if op.Update {
			s += " update"
		}
		if op.Content != nil && op.Content.Kind != tree.Element {
			s += fmt.Sprintf(" %q", op.Content.Value)
		} else if op.Content != nil {
			s += " <" + op.Content.Name + ">"
		}
		return s
	case AttrDelete:
		return fmt.Sprintf("ad xid=%d a=%s v=%q", op.Node, op.Name, op.OldValue)
	case AttrInsert:
		return fmt.Sprintf("ai xid=%d a=%s v=%q", op.Node, op.Name, op.NewValue)
	case AttrUpdate:
		return fmt.Sprintf("au xid=%d a=%s ov=%q nv=%q", op.Node, op.Name, op.OldValue, op.NewValue)
	case Rename:
		return fmt.Sprintf("rn xid=%d ov=%q nv=%q", op.Node, op.OldValue, op.NewValue)
	}
	return op.Kind.String()
}

// roomForOp makes room in d.Ops and d.places for one more decoded
// operation, doubling them when full: append grows a long slice a quarter
// at a time, and a delta of a large document, of a hundred thousand
// operations of some 150 bytes each, would take five times its size on
// the way.
func roomForOp(d *Delta) {
	if len(d.Ops) == cap(d.Ops) {
		d.Ops = slices.Grow(d.Ops, max(len(d.Ops), 64))
	}
	if len(d.places) == cap(d.places) {
		d.places = slices.Grow(d.places, max(len(d.places), 64))
	}
}
