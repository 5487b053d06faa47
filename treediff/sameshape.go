package treediff

import (
	"slices"

	"github.com/vigil-web/vigil/editdist"
	"github.com/vigil-web/vigil/tree"
)

// pairSameShape pairs old subtree i and new subtree j as the recovery's
// exact matcher (Selkow's minimum edit distance, editdist.FlatMatcher)
// would pair them, when it can prove which matching that is, and reports
// whether it did. It is that matcher's answer for the commonest gap of a
// large document: one changed record, left whole by the phases before
// (its fields no longer unique), against its new version. The exact
// matcher fills a table of every pair of nodes at equal depths for it;
// this reads each node a few times.
//
// # The plan
//
// It builds a plan: the roots paired, and under every pair, the two lists
// of children aligned in one of three ways. Lists of the same length are
// paired in order (positional). Lists one child apart are paired in order
// but for one extra child of the longer list, inserted (new side) or
// deleted (old side), at a place before which the children's names agree
// in order and after which they agree one off (among several, the first
// whose child is not identical to its counterpart in order). Lists
// further apart, lists with no such place, or pairs of nodes of different
// kinds end the plan: nothing is paired, and it returns false. Every
// paired child gets its own plan.
//
// # The proof
//
// Write δ(u, v) for Selkow's distance of subtrees u and v (their roots
// matched: the roots' relabel, plus the least cost of aligning their
// lists of children, each child matched with its own δ, deleted or
// inserted at its size), |u| for u's size, and c(u, v) for the cost of
// u and v's plan, relabels counted as the matcher counts them
// (editdist.RelabelFlat). By induction from the leaves, each plan is the
// one minimum of δ: the only matching of that cost, so that the exact
// matcher, whatever its tie-breaks, gives it. Suppose it holds for the
// plans of the children of u and v (c = δ, and no other matching of a
// child pair costs as little); the plan of u and v is then
// the one minimum if its alignment of the children, of cost C, costs less
// than every other alignment. Two facts bound the others from below:
//
//   - Each node of u and v that an alignment leaves unmatched costs 1, so
//     δ(x, y) ≥ |y| - |x| and δ(x, y) ≥ |x| - |y| for any pair. Summing over
//     an alignment of lists A (old) and B (new), with D = ΣB - ΣA the
//     difference of their sizes: its cost is at least D + 2·(the sizes of
//     the old children it leaves unmatched), and at least -D + 2·(those
//     of the new ones).
//   - lowerBound(x, y) ≤ δ(x, y) (see there): the relabel of the roots
//     plus a bound of the same kind on their children, positional pairs
//     compared a few levels down.
//
// Lists of the same length: any other alignment leaves at least one child
// of each side unmatched, and costs at least max(D + 2·(the smallest old
// child), -D + 2·(the smallest new one)). The plan is the one minimum when
// C is below that. (For subtrees of the same shape, D = 0 and the bound is
// the positional cost below twice the smallest child.)
//
// Lists one child apart, say a new child X inserted at place p among old
// children a_0..a_{k-1} and new b_0..b_k (a deleted child is the mirror
// image, sides swapped): C = Σ c_q + |X|. Any other alignment either
// leaves an old child unmatched, and so two new ones, costing at least
// max(D + 2·(the smallest old child), -D + 2·(the two smallest new ones));
// or it matches every old child and leaves one new child b_r unmatched, r
// ≠ p. Such an alignment differs from the plan only between p and r: for r
// > p it matches a_q with b_q for p ≤ q < r (a_p with X) where the plan
// matches a_q with the new child after it, and inserts b_r instead of X; so
// it costs more than the plan when Σ_{p≤q<r} lowerBound(a_q, b_q) + |b_r|
// exceeds Σ_{p≤q<r} c_q + |X|. For r < p, likewise with a_q matched to
// b_{q+1} for r ≤ q < p (a_{p-1} with X). Walking r away from p on each
// side checks every such alignment in one pass.
//
// At the top, the gap is two forests of one root each: the roots are
// matched when c < |i| + |j|, the cost of deleting one and inserting the
// other. When every check holds, the plan is the exact matcher's only
// minimum, and its pairs (less those canPair refuses, as it refuses the
// matcher's) are paired. A check that fails means nothing about the
// matcher's answer, only that the plan cannot be proved: the exact
// matcher then runs as before.
//
// # Cost
//
// The plan reads each node once; the checks compare, besides, each child
// with its two neighbours' counterparts at most, and lowerBound reads at
// most shapeLookDepth levels below them: each node a few times, where the
// matcher's table grew with the product of the two subtrees' sizes.
func (m *matching) pairSameShape(i, j int32) bool {
	m.shapeKids, m.shapeCost, m.shapePairs = m.shapeKids[:0], m.shapeCost[:0], m.shapePairs[:0]
	c, ok := m.planShape(i, j)
	if !ok || c >= int(m.old.Size[i])+int(m.new.Size[j]) {
		return false
	}
	for _, p := range m.shapePairs {
		if m.canPair(p[0], p[1]) {
			m.pair(p[0], p[1])
		}
	}
	return true
}

// shapeLookDepth is how many levels below two subtrees that no plan pairs
// lowerBound compares their children in order: a field against the one
// beside its counterpart, its text against the other's.
const shapeLookDepth = 2

// shapeNever stands for the cost of matching nodes of different kinds,
// which no matching does; sums of it stay far below the int range.
const shapeNever = 1 << 30

// planShape appends the plan of old node i and new node j to m.shapePairs
// and returns its cost, or false when it has none or it cannot be proved
// the only minimum (see pairSameShape).
func (m *matching) planShape(i, j int32) (int, bool) {
	rel, ok := editdist.RelabelFlat(m.old.Flat, i, m.new.Flat, j)
	if !ok {
		return 0, false
	}
	m.shapePairs = append(m.shapePairs, [2]int32{i, j})
	if m.old.Size[i] == 1 && m.new.Size[j] == 1 {
		return rel, true
	}
	// Both lists of children on m.shapeKids, old then new; the plans of
	// the children push theirs above and take them off.
	base := len(m.shapeKids)
	m.shapeKids = appendChildren(m.old.Flat, i, m.shapeKids)
	mid := len(m.shapeKids)
	m.shapeKids = appendChildren(m.new.Flat, j, m.shapeKids)
	k, l := mid-base, len(m.shapeKids)-mid
	d := int(m.new.Size[j]) - int(m.old.Size[i])
	var c int
	switch {
	case k == l:
		c, ok = m.planInOrder(base, mid, k, d)
	case l == k+1:
		c, ok = m.planOneApart(base, mid, k, d, true)
	case k == l+1:
		c, ok = m.planOneApart(mid, base, l, -d, false)
	default:
		ok = false
	}
	m.shapeKids = m.shapeKids[:base]
	return rel + c, ok
}

// planInOrder plans two lists of n children each, at m.shapeKids[a:] (old)
// and m.shapeKids[b:] (new), paired in order; d is the new list's size less
// the old one's. It returns the alignment's cost.
func (m *matching) planInOrder(a, b, n, d int) (int, bool) {
	sum, leastOld, leastNew := 0, shapeNever, shapeNever
	for q := range n {
		x, y := m.shapeKids[a+q], m.shapeKids[b+q]
		c, ok := m.planShape(x, y)
		if !ok {
			return 0, false
		}
		sum += c
		leastOld, leastNew = min(leastOld, int(m.old.Size[x])), min(leastNew, int(m.new.Size[y]))
	}
	// Any other alignment leaves a child of each side unmatched.
	if n > 0 && sum >= max(d+2*leastOld, -d+2*leastNew) {
		return 0, false
	}
	return sum, true
}

// planOneApart plans a short list of n children at m.shapeKids[s:] and a
// long one of n+1 at m.shapeKids[l:], paired in order but for one extra
// child of the long list; longNew tells whether the long list is the new
// side's (a child inserted) or the old side's (a child deleted), d its size
// less the short one's. It returns the alignment's cost.
func (m *matching) planOneApart(s, l, n, d int, longNew bool) (int, bool) {
	kids := m.shapeKids
	sameName := func(q, r int) bool {
		if longNew {
			return m.oldName.at(kids[s+q]) == m.newName.at(kids[l+r])
		}
		return m.newName.at(kids[s+q]) == m.oldName.at(kids[l+r])
	}
	// The extra child's place p: after the children whose names agree
	// in order from the front (p ≤ front), before those that agree one
	// off from the back (p ≥ back).
	front := 0
	for front < n && sameName(front, front) {
		front++
	}
	back := n
	for back > 0 && sameName(back-1, back) {
		back--
	}
	if back > front {
		return 0, false
	}
	p := back
	for p < front && m.identical(kids[s+p], kids[l+p], longNew) {
		p++
	}
	// The plans of the pairs, their costs on m.shapeCost (taken off on
	// success; a failure ends the whole plan, and pairSameShape empties
	// the stacks before the next).
	at := len(m.shapeCost)
	sum, leastShort, least1, least2 := 0, shapeNever, shapeNever, shapeNever
	for q := range n {
		r := q
		if q >= p {
			r++
		}
		c, ok := m.planPair(m.shapeKids[s+q], m.shapeKids[l+r], longNew)
		if !ok {
			return 0, false
		}
		sum += c
		m.shapeCost = append(m.shapeCost, c)
		leastShort = min(leastShort, m.sizeOf(m.shapeKids[s+q], !longNew))
	}
	kids = m.shapeKids
	for r := range n + 1 {
		z := m.sizeOf(kids[l+r], longNew)
		if z < least1 {
			least1, least2 = z, least1
		} else if z < least2 {
			least2 = z
		}
	}
	extra := m.sizeOf(kids[l+p], longNew)
	cost := sum + extra
	costs := m.shapeCost[at:]
	// An alignment that leaves a child of the short list unmatched
	// leaves two of the long one.
	if n > 0 && cost >= max(d+2*leastShort, -d+2*(least1+least2)) {
		return 0, false
	}
	// One that matches the whole short list leaves long child r
	// unmatched instead of p, and matches the children between one off.
	lower, planned := 0, 0
	for r := p + 1; r <= n; r++ {
		lower += m.boundPair(m.shapeKids[s+r-1], m.shapeKids[l+r-1], longNew)
		planned += costs[r-1]
		if lower+m.sizeOf(m.shapeKids[l+r], longNew) <= planned+extra {
			return 0, false
		}
	}
	lower, planned = 0, 0
	for r := p - 1; r >= 0; r-- {
		lower += m.boundPair(m.shapeKids[s+r], m.shapeKids[l+r+1], longNew)
		planned += costs[r]
		if lower+m.sizeOf(m.shapeKids[l+r], longNew) <= planned+extra {
			return 0, false
		}
	}
	m.shapeCost = m.shapeCost[:at]
	return cost, true
}

// planPair is planShape of short child x and long child y, the long one
// new when longNew.
func (m *matching) planPair(x, y int32, longNew bool) (int, bool) {
	if longNew {
		return m.planShape(x, y)
	}
	return m.planShape(y, x)
}

// boundPair is lowerBound of short child x and long child y, the long one
// new when longNew.
func (m *matching) boundPair(x, y int32, longNew bool) int {
	if longNew {
		return m.lowerBound(x, y, shapeLookDepth)
	}
	return m.lowerBound(y, x, shapeLookDepth)
}

// identical reports whether short child x and long child y (the long one
// new when longNew) are identical subtrees, by their signatures.
func (m *matching) identical(x, y int32, longNew bool) bool {
	if longNew {
		return m.old.Signature[x] == m.new.Signature[y]
	}
	return m.new.Signature[x] == m.old.Signature[y]
}

// sizeOf returns the size of node x of the new version when isNew, of the
// old one otherwise.
func (m *matching) sizeOf(x int32, isNew bool) int {
	if isNew {
		return int(m.new.Size[x])
	}
	return int(m.old.Size[x])
}

// lowerBound returns a lower bound of Selkow's distance between old
// subtree i and new subtree j (shapeNever for nodes of different kinds),
// comparing their children in order depth levels down at most. The
// distance is the roots' relabel plus the least cost of aligning the
// children, and an alignment costs at least the difference D of the two
// lists' sizes (each node left unmatched costs 1). Two lists of the same
// length are either paired in order, costing at least the sum of the
// pairs' bounds, or leave a child of each side unmatched, costing at
// least max(D + 2·(the smallest old child), -D + 2·(the smallest new
// one)) (see pairSameShape).
func (m *matching) lowerBound(i, j int32, depth int) int {
	rel, ok := editdist.RelabelFlat(m.old.Flat, i, m.new.Flat, j)
	if !ok {
		return shapeNever
	}
	d := int(m.new.Size[j]) - int(m.old.Size[i])
	bound := rel + max(d, -d)
	if depth == 0 || m.old.Size[i] == 1 || m.new.Size[j] == 1 {
		return bound // a leaf's alignment costs the other's children: |d|
	}
	base := len(m.shapeKids)
	m.shapeKids = appendChildren(m.old.Flat, i, m.shapeKids)
	mid := len(m.shapeKids)
	m.shapeKids = appendChildren(m.new.Flat, j, m.shapeKids)
	n := mid - base
	if len(m.shapeKids)-mid == n {
		inOrder, leastOld, leastNew := 0, shapeNever, shapeNever
		for q := range n {
			x, y := m.shapeKids[base+q], m.shapeKids[mid+q]
			inOrder = min(inOrder+m.lowerBound(x, y, depth-1), shapeNever)
			leastOld, leastNew = min(leastOld, int(m.old.Size[x])), min(leastNew, int(m.new.Size[y]))
		}
		other := max(d+2*leastOld, -d+2*leastNew)
		bound = rel + max(d, -d, min(inOrder, other))
	}
	m.shapeKids = m.shapeKids[:base]
	return bound
}

// appendChildren appends the children of node i of f to buf, in document
// order.
func appendChildren(f *tree.Flat, i int32, buf []int32) []int32 {
	start := len(buf)
	for c, end := i-1, i-f.Size[i]; c > end; c -= f.Size[c] {
		buf = append(buf, c)
	}
	slices.Reverse(buf[start:])
	return buf
}
