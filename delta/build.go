package delta

import (
	"fmt"
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// Build returns the delta that turns old into new, where two nodes are the
// same node exactly when they have the same XID. It is the seed's phase 5
// (thesis §3.5) separated from matching: XyDiff matches and gives the new
// version its XIDs, then calls Build; the change simulator and Compose do the
// same with XIDs they already know.
//
// Every node of both versions must have an XID, unique within its version;
// the two roots must have the same XID; and nodes with the same XID must be
// of the same kind. Build does not modify the trees' content; it renumbers
// their Post fields.
//
// The delta it returns:
//   - deletes the old subtrees whose root has no counterpart, and inserts the
//     new ones;
//   - moves a node whose parent changed (a "strong" move), and, among the
//     children that stayed under the same parent, the minimum-weight set
//     whose relative order changed (a "weak" move), found with a heaviest
//     increasing subsequence in O(n log n), exact for any number of
//     children;
//   - updates a text, comment or processing instruction whose value changed
//     and that stayed in place (a moved leaf whose value changed is deleted
//     and inserted, keeping its XID);
//   - renames elements whose name changed and inserts, deletes or updates
//     their attributes.
func Build(old, new *tree.Document) (*Delta, error) {
	return build(old, new, nil)
}

// build is Build with pinned nodes (see builder.pinned).
func build(old, new *tree.Document, pinned func(*tree.Node) bool) (*Delta, error) {
	if old.Root == nil || new.Root == nil {
		return nil, fmt.Errorf("build delta: document without a root element")
	}
	b := &builder{
		old:    old.Weigh(),
		new:    new.Weigh(),
		arena:  &tree.Document{},
		pinned: pinned,
	}
	if err := b.match(); err != nil {
		return nil, fmt.Errorf("build delta: %w", err)
	}
	return b.build(old, new)
}

// Matching is a pairing of the nodes of two versions that a caller already
// knows, by post-order index, so that BuildMatched need not measure the
// trees and pair their XIDs again.
type Matching struct {
	// Old and New are the versions measured (tree.MeasureTree or
	// Document.Weigh of their roots) after their last change; the Post
	// fields of their nodes must still be those of the measures.
	Old, New *tree.Measure
	// NewToOld[j] is the index of the old node paired with new node j, or
	// -1. Paired nodes must have the same XID and kind, and the roots must
	// be paired.
	NewToOld []int32
	// Same, when not nil, marks new nodes whose whole subtree is paired
	// node for node, in order, with an identical old subtree (as a diff
	// knows of the subtrees it matched by signature). Nothing changes inside
	// them, so BuildMatched does not look inside; the node itself may still
	// have moved.
	Same []bool
	// OldToNew, when not nil, is the inverse of NewToOld, which the caller
	// may already have: BuildMatched then reads it instead of building it.
	OldToNew []int32
	// OldXIDs and NewXIDs, when not nil, are the XIDs of Old.Nodes and
	// New.Nodes, as the caller already has them: they become the delta's
	// XID-maps without another pass over the nodes.
	OldXIDs, NewXIDs []tree.XID
}

// BuildMatched is Build for a caller that has already measured both
// versions and paired their nodes, as treediff.Diff has: it skips the
// measuring and the XID index, which cost as much as the rest on a large
// document. The pairing must agree with the XIDs (a paired new node carries
// its old node's XID, an unpaired one a fresh XID); it is checked for
// consistency of kinds and roots only.
func BuildMatched(old, new *tree.Document, m *Matching) (*Delta, error) {
	if len(m.NewToOld) != len(m.New.Nodes) || len(m.Old.Nodes) == 0 || len(m.New.Nodes) == 0 {
		return nil, fmt.Errorf("build delta: the matching does not fit the measures")
	}
	if (m.OldXIDs != nil && len(m.OldXIDs) != len(m.Old.Nodes)) || (m.NewXIDs != nil && len(m.NewXIDs) != len(m.New.Nodes)) {
		return nil, fmt.Errorf("build delta: the XIDs do not fit the measures")
	}
	b := &builder{old: m.Old, new: m.New, arena: &tree.Document{}, newMatch: m.NewToOld, sameNew: m.Same,
		oldXIDs: m.OldXIDs, newXIDs: m.NewXIDs}
	if m.OldToNew != nil {
		if len(m.OldToNew) != len(m.Old.Nodes) {
			return nil, fmt.Errorf("build delta: the matching does not fit the measures")
		}
		b.oldMatch = m.OldToNew
		for j, i := range b.newMatch {
			if i >= int32(len(b.oldMatch)) || i >= 0 && b.oldMatch[i] != int32(j) {
				return nil, fmt.Errorf("build delta: OldToNew is not the inverse of NewToOld at new node %d", j)
			}
		}
		for i, j := range b.oldMatch {
			if j >= int32(len(b.newMatch)) || j >= 0 && b.newMatch[j] != int32(i) {
				return nil, fmt.Errorf("build delta: OldToNew is not the inverse of NewToOld at old node %d", i)
			}
		}
	} else {
		b.oldMatch = make([]int32, len(b.old.Nodes))
		for i := range b.oldMatch {
			b.oldMatch[i] = -1
		}
		for j, i := range b.newMatch {
			if i >= int32(len(b.oldMatch)) {
				return nil, fmt.Errorf("build delta: new node %d is paired with old node %d of %d", j, i, len(b.oldMatch))
			}
			if i >= 0 {
				b.oldMatch[i] = int32(j)
			}
		}
	}
	if b.oldMatch[len(b.old.Nodes)-1] != int32(len(b.new.Nodes)-1) {
		return nil, fmt.Errorf("build delta: the roots are not paired")
	}
	if err := b.classify(true); err != nil {
		return nil, fmt.Errorf("build delta: %w", err)
	}
	return b.build(old, new)
}

// build emits the delta once the nodes are paired.
func (b *builder) build(old, new *tree.Document) (*Delta, error) {
	b.oldPos, b.newPos = b.old.Pos, b.new.Pos
	b.findMoves()
	if b.oldXIDs == nil {
		b.oldXIDs = postOrderXIDs(b.old.Nodes)
	}
	if b.newXIDs == nil {
		b.newXIDs = postOrderXIDs(b.new.Nodes)
	}
	d := &Delta{
		FromXIDMap: tree.XIDMap{XIDs: b.oldXIDs, Next: old.NextXID},
		ToXIDMap:   tree.XIDMap{XIDs: b.newXIDs, Next: new.NextXID},
		Ops:        make([]Op, 0, b.estimateOps()),
	}
	b.emitNodeChanges(d)
	b.emitDeletes(d)
	b.emitInserts(d)
	return d, nil
}

// postOrderXIDs returns the XIDs of nodes listed in post-order: the
// document's XID-map.
func postOrderXIDs(nodes []*tree.Node) []tree.XID {
	xids := make([]tree.XID, len(nodes))
	for i, n := range nodes {
		xids[i] = n.XID
	}
	return xids
}

type builder struct {
	xidBuf []tree.XID
	// oldXIDs and newXIDs are the XIDs of the nodes of both versions, by
	// post index.
	oldXIDs, newXIDs []tree.XID
	old, new         *tree.Measure
	// oldMatch[i] is the post index (0-based) of the new node matched with
	// old node i, or -1; newMatch likewise.
	oldMatch, newMatch []int32
	moved              []bool // by old post index: the node is moved
	// oldPos and newPos are each node's 0-based index among its siblings.
	oldPos, newPos []int32
	// changed is true, by old post index, for a matched leaf whose value
	// changed.
	changed []bool
	// nodeChanges lists, in old post-order, the matched elements renamed
	// or with other attributes; nodeOps bounds their operations.
	nodeChanges []int32
	nodeOps     int
	// sameNew (by new index, may be nil) marks identical subtrees: see
	// Matching.Same.
	sameNew []bool
	arena   *tree.Document
	// pinned, when set, marks old nodes that must keep their place among
	// the siblings that stay (Compose's stand-ins for unknown siblings):
	// each weighs more than all its other siblings together, so the
	// heaviest increasing subsequence keeps them all (they must be in
	// increasing order among themselves).
	pinned func(*tree.Node) bool
}

// match pairs the nodes of both versions by XID.
func (b *builder) match() error {
	oldIdx, err := newXIDIndex(b.old.Nodes, "old")
	if err != nil {
		return err
	}
	b.oldMatch = make([]int32, len(b.old.Nodes))
	b.newMatch = make([]int32, len(b.new.Nodes))
	for i := range b.oldMatch {
		b.oldMatch[i] = -1
	}
	// The new version's XIDs must be present and unique too.
	if _, err := newXIDIndex(b.new.Nodes, "new"); err != nil {
		return err
	}
	for j, n := range b.new.Nodes {
		i, ok := oldIdx.get(n.XID)
		if !ok {
			b.newMatch[j] = -1
			continue
		}
		o := b.old.Nodes[i]
		if o.Kind != n.Kind {
			return fmt.Errorf("XID %d is a %s in the old version and a %s in the new one", n.XID, o.Kind, n.Kind)
		}
		b.newMatch[j] = i
		b.oldMatch[i] = int32(j)
	}
	oldRoot, newRoot := len(b.old.Nodes)-1, len(b.new.Nodes)-1
	if b.oldMatch[oldRoot] != int32(newRoot) {
		return fmt.Errorf("the roots must have the same XID (old %d, new %d)", b.old.Nodes[oldRoot].XID, b.new.Nodes[newRoot].XID)
	}
	return b.classify(false)
}

// classify looks once at every pair of nodes outside identical subtrees:
// it finds the leaves whose value changed and the elements renamed or with
// other attributes, and, when check is set, that the pairs agree in kind
// and XID (the roots of identical subtrees are checked too; their insides
// the caller paired node for node).
func (b *builder) classify(check bool) error {
	b.changed = make([]bool, len(b.old.Nodes))
	b.nodeChanges, b.nodeOps = b.nodeChanges[:0], 0
	var bad error
	b.eachOld(func(i int32) {
		j := b.oldMatch[i]
		if j < 0 || bad != nil {
			return
		}
		o, n := b.old.Nodes[i], b.new.Nodes[j]
		if check && (o.Kind != n.Kind || o.XID != n.XID) {
			bad = fmt.Errorf("paired nodes %s and %s differ in kind or XID", tree.Path(o), tree.Path(n))
			return
		}
		if b.same(i) {
			return
		}
		switch {
		case o.Kind != tree.Element:
			b.changed[i] = o.Value != n.Value
		case o.Name != n.Name || !sameAttrs(o.Attrs, n.Attrs):
			b.nodeChanges = append(b.nodeChanges, i)
			b.nodeOps += 1 + len(o.Attrs) + len(n.Attrs)
		}
	})
	// eachOld went from the root down; node changes are written in old
	// post-order.
	slices.Reverse(b.nodeChanges)
	return bad
}

// eachOld calls visit for every old node except those strictly inside an
// identical subtree, from the root down in reverse post-order, jumping over
// the inside of each identical subtree without touching it.
func (b *builder) eachOld(visit func(i int32)) {
	for i := int32(len(b.old.Nodes) - 1); i >= 0; i-- {
		visit(i)
		if b.same(i) {
			i -= b.old.Size[i] - 1 // the subtree is [i-size+1, i]
		}
	}
}

// same reports whether old node i is the root of (or inside) an identical
// subtree, with nothing to do inside it.
func (b *builder) same(i int32) bool {
	j := b.oldMatch[i]
	return b.sameNew != nil && j >= 0 && b.sameNew[j]
}

func (b *builder) oldIndex(n *tree.Node) int32 { return n.Post - 1 }
func (b *builder) newIndex(n *tree.Node) int32 { return n.Post - 1 }

// stays reports whether the old node i is matched under the match of its
// parent (it may be reordered, but its parent did not change).
func (b *builder) stays(i int32) bool {
	j := b.oldMatch[i]
	p := b.old.Parent[i]
	if j < 0 || p < 0 {
		return j >= 0
	}
	q := b.new.Parent[j]
	return q >= 0 && b.oldMatch[p] == q
}

// findMoves marks strong moves (parent changed) and weak moves (order
// changed among the children that stayed).
func (b *builder) findMoves() {
	b.moved = make([]bool, len(b.old.Nodes))
	var keys []int
	var weights []float64
	var members []int32
	b.eachOld(func(i int32) {
		if b.oldMatch[i] >= 0 && b.old.Parent[i] >= 0 && !b.stays(i) {
			b.moved[i] = true // strong move
		}
		// A leaf has size 1; an element with one child, size 1 + the
		// child's.
		if b.oldMatch[i] < 0 || b.old.Size[i] < 3 || b.same(i) {
			return
		}
		keys, weights, members = keys[:0], weights[:0], members[:0]
		b.old.Children(i, func(ci int32) {
			if b.stays(ci) {
				keys = append(keys, int(b.newPos[b.oldMatch[ci]]))
				weights = append(weights, b.old.Weight[ci])
				members = append(members, ci)
			}
		})
		if len(members) < 2 {
			return
		}
		// Children came last first: put them in document order.
		slices.Reverse(keys)
		slices.Reverse(weights)
		slices.Reverse(members)
		if b.pinned != nil {
			heavy := 1.0
			for _, w := range weights {
				heavy += w
			}
			for k, ci := range members {
				if b.pinned(b.old.Nodes[ci]) {
					weights[k] = heavy
				}
			}
		}
		j := b.oldMatch[i]
		keep := heaviestIncreasing(keys, weights, b.new.ChildCount(j))
		for k, ci := range members {
			if !keep[k] {
				b.moved[ci] = true // weak move
			}
		}
	})
}

// valueChanged reports whether the matched leaf i has a new value.
func (b *builder) valueChanged(i int32) bool { return b.changed[i] }

// xidIndex maps XIDs to post indexes: a slice when the XIDs are dense enough,
// a map otherwise.
type xidIndex struct {
	dense  []int32 // dense[x] = index+1, 0 for absent
	sparse map[tree.XID]int32
}

func newXIDIndex(nodes []*tree.Node, version string) (*xidIndex, error) {
	var max tree.XID
	for _, n := range nodes {
		if n.XID == 0 {
			return nil, fmt.Errorf("%s version: node %s has no XID", version, tree.Path(n))
		}
		max = tree.XID(maxU(uint64(max), uint64(n.XID)))
	}
	idx := &xidIndex{}
	if max <= tree.XID(4*len(nodes)+1024) {
		idx.dense = make([]int32, max+1)
	} else {
		idx.sparse = make(map[tree.XID]int32, len(nodes))
	}
	for i, n := range nodes {
		if _, dup := idx.get(n.XID); dup {
			return nil, fmt.Errorf("%s version: XID %d is used twice", version, n.XID)
		}
		if idx.dense != nil {
			idx.dense[n.XID] = int32(i) + 1
		} else {
			idx.sparse[n.XID] = int32(i)
		}
	}
	return idx, nil
}

func (x *xidIndex) get(id tree.XID) (int32, bool) {
	if x.dense != nil {
		if uint64(id) >= uint64(len(x.dense)) || x.dense[id] == 0 {
			return 0, false
		}
		return x.dense[id] - 1, true
	}
	i, ok := x.sparse[id]
	return i, ok
}

func maxU(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}
