// Package quality measures how close a diff's deltas are to the minimum, as
// chapter 5 of G. Cobéna's thesis ("Change management of semi-structured
// data on the Web", École Polytechnique, 2003) does: r = C / C_ref, where C
// is the edit cost of a delta and C_ref the cost of the minimum edit script
// (package editdist), and C / C_perfect against the exact delta of the
// change simulator (package simulate, thesis §3.6.1).
//
// Costs follow delta.EditCost. Against the exact reference, which has no
// moves, the pairs are simulated without moves and a move in a measured
// delta costs as much as a delete plus an insert of the moved subtree (the
// seed's first experiment). Against the simulator's delta, moves are
// simulated and cost 1.
//
// # Differences from the seed
//
//   - The seed's reference is MMDiff (Chawathe); Vigil's is Selkow's exact
//     algorithm, of the same model (subtree inserts and deletes, no moves)
//     and with an edit script.
//   - The seed measured real web documents; here pairs are simulated over
//     four document shapes and three change rates, deterministically, and
//     the real histories of the corpus are measured when their size allows
//     the exact reference.
package quality
