package treediff

// shapeGridLimit bounds the product of the lengths of two lists that
// planAligned aligns: its check costs that many lowerBounds.
const shapeGridLimit = 64

// planAligned plans n old children at m.shapeKids[a:] and w new ones at
// m.shapeKids[b:], lists whose extra children are on both sides (a field
// whose text became an element, a record that lost a field and gained
// another): the children paired along a longest common subsequence of
// their names, the others left unmatched. Every other alignment must
// cost more (see onlyAlignment). It returns the alignment's cost.
func (m *matching) planAligned(a, b, n, w int) (int, bool) {
	// lcs[x*(w+1)+y] is the longest common subsequence of the names of
	// old children x.. and new children y..; it is followed from the
	// front, pairs first.
	lcs := grow(&m.shapeGrid, (n+1)*(w+1))
	for x := n; x >= 0; x-- {
		for y := w; y >= 0; y-- {
			v := 0
			switch {
			case x == n || y == w:
			case m.sameName(m.shapeKids[a+x], m.shapeKids[b+y]):
				v = lcs[(x+1)*(w+1)+y+1] + 1
			default:
				v = max(lcs[(x+1)*(w+1)+y], lcs[x*(w+1)+y+1])
			}
			lcs[x*(w+1)+y] = v
		}
	}
	// On m.shapeAt: the new place of each old child's pair, then the
	// old place of each new child's, -1 for none.
	at := len(m.shapeAt)
	for range n + w {
		m.shapeAt = append(m.shapeAt, -1)
	}
	for x, y := 0, 0; x < n && y < w; {
		switch {
		case m.sameName(m.shapeKids[a+x], m.shapeKids[b+y]) && lcs[x*(w+1)+y] == lcs[(x+1)*(w+1)+y+1]+1:
			m.shapeAt[at+x], m.shapeAt[at+n+y] = int32(y), int32(x)
			x, y = x+1, y+1
		case lcs[(x+1)*(w+1)+y] >= lcs[x*(w+1)+y+1]:
			x++
		default:
			y++
		}
	}
	costs := len(m.shapeCost)
	cost := 0
	for x := range n {
		c := 0
		if y := m.shapeAt[at+x]; y >= 0 {
			var ok bool
			if c, ok = m.planShape(m.shapeKids[a+x], m.shapeKids[b+int(y)]); !ok {
				return 0, false
			}
		} else {
			c = int(m.old.Size[m.shapeKids[a+x]])
		}
		cost += c
		m.shapeCost = append(m.shapeCost, c)
	}
	for y := range w {
		if m.shapeAt[at+n+y] < 0 {
			cost += int(m.new.Size[m.shapeKids[b+y]])
		}
	}
	if !m.onlyAlignment(a, b, n, w, at, costs, cost) {
		return 0, false
	}
	m.shapeAt, m.shapeCost = m.shapeAt[:at], m.shapeCost[:costs]
	return cost, true
}

// onlyAlignment reports whether every alignment of planAligned's lists
// but the plan costs more than the plan's cost. An alignment is a path
// through the grid of states (x, y): x old children and y new ones done.
// From (x, y), matching old child x with new child y leads to
// (x+1, y+1), at the plan's cost for the plan's pairs and lowerBound's
// for others; leaving old child x unmatched, at its size, to (x+1, y);
// leaving new child y unmatched, to (x, y+1). So that each alignment is
// one path, a path leaves the old children between two pairs unmatched
// before the new ones: each state also says whether the path came in
// leaving a new child unmatched, and then no old one may follow. As in
// onlyEmbedding, each state keeps the plan's cost to it when the plan
// passes there and the least bound of the paths to it that left the
// plan.
func (m *matching) onlyAlignment(a, b, n, w, at, costs, cost int) bool {
	states := (n + 1) * (w + 1) * 2
	grid := grow(&m.shapeGrid, 2*states)
	plan, other := grid[:states], grid[states:]
	for t := range plan {
		plan[t], other[t] = shapeNever, shapeNever
	}
	plan[0] = 0
	const (
		match = iota
		leaveOld
		leaveNew
	)
	for x := 0; x <= n; x++ {
		for y := 0; y <= w; y++ {
			// The plan's move from (x, y), when it passes there: its
			// old children left unmatched first, then its new ones.
			move := match
			switch {
			case x < n && m.shapeAt[at+x] < 0:
				move = leaveOld
			case y < w && m.shapeAt[at+n+y] < 0:
				move = leaveNew
			}
			bound := shapeNever
			if x < n && y < w {
				if int(m.shapeAt[at+x]) == y {
					bound = m.shapeCost[costs+x]
				} else {
					bound = m.lowerBound(m.shapeKids[a+x], m.shapeKids[b+y], shapeLookDepth)
				}
			}
			for f := range 2 {
				s := (x*(w+1)+y)*2 + f
				p, o := plan[s], other[s]
				if p == shapeNever && o == shapeNever {
					continue
				}
				relax := func(t, mv, z int) {
					if p < shapeNever && mv == move {
						plan[t] = p + z
						other[t] = min(other[t], o+z, shapeNever)
					} else {
						other[t] = min(other[t], min(p, o)+z, shapeNever)
					}
				}
				if x < n && y < w {
					relax(((x+1)*(w+1)+y+1)*2, match, bound)
				}
				if x < n && f == 0 {
					relax(((x+1)*(w+1)+y)*2, leaveOld, int(m.old.Size[m.shapeKids[a+x]]))
				}
				if y < w {
					relax((x*(w+1)+y+1)*2+1, leaveNew, int(m.new.Size[m.shapeKids[b+y]]))
				}
			}
		}
	}
	end := (n*(w+1) + w) * 2
	if min(plan[end], plan[end+1]) != cost {
		// The plan's own path must cost what the plan does; were it
		// lost, the proof does not hold: the exact matcher decides, as
		// it would have (a diff never stops for a shortcut's sake).
		return false
	}
	return min(other[end], other[end+1]) > cost
}
