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
// # Operators
//
// J, the joinable node ids, are in both tables with the same version (seed
// 000 Fig. 6). Join is the web join (Fig. 7): the pairs of tuples that share
// a joinable node. LeftOuterJoin and RightOuterJoin are the outer web joins
// (Fig. 8): the dangling tuples, those with no joinable node.
//
// # Differences from the seed
//
//   - R1 (Fig. 8 line 20, notes §4.12): a dangling tuple is stored once, not
//     once per node.
//   - R10 (Fig. 7 line 23): nodes are fetched by (id, version), so a joined
//     tuple holds both versions of a modified node. Joined tuples keep their
//     constituents (Pair) instead of being materialised.
//   - The join is many to many, and its size can be the product of the
//     tables' sizes when an unchanged page is shared (a start page: the
//     notes' fixture F2 has 64 pairs for 8 tuples), so Join yields its pairs
//     one at a time, found through an index rather than by testing every
//     pair.
//   - Web schemas are not modelled: the seed defers them to another paper.
//     An outer joined table carries the name of the table its tuples come
//     from.
//   - Node and version ids come from the caller (the warehouse's node pool),
//     and the operators check that the two tables agree with the seed's
//     identity rule: one URL per node id, one node id per URL, one date per
//     version, one version per (URL, date). The seed leaves out pages without
//     a last-modification date; here their version is whatever the caller
//     gives them (a content hash, say).
package webtable
