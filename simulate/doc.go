// Package simulate makes test documents and changes them the way the seed's
// change simulator does, so that a diff can be measured against the exact
// ("perfect") delta that was applied.
//
// It implements §3.6.1 of G. Cobéna, "Change management of semi-structured
// data on the Web", PhD thesis, École Polytechnique, 2003: given a document
// and per-node probabilities of delete, update, insert and move, it produces
// the new version and the delta that was applied. Everything is
// deterministic from a seed.
//
// Generate builds documents of four shapes that stress different parts of a
// tree diff: data records (many similar small subtrees with key attributes),
// deep markup (nested sections with mixed content), long flat lists
// (thousands of siblings) and text-heavy pages (long paragraphs).
//
// # Differences from the seed
//
//   - The seed moves only "previously deleted data": its simulator deletes,
//     then reinserts some deleted subtrees elsewhere. Here a move is a
//     change of its own with its own probability: the subtree is detached
//     and reattached at a random place, so that the move rate can be set
//     independently of the delete rate.
//   - The perfect delta is not written by the simulator step by step: the
//     new version keeps the XIDs of every node that survives, and
//     delta.Build derives the delta from them. Where several sets of moves
//     restore the same sibling order, Build picks the lightest, so the
//     "perfect" delta is never costlier than the changes made.
//   - A node is not deleted or moved when that would leave two text nodes
//     side by side (a parser would merge them, so no diff could see them
//     as two), and no text is inserted next to a text, as the seed says.
package simulate
