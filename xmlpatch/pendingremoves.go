package xmlpatch

import "github.com/vigil-web/vigil/tree"

// A removal from a list of children shifts the children after it: a run
// of removals in a long list (the items of a list removed from the last
// to the first, with items after them that stay; or from the first on)
// would take time quadratic in its length. So a run of removals leaves
// each removed child where it stands, detached (its Parent cleared, as
// tree.Node.DropDetached expects), and the sibling index counts it no
// more; flush takes them all out of the lists, each list once, from its
// first removed child on. Until then the lists hold them: only the
// sibling index (which skips them), the neighbours of a position
// (prev, next) and flush may read the children of a parent that
// pending holds.

// holes records the children removed from one parent and not yet taken
// out: maximal runs of consecutive positions, by their ends.
type holes struct {
	first   int         // the first removed position
	startOf map[int]int // the last position of a run: its first
	endOf   map[int]int // the first position of a run: its last
}

// add records position i as removed, and returns the run of removed
// positions that holds it, first and last.
func (h *holes) add(i int) (int, int) {
	s, e := i, i
	if st, ok := h.startOf[i-1]; ok {
		s = st
		delete(h.startOf, i-1)
	}
	if en, ok := h.endOf[i+1]; ok {
		e = en
		delete(h.endOf, i+1)
	}
	h.endOf[s], h.startOf[e] = e, s
	h.first = min(h.first, i)
	return s, e
}

// prev returns the position of the child before i that was not removed,
// -1 for none.
func (h *holes) prev(i int) int {
	if h == nil {
		return i - 1
	}
	if s, ok := h.startOf[i-1]; ok {
		return s - 1
	}
	return i - 1
}

// next returns the position of the child after i that was not removed,
// the number of children for none.
func (h *holes) next(i int) int {
	if h == nil {
		return i + 1
	}
	if e, ok := h.endOf[i+1]; ok {
		return e + 1
	}
	return i + 1
}

// holesOf returns the pending removals of parent, nil for none.
func (sb *siblings) holesOf(parent *tree.Node) *holes {
	if sb == nil {
		return nil
	}
	return sb.pending[parent]
}

// kill removes child i of parent, pending: the child stays in the list,
// detached, until flush, and the index of parent counts it no more. It
// returns the run of removed positions that holds i, first and last.
func (sb *siblings) kill(parent *tree.Node, i int) (int, int) {
	c := parent.Children[i]
	if ci := sb.byParent[parent]; ci != nil {
		// The children after c change their ordinals: they leave the
		// prefix; c stays in it, in no group.
		ci.truncate(i + 1)
		g := ci.groupsOf(c)
		if i < len(ci.prefix) {
			e := &ci.prefix[i]
			for _, id := range e.ids[:e.n] {
				grp := &ci.groups[id]
				grp.members[len(grp.members)-1] = nil
				grp.members = grp.members[:len(grp.members)-1]
			}
			e.n, e.ords = 0, [3]int32{}
		}
		for _, id := range g.ids[:g.n] {
			ci.groups[id].total--
		}
	}
	c.Parent = nil
	if sb.pending == nil {
		sb.pending = map[*tree.Node]*holes{}
	}
	h := sb.pending[parent]
	if h == nil {
		h = &holes{first: i, startOf: map[int]int{}, endOf: map[int]int{}}
		sb.pending[parent] = h
	}
	return h.add(i)
}

// flush takes the children kill removed out of their parents' lists, each
// list once from its first removed child on, which it counts as the
// shift of that many children.
func (sb *siblings) flush() {
	for p, h := range sb.pending {
		if ci := sb.byParent[p]; ci != nil {
			ci.truncate(h.first)
		}
		kids := p.Children
		sb.w.add(1 + (len(kids)-h.first)/childrenMovedPerUnit)
		kept := kids[:h.first]
		for _, c := range kids[h.first:] {
			if c.Parent == p {
				kept = append(kept, c)
			}
		}
		clear(kids[len(kept):])
		p.Children = kept
	}
	clear(sb.pending)
}
