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
//   - updates a text, comment or processing instruction whose value (or
//     target) changed and that stayed in place (a moved leaf whose value changed is deleted
//     and inserted, keeping its XID);
//   - renames elements whose name changed and inserts, deletes or updates
//     their attributes.
func Build(old, new *tree.Document) (*Delta, error) {
	d, err := build(old, new, nil)
	if err != nil {
		return nil, err
	}
	html := comparedAsHTML(old.HTML, new.HTML)
	d.Outside = outsideChange(surroundingsOf(old.Doctype, old.DoctypeAfter, old.Prolog, old.Epilog, html), surroundingsOf(new.Doctype, new.DoctypeAfter, new.Prolog, new.Epilog, html))
	return d, nil
}

// build is Build with pinned nodes (see builder.pinned).
func build(old, new *tree.Document, pinned func(tree.XID) bool) (*Delta, error) {
	if old.Root == nil || new.Root == nil {
		return nil, fmt.Errorf("build delta: document without a root element")
	}
	of, _ := tree.FlattenDocument(old)
	nf, _ := tree.FlattenDocument(new)
	b := &builder{
		old:    tree.WeighFlat(of),
		new:    tree.WeighFlat(nf),
		arena:  &tree.Document{},
		pinned: pinned,
	}
	if err := b.match(); err != nil {
		return nil, fmt.Errorf("build delta: %w", err)
	}
	return b.build()
}

// Matching is a pairing of the nodes of two versions that a caller already
// knows, by post-order index, so that BuildMatched need not pair their XIDs
// again.
type Matching struct {
	// Old and New are the versions measured (tree.MeasureFlat or
	// tree.WeighFlat), with their XIDs, NextXID and content as the delta
	// must record them.
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
	// Consistent promises that paired nodes have the same kind and XID, as
	// a pairing that gave the new version its XIDs has by construction
	// (treediff's), and that OldToNew, when given, is NewToOld's inverse.
	// BuildMatched then does not check every pair: on a large document,
	// reading the kind and XID of each new node it visits costs two cache
	// misses, an eighth of the delta's time.
	Consistent bool
}

// BuildMatched is Build for a caller that has already measured both
// versions and paired their nodes, as treediff.Diff has: it skips the
// flattening and the XID index, which cost as much as the rest on a large
// document. The pairing must agree with the XIDs (a paired new node carries
// its old node's XID, an unpaired one a fresh XID); it is checked for
// consistency of kinds and roots only, and of roots only when the caller
// vouches for it (Matching.Consistent).
func BuildMatched(m *Matching) (*Delta, error) {
	if m.Old == nil || m.New == nil || m.Old.Len() == 0 || m.New.Len() == 0 || len(m.NewToOld) != m.New.Len() {
		return nil, fmt.Errorf("build delta: the matching does not fit the measures")
	}
	if len(m.Old.XID) != m.Old.Len() || len(m.New.XID) != m.New.Len() {
		return nil, fmt.Errorf("build delta: both versions need an XID for every node")
	}
	b := &builder{old: m.Old, new: m.New, arena: &tree.Document{}, newMatch: m.NewToOld, sameNew: m.Same}
	switch {
	case m.OldToNew == nil:
		b.oldMatch = make([]int32, m.Old.Len())
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
	case len(m.OldToNew) != m.Old.Len():
		return nil, fmt.Errorf("build delta: the matching does not fit the measures")
	default:
		b.oldMatch = m.OldToNew
		if !m.Consistent {
			if err := checkInverse(b.newMatch, b.oldMatch); err != nil {
				return nil, err
			}
		}
	}
	if b.oldMatch[b.old.Root()] != b.new.Root() {
		return nil, fmt.Errorf("build delta: the roots are not paired")
	}
	b.check = !m.Consistent
	d, err := b.build()
	if err != nil {
		return nil, err
	}
	o, n := m.Old.Flat, m.New.Flat
	html := comparedAsHTML(o.HTML, n.HTML)
	d.Outside = outsideChange(surroundingsOf(o.Doctype, o.DoctypeAfter, o.Prolog, o.Epilog, html), surroundingsOf(n.Doctype, n.DoctypeAfter, n.Prolog, n.Epilog, html))
	return d, nil
}

// checkInverse reports an error unless oldToNew is the inverse of
// newToOld.
func checkInverse(newToOld, oldToNew []int32) error {
	// Every pair of newToOld is in oldToNew, and oldToNew has no more
	// pairs: then it has no others. (The second pass reads in order only.)
	pairs := 0
	for j, i := range newToOld {
		if i >= int32(len(oldToNew)) || i >= 0 && oldToNew[i] != int32(j) {
			return fmt.Errorf("build delta: OldToNew is not the inverse of NewToOld at new node %d", j)
		}
		if i >= 0 {
			pairs++
		}
	}
	for i, j := range oldToNew {
		if j >= int32(len(newToOld)) {
			return fmt.Errorf("build delta: OldToNew is not the inverse of NewToOld at old node %d", i)
		}
		if j >= 0 {
			pairs--
		}
	}
	if pairs != 0 {
		return fmt.Errorf("build delta: OldToNew has %d more pairs than NewToOld", -pairs)
	}
	return nil
}

// build emits the delta once the nodes are paired.
func (b *builder) build() (*Delta, error) {
	b.oldPos, b.newPos = b.old.Pos, b.new.Pos
	ops, err := b.scan()
	if err != nil {
		return nil, fmt.Errorf("build delta: %w", err)
	}
	d := &Delta{
		FromXIDMap: tree.RangesOf(b.old.XID, b.old.NextXID),
		ToXIDMap:   tree.RangesOf(b.new.XID, b.new.NextXID),
		Ops:        make([]Op, 0, ops),
	}
	b.emitNodeChanges(d)
	b.emitDeletes(d)
	b.emitInserts(d)
	d.Namespaces = b.namespaces
	return d, nil
}

type builder struct {
	xidBuf   []tree.XID
	old, new *tree.Measure // with their XIDs
	// oldMatch[i] is the post index (0-based) of the new node matched with
	// old node i, or -1; newMatch likewise.
	oldMatch, newMatch []int32
	// marks holds, by old post index, movedMark when the node is moved
	// and changedMark when it is a matched leaf whose value (or, for a
	// processing instruction, target) changed: one byte a node for both.
	marks []uint8
	// oldPos and newPos are each node's 0-based index among its siblings.
	oldPos, newPos []int32
	// nodeChanges lists, in old post-order, the matched elements renamed
	// or with other attributes; nodeOps bounds their operations.
	nodeChanges []int32
	nodeOps     int
	// deletes lists the old nodes with a delete half (the roots of deleted
	// regions, and the moved and changed nodes) in the order scan finds
	// them, from the last node back; inserts the new nodes with an insert
	// half, in no order until scan sorts them, from the last back. The
	// emitters take them in XyScript order from there, rather than walk
	// both trees again.
	deletes, inserts []int32
	// sameNew (by new index, may be nil) marks identical subtrees: see
	// Matching.Same.
	sameNew []bool
	arena   *tree.Document
	// pinned, when set, marks old nodes that must keep their place among
	// the siblings that stay (Compose's stand-ins for unknown siblings):
	// each weighs more than all its other siblings together, so the
	// heaviest increasing subsequence keeps them all (they must be in
	// increasing order among themselves).
	pinned func(tree.XID) bool
	// kids, moveKeys, moveWeights and moveMembers are weakMoves's scratch
	// space.
	kids        []int32
	moveKeys    []int
	moveWeights []float64
	moveMembers []int32
	lis         lisScratch
	// namespaces is the delta's Namespaces, as bindPrefixes finds them.
	namespaces map[string]string
	// defaults is what bindDefault found of the old and new versions'
	// default namespaces.
	defaults [2]defaultScope
	// check, when set, makes scan verify that paired nodes agree in kind
	// and XID (a pairing the caller made, rather than one by XID).
	check bool
}

// match pairs the nodes of both versions by XID.
func (b *builder) match() error {
	oldIdx, err := newXIDIndex(b.old.Flat, "old")
	if err != nil {
		return err
	}
	b.oldMatch = make([]int32, b.old.Len())
	b.newMatch = make([]int32, b.new.Len())
	for i := range b.oldMatch {
		b.oldMatch[i] = -1
	}
	// The new version's XIDs must be present and unique too.
	if _, err := newXIDIndex(b.new.Flat, "new"); err != nil {
		return err
	}
	for j, x := range b.new.XID {
		i, ok := oldIdx.get(x)
		if !ok {
			b.newMatch[j] = -1
			continue
		}
		if ok, nk := b.old.Kind[i], b.new.Kind[j]; ok != nk {
			return fmt.Errorf("XID %d is a %s in the old version and a %s in the new one", x, ok, nk)
		}
		b.newMatch[j] = i
		b.oldMatch[i] = int32(j)
	}
	oldRoot, newRoot := b.old.Root(), b.new.Root()
	if b.oldMatch[oldRoot] != newRoot {
		return fmt.Errorf("the roots must have the same XID (old %d, new %d)", b.old.XID[oldRoot], b.new.XID[newRoot])
	}
	return nil
}

// eachOld calls visit for every old node except those strictly inside an
// identical subtree, from the root down in reverse post-order, jumping over
// the inside of each identical subtree without touching it.
func (b *builder) eachOld(visit func(i int32)) {
	for i := b.old.Root(); i >= 0; i-- {
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

// scan looks once at every old node outside identical subtrees, from the
// root down. It finds the leaves whose value changed and the elements
// renamed or with other attributes; marks strong moves (parent changed)
// and weak moves (order changed among the children that stayed); lists
// the nodes with a delete or an insert half (b.deletes, b.inserts); checks,
// when b.check is set, that the pairs agree in kind and XID (the roots of
// identical subtrees are checked too; their insides the caller paired node
// for node); and returns an upper bound of the number of operations, so
// that their slice is allocated once.
func (b *builder) scan() (int, error) {
	b.marks = make([]uint8, b.old.Len())
	b.nodeChanges, b.nodeOps = b.nodeChanges[:0], 0
	b.deletes, b.inserts = b.deletes[:0], b.inserts[:0]
	var bad error
	ops := 0
	b.eachOld(func(i int32) {
		j := b.oldMatch[i]
		if bad != nil {
			return
		}
		p := b.old.Parent[i]
		if j < 0 {
			if p >= 0 && b.oldMatch[p] >= 0 {
				ops++ // a deleted region
				b.deletes = push(b.deletes, i)
			}
			return
		}
		o, n := b.old, b.new
		if b.check && (o.Kind[i] != n.Kind[j] || o.XID[i] != n.XID[j]) {
			bad = fmt.Errorf("paired nodes %s and %s differ in kind or XID", o.Path(i), n.Path(j))
			return
		}
		if p >= 0 && !b.stays(i) {
			b.marks[i] |= movedMark // strong move
		}
		if !b.same(i) {
			switch {
			case o.Kind[i] != tree.Element:
				// A processing instruction's target is its name: a
				// new target replaces the node, as a new value does.
				if o.Value(i) != n.Value(j) || o.Name(i) != n.Name(j) {
					b.marks[i] |= changedMark
				}
			case o.Name(i) != n.Name(j) || !sameAttrs(o.Attrs(i), n.Attrs(j)):
				b.nodeChanges = push(b.nodeChanges, i)
				b.nodeOps += 1 + len(o.Attrs(i)) + len(n.Attrs(j))
			}
			// A leaf has size 1; an element with one child, size 1 + the
			// child's. Weak moves of the children are marked before the
			// children are visited.
			if o.Size[i] >= 3 {
				b.weakMoves(i)
			}
		}
		// Weak moves were marked when the parent was visited: the node's
		// marks are final.
		if b.marks[i] != 0 {
			ops += 2
			if p >= 0 { // the roots have no operation
				b.deletes = push(b.deletes, i)
				b.inserts = push(b.inserts, j)
			}
		}
	})
	if bad != nil {
		return 0, bad
	}
	// The walk went from the root down; node changes are written in old
	// post-order.
	slices.Reverse(b.nodeChanges)
	for j, i := range b.newMatch {
		if p := b.new.Parent[j]; i < 0 && p >= 0 && b.newMatch[p] >= 0 {
			ops++ // an inserted region
			b.inserts = push(b.inserts, int32(j))
		}
	}
	// From the last node back, as deletes are.
	slices.Sort(b.inserts)
	slices.Reverse(b.inserts)
	return ops + b.nodeOps, nil
}

// weakMoves marks, among the children of the matched old node i that stay
// under its match, the minimum-weight set whose relative order changed.
func (b *builder) weakMoves(i int32) {
	n := b.old.ChildCount(i)
	b.moveKeys = slices.Grow(b.moveKeys[:0], n)[:n]
	b.moveMembers = slices.Grow(b.moveMembers[:0], n)[:n]
	// Children come last first: filled from the end, the lists are in
	// document order. Their parent is i: stays without reading it.
	at := n
	q := b.oldMatch[i]
	b.kids = b.old.AppendChildren(b.kids[:0], i)
	for _, ci := range b.kids {
		if j := b.oldMatch[ci]; j >= 0 && b.new.Parent[j] == q {
			at--
			b.moveKeys[at] = int(b.newPos[j])
			b.moveMembers[at] = ci
		}
	}
	keys, members := b.moveKeys[at:], b.moveMembers[at:]
	if len(members) < 2 {
		return
	}
	// Children still in order all stay, whatever they weigh: most lists
	// are, and their weights (four bytes a node, read nowhere else in
	// the delta) are read only for the others.
	inOrder := true
	for k := 1; k < len(keys) && inOrder; k++ {
		inOrder = keys[k] > keys[k-1]
	}
	if inOrder {
		return
	}
	b.moveWeights = slices.Grow(b.moveWeights[:0], len(members))[:len(members)]
	weights := b.moveWeights
	for k, ci := range members {
		weights[k] = float64(b.old.Weight[ci])
	}
	if b.pinned != nil {
		heavy := 1.0
		for _, w := range weights {
			heavy += w
		}
		for k, ci := range members {
			if b.pinned(b.old.XID[ci]) {
				weights[k] = heavy
			}
		}
	}
	keep := heaviestIncreasing(keys, weights, &b.lis)
	for k, ci := range members {
		if !keep[k] {
			b.marks[ci] |= movedMark // weak move
		}
	}
}

// valueChanged reports whether the matched leaf i has a new value (or
// target).
func (b *builder) valueChanged(i int32) bool { return b.marks[i]&changedMark != 0 }

// moved reports whether the matched old node i is moved.
func (b *builder) moved(i int32) bool { return b.marks[i]&movedMark != 0 }

// The bits of builder.marks.
const (
	movedMark uint8 = 1 << iota
	changedMark
)

// xidIndex maps XIDs to post indexes: a slice when the XIDs are dense enough,
// a map otherwise.
type xidIndex struct {
	dense  []int32 // dense[x] = index+1, 0 for absent
	sparse map[tree.XID]int32
}

func newXIDIndex(f *tree.Flat, version string) (*xidIndex, error) {
	if len(f.XID) != f.Len() {
		return nil, fmt.Errorf("%s version: node %s has no XID", version, f.Path(f.Root()))
	}
	var max tree.XID
	for i, x := range f.XID {
		if x == 0 {
			return nil, fmt.Errorf("%s version: node %s has no XID", version, f.Path(int32(i)))
		}
		max = tree.XID(maxU(uint64(max), uint64(x)))
	}
	idx := &xidIndex{}
	if max <= tree.XID(4*f.Len()+1024) {
		idx.dense = make([]int32, max+1)
	} else {
		idx.sparse = make(map[tree.XID]int32, f.Len())
	}
	for i, x := range f.XID {
		if _, dup := idx.get(x); dup {
			return nil, fmt.Errorf("%s version: XID %d is used twice", version, x)
		}
		if idx.dense != nil {
			idx.dense[x] = int32(i) + 1
		} else {
			idx.sparse[x] = int32(i)
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

// push appends v to s, doubling s's room when it is full. append grows a
// long slice a quarter at a time, allocating about five times its final
// size on the way: the lists of deletes and inserts of a large document
// hold tens of thousands of nodes.
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 16))
	}
	return append(s, v)
}
