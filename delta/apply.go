package delta

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// Apply returns the version that d turns doc into. doc is not changed: Apply
// works on a clone, so a delta that does not fit is refused with an error
// and leaves doc as it was.
//
// It proceeds as the reference tool does (thesis §4.4):
//  1. deletes: every deleted or moved subtree is located by its parent and
//     its position in the old version and detached; a moved subtree is
//     parked by its XID, a deleted one must equal the operation's content,
//     XIDs included, and its XIDs are freed;
//  2. inserts, grouped by parent in ascending position (positions in the new
//     version): a moved subtree comes back from the parking area, any other
//     brings its content, whose XIDs must not be in use;
//  3. renames and attribute operations, each checked against the element's
//     current name or value.
//
// The parking area must end empty and every node must be reachable from the
// root (a move into its own subtree is refused). When d carries XID-maps,
// the source's must equal d.FromXIDMap and the result's d.ToXIDMap. The
// result's NextXID is the largest of d.ToXIDMap.Next, doc.NextXID and the
// largest XID plus one; one that would be math.MaxUint64, leaving no XID to
// allocate after it, is refused.
//
// Errors name the operation, 1-based in d's order, after its place in the
// file d was decoded from (an *OpError), and wrap ErrConflict or
// ErrMalformed (an "internal error", a bug of Apply's, wraps neither):
//
//	line 12, column 5: operation 3 (d par=17 pos=2 xm=(12-13)): parent XID 17 not in document
//
// Apply runs in time linear in the size of doc plus the size of d.
func Apply(doc *tree.Document, d *Delta) (*tree.Document, error) {
	return apply(doc, d, applyOptions{checkMaps: true})
}

// ApplyAll returns the version that the deltas ds, applied in turn, turn
// doc into, each checked as Apply checks it. doc is not changed: ApplyAll
// clones it once and applies every delta to that clone in place, where
// Apply in a loop would clone the document once a step. An error names the
// step (a *StepError, 1-based) and leaves doc as it was.
func ApplyAll(doc *tree.Document, ds []*Delta) (*tree.Document, error) {
	if doc.Root == nil {
		return nil, fmt.Errorf("apply delta: document without a root element")
	}
	doc = doc.Clone()
	if err := ApplyAllInPlace(doc, ds); err != nil {
		return nil, err
	}
	return doc, nil
}

// ApplyAllInPlace is ApplyAll on doc itself, for a caller that has no use
// for doc's version once the deltas are applied, nor after an error, which
// leaves doc half changed: it spares ApplyAll's clone, as much memory again
// as the document takes (vigil patch).
func ApplyAllInPlace(doc *tree.Document, ds []*Delta) error {
	if doc.Root == nil {
		return fmt.Errorf("apply delta: document without a root element")
	}
	// Each step keeps the index of XIDs up to date, and it is kept for the
	// next step instead of built again when the next delta's source map is
	// the map the previous step's result was checked against (compared run
	// by run, a few runs for most), or when neither delta has a map to
	// check.
	for i := 1; i < len(ds); i++ {
		// Checked before anything is applied.
		if from, to := ds[i].FromFingerprint, ds[i-1].ToFingerprint; from != 0 && to != 0 && from != to {
			return &StepError{Step: i + 1, Err: fmt.Errorf("%w: its source is not the previous delta's target (fingerprint %016x, not %016x)",
				ErrOtherSource, uint64(from), uint64(to))}
		}
	}
	var index *nodeIndex
	var checked tree.XIDRanges
	for i, d := range ds {
		opts := applyOptions{checkMaps: true, inPlace: true}
		if index != nil && d.FromXIDMap.Equal(checked) {
			opts.index = index
		}
		a, err := applyStep(doc, d, opts)
		if err != nil {
			if len(ds) == 1 {
				return err
			}
			return &StepError{Step: i + 1, Err: err}
		}
		index, checked = a.byXID, d.ToXIDMap
	}
	return nil
}

type applyOptions struct {
	// inPlace applies the delta to doc itself, which an error leaves half
	// changed, instead of to a clone.
	inPlace bool
	// index, when set, is doc's index of XIDs, and doc is known to fit the
	// delta's source map (ApplyAll).
	index *nodeIndex
	// checkMaps compares the XID-maps of both versions with d's.
	checkMaps bool
	// opaque lists elements whose name and attributes are unknown (Compose
	// works on partial documents): rename and attribute operations on them
	// are skipped.
	opaque map[tree.XID]bool
	// skipOutside leaves what stands outside the root element alone (a
	// partial document has none).
	skipOutside bool
}

type applier struct {
	doc    *tree.Document
	d      *Delta
	opts   applyOptions
	byXID  *nodeIndex
	parked map[tree.XID]*tree.Node
}

func apply(doc *tree.Document, d *Delta, opts applyOptions) (*tree.Document, error) {
	a, err := applyStep(doc, d, opts)
	if err != nil {
		return nil, err
	}
	return a.doc, nil
}

// applyStep is apply, returning the applier with the result and its index.
// An error about one of d's operations names its place in d's file.
func applyStep(doc *tree.Document, d *Delta, opts applyOptions) (*applier, error) {
	a, err := applyUnplaced(doc, d, opts)
	if err != nil {
		return nil, d.locate(err)
	}
	return a, nil
}

func applyUnplaced(doc *tree.Document, d *Delta, opts applyOptions) (*applier, error) {
	if doc.Root == nil {
		return nil, fmt.Errorf("apply delta: document without a root element")
	}
	if err := d.validate(); err != nil {
		return nil, err
	}
	if !opts.inPlace {
		doc = doc.Clone()
	}
	a := &applier{doc: doc, d: d, opts: opts, parked: make(map[tree.XID]*tree.Node)}
	var want tree.XIDRanges
	if opts.checkMaps {
		want = d.FromXIDMap
	}
	if !opts.skipOutside {
		if err := applyOutside(a.doc, d.Outside); err != nil {
			return nil, err
		}
	}
	if a.byXID = opts.index; a.byXID == nil {
		var err error
		if a.byXID, err = indexTree(a.doc.Root, want, maxXID(doc.NextXID, d.ToXIDMap.Next)); err != nil {
			return nil, fmt.Errorf("apply delta: %w", err)
		}
	}
	if err := a.deletes(); err != nil {
		return nil, err
	}
	if err := a.inserts(); err != nil {
		return nil, err
	}
	if err := a.nodeChanges(); err != nil {
		return nil, err
	}
	if err := a.finish(); err != nil {
		return nil, err
	}
	return a, nil
}

// compareMap reports the first difference between two XID-maps.
func compareMap(got, want tree.XIDRanges, gotName, wantName string) error {
	if at, g, w, ok := got.FirstDifference(want); ok {
		return fmt.Errorf("%s differs from %s at node %d in post-order: XID %d, not %d", gotName, wantName, at+1, g, w)
	}
	if got.Len() != want.Len() {
		return fmt.Errorf("%s has %d XIDs, %s %d", gotName, got.Len(), wantName, want.Len())
	}
	return nil
}

// deletes detaches every deleted and moved subtree. Detaching is lazy: the
// node stays in its parent's child list, with a nil Parent, until every
// delete is done, so that all positions refer to the old version whatever
// the order of the operations; the lists are compacted at the end.
func (a *applier) deletes() error {
	var dirty []*tree.Node // parents that lost a child, once each
	seen := make(map[*tree.Node]bool)
	var plain []int
	for i := range a.d.Ops {
		op := &a.d.Ops[i]
		if op.Kind != Delete {
			continue
		}
		p, ok := a.byXID.get(op.Parent)
		if !ok {
			return conflict(i, op, "parent XID %d not in document", op.Parent)
		}
		if p.Kind != tree.Element {
			return conflict(i, op, "parent XID %d is a %s, not an element", op.Parent, p.Kind)
		}
		if op.Pos > len(p.Children) {
			return conflict(i, op, "position %d out of range: parent XID %d has %s", op.Pos, op.Parent, children(len(p.Children)))
		}
		c := p.Children[op.Pos-1]
		if c.XID != op.Root() {
			return conflict(i, op, "child %d of XID %d is XID %d, not %d", op.Pos, op.Parent, c.XID, op.Root())
		}
		if c.Parent != p {
			return conflict(i, op, "XID %d is already deleted", c.XID)
		}
		c.Parent = nil
		if !seen[p] {
			seen[p] = true
			dirty = append(dirty, p)
		}
		if op.Move {
			a.parked[c.XID] = c
		} else {
			plain = append(plain, i)
		}
	}
	// Compare the deleted subtrees once every detachment is known: a
	// subtree's content leaves out its descendants that have operations of
	// their own.
	for _, i := range plain {
		op := &a.d.Ops[i]
		c, _ := a.byXID.get(op.Root())
		if msg := diffDetached(op.Content, c); msg != "" {
			return conflict(i, op, "deleted subtree differs from the document's: %s", msg)
		}
	}
	for _, i := range plain {
		for _, x := range a.d.Ops[i].XIDs.XIDs {
			a.byXID.del(x)
		}
	}
	for _, p := range dirty {
		p.DropDetached()
	}
	return nil
}

// diffDetached compares an operation's content with a document subtree
// whose detached descendants (nil Parent) are left out, XIDs included. It
// returns "" when they are equal.
func diffDetached(content, n *tree.Node) string {
	type pair struct{ x, y *tree.Node }
	stack := []pair{{content, n}}
	var kids []*tree.Node
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := p.x, p.y
		kids = kids[:0]
		for _, c := range y.Children {
			if c.Parent == y {
				kids = append(kids, c)
			}
		}
		where := func() string { return fmt.Sprintf("at XID %d", y.XID) }
		switch {
		case x.XID != y.XID:
			return fmt.Sprintf("XID %d in the delta, %d in the document", x.XID, y.XID)
		case x.Kind != y.Kind:
			return fmt.Sprintf("%s: kind %s in the delta, %s in the document", where(), x.Kind, y.Kind)
		case x.Name != y.Name:
			return fmt.Sprintf("%s: name %q in the delta, %q in the document", where(), x.Name, y.Name)
		case x.Value != y.Value:
			dv, docv := clipPair(x.Value, y.Value)
			return fmt.Sprintf("%s: value %q in the delta, %q in the document", where(), dv, docv)
		case !sameAttrs(x.Attrs, y.Attrs):
			return fmt.Sprintf("%s: attributes %v in the delta, %v in the document", where(), x.Attrs, y.Attrs)
		case len(x.Children) != len(kids):
			return fmt.Sprintf("%s: %d children in the delta, %d in the document", where(), len(x.Children), len(kids))
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, pair{x.Children[i], kids[i]})
		}
	}
	return ""
}

// sameAttrs compares attribute lists as sets.
func sameAttrs(a, b []tree.Attr) bool {
	if len(a) != len(b) {
		return false
	}
	if slices.Equal(a, b) {
		return true
	}
	if len(a) > 16 {
		cmp := func(x, y tree.Attr) int {
			if c := strings.Compare(x.Name, y.Name); c != 0 {
				return c
			}
			return strings.Compare(x.Value, y.Value)
		}
		sa, sb := slices.Clone(a), slices.Clone(b)
		slices.SortFunc(sa, cmp)
		slices.SortFunc(sb, cmp)
		return slices.Equal(sa, sb)
	}
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 40 {
		return strings.ToValidUTF8(s[:37], "") + "..."
	}
	return s
}

// clipPair clips two values that differ around where they first differ, so
// that a message shows the difference: two long values with a common start
// would otherwise both read as that start.
func clipPair(a, b string) (string, string) {
	if len(a) <= 40 && len(b) <= 40 {
		return a, b
	}
	d := 0
	for d < len(a) && d < len(b) && a[d] == b[d] {
		d++
	}
	from := max(0, d-12)
	cut := func(s string) string {
		if from >= len(s) {
			return "..."
		}
		out := strings.ToValidUTF8(s[from:min(len(s), from+37)], "")
		if from > 0 {
			out = "..." + out
		}
		if from+37 < len(s) {
			out += "..."
		}
		return out
	}
	return cut(a), cut(b)
}

// children says n children: "1 child", "3 children".
func children(n int) string {
	if n == 1 {
		return "1 child"
	}
	return fmt.Sprintf("%d children", n)
}

// inserts attaches the inserted and moved subtrees, parent by parent.
func (a *applier) inserts() error {
	nodes := make(map[int]*tree.Node)
	var order []tree.XID // parents in the order of their first insert
	groups := make(map[tree.XID][]int)
	for i := range a.d.Ops {
		op := &a.d.Ops[i]
		if op.Kind != Insert {
			continue
		}
		if op.Move {
			c, ok := a.parked[op.Root()]
			if !ok {
				return conflict(i, op, "XID %d was not detached by a move", op.Root())
			}
			delete(a.parked, op.Root())
			nodes[i] = c
		} else {
			for _, x := range op.XIDs.XIDs {
				if _, used := a.byXID.get(x); used {
					return conflict(i, op, "inserted XID %d is in use in the document", x)
				}
			}
			c := a.doc.CloneNode(op.Content)
			tree.Walk(c, func(n *tree.Node) bool { a.byXID.set(n.XID, n); return true })
			nodes[i] = c
		}
		if _, ok := groups[op.Parent]; !ok {
			order = append(order, op.Parent)
		}
		groups[op.Parent] = append(groups[op.Parent], i)
	}
	for _, px := range order {
		g := groups[px]
		first := &a.d.Ops[g[0]]
		p, ok := a.byXID.get(px)
		if !ok {
			return conflict(g[0], first, "parent XID %d not in document", px)
		}
		if p.Kind != tree.Element {
			return conflict(g[0], first, "parent XID %d is a %s, not an element", px, p.Kind)
		}
		slices.SortStableFunc(g, func(i, j int) int { return a.d.Ops[i].Pos - a.d.Ops[j].Pos })
		n := len(p.Children) + len(g)
		out := make([]*tree.Node, 0, n)
		k := 0 // next old child
		for gi, i := range g {
			op := &a.d.Ops[i]
			if gi > 0 && a.d.Ops[g[gi-1]].Pos == op.Pos {
				return conflict(i, op, "position %d of parent XID %d is inserted twice (also by operation %d)", op.Pos, px, a.d.opNumber(g[gi-1]))
			}
			for len(out) < op.Pos-1 && k < len(p.Children) {
				out = append(out, p.Children[k])
				k++
			}
			if len(out) < op.Pos-1 {
				return conflict(i, op, "position %d out of range: parent XID %d would have %s, so position %d at most", op.Pos, px, children(len(out)), len(out)+1)
			}
			c := nodes[i]
			c.Parent = p
			out = append(out, c)
		}
		out = append(out, p.Children[k:]...)
		p.Children = out
	}
	return nil
}

// nodeChanges applies renames and attribute operations.
func (a *applier) nodeChanges() error {
	var attrs attrEditor
	defer attrs.finish()
	for i := range a.d.Ops {
		op := &a.d.Ops[i]
		switch op.Kind {
		case AttrDelete, AttrInsert, AttrUpdate, Rename:
		default:
			continue
		}
		n, ok := a.byXID.get(op.Node)
		if !ok {
			return conflict(i, op, "element XID %d not in document", op.Node)
		}
		if n.Kind != tree.Element {
			return conflict(i, op, "XID %d is a %s, not an element", op.Node, n.Kind)
		}
		if a.opts.opaque[op.Node] {
			continue
		}
		v, has := attrs.get(n, op.Name)
		switch op.Kind {
		case Rename:
			if n.Name != op.OldValue {
				return conflict(i, op, "element XID %d is named %q, not %q", op.Node, n.Name, op.OldValue)
			}
			n.Name = op.NewValue
		case AttrInsert:
			if has {
				return conflict(i, op, "element XID %d already has attribute %s=%q", op.Node, op.Name, clip(v))
			}
			attrs.add(n, op.Name, op.NewValue)
		case AttrDelete, AttrUpdate:
			if !has {
				return conflict(i, op, "element XID %d has no attribute %s", op.Node, op.Name)
			}
			if v != op.OldValue {
				is, want := clipPair(v, op.OldValue)
				return conflict(i, op, "attribute %s of element XID %d is %q, not %q", op.Name, op.Node, is, want)
			}
			if op.Kind == AttrDelete {
				attrs.remove(n, op.Name)
			} else {
				attrs.set(n, op.Name, op.NewValue)
			}
		}
	}
	return nil
}

// finish checks that every moved subtree came back and that the result is
// one tree, and sets NextXID.
func (a *applier) finish() error {
	if len(a.parked) > 0 {
		// Validate pairs every move, so this is a broken invariant.
		return fmt.Errorf("apply delta: internal error: %d moved subtrees were not put back", len(a.parked))
	}
	if a.opts.index != nil && !a.d.reshapes() && a.d.FromXIDMap.Equal(a.d.ToXIDMap) {
		// A step of ApplyAll on a document known to fit its source map,
		// that only renames, changes attributes and updates texts in
		// place: the tree's shape and XIDs are the source's, which are
		// the target's, and the largest XID is the one the previous step
		// counted. Walking the whole document to find so would cost each
		// such step the size of the document instead of its own.
		next := maxXID(a.d.ToXIDMap.Next, a.doc.NextXID)
		if next == math.MaxUint64 {
			return lastNextXID(next)
		}
		a.doc.NextXID = next
		return nil
	}
	reached := 0
	var max tree.XID
	check := a.opts.checkMaps && a.d.ToXIDMap.Len() > 0
	want := a.d.ToXIDMap.Cursor()
	differs := false
	tree.PostOrder(a.doc.Root, func(n *tree.Node) {
		if check && !differs {
			if want.Done() || want.XID() != n.XID {
				differs = true
			} else {
				want.Next()
			}
		}
		reached++
		max = maxXID(max, n.XID)
	})
	if reached != a.byXID.len() {
		return a.cycle()
	}
	if check && (differs || reached != a.d.ToXIDMap.Len()) {
		err := compareMap(tree.RangesOf(tree.SubtreeXIDMap(a.doc.Root).XIDs, 0), a.d.ToXIDMap, "the result's XID-map", "the delta's target XID-map")
		return fmt.Errorf("%w: %v", ErrConflict, err)
	}
	if max == math.MaxUint64 {
		// Validate refuses an insert of it: the source held it.
		return fmt.Errorf("%w: the result holds XID %d, the largest, which leaves none to allocate next", ErrConflict, max)
	}
	next := maxXID(a.d.ToXIDMap.Next, a.doc.NextXID)
	if next == math.MaxUint64 {
		return lastNextXID(next)
	}
	a.doc.NextXID = maxXID(next, max+1)
	return nil
}

// lastNextXID is the error of a result whose next XID would be next, the
// largest: the one allocated after it would be 0.
func lastNextXID(next tree.XID) error {
	return fmt.Errorf("%w: the result's next XID %d, the largest, leaves none to allocate after it", ErrConflict, next)
}

// cycle returns the error of a delta that moves a node into its own
// subtree, once the walk of the result has missed nodes: the moved nodes
// the walk from the root does not reach. (Only a cyclic move cuts nodes off
// the root: every other node is attached where an operation or the source
// put it.)
func (a *applier) cycle() error {
	reached := make(map[*tree.Node]bool, a.byXID.len())
	tree.PostOrder(a.doc.Root, func(n *tree.Node) { reached[n] = true })
	for i := range a.d.Ops {
		op := &a.d.Ops[i]
		if n, ok := a.byXID.get(op.Root()); op.Kind == Insert && op.Move && ok && !reached[n] {
			return conflict(i, op, "XID %d is moved into its own subtree", op.Root())
		}
	}
	return fmt.Errorf("apply delta: internal error: %d nodes are cut off the root, and no move is cyclic", a.byXID.len()-len(reached))
}

// reshapes reports whether d may change the shape of the tree or its XIDs:
// whether it inserts, deletes or moves anything, other than a text update
// whose new text keeps the old one's XID and place.
func (d *Delta) reshapes() bool {
	type place struct {
		parent tree.XID
		pos    int
	}
	var updated map[tree.XID]place // the deleted halves of updates
	for i := range d.Ops {
		op := &d.Ops[i]
		switch {
		case op.Kind != Insert && op.Kind != Delete:
		case !op.Update || op.Move || len(op.XIDs.XIDs) != 1:
			return true
		case op.Kind == Delete:
			if updated == nil {
				updated = map[tree.XID]place{}
			}
			updated[op.Root()] = place{op.Parent, op.Pos}
		default:
			if p, ok := updated[op.Root()]; !ok || p != (place{op.Parent, op.Pos}) {
				return true
			}
			delete(updated, op.Root())
		}
	}
	return len(updated) > 0
}

func maxXID(a, b tree.XID) tree.XID {
	if a > b {
		return a
	}
	return b
}
