package treediff

import (
	"github.com/vigil-web/vigil/editdist"
	"github.com/vigil-web/vigil/tree"
)

// matching is the state the phases share: both versions measured, and the
// pairs found so far, indexed by post-order position.
type matching struct {
	old, new *tree.Measure
	// oldMatch[i] is the index of the new node matched with old node i, or
	// -1; newMatch likewise.
	oldMatch, newMatch []int32
	// oldSize and newSize are subtree sizes: the subtree of node i occupies
	// the post-order range [i-size+1, i].
	oldSize, newSize []int32
	// oldKey and newKey are ID keys: 0 for a node without an ID attribute,
	// otherwise a hash of its name, ID attribute and value. Nodes with
	// different keys are never matched. Both are nil when no attribute is
	// a key: read them through sameKey.
	oldKey, newKey []uint64
	// oldName and newName are each node's name class: equal for nodes of
	// the same kind and name (see nameClasses).
	oldName, newName classes
	// zipped[j] is true when new node j was matched as part of an identical
	// subtree, so that its whole subtree is matched.
	zipped []bool
	// newPos[j] is the 0-based index of new node j among its siblings.
	newPos []int32
	// oldParent[i] is the index of old node i's parent, -1 for the root;
	// newParent likewise.
	oldParent, newParent []int32
	// leftoverPairs lists the old nodes the leftovers phase paired, whose
	// insides are left to a second recovery.
	leftoverPairs []int32
	// kids, gapKidsOld, gapKidsNew, simOld, simNew, alignOld and alignNew
	// are scratch space for lists of children.
	kids, gapKidsOld, gapKidsNew []int32
	simOld, simNew               []int32
	alignOld, alignNew           []int32
	// anchors is recovery's and top-down's scratch list of the (old,
	// new) positions of matched children (childAnchors), anchorAt its
	// room to put them in old order, gapOld and gapNew recovery's
	// unmatched children between two anchors, topDownPairs the top-down
	// pass's candidate pairs.
	anchors        [][2]int32
	anchorAt       []int32
	gapOld, gapNew []int32
	topDownPairs   [][2]int32
	// nameCount is the top-down pass's count of children by name (see
	// countNames).
	nameCount map[int32]int32
	// pairBuf is the buffer align's alignments are carved from (see
	// pairSpace); alignEntry, alignUniq and alignPlain are alignMiddle's
	// scratch space.
	pairBuf    [][2]int32
	alignEntry []int32
	alignUniq  [][2]int32
	alignPlain [][2]int32 // align's second pairing of a gap
	// lis finds the longest increasing subsequences of align and recovery.
	lis increasing
	// myers finds align's common runs of repeated children (commonRun).
	myers myers
	// displaced marks the children align found had changed places.
	displaced displaced
	// sigCounts is align's table of signatures, reused from list to list.
	sigCounts sigCounts
	// blocks is the working space of align's block runs (betterBlocks).
	blocks blockRun
	// twinsLeftOver is set by fillGap when it left identical children
	// unpaired on both sides, for alignMiddle to mark (markDisplaced).
	twinsLeftOver bool
	// lightMoves are the short values the heaviest-first phase matched as
	// unique on both sides and the stray-move check kept (see
	// unpairStrayMoves), for a second look.
	lightMoves [][2]int32
	// strayOld and strayNew are the stray-move check's lists of children.
	strayOld, strayNew []int32
	// gapMatcher is recovery's exact matcher, with its working space;
	// shapeKids (a stack of lists of children), shapeAt (a stack of
	// their pairs' places), shapeCost (a stack of their plans' costs),
	// shapeGrid (planAligned's tables) and shapePairs (the plan) are
	// pairSameShape's.
	gapMatcher           editdist.FlatMatcher
	shapeKids, shapeAt   []int32
	shapeCost, shapeGrid []int
	shapePairs           [][2]int32
	// wordScratch is the working space to compare the words of two
	// nodes (compareWords).
	wordScratch wordScratch
	// spare holds the phases' tables once a phase is done with them, for
	// the next phases' and the delta's (see package scratch).
	spare spare
	// candidateWork is what the heaviest-first phase's look-ups cost
	// (candidates.work), for the tests.
	candidateWork int
}

func newMatching(old, new *tree.Flat, opt *Options) *matching {
	m := &matching{
		old: tree.MeasureFlat(old),
		new: tree.MeasureFlat(new),
	}
	m.oldMatch = filled(m.old.Len(), -1)
	m.newMatch = filled(m.new.Len(), -1)
	m.oldSize = m.old.Size
	m.newSize = m.new.Size
	m.oldName, m.newName = nameClasses(old, new)
	if keys := keyAttrs(old, new, opt); len(keys) > 0 {
		m.oldKey = idKeys(m.old, keys)
		m.newKey = idKeys(m.new, keys)
	}
	m.zipped = make([]bool, m.new.Len())
	m.lis.spare = &m.spare
	m.myers.budget = myersWork * (m.old.Len() + m.new.Len())
	m.newPos = m.new.Pos
	m.oldParent, m.newParent = m.old.Parent, m.new.Parent
	return m
}

// sameKey reports whether old node i and new node j have the same ID key.
func (m *matching) sameKey(i, j int32) bool {
	return m.oldKey == nil || m.oldKey[i] == m.newKey[j]
}

// oldChildren and newChildren return the children of a node in document
// order, in a scratch slice valid until the next call.
func (m *matching) oldChildren(i int32) []int32 {
	m.kids = m.old.ChildList(i, m.kids)
	return m.kids
}

func (m *matching) newChildren(j int32) []int32 {
	m.kids = m.new.ChildList(j, m.kids)
	return m.kids
}

// myersWork bounds the work of align's common runs (commonRun), in
// diagonal steps a node of the two documents.
const myersWork = 64

func filled(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// canMatch reports whether old node i and new node j may be paired: both
// free, the same kind and name, and the same ID key.
func (m *matching) canMatch(i, j int32) bool {
	return m.oldMatch[i] < 0 && m.newMatch[j] < 0 &&
		m.oldName.lo[i] == m.newName.lo[j] && m.sameKey(i, j) &&
		(m.newName.hi == nil || m.oldName.hi[i] == m.newName.hi[j])
}

// pair records that old node i and new node j are the same node.
func (m *matching) pair(i, j int32) {
	m.oldMatch[i] = j
	m.newMatch[j] = i
}

// zip pairs the identical subtrees rooted at old node i and new node j node by
// node (their post-order ranges line up), skipping nodes already matched.
func (m *matching) zip(i, j int32) {
	size := m.oldSize[i]
	oi, nj := i-size+1, j-size+1
	for k := int32(0); k < size; k++ {
		if m.oldMatch[oi+k] < 0 && m.newMatch[nj+k] < 0 && m.sameKey(oi+k, nj+k) {
			m.pair(oi+k, nj+k)
			m.zipped[nj+k] = true
		}
	}
}
