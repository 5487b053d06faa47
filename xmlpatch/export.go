package xmlpatch

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// Export returns an RFC 5261 patch that turns old into the version the
// delta d leads to. old must carry the XIDs d was computed against (as
// treediff.Diff leaves them, or as Document.SetXIDMap gives them); it is
// not changed.
//
// The operations apply one after the other, each to the result of the one
// before, and their selectors locate nodes as they stand at that point:
// Export computes them on a copy of old that it changes as it goes. In
// order:
//
//  1. removes: each deleted or moved subtree whose parent stays (not the
//     ones inside another), texts first, then from the end of the
//     document to its start; a white-space text the delta deletes beside
//     a removed element, comment or processing instruction goes with it
//     (ws="before", "after" or "both"). No remove leaves two texts side
//     by side, which XPath's data model would join: a text that would
//     come beside another is removed too, and added again in step 2;
//  2. adds: each inserted or moved subtree whose parent stays, as it is in
//     the new version (what the delta puts inside it included), parent by
//     parent, consecutive ones in one <add>, as XPath's data model has
//     them: without empty texts, and a text added beside one joined with
//     it;
//  3. in place: text, comment and processing-instruction updates become
//     a <replace> of the node (text()[k]), or a <remove> of a text
//     updated to the empty string, attribute operations an <add
//     type="@a">, <replace sel=".../@a"> or <remove sel=".../@a">, and a
//     rename, or a change of a namespace declaration, a <replace> of the
//     whole element as it ends up;
//  4. what stands around the root element (comments and processing
//     instructions before the DOCTYPE, between it and the root, and after
//     the root), each part on its own: replaced in place where as many
//     nodes of the same kinds change, else the new ones added beside a
//     neighbour that stays and the old ones removed.
//
// The result is checked against delta.Apply(old, d) before it is
// returned; a broken invariant of Export's own, a bug, is an "internal
// error", not a panic. Export fails, wrapping ErrInexpressible, on a change RFC 5261
// cannot state: a changed DOCTYPE, a comment or processing instruction
// added before a DOCTYPE that nothing precedes, or content XML cannot
// hold.
func Export(old *tree.Document, d *delta.Delta) (_ *Patch, err error) {
	defer recoverInternal(&err)
	if old.Root == nil {
		return nil, errors.New("xml patch: document without a root element")
	}
	target, err := delta.Apply(old, d)
	if err != nil {
		return nil, fmt.Errorf("xml patch: the delta does not fit the document: %w", err)
	}
	p, err := export(old, d, target, true)
	if errors.Is(err, errMisplaced) {
		// An update that also moves its text among its siblings: as a
		// remove and an add.
		p, err = export(old, d, target, false)
	}
	if err != nil {
		return nil, err
	}
	if err := Encode(io.Discard, p); err != nil {
		return nil, err
	}
	return p, nil
}

// errMisplaced is an export whose in-place updates leave a node elsewhere
// than the delta puts it.
var errMisplaced = errors.New("xml patch: export does not rebuild the delta's target")

type exporter struct {
	work, target *tree.Document
	d            *delta.Delta
	dops         []delta.Op             // the delta's operations, and those keepTextsApart adds
	inPlace      map[tree.XID]*delta.Op // updates done in place: the insert half, by the XID of the delete half
	byXID        map[tree.XID]*tree.Node
	tByXID       map[tree.XID]*tree.Node
	fresh        *freshPrefixes
	added        map[*tree.Node]bool // roots of the subtrees the adds brought, as in the target
	sib          *siblings           // the positions of the working copy's nodes among their siblings
	texts        textJoiner          // joins the texts an add puts beside one, as Apply does
	ops          []Op
	// w counts the attributes the export reads, and the frames its
	// namespace lookups go through; it has no limit.
	w *work
	// root is the scope at the document node, and sel the buffer the
	// selectors are written in, kept from one to the next.
	root *scope
	sel  []byte
}

// noSiblingIndex makes Export and Apply count siblings afresh at each
// step, as a reference for the tests of the index.
var noSiblingIndex = false

func export(old *tree.Document, d *delta.Delta, target *tree.Document, inPlace bool) (*Patch, error) {
	return newExporter(old, d, target, inPlace).run()
}

// newExporter returns an exporter of d, which leads from old to target;
// inPlace makes updates that keep their XID replacements in place.
func newExporter(old *tree.Document, d *delta.Delta, target *tree.Document, inPlace bool) *exporter {
	x := &exporter{
		work:    old.Clone(),
		target:  target,
		d:       d,
		dops:    slices.Clone(d.Ops),
		inPlace: map[tree.XID]*delta.Op{},
		fresh:   newFreshPrefixes(old, target),
		added:   map[*tree.Node]bool{},
		w:       &work{limit: math.MaxInt64},
	}
	if !noSiblingIndex {
		x.sib = newSiblings(nil)
	}
	x.byXID = x.work.ByXID()
	x.tByXID = target.ByXID()
	if inPlace {
		x.findInPlace()
	}
	return x
}

// run computes the patch.
func (x *exporter) run() (*Patch, error) {
	x.keepTextsApart()
	for _, step := range []func() error{x.removes, x.adds, x.changes, x.outside} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	if diff := tree.Diff(x.work.Root, inXPathModel(x.target).Root, tree.ContentAndXIDs); diff != "" {
		return nil, fmt.Errorf("%w: %s", errMisplaced, diff)
	}
	return x.patch(), nil
}

// inXPathModel returns d as XPath's data model has it, which the working
// copy follows as Apply does: without empty texts, and with adjacent ones
// joined (the first keeps its XID). It is d where d holds neither.
func inXPathModel(d *tree.Document) *tree.Document {
	loose := false
	tree.Walk(d.Root, func(n *tree.Node) bool {
		for i, c := range n.Children {
			if c.Kind == tree.Text && (c.Value == "" || i > 0 && n.Children[i-1].Kind == tree.Text) {
				loose = true
			}
		}
		return !loose
	})
	if !loose {
		return d
	}
	d = d.Clone()
	d.Root = normalizeTexts([]*tree.Node{d.Root})[0]
	return d
}

// findInPlace pairs the halves of updates that keep their XID: the text
// stays where it is and changes its value.
func (x *exporter) findInPlace() {
	dels := map[tree.XID]*delta.Op{}
	for i := range x.dops {
		op := &x.dops[i]
		if op.Kind == delta.Delete && op.Update {
			dels[op.Root()] = op
		}
	}
	for i := range x.dops {
		op := &x.dops[i]
		if op.Kind != delta.Insert || !op.Update {
			continue
		}
		if del, ok := dels[op.Root()]; ok && del.Parent == op.Parent && del.Content.Kind == op.Content.Kind {
			x.inPlace[op.Root()] = op
		}
	}
}

// selectorOf returns a selector that locates n in the working copy.
func (x *exporter) selectorOf(n *tree.Node, b *binder) string {
	if x.root == nil {
		x.root = docScope(x.w)
	}
	x.sel = appendSelector(x.sel[:0], x.work, n, b, x.sib, x.root)
	return string(x.sel)
}

// removeChild removes n from its parent in the working copy.
func (x *exporter) removeChild(n *tree.Node) {
	if x.sib == nil {
		n.Parent.RemoveChild(n.Index())
		return
	}
	x.sib.remove(n)
}

// insertChild inserts n as child i of p in the working copy.
func (x *exporter) insertChild(p *tree.Node, i int, n *tree.Node) {
	if x.sib == nil {
		p.InsertChild(i, n)
		return
	}
	x.sib.insert(p, i, n)
}

// change changes n, a node of the working copy, with f: its name or its
// attributes.
func (x *exporter) change(n *tree.Node, f func()) {
	x.w.add(len(n.Attrs))
	if x.sib == nil {
		f()
		return
	}
	x.sib.rename(n, f)
}

// binder returns a binder for one operation.
func (x *exporter) binder() *binder { return &binder{fresh: x.fresh} }

// emit adds an operation with the namespaces its binder collected.
func (x *exporter) emit(op Op, b *binder) {
	op.Namespaces = b.binds
	x.ops = append(x.ops, op)
}

// inOrder returns the nodes of set, nodes of the working copy, in
// document order; nested says that one may be inside another (else the
// walk skips their subtrees). It walks the copy once, where numbering all
// its nodes in a map took most of the time of an export of many removes.
func (x *exporter) inOrder(set map[*tree.Node]bool, nested bool) []*tree.Node {
	out := make([]*tree.Node, 0, len(set))
	tree.Walk(x.work.Root, func(n *tree.Node) bool {
		if set[n] {
			out = append(out, n)
			return nested
		}
		return len(out) < len(set)
	})
	if len(out) != len(set) {
		panic(internalError("a node to order is not in the working copy"))
	}
	return out
}

// forget removes the XIDs of a detached subtree from the index.
func (x *exporter) forget(n *tree.Node) {
	tree.Walk(n, func(m *tree.Node) bool {
		delete(x.byXID, m.XID)
		return true
	})
}

// removesSubtree reports whether op is a delete the patch writes as a
// remove of its subtree: not the old side of an update made in place.
func (x *exporter) removesSubtree(op *delta.Op) bool {
	if op.Kind != delta.Delete {
		return false
	}
	_, inPlace := x.inPlace[op.Root()]
	return !inPlace || !op.Update
}

func (x *exporter) removes() error {
	set := make(map[*tree.Node]bool, len(x.dops))
	nodes := make([]*tree.Node, 0, len(x.dops))
	for i := range x.dops {
		op := &x.dops[i]
		if !x.removesSubtree(op) {
			continue
		}
		n := x.byXID[op.Root()]
		if n == nil {
			return fmt.Errorf("xml patch: deleted XID %d not in the document", op.Root())
		}
		set[n] = true
		nodes = append(nodes, n)
	}
	top := nodes[:0] // in place: n is read before its place is written
	for _, n := range nodes {
		inside := false
		for m := n.Parent; m != nil && !inside; m = m.Parent {
			inside = set[m]
		}
		if !inside {
			top = append(top, n)
		}
	}
	// Texts first, which leaves no text beside another (their neighbours
	// are not texts), then from the end of the document to its start.
	isTop := make(map[*tree.Node]bool, len(top))
	for _, n := range top {
		isTop[n] = true
	}
	inOrder := x.inOrder(isTop, false)
	top = top[:0]
	for _, texts := range []bool{true, false} {
		for i := len(inOrder) - 1; i >= 0; i-- {
			if n := inOrder[i]; (n.Kind == tree.Text) == texts {
				top = append(top, n)
			}
		}
	}
	// White space the delta deletes beside a removed node goes with it.
	claimed := map[*tree.Node]bool{}
	before, after := map[*tree.Node]*tree.Node{}, map[*tree.Node]*tree.Node{}
	spaceBeside := func(n *tree.Node, at int) *tree.Node {
		kids := n.Parent.Children
		if at < 0 || at >= len(kids) {
			return nil
		}
		c := kids[at]
		if c.Kind == tree.Text && isSpace(c.Value) && isTop[c] && !claimed[c] {
			return c
		}
		return nil
	}
	// The tree does not change until the removals below: the positions
	// are numbered once a parent (Index, a scan of the siblings for each
	// node, took time quadratic in a list whose items are all removed).
	var index tree.Indexes
	for _, n := range top {
		if n.Kind == tree.Text || claimed[n] {
			continue
		}
		i := index.Of(n)
		if c := spaceBeside(n, i+1); c != nil {
			claimed[c], after[n] = true, c
		}
		if c := spaceBeside(n, i-1); c != nil {
			claimed[c], before[n] = true, c
		}
	}
	x.ops = slices.Grow(x.ops, len(top))
	for _, n := range top {
		if claimed[n] {
			continue
		}
		b := x.binder()
		op := Op{Kind: Remove, Sel: x.selectorOf(n, b)}
		switch {
		case before[n] != nil && after[n] != nil:
			op.WS = "both"
		case before[n] != nil:
			op.WS = "before"
		case after[n] != nil:
			op.WS = "after"
		}
		x.emit(op, b)
		x.removeBeside(n, before[n], after[n])
	}
	if x.sib != nil {
		x.sib.flush()
	}
	return nil
}

// removeBeside removes n from its parent in the working copy, with the
// white-space texts before and after it where they are not nil. With the
// sibling index, the removals are pending until its flush: the removes
// of an export run from the end of a list to its start, and taking each
// out at once would shift the children after it, quadratic in a long
// list; the texts are placed by n's position, not looked for.
func (x *exporter) removeBeside(n, before, after *tree.Node) {
	if x.sib == nil {
		for _, m := range []*tree.Node{after, n, before} {
			if m != nil {
				x.removeChild(m)
				x.forget(m)
			}
		}
		return
	}
	p, i := n.Parent, x.sib.indexOf(n)
	if after != nil {
		x.sib.kill(p, i+1)
		x.forget(after)
	}
	x.sib.kill(p, i)
	x.forget(n)
	if before != nil {
		x.sib.kill(p, i-1)
		x.forget(before)
	}
}

func (x *exporter) adds() error {
	groups := map[tree.XID][]*delta.Op{}
	for i := range x.dops {
		op := &x.dops[i]
		if op.Kind != delta.Insert || x.inPlace[op.Root()] == op {
			continue
		}
		groups[op.Parent] = append(groups[op.Parent], op)
	}
	parents := map[*tree.Node]bool{}
	for px := range groups {
		// Inserts under an inserted node come with their ancestor.
		if p := x.byXID[px]; p != nil {
			parents[p] = true
		}
	}
	for _, p := range x.inOrder(parents, true) {
		g := groups[p.XID]
		slices.SortFunc(g, func(a, b *delta.Op) int { return a.Pos - b.Pos })
		for start := 0; start < len(g); {
			end := start + 1
			for end < len(g) && g[end].Pos == g[end-1].Pos+1 {
				end++
			}
			if err := x.add(p, g[start:end]); err != nil {
				return err
			}
			start = end
		}
	}
	return nil
}

// add adds the subtrees of a run of inserts at consecutive positions
// under p, as they are in the target.
func (x *exporter) add(p *tree.Node, run []*delta.Op) error {
	at := run[0].Pos - 1
	if at > len(p.Children) {
		return fmt.Errorf("xml patch: insert at position %d of XID %d, which has %d children", run[0].Pos, p.XID, len(p.Children))
	}
	nodes := make([]*tree.Node, len(run))
	for i, op := range run {
		t := x.tByXID[op.Root()]
		if t == nil {
			return fmt.Errorf("xml patch: inserted XID %d not in the delta's target", op.Root())
		}
		nodes[i] = x.work.CloneNode(t)
	}
	// Apply drops the empty texts and joins adjacent ones: an add of
	// nothing but empty texts is no add.
	if nodes = normalizeTexts(nodes); len(nodes) == 0 {
		return nil
	}
	b := x.binder()
	content, err := x.content(nodes, scopeOf(p, x.w), b)
	if err != nil {
		return err
	}
	op := Op{Kind: Add, Content: content}
	switch {
	case at == len(p.Children):
		op.Sel = x.selectorOf(p, b)
	case at == 0:
		op.Sel, op.Pos = x.selectorOf(p, b), "prepend"
	default:
		op.Sel, op.Pos = x.selectorOf(p.Children[at], b), "before"
	}
	x.emit(op, b)
	for i, n := range nodes {
		x.insertChild(p, at+i, n)
		x.added[n] = true
		tree.Walk(n, func(m *tree.Node) bool {
			x.byXID[m.XID] = m
			return true
		})
	}
	// A text added beside one becomes one text with it, in Apply as in
	// any tool on XPath's data model.
	x.joinTexts(p, at+len(nodes))
	x.joinTexts(p, at)
	return nil
}

// joinTexts makes one text node of children i-1 and i of p in the working
// copy where both are texts; the first keeps its XID, and the XID of the
// second is no longer in the document.
func (x *exporter) joinTexts(p *tree.Node, i int) {
	kids := p.Children
	if i <= 0 || i >= len(kids) || kids[i-1].Kind != tree.Text || kids[i].Kind != tree.Text {
		return
	}
	right := kids[i]
	if x.sib == nil {
		x.texts.joinTexts(p, i)
	} else {
		x.sib.join(&x.texts, p, i)
	}
	if x.byXID[right.XID] == right {
		delete(x.byXID, right.XID)
	}
	delete(x.added, right)
}

// content returns copies of nodes to write in an operation whose content
// goes under an element with scope ps, and binds in b the prefixes they
// use that they do not declare, to what they are bound to there. An
// element in a default namespace declared outside the content is written
// with a prefix of that namespace that the document does not use, which
// Apply writes back without one (the patch's own default namespace is
// not the document's).
func (x *exporter) content(nodes []*tree.Node, ps *scope, b *binder) ([]*tree.Node, error) {
	type frame struct {
		src, dst *tree.Node
		inner    *scope // the declarations inside the content, down to src's parent
	}
	out := make([]*tree.Node, len(nodes))
	var stack []frame
	for i, n := range nodes {
		out[i] = &tree.Node{Kind: n.Kind, Name: n.Name, Value: n.Value, Attrs: n.Attrs}
		stack = append(stack, frame{n, out[i], nil})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.src.Kind != tree.Element {
			continue
		}
		inner := f.inner.push(f.src.Attrs)
		if elementName(f.src.Name) {
			p, l := splitQName(f.src.Name)
			if _, declared := inner.lookup(p); !declared {
				if u := ps.uri(p); p == "" && u != "" {
					// A prefix the document does not bind, which Apply
					// drops again.
					f.dst.Name = x.fresh.get(u) + ":" + l
					b.need(x.fresh.get(u), u)
				} else if !b.need(p, u) {
					return nil, fmt.Errorf("xml patch: prefix %s is bound to two namespaces in one operation", p)
				}
			}
		}
		for _, a := range f.src.Attrs {
			p, _ := splitQName(a.Name)
			if _, decl := declaration(a.Name); decl || p == "" || !isQName(a.Name) {
				continue
			}
			if _, declared := inner.lookup(p); !declared && !b.need(p, ps.uri(p)) {
				return nil, fmt.Errorf("xml patch: prefix %s is bound to two namespaces in one operation", p)
			}
		}
		if len(f.src.Children) > 0 {
			f.dst.Children = make([]*tree.Node, len(f.src.Children))
		}
		for i, c := range f.src.Children {
			cc := &tree.Node{Kind: c.Kind, Name: c.Name, Value: c.Value, Attrs: c.Attrs}
			f.dst.Children[i] = cc
			stack = append(stack, frame{c, cc, inner})
		}
	}
	return out, nil
}

// pending is what is left to do in place on a node.
type pending struct {
	update *delta.Op   // the insert half of an update
	attrs  []*delta.Op // attribute operations, in the delta's order
	rename *delta.Op
}

func (x *exporter) isAdded(n *tree.Node) bool {
	for m := n; m != nil; m = m.Parent {
		if x.added[m] {
			return true
		}
	}
	return false
}

func (x *exporter) changes() error {
	pend := map[*tree.Node]*pending{}
	get := func(n *tree.Node) *pending {
		if pend[n] == nil {
			pend[n] = &pending{}
		}
		return pend[n]
	}
	for i := range x.dops {
		op := &x.dops[i]
		switch op.Kind {
		case delta.Insert:
			if x.inPlace[op.Root()] != op {
				continue
			}
			// The node is gone when an ancestor was removed; it came back
			// with the target's text if that ancestor was moved.
			if n := x.byXID[op.Root()]; n != nil && !x.isAdded(n) {
				get(n).update = op
			}
		case delta.AttrInsert, delta.AttrDelete, delta.AttrUpdate, delta.Rename:
			n := x.byXID[op.Node]
			if n == nil {
				return fmt.Errorf("xml patch: element XID %d not in the document", op.Node)
			}
			if x.isAdded(n) {
				continue // it came as it is in the target
			}
			if op.Kind == delta.Rename {
				get(n).rename = op
			} else {
				get(n).attrs = append(get(n).attrs, op)
			}
		}
	}
	// Elements replaced whole: renamed, or whose attribute changes an
	// attribute selector cannot state.
	whole := map[*tree.Node]bool{}
	for n, p := range pend {
		if p.rename != nil || !attrsExpressible(n, p.attrs, x.w) {
			whole[n] = true
		}
	}
	outer := map[*tree.Node]bool{}
	for n := range whole {
		inside := false
		for m := n.Parent; m != nil && !inside; m = m.Parent {
			inside = whole[m]
		}
		if !inside {
			outer[n] = true
		}
	}
	// What changes inside a replaced element is written with it; a text
	// updated to empty goes, as it would from the patch's content.
	var emptied []*tree.Node
	for n := range outer {
		for _, c := range n.Children {
			tree.Walk(c, func(m *tree.Node) bool {
				if p := pend[m]; p != nil {
					x.texts.forget(m)
					x.change(m, func() { applyPending(m, p, x.w) })
					delete(pend, m)
					if m.Kind == tree.Text && m.Value == "" {
						emptied = append(emptied, m)
					}
				}
				return true
			})
		}
	}
	for _, m := range emptied {
		x.removeChild(m)
		x.forget(m)
	}
	var order []*tree.Node
	tree.Walk(x.work.Root, func(n *tree.Node) bool {
		if pend[n] != nil {
			order = append(order, n)
		}
		return !outer[n]
	})
	for _, n := range order {
		p := pend[n]
		if outer[n] {
			if err := x.replaceWhole(n, p); err != nil {
				return err
			}
			continue
		}
		if p.update != nil {
			b := x.binder()
			sel := x.selectorOf(n, b)
			c := p.update.Content
			if c.Kind == tree.Text && c.Value == "" {
				// A text updated to empty is, in XPath's data model, no
				// text: it is removed, and the selectors after count the
				// texts without it. Its neighbours are not texts.
				x.emit(Op{Kind: Remove, Sel: sel}, b)
				x.removeChild(n)
				x.forget(n)
				continue
			}
			x.emit(Op{Kind: Replace, Sel: sel, Content: []*tree.Node{{Kind: c.Kind, Name: c.Name, Value: c.Value}}}, b)
			x.texts.forget(n)
			x.change(n, func() { applyPending(n, &pending{update: p.update}, x.w) })
		}
		if len(p.attrs) > 0 {
			x.changeAttrs(n, p.attrs)
		}
	}
	return nil
}

func textContent(v string) []*tree.Node {
	if v == "" {
		return nil
	}
	return []*tree.Node{{Kind: tree.Text, Value: v}}
}

// replaceWhole replaces an element with itself as it ends up.
func (x *exporter) replaceWhole(n *tree.Node, p *pending) error {
	oldName, oldAttrs := n.Name, slices.Clone(n.Attrs)
	applyPending(n, p, x.w)
	newName, newAttrs := n.Name, n.Attrs
	b := x.binder()
	var ps *scope
	if n.Parent != nil {
		ps = scopeOf(n.Parent, x.w)
	}
	content, err := x.content([]*tree.Node{n}, ps, b)
	if err != nil {
		return err
	}
	n.Name, n.Attrs = oldName, oldAttrs
	sel := x.selectorOf(n, b)
	x.change(n, func() { n.Name, n.Attrs = newName, newAttrs })
	x.emit(Op{Kind: Replace, Sel: sel, Content: content}, b)
	return nil
}

// applyPending makes the changes of p on n, in the working copy; w
// counts the attributes it reads.
func applyPending(n *tree.Node, p *pending, w *work) {
	if p.update != nil {
		c := p.update.Content
		n.Name, n.Value, n.XID = c.Name, c.Value, p.update.Root()
	}
	applyAttrs(n, p.attrs, w)
	if p.rename != nil {
		n.Name = p.rename.NewValue
	}
}

// patch assembles the operations: a namespace binding every operation
// that uses its prefix agrees on is declared on the document element, the
// others on their operations.
func (x *exporter) patch() *Patch {
	uris := map[string]map[string]bool{}
	for _, op := range x.ops {
		for k, v := range op.Namespaces {
			if uris[k] == nil {
				uris[k] = map[string]bool{}
			}
			uris[k][v] = true
		}
	}
	p := &Patch{Root: DefaultRoot, Ops: x.ops}
	for k, set := range uris {
		if len(set) != 1 {
			continue
		}
		for v := range set {
			if p.Namespaces == nil {
				p.Namespaces = map[string]string{}
			}
			p.Namespaces[k] = v
		}
	}
	for i := range p.Ops {
		op := &p.Ops[i]
		for k := range op.Namespaces {
			if _, ok := p.Namespaces[k]; ok {
				delete(op.Namespaces, k)
			}
		}
		if len(op.Namespaces) == 0 {
			op.Namespaces = nil
		}
	}
	return p
}
