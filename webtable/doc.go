// Package webtable holds web tables, the results of a coupling query over
// linked Web documents, and finds what changed between two polls of the same
// query: the web join and the outer web joins, and the delta web tables Δ+
// (tuples that show added documents), Δ- (tuples that show deleted ones) and
// ΔM (tuples that show modified documents in their old and new versions).
//
// # Seeds
//
// S. S. Bhowmick, S. Madria, W. K. Ng, "Detecting and Representing Relevant
// Web Deltas in WHOWEDA" (seed 000): §3 the model and node identity,
// Definition 1 the delta web tables, §5 the web join and the outer web
// join (Figs. 6-8), §6 Algorithm Delta (Figs. 11-14). S. S. Bhowmick, S.
// Madria, W. K. Ng, "Representation of Web Data in a Web Warehouse", The
// Computer Journal 46(3), 2003 (seed 004): web tuples and web tables, node and
// link objects, the table node pool, node ids and version ids (§1.1, §7.1).
// The reader's notes shared/notes/000-whoweda-deltas.md and
// 004-whoweda-model.md give the pseudo-code, its defects and their repairs
// (R1-R10, notes §4.12), and the worked examples the tests check.
//
// # Model
//
// A Table is the seed's ⟨Z, S, T⟩ without S: a name, the table node pool
// (Nodes and Links) and the tuples, each recorded by the ids of its nodes and
// links. A node is one version of one document: its node id (one per URL) and
// its version id (one per URL and last-modification date); two nodes are
// identical when both ids are equal. Links take no part in identity: a link
// that changed shows as a new version of the page that holds it (seed 000
// §4.2). Node contents live in the warehouse; nothing here needs them.
//
// # Phases, in the seed's order
//
//  1. Join tables (Fig. 11 lines 1-4): the joinable node ids J, in both
//     tables with the same version (Fig. 6); Join, the web join (Fig. 7);
//     LeftOuterJoin and RightOuterJoin, the dangling tuples (Fig. 8).
//  2. Delta nodes (lines 5-7): delNodeSet, addNodeSet and updateNodeSet,
//     which Diff returns as Delta.Deleted, Delta.Added and Delta.Modified.
//  3. Delta tuples (lines 8-22): K, the modified nodes no joined tuple
//     holds, and U, the others; DeltasFromRightOuter (Fig. 12) and its
//     mirror DeltasFromLeftOuter, which fill insertTupleSet, deleteTupleSet,
//     temp1 and temp2 and consume the working sets A and D;
//     DeltasFromJoin, Fig. 13 if A and D are then empty and Fig. 14
//     otherwise; and the integration of temp1 and temp2 into ΔM.
//  4. Delta tables (lines 23-25): Delta.Plus (Δ+), Delta.Minus (Δ-) and
//     Delta.Mod (ΔM), each a web table or a pair of them.
//
// Each ΔM tuple records the step that found it (Origin).
//
// # Differences from the seed
//
// The published pseudo-code does not run as printed; Diff applies the notes'
// repairs:
//
//   - R1 (Fig. 8 line 20): a dangling tuple is stored once, not once per node.
//   - R2 (Fig. 12): the outer scans take K, as the call site passes, and the
//     else belongs to "S ∩ A ≠ ∅": a dangling tuple without added (deleted)
//     nodes, all of whose nodes are then modified, goes to temp1.
//   - R3 (Fig. 13): a joined tuple with no modified node (X = ∅, "category
//     1") is ignored, as the text says, instead of passing the test vacuously.
//   - R4 (Figs. 13 and 14): N1(w_a) and N2(w_a) are the nodes of the joined
//     tuple's old and new constituents; read literally the test is always
//     true. Joined tuples keep their constituents (Pair) for this.
//   - R5 (Fig. 14): the test of line 5 is Y ≠ ∅ (the other disjuncts follow
//     from it); ⊂ in line 12 is ⊆, as the paper's own example needs; line
//     17's "w1 or w2" is w1 to Δ- when R holds a deleted node and w2 to Δ+
//     when R holds an added one; a tuple is ignored only when Y = ∅.
//   - R6 (Fig. 11 lines 19-22): the seed gives no rule for combining temp1
//     and temp2. A dangling old tuple and a dangling new one are integrated
//     when they share a node of K or hold the same node ids (sharing any
//     modified node would pair every tuple through a changed start page); a
//     tuple that finds no partner enters ΔM alone instead of being lost.
//   - R10 (Fig. 7 line 23): nodes are fetched by (id, version), so a joined
//     or integrated tuple holds both versions of a modified node.
//   - Options.Strict (R7), Options.Cover (R8) and Options.Complete (R9) are
//     off by default, so that the zero Options gives the seed's results:
//     they fix a ΔM tuple with nothing modified in it (fixture F8), a
//     modified node that no ΔM tuple shows in both versions (F6), and a new
//     tuple whose added node an earlier tuple consumed (F7). Complete goes
//     further than R9: every tuple with a changed node is then in some delta
//     table, which makes the delta tables enough to rebuild the new table
//     from the old one (see Options.Complete); the seed claims this of its
//     deltas but gives no algorithm, and without Complete it does not hold.
//
// Other departures:
//
//   - Fig. 11 chooses between Fig. 13 and Fig. 14 once, after the outer
//     scans, and so does Diff. (The notes' executable reference re-tests
//     before every joined tuple; the worked examples come out the same, and
//     the tests check both.)
//   - Diff never builds the web join, whose size can be the product of the
//     tables' sizes when an unchanged page is shared (a start page: fixture
//     F2 has 64 pairs for 8 tuples). It computes the same ΔM in the same
//     order from indexes (the notes' §4.13 construction, made exact): see
//     joinscan.go. Join itself yields its pairs one at a time.
//   - Δ+ and Δ- list their tuples in the order of their tables, not in the
//     order the scans found them; ΔM lists joined tuples in the order of the
//     join, then integrated ones, then those of Cover and Complete.
//   - Web schemas are not modelled: the seed defers them to another paper,
//     and the delta does not depend on them. A delta table carries the name
//     of the table its tuples come from (Δ+ the new one, Δ- the old one);
//     the seed does not name delta tables.
//   - Delta tables hold, in their node pools, every node of their tuples,
//     so each stands alone; the seed stores only the changed nodes and
//     refers to the others. ΔM's pools hold both versions of every modified
//     node, as the seed's CreateDeltaM does.
//   - Node and version ids come from the caller (the warehouse's node pool),
//     and the operators check that the two tables agree with the seed's
//     identity rule: one URL per node id, one node id per URL, one date per
//     version, one version per (URL, date). The seed leaves out pages without
//     a last-modification date; here their version is whatever the caller
//     gives them (a content hash, say). Identity is the seed's: a page whose
//     content changed under the same date is the same node.
//   - The seed's complexity analysis assumes B+-trees and a small join;
//     Diff numbers every node once, through hash indexes of positions, works
//     on those numbers, and runs in time linear in the two tables plus the
//     size of ΔM (BENCHMARKS.md). A changed page that k tuples share still
//     puts up to k² "category 3" tuples in ΔM (notes §4.10): that is the
//     seed's answer, whose size no implementation can avoid.
package webtable
