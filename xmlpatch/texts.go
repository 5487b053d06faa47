package xmlpatch

import (
	"maps"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// RFC 5261 works on XPath's data model, in which no text node stands
// beside another: a remove that leaves two texts side by side, or an add
// that puts a text beside one, makes one text node of them (section 4.5),
// and text()[k] counts them so. A document a parser reads holds no
// adjacent text nodes; the exporter keeps its working copy so, and Apply
// joins the texts an operation puts side by side.

// keepTextsApart makes sure that the removes of an export leave no two
// texts side by side: a tool on XPath's data model would join them, and
// the selectors of the operations after would count, or try to split, a
// text node that is not there. Where the nodes removed between two texts
// that stay are all there was between them, the second text is removed
// and added again as it is in the target version (with what the delta
// inserts between them), rather than updated in place.
func (x *exporter) keepTextsApart() {
	removed := make(map[*tree.Node]bool, len(x.dops))
	for i := range x.dops {
		op := &x.dops[i]
		if !x.removesSubtree(op) {
			continue
		}
		if n := x.byXID[op.Root()]; n != nil {
			removed[n] = true
		}
	}
	seen := map[*tree.Node]bool{}
	for n := range removed {
		if p := n.Parent; p != nil {
			seen[p] = true
		}
	}
	parents := slices.Collect(maps.Keys(seen))
	if len(parents) > 1 {
		parents = x.inOrder(seen, true)
	}
	// The places of the target's texts readd asks for, numbered a parent
	// at a time when first asked: many texts of one long list are read
	// again, and a scan of its children for each would be quadratic.
	targetPos := map[*tree.Node]int{}
	for _, p := range parents {
		if x.insideRemoved(p, removed) {
			continue
		}
		var last *tree.Node // the last child that stays
		between := false    // a child is removed since last
		for i, c := range p.Children {
			if removed[c] {
				between = true
				continue
			}
			if c.Kind == tree.Text && last != nil && last.Kind == tree.Text && between {
				x.readd(c, i, targetPos)
				continue
			}
			last, between = c, false
		}
	}
}

// insideRemoved reports whether n or an ancestor of n is removed.
func (x *exporter) insideRemoved(n *tree.Node, removed map[*tree.Node]bool) bool {
	for m := n; m != nil; m = m.Parent {
		if removed[m] {
			return true
		}
	}
	return false
}

// readd makes the text n, child i of its parent, which the delta keeps
// where it is, a remove and an add of it as it is in the target version;
// targetPos numbers the children of the target's parents it has read.
func (x *exporter) readd(n *tree.Node, i int, targetPos map[*tree.Node]int) {
	if _, ok := x.inPlace[n.XID]; ok {
		// An update: its delete and insert halves do it.
		delete(x.inPlace, n.XID)
		return
	}
	t := x.tByXID[n.XID]
	if t == nil || t.Parent == nil {
		return // the final check reports it
	}
	if _, ok := targetPos[t]; !ok {
		for k, c := range t.Parent.Children {
			targetPos[c] = k
		}
	}
	xids := tree.SubtreeXIDMap(n)
	x.dops = append(x.dops,
		delta.Op{Kind: delta.Delete, Parent: n.Parent.XID, Pos: i + 1, XIDs: xids},
		delta.Op{Kind: delta.Insert, Parent: t.Parent.XID, Pos: targetPos[t] + 1, XIDs: xids})
}

// textJoiner joins texts in time linear in their length: a text that
// takes in its neighbours again and again (an add beside it at each
// operation, the removes of the elements between many texts) grows in a
// buffer of its own, as a slice grows, instead of being copied whole at
// each join. The value of a text is a view of its buffer, which only
// grows, so the values it had stay as they were. Whoever sets the value
// of a text some other way must call forget.
type textJoiner struct {
	grown map[*tree.Node]*strings.Builder
}

// join appends the value of right to that of left.
func (j *textJoiner) join(left, right *tree.Node) {
	if right.Value == "" {
		return
	}
	b := j.grown[left]
	if b == nil {
		if j.grown == nil {
			j.grown = map[*tree.Node]*strings.Builder{}
		}
		b = &strings.Builder{}
		b.Grow(len(left.Value) + len(right.Value))
		b.WriteString(left.Value)
		j.grown[left] = b
	}
	b.WriteString(right.Value)
	left.Value = b.String()
}

// forget is called when the value of n is set other than by join.
func (j *textJoiner) forget(n *tree.Node) { delete(j.grown, n) }

// joinTexts makes one text node of children i-1 and i of parent where
// both are texts; the first keeps its XID.
func (j *textJoiner) joinTexts(parent *tree.Node, i int) {
	kids := parent.Children
	if i <= 0 || i >= len(kids) || kids[i-1].Kind != tree.Text || kids[i].Kind != tree.Text {
		return
	}
	j.join(kids[i-1], kids[i])
	parent.RemoveChild(i)
}

// normalizeTexts returns a list of sibling nodes without empty texts and
// with adjacent texts joined, and does the same in their subtrees, as
// XPath's data model has them: content that an empty CDATA section
// splits (a<![CDATA[]]>b) is one text.
func normalizeTexts(nodes []*tree.Node) []*tree.Node {
	var j textJoiner
	nodes = j.joinAll(nodes)
	for _, n := range nodes {
		tree.Walk(n, func(m *tree.Node) bool {
			if m.Kind == tree.Element {
				m.Children = j.joinAll(m.Children)
			}
			return true
		})
	}
	return nodes
}

// joinAll drops the empty texts of a list and joins adjacent ones, in
// place.
func (j *textJoiner) joinAll(list []*tree.Node) []*tree.Node {
	kept := list[:0]
	for _, c := range list {
		switch k := len(kept); {
		case c.Kind != tree.Text:
		case c.Value == "":
			c.Parent = nil
			continue
		case k > 0 && kept[k-1].Kind == tree.Text:
			j.join(kept[k-1], c)
			c.Parent = nil
			continue
		}
		kept = append(kept, c)
	}
	clear(list[len(kept):])
	return kept
}
