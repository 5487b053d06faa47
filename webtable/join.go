package webtable

import (
	"iter"
	"slices"
)

// Pair names a tuple of the web join, or of ΔM, by its constituents: a
// tuple of the older table and a tuple of the newer one. Its nodes are the
// nodes of both, identical nodes (same id, same version) once, so a node
// whose version changed appears twice, old and new; its links are the links
// of both.
type Pair struct {
	Old TupleID `json:"old,omitempty"`
	New TupleID `json:"new,omitempty"`
}

// Join returns the web join w1 ⋈ w2 (seed 000 §5.1, Figs. 6 and 7): a pair
// for every tuple of w1 and tuple of w2 that share a joinable node, a node id
// with the same version in both tables. Pairs come in the order of w1's
// tuples, then of w2's.
//
// The join is many to many: a page that did not change and that many tuples
// hold (a site's start page) joins every pair of them, so the pairs are
// produced one at a time. Finding them costs time linear in the two tables
// plus the pairs: an index from each joinable node to the tuples of w2 that
// hold it replaces the seed's test of every pair.
func Join(w1, w2 *Table) (iter.Seq[Pair], error) {
	pr, err := newPair(w1, w2)
	if err != nil {
		return nil, err
	}
	holders := pr.byNode(pr.t2, joinable)
	return func(yield func(Pair) bool) {
		mark := make([]int32, pr.t2.len())
		var cand []int32
		for a := range pr.t1.len() {
			cand = cand[:0]
			for _, g := range pr.t1.row(a) {
				for _, b := range holders.row(g) {
					if mark[b] != a+1 {
						mark[b] = a + 1
						cand = append(cand, b)
					}
				}
			}
			slices.Sort(cand)
			for _, b := range cand {
				if !yield(Pair{Old: w1.Tuples[a].ID, New: w2.Tuples[b].ID}) {
					return
				}
			}
		}
	}, nil
}

// LeftOuterJoin returns the left outer web join w1 =⋈ w2 (seed 000 §5.2,
// Fig. 8): the dangling tuples of w1, those that hold no joinable node and
// so take no part in w1 ⋈ w2, in w1's order, with the nodes and links they
// use. Every other tuple of w1 is in some pair of the join.
func LeftOuterJoin(w1, w2 *Table) (*Table, error) {
	pr, err := newPair(w1, w2)
	if err != nil {
		return nil, err
	}
	return pr.p1.sub(indexes(pr.dangling(pr.t1)), nil), nil
}

// RightOuterJoin returns the right outer web join w1 ⋈= w2: the dangling
// tuples of w2, in w2's order.
func RightOuterJoin(w1, w2 *Table) (*Table, error) {
	pr, err := newPair(w1, w2)
	if err != nil {
		return nil, err
	}
	return pr.p2.sub(indexes(pr.dangling(pr.t2)), nil), nil
}

// indexes returns the positions of the true entries of set.
func indexes(set []bool) []int32 {
	var out []int32
	for i, in := range set {
		if in {
			out = append(out, int32(i))
		}
	}
	return out
}
