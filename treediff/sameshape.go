package treediff

import "github.com/vigil-web/vigil/tree"

// pairSameShape pairs old subtree i and new subtree j node for node (the
// k-th of one in post-order with the k-th of the other), when that is the
// matching the recovery's exact matcher (Selkow's minimum edit distance,
// editdist.FlatMatcher) would give them, and reports whether it did. It
// is that matcher's answer for the commonest gap of a large document: one
// changed record, left whole by the phases before (its fields no longer
// unique), against its new version, of the same shape. The exact matcher
// fills a table of every pair of nodes at equal depths for it; this reads
// each node once.
//
// It pairs them when both subtrees have the same shape (each node of the
// same kind, name and subtree size as its counterpart, every element with
// the same attributes in the same order) and when, under every node, the
// positional matching of the children costs less than twice the smallest
// child: the positional cost of a subtree is the number of its texts,
// comments and processing instructions whose values differ, the only
// relabels left, and any other alignment of two lists of the same length
// leaves a child of each unmatched, so deletes and inserts at least that.
// The positional matching is then the only one of least cost, at every
// level, and the roots' too (their cost is less than their size), so the
// exact matcher, whatever its tie-breaks, gives it. Otherwise it pairs
// nothing and returns false.
func (m *matching) pairSameShape(i, j int32) bool {
	n := m.old.Size[i]
	if m.new.Size[j] != n || n < 2 {
		return false
	}
	first, firstNew := i-n+1, j-n+1
	// cost[k] is the positional cost of the subtree of node first+k so far
	// (its own and its children's); least[k] the size of its smallest
	// child, n+1 until one is seen.
	cost := grow(&m.shapeCost, int(n))
	least := grow(&m.shapeLeast, int(n))
	for k := range n {
		cost[k], least[k] = 0, n+1
	}
	for k := range n {
		x, y := first+k, firstNew+k
		if m.old.Size[x] != m.new.Size[y] || m.oldName.at(x) != m.newName.at(y) {
			return false
		}
		if m.old.Kind[x] == tree.Element {
			if !sameAttrs(m.old.Attrs(x), m.new.Attrs(y)) {
				return false
			}
			// Its children are done (post-order): their positional
			// matching must be the only cheapest.
			if m.old.Size[x] > 1 && cost[k] >= 2*least[k] {
				return false
			}
		} else if m.old.Value(x) != m.new.Value(y) {
			cost[k]++
		}
		if k < n-1 {
			p := m.old.Parent[x] - first
			cost[p] += cost[k]
			least[p] = min(least[p], m.old.Size[x])
		}
	}
	for k := range n {
		if x, y := first+k, firstNew+k; m.canPair(x, y) {
			m.pair(x, y)
		}
	}
	return true
}

// sameAttrs reports whether two attribute lists are the same, in the same
// order.
func sameAttrs(a, b []tree.Attr) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}
