// Package editdist computes exact tree edit distances, the reference against
// which Vigil measures the quality of its deltas.
//
// Two algorithms are here:
//
//   - Selkow (S. M. Selkow, "The tree-to-tree editing problem", Information
//     Processing Letters 6(6), 1977): inserts and deletes act on whole
//     subtrees, and matched nodes keep their parent and their order. This is
//     the model of XyDelta (thesis §5.2, Selkow vs Tai), so a Selkow
//     matching becomes a delta through delta.Build, and Script returns it.
//     It is the exact reference of the seed's quality measure r = C / C_ref
//     (chapter 5 of G. Cobéna's thesis, which used MMDiff, an algorithm of
//     the same model).
//   - Zhang-Shasha (K. Zhang, D. Shasha, "Simple fast algorithms for the
//     editing distance between trees and related problems", SIAM J.
//     Computing 18(6), 1989): deleting a node makes its children children of
//     its parent (Tai's model). Its scripts are shorter and cannot be written
//     as XyDelta; it is here for comparison and for the classic examples.
//
// # Cost model
//
// Both use the cost model of package delta: one per inserted or deleted
// node, one per changed text value, one per element rename, one per
// attribute inserted, deleted or changed. Nodes of different kinds are never
// matched. Moves do not exist in either model.
//
// # Limits
//
// Both algorithms are quadratic in time and memory. They refuse inputs whose
// pair count exceeds MaxPairs with an error rather than exhaust memory; they
// are meant for documents of up to a few thousand nodes. A caller that
// matches many small forests (treediff's recovery, thousands of gaps of a
// few nodes) uses a FlatMatcher, which keeps its tables from one call to the
// next.
//
// # Differences from the sources
//
//   - Selkow's relabel operation is split by kind: a text's value and an
//     element's name and attributes are compared as the delta cost model
//     counts them, instead of one unit per relabel.
//   - The roots are always matched (renamed if needed), as they are in
//     XyDelta, where the root cannot be deleted.
//   - Among the matchings of minimum cost, Selkow's backtrack takes one
//     that pairs subtrees of the most alike words, then the leftmost (the
//     sources take whichever the table gives first). An item edited beside
//     a deleted one costs the same paired with either, and only one reads
//     as what happened. The cost, and so the quality measure, is the same.
package editdist
