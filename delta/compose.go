package delta

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// Compose returns the delta from V0 to V2, given d1 from V0 to V1 and d2
// from V1 to V2, without the documents (the seed's aggregation, thesis
// §4.2.15 and §4.4). Apply(a, Compose(d1, d2)) equals Apply(Apply(a, d1), d2),
// content and XIDs, for every document a that d1 fits.
//
// Everything the two deltas say about the middle version V1 (the subtrees
// d1 inserts and d2 deletes, the parents and positions of all their
// operations) is assembled into a partial V1: a forest in which the
// siblings no operation names are stand-ins, and elements known only by
// their XID are opaque. Applying Invert(d1) to it gives a partial V0,
// applying d2 a partial V2, both exact wherever they are known, and the
// composed delta is built from the two as Build does, with the stand-ins
// pinned in place. This is the seed's cut-and-swap algorithm carried out on
// positions: a move is cut into its halves, an insert followed by a delete
// of the same node cancels out, a delete inside an inserted subtree is
// folded into the insert's content, the content of a deleted subtree is
// brought back to its V0 values, positions are re-mapped across the other
// delta's inserts and deletes, a move back to the same place and an update
// back to the same value vanish. Renames and attribute operations on
// elements known only by their XID are combined per element and name (ai
// then au is ai; au then ad is ad; ad then ai is au, or nothing when the
// value comes back).
//
// Compose fails, with an error wrapping ErrNotComposable, when d2 does not
// fit the version d1 produces (their XID-maps differ, or they disagree on a
// node, a position or a value of V1). It fails with one wrapping
// ErrNeedsDocuments (which wraps ErrNotComposable) when the composed delta
// needs what only the versions hold: an operation on a node neither delta
// holds, or the namespace in scope at a content the other delta holds
// where a declaration may have changed above it (see the package doc's
// Composition). For any such failure, and as a reference, ComposeWith
// composes with the documents.
//
// The result is in canonical order (Canonicalize); its From and FromXIDMap
// are d1's, its To and ToXIDMap d2's. Its errors begin "compose: ".
func Compose(d1, d2 *Delta) (*Delta, error) {
	d, err := compose(d1, d2)
	if err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	return d, nil
}

// compose is Compose, its errors without "compose: ", for ComposeAll,
// which names the delta of the chain instead.
func compose(d1, d2 *Delta) (*Delta, error) {
	if err := d1.Validate(); err != nil {
		return nil, fmt.Errorf("first delta: %w", err)
	}
	if err := d2.Validate(); err != nil {
		return nil, fmt.Errorf("second delta: %w", err)
	}
	if err := Follows(d1, d2); err != nil {
		return nil, fmt.Errorf("the second delta does not follow the first: %w", err)
	}
	if d1.ToXIDMap.Len() > 0 && d2.FromXIDMap.Len() > 0 {
		if err := compareMap(d2.FromXIDMap, d1.ToXIDMap, "the second delta's source XID-map", "the first delta's target XID-map"); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNotComposable, err)
		}
	}
	c := &composer{d1: d1, d2: d2, arena: &tree.Document{}, nodes: map[tree.XID]*tree.Node{}, opaque: map[tree.XID]bool{}}
	v1, err := c.middle()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotComposable, err)
	}
	opts := applyOptions{opaque: c.opaque, skipOutside: true} // composed on its own, below
	v0, err := apply(v1, invertOps(d1), opts)
	if err != nil {
		// Name d1's operation, which invertOps keeps at the same index.
		var oe *OpError
		if errors.As(err, &oe) {
			return nil, fmt.Errorf("%w: the first delta does not lead to the second's source: undoing the first delta's operation %d (%s)%s: %s",
				ErrNotComposable, d1.opNumber(oe.Index), d1.Ops[oe.Index].header(), oe.at(), oe.Msg)
		}
		return nil, fmt.Errorf("%w: the first delta does not lead to the second's source: undoing the first delta: %v", ErrNotComposable, err)
	}
	v2, err := apply(v1, d2, opts)
	if err != nil {
		var oe *OpError
		if errors.As(err, &oe) {
			return nil, fmt.Errorf("%w: the second delta does not fit the first's result: the second delta's operation %d (%s)%s: %s",
				ErrNotComposable, oe.number(), oe.Op, oe.at(), oe.Msg)
		}
		return nil, fmt.Errorf("%w: the second delta does not fit the first's result: second delta's %v", ErrNotComposable, err)
	}
	d, err := build(v0, v2, func(x tree.XID) bool { return x > c.base })
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotComposable, err)
	}
	if err := c.finish(d); err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	d.From, d.To = d1.From, d2.To
	d.FromXIDMap, d.ToXIDMap = d1.FromXIDMap, d2.ToXIDMap
	d.FromFingerprint, d.ToFingerprint = d1.FromFingerprint, d2.ToFingerprint
	keepEnds(d, d1, d2)
	if err := composeNamespaces(d, d1, d2); err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	if d.Outside, err = composeOutside(d1.Outside, d2.Outside); err != nil {
		if errors.Is(err, ErrNeedsDocuments) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", ErrNotComposable, err)
	}
	Canonicalize(d)
	return d, nil
}

// keepEnds gives d, the composition of d1 and d2, what the other delta
// knows of a version an empty one leaves unknown. An empty delta ({} or
// <t/>, which has no XID-maps or fingerprints) changes nothing, so its two
// versions are one: composed first, the version it leads to is the
// composition's source; composed last, the version it starts from is the
// target. Without this, the composition lost the source XID-map and
// fingerprint of the other delta (or its target's), and was undone on
// the wrong XIDs.
func keepEnds(d, d1, d2 *Delta) {
	if d1.Empty() {
		d.From = cmp.Or(d.From, d1.To, d2.From)
		d.FromXIDMap = firstMap(d.FromXIDMap, d1.ToXIDMap, d2.FromXIDMap)
		d.FromFingerprint = cmp.Or(d.FromFingerprint, d1.ToFingerprint, d2.FromFingerprint)
	}
	if d2.Empty() {
		d.To = cmp.Or(d.To, d2.From, d1.To)
		d.ToXIDMap = firstMap(d.ToXIDMap, d2.FromXIDMap, d1.ToXIDMap)
		d.ToFingerprint = cmp.Or(d.ToFingerprint, d2.FromFingerprint, d1.ToFingerprint)
	}
}

// firstMap returns the first of maps that holds XIDs, as cmp.Or does for
// comparable values, or the last.
func firstMap(maps ...tree.XIDRanges) tree.XIDRanges {
	for _, m := range maps[:len(maps)-1] {
		if m.Len() > 0 {
			return m
		}
	}
	return maps[len(maps)-1]
}

// ComposeWith composes d1 and d2 with the documents: it applies both to
// base and builds the delta from base to the result. It is always exact,
// and costs two applications and a Build.
func ComposeWith(base *tree.Document, d1, d2 *Delta) (*Delta, error) {
	v1, err := Apply(base, d1)
	if err != nil {
		return nil, fmt.Errorf("compose: first delta: %w", err)
	}
	v2, err := Apply(v1, d2)
	if err != nil {
		return nil, fmt.Errorf("compose: second delta: %w", err)
	}
	d, err := Build(base, v2)
	if err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	d.From, d.To = d1.From, d2.To
	return d, nil
}

// opaqueName names the stand-ins of a partial version: elements known only
// by their XID, and unknown siblings. No parsed document has this name.
const opaqueName = "\x00vigil-opaque"

type composer struct {
	d1, d2 *Delta
	arena  *tree.Document
	nodes  map[tree.XID]*tree.Node // the nodes of the partial V1
	opaque map[tree.XID]bool       // elements known only by their XID
	base   tree.XID                // the synthetic root; stand-ins are above it
}

// placed is an operation's subtree at its 1-based position.
type placed struct {
	pos int
	x   tree.XID
	op  *Op
}

// middle assembles the partial V1.
func (c *composer) middle() (*tree.Document, error) {
	// Synthetic XIDs start above every XID the deltas mention.
	var max tree.XID
	note := func(x tree.XID) { max = maxXID(max, x) }
	for _, d := range []*Delta{c.d1, c.d2} {
		note(d.FromXIDMap.Max())
		note(d.ToXIDMap.Max())
		note(d.FromXIDMap.Next)
		note(d.ToXIDMap.Next)
		for i := range d.Ops {
			op := &d.Ops[i]
			note(op.Parent)
			note(op.Node)
			for _, x := range op.XIDs.XIDs {
				note(x)
			}
		}
	}
	if max > math.MaxUint64/2 {
		return nil, fmt.Errorf("XIDs too large to compose")
	}
	c.base = max + 1

	// The two descriptions of V1: d1's inserts (side 0) and d2's deletes
	// (side 1), each with its contents and placements.
	var sides [2][]*Op
	var byParent [2]map[tree.XID][]placed
	var kids [2]map[tree.XID][]tree.XID // content children, by content node
	for s := range sides {
		byParent[s] = map[tree.XID][]placed{}
		kids[s] = map[tree.XID][]tree.XID{}
	}
	for i := range c.d1.Ops {
		if op := &c.d1.Ops[i]; op.Kind == Insert {
			sides[0] = append(sides[0], op)
		}
	}
	for i := range c.d2.Ops {
		if op := &c.d2.Ops[i]; op.Kind == Delete {
			sides[1] = append(sides[1], op)
		}
	}
	for s, ops := range sides {
		for _, op := range ops {
			byParent[s][op.Parent] = append(byParent[s][op.Parent], placed{op.Pos, op.Root(), op})
			if op.Content == nil {
				continue
			}
			var err error
			tree.Walk(op.Content, func(n *tree.Node) bool {
				if err != nil {
					return false
				}
				if m, ok := c.nodes[n.XID]; ok {
					if !sameLabel(m, n) {
						err = fmt.Errorf("the deltas disagree on XID %d in the middle version (%s)", n.XID, op.header())
						return false
					}
				} else {
					m := c.arena.NewNode(n.Kind, n.Name, n.Value)
					m.XID = n.XID
					m.Attrs = slices.Clone(n.Attrs)
					c.nodes[n.XID] = m
				}
				if n.Kind == tree.Element {
					ks := make([]tree.XID, len(n.Children))
					for k, ch := range n.Children {
						ks[k] = ch.XID
					}
					kids[s][n.XID] = ks
				}
				return true
			})
			if err != nil {
				return nil, err
			}
		}
	}

	// Child lists: complete for the elements of a content, partial (with
	// stand-ins for the siblings no operation names) for the others.
	lists := map[tree.XID][]tree.XID{}
	var order []tree.XID // deterministic order of the lists
	var contentElems []tree.XID
	for s := range kids {
		for x := range kids[s] {
			contentElems = append(contentElems, x)
		}
	}
	slices.Sort(contentElems)
	for _, x := range contentElems {
		if _, done := lists[x]; done {
			continue
		}
		var full []tree.XID
		for t := range kids {
			ks, ok := kids[t][x]
			if !ok {
				continue
			}
			l, err := mergeList(ks, byParent[t][x])
			if err != nil {
				return nil, fmt.Errorf("children of XID %d: %v", x, err)
			}
			if full != nil && !slices.Equal(full, l) {
				return nil, fmt.Errorf("the deltas disagree on the children of XID %d in the middle version", x)
			}
			full = l
		}
		for t := range kids {
			if _, ok := kids[t][x]; ok {
				continue
			}
			for _, p := range byParent[t][x] {
				if p.pos > len(full) || full[p.pos-1] != p.x {
					return nil, fmt.Errorf("%s: not child %d of XID %d in the middle version", p.op.header(), p.pos, x)
				}
			}
		}
		lists[x] = full
		order = append(order, x)
	}
	if err := c.partialLists(lists, &order, byParent); err != nil {
		return nil, err
	}

	// Elements known only by their XID.
	need := func(x tree.XID) {
		if _, ok := c.nodes[x]; !ok {
			n := c.arena.NewElement(opaqueName)
			n.XID = x
			c.nodes[x] = n
			c.opaque[x] = true
		}
	}
	for _, p := range order {
		need(p)
	}
	for s := range sides {
		for _, op := range sides[s] {
			need(op.Root())
		}
	}
	for _, d := range []*Delta{c.d1, c.d2} {
		for i := range d.Ops {
			if op := &d.Ops[i]; op.Kind != Delete && op.Kind != Insert {
				need(op.Node)
			}
		}
	}

	// Attach.
	for _, n := range c.nodes {
		n.Parent, n.Children = nil, nil
	}
	next := c.base + 1
	for _, p := range order {
		pn := c.nodes[p]
		if pn.Kind != tree.Element {
			return nil, fmt.Errorf("XID %d is a %s in the middle version, and has children", p, pn.Kind)
		}
		pn.Children = make([]*tree.Node, len(lists[p]))
		for k, x := range lists[p] {
			var n *tree.Node
			if x == 0 {
				n = c.arena.NewElement(opaqueName)
				n.XID = next
				next++
			} else {
				n = c.nodes[x]
				if n.Parent != nil {
					return nil, fmt.Errorf("XID %d is a child of both XID %d and XID %d in the middle version", x, n.Parent.XID, p)
				}
			}
			n.Parent = pn
			pn.Children[k] = n
		}
	}
	root := c.arena.NewElement(opaqueName)
	root.XID = c.base
	var tops []tree.XID
	for x, n := range c.nodes {
		if n.Parent == nil {
			tops = append(tops, x)
		}
	}
	slices.Sort(tops)
	for _, x := range tops {
		root.AppendChild(c.nodes[x])
	}
	// A cycle (a node its own ancestor) leaves nodes unreachable.
	if size := root.Size(); size != len(c.nodes)+1+int(next-c.base-1) {
		return nil, fmt.Errorf("the operations' parents form a cycle in the middle version")
	}
	return &tree.Document{Root: root, NextXID: next}, nil
}

// partialLists adds the child lists of the middle version's elements that
// are in no content: operations name some children at their positions;
// the others are stand-ins (XID 0 here), as many as the positions of both
// deltas need.
func (c *composer) partialLists(lists map[tree.XID][]tree.XID, order *[]tree.XID, byParent [2]map[tree.XID][]placed) error {
	type counts struct{ maxD1, nD1, maxI2, nI2 int }
	other := map[tree.XID]*counts{}
	plainDel1, plainIns2 := map[tree.XID]bool{}, map[tree.XID]bool{}
	ins1, del2 := map[tree.XID]bool{}, map[tree.XID]bool{}
	for _, op := range c.d1.Ops {
		for _, x := range op.XIDs.XIDs {
			if op.Kind == Delete && op.Content != nil {
				plainDel1[x] = true
			}
			if op.Kind == Insert {
				ins1[x] = true
			}
		}
	}
	for _, op := range c.d2.Ops {
		for _, x := range op.XIDs.XIDs {
			if op.Kind == Insert && op.Content != nil {
				plainIns2[x] = true
			}
			if op.Kind == Delete {
				del2[x] = true
			}
		}
	}
	var parents []tree.XID
	add := func(p tree.XID) *counts {
		k, ok := other[p]
		if !ok {
			k = &counts{}
			other[p] = k
			parents = append(parents, p)
		}
		return k
	}
	for s := range byParent {
		for p := range byParent[s] {
			add(p)
		}
	}
	for i := range c.d1.Ops {
		op := &c.d1.Ops[i]
		if op.Kind == Delete && (!plainDel1[op.Parent] || ins1[op.Parent]) {
			k := add(op.Parent)
			k.maxD1, k.nD1 = max(k.maxD1, op.Pos), k.nD1+1
		}
	}
	for i := range c.d2.Ops {
		op := &c.d2.Ops[i]
		if op.Kind == Insert && (!plainIns2[op.Parent] || del2[op.Parent]) {
			k := add(op.Parent)
			k.maxI2, k.nI2 = max(k.maxI2, op.Pos), k.nI2+1
		}
	}
	slices.Sort(parents)
	total := 0
	for _, p := range parents {
		if _, full := lists[p]; full {
			continue
		}
		if _, inContent := c.nodes[p]; inContent && c.nodes[p].Kind != tree.Element {
			return fmt.Errorf("XID %d is a %s in the middle version, and has children", p, c.nodes[p].Kind)
		}
		k := other[p]
		at := map[int]tree.XID{}
		n1, n2 := len(byParent[0][p]), len(byParent[1][p])
		length := max(k.maxD1+n1-k.nD1, k.maxI2+n2-k.nI2)
		for s := range byParent {
			for _, q := range byParent[s][p] {
				if y, ok := at[q.pos]; ok && y != q.x {
					return fmt.Errorf("%s: child %d of XID %d is XID %d for the other delta", q.op.header(), q.pos, p, y)
				}
				at[q.pos] = q.x
				length = max(length, q.pos)
			}
		}
		total += length
		if total > tree.MaxXIDMapLen {
			return fmt.Errorf("positions too large")
		}
		l := make([]tree.XID, length)
		for pos, x := range at {
			l[pos-1] = x
		}
		lists[p] = l
		*order = append(*order, p)
	}
	return nil
}

// mergeList places the placed subtrees at their positions among kids.
func mergeList(kids []tree.XID, ops []placed) ([]tree.XID, error) {
	out := make([]tree.XID, len(kids)+len(ops))
	for _, p := range ops {
		if p.pos > len(out) {
			return nil, fmt.Errorf("%s: position %d out of range (%d children)", p.op.header(), p.pos, len(out))
		}
		if out[p.pos-1] != 0 {
			return nil, fmt.Errorf("%s: position %d taken twice", p.op.header(), p.pos)
		}
		out[p.pos-1] = p.x
	}
	k := 0
	for i := range out {
		if out[i] == 0 {
			out[i] = kids[k]
			k++
		}
	}
	return out, nil
}

func sameLabel(a, b *tree.Node) bool {
	return tree.SameLeaf(a, b) && sameAttrs(a.Attrs, b.Attrs)
}

// finish checks that the built delta names no stand-in and adds the
// combined renames and attribute operations of opaque elements.
func (c *composer) finish(d *Delta) error {
	for i := range d.Ops {
		op := &d.Ops[i]
		if op.Kind != Delete && op.Kind != Insert {
			if c.opaque[op.Node] {
				return fmt.Errorf("%w: an operation on an element neither delta holds (%s); use ComposeWith", ErrNeedsDocuments, op.header())
			}
			continue
		}
		bad := op.Parent >= c.base
		for _, x := range op.XIDs.XIDs {
			bad = bad || x >= c.base || (!op.Move && c.opaque[x])
		}
		if bad {
			return fmt.Errorf("%w: the composed delta would need a part of a version that neither delta holds (%s); use ComposeWith", ErrNeedsDocuments, op.header())
		}
	}
	type key struct {
		x      tree.XID
		name   string
		rename bool
	}
	collect := func(dd *Delta) map[key]*Op {
		m := map[key]*Op{}
		for i := range dd.Ops {
			op := &dd.Ops[i]
			if op.Kind != Delete && op.Kind != Insert && c.opaque[op.Node] {
				m[key{op.Node, op.Name, op.Kind == Rename}] = op
			}
		}
		return m
	}
	m1, m2 := collect(c.d1), collect(c.d2)
	keys := make([]key, 0, len(m1))
	for k := range m1 {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y key) int {
		if x.x != y.x {
			return cmp.Compare(x.x, y.x)
		}
		return strings.Compare(x.name, y.name)
	})
	for _, k := range keys {
		a := m1[k]
		b, ok := m2[k]
		if !ok {
			d.Ops = append(d.Ops, *a)
			continue
		}
		op, keep, err := composeNodeOps(a, b)
		if err != nil {
			return err
		}
		if keep {
			d.Ops = append(d.Ops, op)
		}
	}
	for k, b := range m2 {
		if _, ok := m1[k]; !ok {
			d.Ops = append(d.Ops, *b)
		}
	}
	return nil
}

// composeNodeOps combines two operations on the same element's name or
// attribute; keep is false when together they change nothing.
func composeNodeOps(a, b *Op) (Op, bool, error) {
	if a.Kind == Rename {
		if a.NewValue != b.OldValue {
			return Op{}, false, fmt.Errorf("%w: element %d is renamed to %q, then from %q", ErrNotComposable, a.Node, a.NewValue, b.OldValue)
		}
		return Op{Kind: Rename, Node: a.Node, OldValue: a.OldValue, NewValue: b.NewValue}, a.OldValue != b.NewValue, nil
	}
	// The attribute before a, between a and b, and after b.
	type state struct {
		has bool
		v   string
	}
	before := func(op *Op) state { return state{op.Kind != AttrInsert, op.OldValue} }
	after := func(op *Op) state { return state{op.Kind != AttrDelete, op.NewValue} }
	if mid, want := after(a), before(b); mid.has != want.has || (mid.has && mid.v != want.v) {
		return Op{}, false, fmt.Errorf("%w: attribute %s of element %d: the first delta leaves %s, the second expects %s", ErrNotComposable, a.Name, a.Node, describe(mid.has, mid.v), describe(want.has, want.v))
	}
	s0, s2 := before(a), after(b)
	op := Op{Node: a.Node, Name: a.Name}
	switch {
	case !s0.has && !s2.has:
		return op, false, nil
	case !s0.has:
		op.Kind, op.NewValue = AttrInsert, s2.v
	case !s2.has:
		op.Kind, op.OldValue = AttrDelete, s0.v
	default:
		op.Kind, op.OldValue, op.NewValue = AttrUpdate, s0.v, s2.v
		return op, s0.v != s2.v, nil
	}
	return op, true, nil
}

func describe(has bool, v string) string {
	if !has {
		return "no value"
	}
	return fmt.Sprintf("%q", clip(v))
}
