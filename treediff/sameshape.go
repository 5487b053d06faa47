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
// of children aligned. Lists of the same length whose kinds agree in
// order are paired in order. Lists k children apart (k at most
// shapeMaxApart) are paired in order but for k extra children of the
// longer list, inserted (new side) or deleted (old side): each child of
// the shorter list is paired with the first child of the longer one after
// the last pair's with the same kind and name (an identical one, if there
// is one, among those it can still reach), when each has one. Other
// lists, short ones (shapeGridLimit), are paired along a longest common
// subsequence of their children's names, the others left on both sides
// (a field's text become an element, a field lost and another gained).
// Longer lists, or pairs of nodes of different kinds, end the plan:
// nothing is paired, and it returns false. Every paired child gets its
// own plan.
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
// child pair costs as little); the plan of u and v is then the one
// minimum if its alignment of the children, of cost C, costs less than
// every other alignment. Two facts bound the others from below:
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
// Say the new list is the longer one, by k ≥ 0 children (the other way
// round is the mirror image, sides swapped): C is the sum of the pairs'
// c and of the sizes of the k new children left over. Any other
// alignment either leaves an old child unmatched, and so k+1 new ones,
// costing at least max(D + 2·(the smallest old child), -D + 2·(the k+1
// smallest new ones)); or it matches every old child, leaving k other
// new ones (none such when k = 0: the plan is the only one). Those are
// the paths through a grid of (n+1)·(k+1) states, n the old children, and
// their costs are at least what the same paths cost with the plan's pairs
// at c and any other pair at lowerBound: onlyEmbedding finds the least of
// those over every path but the plan's in one pass, and it must exceed
// C. (For lists of the same length, D = 0 and the bound is the
// positional cost below twice the smallest child: the condition of the
// same-shape case.) Lists with children left on both sides: every
// alignment is a path through a grid of (n+1)·(w+1) states, and
// onlyAlignment does the same over all of them.
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
// with the k+1 long children within its reach at most (with every child
// of the other list, in lists shapeGridLimit bounds), and lowerBound
// reads at most shapeLookDepth levels below them: each node a bounded
// number of times, where the matcher's table grew with the product of
// the two subtrees' sizes.
func (m *matching) pairSameShape(i, j int32) bool {
	m.shapeKids, m.shapeAt, m.shapeCost, m.shapePairs = m.shapeKids[:0], m.shapeAt[:0], m.shapeCost[:0], m.shapePairs[:0]
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

// shapeMaxApart is the most children by which two lists of a plan may
// differ: the work of the checks grows with it (see planApart).
const shapeMaxApart = 3

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
	m.shapeKids = appendChildList(m.old.Flat, i, m.shapeKids)
	mid := len(m.shapeKids)
	m.shapeKids = appendChildList(m.new.Flat, j, m.shapeKids)
	k, l := mid-base, len(m.shapeKids)-mid
	d := int(m.new.Size[j]) - int(m.old.Size[i])
	var c int
	switch {
	case l >= k && l-k <= shapeMaxApart && m.embed(base, mid, k, l-k, true):
		c, ok = m.planApart(base, mid, k, l-k, d, true)
	case k > l && k-l <= shapeMaxApart && m.embed(mid, base, l, k-l, false):
		c, ok = m.planApart(mid, base, l, k-l, -d, false)
	case k*l <= shapeGridLimit:
		c, ok = m.planAligned(base, mid, k, l)
	default:
		ok = false
	}
	m.shapeKids = m.shapeKids[:base]
	return rel + c, ok
}

// embed pushes on m.shapeAt, for each of the n children of a short list
// at m.shapeKids[s:], the place of its pair in a long list of n+k at
// m.shapeKids[l:] (the long one new when longNew): in order when the
// lists have the same length and their kinds agree in order, otherwise
// the first child of the same kind and name after the last pair's
// within reach, an identical one if there is one. It reports false, and
// pushes nothing, when some child has none.
func (m *matching) embed(s, l, n, k int, longNew bool) bool {
	at := len(m.shapeAt)
	for q, r := 0, 0; q < n; q++ {
		x := m.shapeKids[s+q]
		pick := -1
		if k == 0 {
			if i, j := oldNew(longNew, x, m.shapeKids[l+q]); m.old.Kind[i] == m.new.Kind[j] {
				pick = q
			}
		} else {
			for t := r; t <= q+k; t++ {
				i, j := oldNew(longNew, x, m.shapeKids[l+t])
				if !m.sameName(i, j) {
					continue
				}
				if pick < 0 {
					pick = t
				}
				if m.identical(i, j) {
					pick = t
					break
				}
			}
		}
		if pick < 0 {
			m.shapeAt = m.shapeAt[:at]
			return false
		}
		m.shapeAt = append(m.shapeAt, int32(pick))
		r = pick + 1
	}
	return true
}

// planApart plans a short list of n children at m.shapeKids[s:] and a
// long one of n+k at m.shapeKids[l:], each short child paired with the
// long one embed placed on top of m.shapeAt and the k others of the long
// list left unmatched; longNew tells whether the long list is the new
// side's (children inserted) or the old side's (children deleted), d its
// size less the short one's. It returns the alignment's cost.
func (m *matching) planApart(s, l, n, k, d int, longNew bool) (int, bool) {
	at := len(m.shapeAt) - n
	// The plans of the pairs, their costs on m.shapeCost. Both stacks
	// are taken off on success; a failure ends the whole plan, and
	// pairSameShape empties the stacks before the next.
	costs := len(m.shapeCost)
	short, long := oldNew(longNew, m.old, m.new) // a swap or not: its own inverse
	sum, leastShort := 0, shapeNever
	for q := range n {
		x, y := m.shapeKids[s+q], m.shapeKids[l+int(m.shapeAt[at+q])]
		c, ok := m.planShape(oldNew(longNew, x, y))
		if !ok {
			return 0, false
		}
		sum += c
		m.shapeCost = append(m.shapeCost, c)
		leastShort = min(leastShort, int(short.Size[x]))
	}
	// The k+1 smallest children of the long list, and the size of the
	// k it leaves unmatched.
	var least [shapeMaxApart + 1]int
	for t := range least {
		least[t] = shapeNever
	}
	unmatched := 0
	for t, q := 0, 0; t < n+k; t++ {
		z := int(long.Size[m.shapeKids[l+t]])
		if q < n && int(m.shapeAt[at+q]) == t {
			q++
		} else {
			unmatched += z
		}
		for u := 0; u <= k; u++ {
			if z < least[u] {
				least[u], z = z, least[u]
			}
		}
	}
	cost := sum + unmatched
	// An alignment that leaves a short child unmatched leaves k+1 long
	// ones.
	if n > 0 {
		smallest := 0
		for u := 0; u <= k; u++ {
			smallest += least[u]
		}
		if cost >= max(d+2*leastShort, -d+2*smallest) {
			return 0, false
		}
	}
	if k > 0 && !m.onlyEmbedding(s, l, n, k, at, costs, longNew) {
		return 0, false
	}
	m.shapeAt, m.shapeCost = m.shapeAt[:at], m.shapeCost[:costs]
	return cost, true
}

// onlyEmbedding reports whether every alignment of planApart's lists
// that matches each short child, other than the plan, costs more than the
// plan. Such an alignment is a path through the grid of states (q, u): q
// short children matched and u long ones left, among the first q+u.
// From (q, u), matching short child q with long child q+u leads to
// (q+1, u), at the plan's cost for the plan's pairs and lowerBound's for
// others; leaving long child q+u unmatched, at its size, to (q, u+1). The
// walk keeps, for each state, the plan's cost to it when the plan passes
// there (plan) and the least bound of the paths to it that left the plan
// somewhere (other): the one least bound of the paths that are not the
// plan, at (n, k), must exceed the plan's cost. It costs (n+1)·(k+1)
// states and n·k bounds at most.
func (m *matching) onlyEmbedding(s, l, n, k, at, costs int, longNew bool) bool {
	_, long := oldNew(longNew, m.old, m.new) // a swap or not: its own inverse
	var plan, other, nextPlan, nextOther [shapeMaxApart + 1]int
	for u := range plan {
		plan[u], other[u] = shapeNever, shapeNever
	}
	plan[0] = 0
	for q := 0; ; q++ {
		// Along the row: leave long child q+u-1 unmatched. The plan does
		// from where it enters the row (it matched short child q-1 at
		// long child q-1+u) to where it matches short child q.
		stop := k
		if q < n {
			stop = int(m.shapeAt[at+q]) - q
		}
		for u := 1; u <= k; u++ {
			z := int(long.Size[m.shapeKids[l+q+u-1]])
			planEdge := plan[u-1] < shapeNever && u-1 < stop
			from := other[u-1]
			if !planEdge {
				from = min(from, plan[u-1])
			}
			other[u] = min(other[u], from+z, shapeNever)
			if planEdge {
				plan[u] = plan[u-1] + z
			}
		}
		if q == n {
			return other[k] > plan[k]
		}
		// Down to the next row: match short child q with long child q+u.
		for u := 0; u <= k; u++ {
			nextPlan[u], nextOther[u] = shapeNever, shapeNever
			if plan[u] == shapeNever && other[u] == shapeNever {
				continue
			}
			if u == stop {
				c := m.shapeCost[costs+q]
				nextPlan[u] = plan[u] + c
				nextOther[u] = min(other[u]+c, shapeNever)
				continue
			}
			i, j := oldNew(longNew, m.shapeKids[s+q], m.shapeKids[l+q+u])
			nextOther[u] = min(min(plan[u], other[u])+m.lowerBound(i, j, shapeLookDepth), shapeNever)
		}
		plan, other = nextPlan, nextOther
	}
}

// oldNew returns short and long, the counterparts of a short list and a
// long one, in the order (old, new): as they are when longNew (the long
// list is the new side's), swapped otherwise. Being a swap or not, it
// also turns an (old, new) pair into (short, long). Every decision of
// the plans that depends on which side is long is taken here.
func oldNew[T any](longNew bool, short, long T) (old, new T) {
	if longNew {
		return short, long
	}
	return long, short
}

// sameName reports whether old node i and new node j have the same kind
// and name.
func (m *matching) sameName(i, j int32) bool {
	return m.oldName.at(i) == m.newName.at(j)
}

// identical reports whether old subtree i and new subtree j are
// identical, by their signatures.
func (m *matching) identical(i, j int32) bool {
	return m.old.Signature[i] == m.new.Signature[j]
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
	m.shapeKids = appendChildList(m.old.Flat, i, m.shapeKids)
	mid := len(m.shapeKids)
	m.shapeKids = appendChildList(m.new.Flat, j, m.shapeKids)
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

// appendChildList appends the children of node i of f to buf, in document
// order (Flat.AppendChildren's, reversed).
func appendChildList(f *tree.Flat, i int32, buf []int32) []int32 {
	start := len(buf)
	buf = f.AppendChildren(buf, i)
	slices.Reverse(buf[start:])
	return buf
}
