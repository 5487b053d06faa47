// Package treediff is XyDiff: it finds the changes between two versions of a
// document tree, moves included, in O(n log n) time and linear memory, and
// returns them as a delta (package delta).
//
// It implements chapter 3 of G. Cobéna, "Change management of
// semi-structured data on the Web", PhD thesis, École Polytechnique, 2003,
// published as Cobéna, Abiteboul, Marian, "Detecting changes in XML
// documents", ICDE 2002. The XyDiff tool (INRIA, C++) settles points the
// thesis leaves open; where Vigil follows it, this says so.
//
// # Phases, in the seed's order
//
//  1. ID attributes (idPhase): elements with the same ID value (from the
//     DTD's ID attributes, or the user's key attributes) are matched, then
//     their ancestors by the bottom-up pass. An element with an ID can only
//     ever match an element with the same ID: the ID is part of the
//     matching key of every later phase.
//  2. Signatures and weights (tree.MeasureFlat): a 64-bit hash and a weight
//     (1 + Σ children; 1 + ln(length) for text) per subtree.
//  3. Heaviest first (buldPhase): new subtrees are taken from a priority
//     queue by weight (ties: first in post-order) and matched with an
//     identical old subtree. Among several candidates, the one whose k-th
//     ancestor is matched with the new subtree's k-th ancestor wins, at the
//     lowest k up to dmax = minLookupDepth + ⌊lookupFactor · ln N · W/W0⌋;
//     the ancestors up to the anchor are then matched while their names
//     agree. Long candidate lists are indexed by (signature, level,
//     ancestor) so that a popular signature costs O(1) a look-up.
//  4. Peephole (bottomUp, topDown): an unmatched node is matched with the
//     old parent of the heaviest set of its matched children; then, under
//     matched parents, children that are the only unmatched one of their
//     name on both sides are matched.
//  5. Delta construction (delta.Build): deletes, inserts, moves (parent
//     changed, or out of the heaviest increasing subsequence of the
//     siblings), updates and attribute operations.
//
// # Vigil's default
//
// The seed's phases give deltas far from the minimum (its own study: about
// half under twice the minimum, the other half three times). The default
// algorithm, Vigil, keeps XyDiff's speed and gets close to the minimum:
//
//   - align, before phase 3: the children of the roots that are identical
//     subtrees in the same order are zipped at once (common prefix and
//     suffix, then signatures unique on both sides along a longest
//     increasing subsequence, as patience diff does), so that the
//     heaviest-first phase only sees the changed regions. Align descends:
//     between two aligned children, an old and a new element of the same
//     name with at least half of the heavier one's weight in identical
//     children in order are paired and their children aligned in turn
//     (where more than one child is left on a side, each old one is tried
//     with the next few new ones, in order). Between two anchors, identical
//     children are paired in order, and a pair that differs while one of
//     the next three on its diagonal agrees is taken as changed in place
//     (pairing each child with the next identical one pairs a list of
//     repeated items one item off after each change). Where that leaves
//     identical children unpaired (repeated ones, which no unique
//     signature anchors), a longest common run by Myers' O(ND) algorithm
//     replaces it, when the signature counts show it can do better and
//     within a budget of work a node; and so does a run of the whole range
//     the anchors cut, when it pairs more: the unique children may be the
//     ones that moved (a list of repeated items in which only the moved
//     ones are unique), and the stretches between them then hold each
//     other's items. Where the budget pays for no such run (a long list of
//     a few values repeated, in which blocks of items moved), the list
//     is anchored on its runs of 8 to 32 consecutive children that are
//     unique on both sides, kept along a longest increasing
//     subsequence, and the short gaps between them aligned as above;
//     the unique runs off the subsequence are blocks that moved, and
//     their children are paired (blockRun). A lone old and a lone new
//     child left between two aligned ones are paired as an update when
//     small, unless each is identical to a sibling that changed places,
//     or, among repeated children that no common run pairs, to one left
//     alone on the other side, which would be deleted or inserted (see
//     markLoose): those are moves. So are lone children linked by their
//     twins into a chain (r0 r0 r3 r2 r1 r1 r2 to r2 r0 r3 r1 r2 r0 r1:
//     the lone r0 and r1 against r2 and r0, an r2 and an r1 left alone)
//     when their twins pair more nodes than pairing them in place does
//     (a lone pair whose children the twins leave stays in place), the
//     twins in gaps of more than one child on a side counted with what
//     recovery would pair there in place (markTwinChains), at a few
//     look-ups a child left.
//   - phase 3 looks for an anchor only at the parent for light subtrees
//     (the thesis's d = 1 + h·W/W0), not three levels up as the tool does:
//     far anchors pair identical small subtrees across the document, which
//     turns local edits into moves.
//   - among identical candidates under the parent's match, phase 3 takes
//     the one beside the matches of the new subtree's siblings, and passes
//     over those that another new subtree's siblings place (at most
//     maxClaimedSkips of them): repeated children such as the ", " between
//     links, taken first come first served, pair one place off from an
//     inserted or deleted link on, and each is a move. A text of no letter
//     or digit (a separator) is paired there only between the matches of
//     its nearest siblings (not at all when none is near: recovery pairs
//     it in order), and never as an identical region by the
//     leftovers phase: it does not move, it goes and comes with the items
//     it separates.
//   - short values matched by the rule "unique on both sides" (see the
//     differences below) that look like values changed in place are taken
//     back at the end of phase 3, and again after the bottom-up pass for
//     those whose parents could not be placed before (stray-moves).
//   - phase 4's top-down pass pairs the only unmatched children of a name
//     only where they stand in the same gap between the children matched
//     in order (the anchors of recovery, below), or where no other child
//     of either side has their name (a page's title, a section's
//     heading: the same child wherever it stands): paired across a list,
//     they are a move with all its content rewritten, which is what the
//     seed reports of a feed that gets a new item on top and loses its
//     oldest at the end. Children that moved and changed are left to the
//     leftovers phase, which pairs elements by their words; two texts
//     across the anchors are paired here when they keep most of their
//     pairs of words (similarTexts), the leftovers pairing no text.
//   - recovery, after phase 4 (as GumTree's recovery step): between the
//     children of a matched pair that are matched to each other in order
//     (along a longest increasing subsequence of their new positions, so
//     that one child moved far does not hide the rest), the unmatched
//     children form gaps; a small gap is matched exactly with
//     Selkow's edit distance (package editdist), a large one by aligning
//     names; a gap of one old and one new subtree (a changed record) is
//     paired without the matcher's tables when a plan of it is provably
//     Selkow's only minimum (pairSameShape: the same pairs, a few reads of
//     each node): under every pair, the children paired in order, but
//     for a few children inserted, or deleted, a list (fields gained or
//     lost, a field's text gone), or, in short lists, along their names
//     (a field lost and another gained), with the plan's cost below what
//     any alignment that leaves other children unmatched must cost, and
//     every other alignment dearer by a lower bound of Selkow's
//     distance; a
//     lone old and new child of different names in a large gap are taken
//     as wrapped or unwrapped when one's only child has the other's name
//     (an element inserted around a deep subtree).
//   - leftovers: a deleted and an inserted region with identical content
//     become a move; regions with the same name and similar words (Dice >
//     0.5 over the first 1000 bytes of text, found through an inverted
//     index of words by name) become a move plus edits. Then the elements
//     up to three levels inside the regions left (an item moved into a
//     new wrapper, or out of a deleted one, and edited) are paired so
//     with those of the other side, each with a region root or an element
//     inside a region of another name (two regions of one name were
//     weighed as wholes: a byline they share does not make one item of
//     them), by the pairs of consecutive words of their texts not matched
//     elsewhere, three at least in common: a paragraph with a word changed
//     keeps most of them, one of the same vocabulary in another order
//     keeps few. A second recovery then matches the insides of the pairs,
//     and only those. (A text moved among its siblings and changed is
//     left deleted and inserted: the delta updates a text only in place.)
//
// # Speed
//
// The diff works on flat trees (tree.Flat: post-order arrays of kinds,
// names, values, attributes, sizes, parents and sibling positions), their
// measures (tree.Measure: signatures and weights) and the nodes' name
// classes (nameClasses), never on node pointers: on a document of a million
// nodes the arrays stay in cache and the nodes do not. DiffFlat is the entry point for flat trees, which
// markup.ParseXMLFlat builds straight from XML; Diff flattens two
// Documents, calls it and gives the Documents their XIDs. Only the content
// of the delta's operations is built as *tree.Node. Children are walked
// through the subtree sizes (the last child of node i is i-1, the one
// before it i-1-size), or copied from the list a Flat keeps of the
// children of a node with many (tree.Flat.AppendChildren). Candidate subtrees are found in open-addressing
// tables of signatures with one cache line per probe. BENCHMARKS.md has
// the figures.
//
// Plain XyDiff stays available (Options.Algorithm = XyDiff, vigil diff
// --algorithm xydiff). The package quality measures both; BENCHMARKS.md
// records the figures.
//
// # Differences from the seed
//
//   - The look-up depth of the XyDiff algorithm is the XyDiff tool's
//     3 + ⌊5 · ln N · W/W0⌋, not the thesis's garbled 1 + h · W/W0: it
//     anchors small subtrees through their grandparents, which the
//     thesis's formula almost never allows. Vigil's default uses
//     1 + ⌊5 · ln N · W/W0⌋ and recovers locally instead (see above).
//   - A subtree whose signature occurs exactly once in each version is
//     matched even when no ancestor anchors it: identical content that is
//     unique on both sides is the same content moved, and a move costs one
//     operation where a delete and an insert cost the whole subtree twice.
//     The seed (and the tool) leave such subtrees unmatched. A short value
//     (a light subtree: a price, a date, a label) matched so is taken back
//     once the phase is done when its neighbours place its parent where
//     another node stood, on both sides, and both places have a node that
//     could be paired instead: in a table where values change, a new value
//     that another row held before is a coincidence, and two updates in
//     place say what happened (see unpairStrayMoves). Those whose parents
//     no matched neighbour could place then (every row of a table changed)
//     get a second look once the bottom-up pass has matched the parents.
//   - Phase 4 runs bottom-up then top-down, as the thesis says (the tool
//     runs only top-down), and the top-down pass also pairs text nodes, so
//     that a changed text under a matched parent is an update, in mixed
//     content too.
//   - Signatures include attributes (see package tree); equal signatures
//     mean the attributes are equal too.
//   - Weights are kept as float32, rounded from their float64 sums (see
//     package tree): weights closer than about one part in sixteen million
//     may be equal, and their order is then the tie-break's, first in
//     post-order (the queue takes a child as heavy as its parent).
//   - The roots always match, as in the tool; different names give a rename
//     operation (see package delta).
//   - Sibling order: see package delta (exact heaviest increasing
//     subsequence for any number of children, no chunking, no greedy pass).
package treediff
