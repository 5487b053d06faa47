package treediff

// bottomUp is the seed's "propagate to parents" pass (thesis §3.5.2,
// phase 4): an unmatched new node is matched with the old node that is the
// parent of the heaviest set of its matched children, when the two may be
// matched.
type bottomUp struct{}

func (bottomUp) name() string { return "bottom-up" }

func (bottomUp) run(m *matching) {
	type vote struct {
		parent int32
		weight float64
	}
	var votes []vote
	for j := range m.new.Len() { // post-order: children before parents
		if m.newMatch[j] >= 0 || m.new.Size[j] == 1 {
			continue
		}
		votes = votes[:0]
		for _, c := range m.newChildren(int32(j)) {
			i := m.newMatch[c]
			if i < 0 {
				continue
			}
			p := m.oldParent[i]
			if p < 0 {
				continue
			}
			w := m.new.Weight[c]
			found := false
			for k := range votes {
				if votes[k].parent == p {
					votes[k].weight += w
					found = true
					break
				}
			}
			if !found {
				votes = append(votes, vote{p, w})
			}
		}
		best := int32(-1)
		var bestWeight float64
		for _, vt := range votes {
			if vt.weight > bestWeight && m.canMatch(vt.parent, int32(j)) {
				best, bestWeight = vt.parent, vt.weight
			}
		}
		if best >= 0 {
			m.pair(best, int32(j))
		}
	}
}

// topDown is the seed's "propagate to children" pass (thesis §3.5.2, phase
// 4): under a matched pair, unmatched children that are the only unmatched
// child of their kind and name on both sides are matched. Text children
// count as one name, so a changed text becomes an update.
type topDown struct{}

func (topDown) name() string { return "top-down" }

func (topDown) run(m *matching) {
	type slot struct {
		oldCount, newCount int
		old, new           int32
	}
	slots := map[uint64]*slot{}
	// Pre-order over the old tree, so that a pair matched here has its own
	// children considered when the walk reaches it.
	stack := []int32{m.old.Root()}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		j := m.oldMatch[i]
		if j >= 0 && m.zipped[j] {
			continue // an identical subtree: everything below is matched
		}
		if m.old.Size[i] == 1 {
			continue
		}
		// Measure.Children goes right to left: pushed so, the children
		// pop left to right.
		m.old.Children(i, func(c int32) { stack = append(stack, c) })
		if j < 0 {
			continue
		}
		clear(slots)
		for _, ci := range m.oldChildren(i) {
			if m.oldMatch[ci] >= 0 {
				continue
			}
			s := slots[m.oldName[ci]]
			if s == nil {
				s = &slot{}
				slots[m.oldName[ci]] = s
			}
			s.oldCount++
			s.old = ci
		}
		if len(slots) == 0 {
			continue
		}
		for _, cj := range m.newChildren(j) {
			if m.newMatch[cj] >= 0 {
				continue
			}
			if s := slots[m.newName[cj]]; s != nil {
				s.newCount++
				s.new = cj
			}
		}
		for _, s := range slots {
			if s.oldCount == 1 && s.newCount == 1 && m.canMatch(s.old, s.new) {
				m.pair(s.old, s.new)
			}
		}
	}
}
