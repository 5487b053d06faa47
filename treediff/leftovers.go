package treediff

import (
	"slices"
	"unicode"

	"github.com/vigil-web/vigil/tree"
)

// Bounds of the leftover search, so that it stays linear.
const (
	// leftoverPostings is the most candidates a word may point to; a word
	// shared by more is too common to tell subtrees apart and is skipped.
	leftoverPostings = 64
	// leftoverTextLimit is how much of a subtree's text is compared.
	leftoverTextLimit = 1000
	// leftoverSimilarity is the least Dice coefficient of the word sets of
	// two subtrees for them to be paired.
	leftoverSimilarity = 0.5
	// leftoverExact is how many candidates, those sharing the most rare
	// words, get their exact similarity computed.
	leftoverExact = 4
	// leftoverDepth is how many levels below the root of a deleted or
	// inserted region an element may lie and still be paired by its words
	// (an item moved into a new wrapper, or out of a deleted one).
	leftoverDepth = 3
	// leftoverNestedShared is the fewest pairs of consecutive words that
	// an element inside a region must share with its counterpart to be
	// paired with it: a short value that shares one or two is alike by
	// chance.
	leftoverNestedShared = 3
)

// leftovers pairs subtrees that moved and changed at the same time. After
// the other phases, the roots of the deleted regions (unmatched old nodes
// under a matched parent) and of the inserted regions are left; an inserted
// and a deleted root with the same name whose words are similar are paired,
// which makes a move plus a few edits of what would be a delete plus an
// insert of both subtrees. Candidates are found through an inverted index of
// their words under their name, so each inserted root is compared only with
// deleted roots of its name that share a word with it. The elements just
// inside the regions still left are then paired the same way, by pairs of
// consecutive words (see wordRule). A later recovery pass matches their
// insides.
type leftovers struct{}

func (leftovers) name() string { return "leftovers" }

// leftover is a deleted region root that an inserted one may pair with.
type leftover struct {
	node          int32
	region, depth int32 // see wordCand
	words         wordSet
	// taken says that an inserted root was paired with it. The phase
	// matches the candidates and nothing else, all free when listed: a
	// candidate's own flag, beside its words, says whether it is free
	// without a read of its match, a miss of the cache on a large document
	// for each candidate that shares a word.
	taken bool
}

func (leftovers) run(m *matching) {
	oldRoots := regionRoots(m.old, m.oldMatch, m.oldParent)
	newRoots := regionRoots(m.new, m.newMatch, m.newParent)
	zips := m.pairIdenticalRegions(oldRoots, newRoots)
	// What is left: the unmatched elements under matched parents. Only
	// regions whose name the other side has too can pair: the words of the
	// others are never read.
	oldRoots = m.elementRoots(m.old, m.oldMatch, m.oldParent, oldRoots, zips, 0)
	newRoots = m.elementRoots(m.new, m.newMatch, m.newParent, newRoots, zips, 1)
	m.pairByWords(rootCands(oldRoots), rootCands(newRoots), wordRule{})
	oldNested := nestedCands(m.old, m.oldMatch, &m.oldName, oldRoots, &m.kids)
	newNested := nestedCands(m.new, m.newMatch, &m.newName, newRoots, &m.kids)
	// Old candidates in post-order, new ones level by level (an element
	// before those inside it).
	slices.SortFunc(oldNested, func(a, b wordCand) int { return int(a.node - b.node) })
	m.pairByWords(oldNested, newNested, wordRule{nested: true})
}

// pairByWords pairs each new candidate, in the order given, with the free
// old candidate of its name whose words are most similar (a Dice
// coefficient above leftoverSimilarity), found through an inverted index
// of the old candidates' words under their names. The old candidates are
// in post-order. A candidate inside a node paired here is not paired
// again: the second recovery matches the insides of the pairs.
func (m *matching) pairByWords(oldC, newC []wordCand, rule wordRule) {
	if len(oldC) == 0 || len(newC) == 0 {
		return
	}
	oldNames, newNames := classSetOf(oldC, &m.oldName), classSetOf(newC, &m.newName)
	// The candidates counted first, to be laid out in one array of their
	// number: tens of thousands on a large document, where doubling
	// the array as it fills would allocate twice as much again.
	n := 0
	for _, oc := range oldC {
		if newNames.has(m.oldName.at(oc.node)) {
			n++
		}
	}
	if n == 0 {
		return
	}
	cands := make([]leftover, 0, n)
	var wordBuf, store wordSet
	var index wordIndex
	for _, oc := range oldC {
		i := oc.node
		if !newNames.has(m.oldName.at(i)) {
			continue
		}
		cands = append(cands, leftover{node: i, region: oc.region, depth: oc.depth, words: wordsOf(m.old.Flat, i, rule.words(m.oldMatch), &wordBuf, &index, &store)})
	}
	var byWord postings // (name, word) -> candidates
	byWord.build(&m.spare, cands, func(i int32) uint64 { return nameHash(m.oldName.at(i)) })
	defer byWord.release(&m.spare)
	// shared[k] counts the rare words candidate k shares with the inserted
	// region at hand; touched lists the candidates to reset.
	shared := take[int32](&m.spare, len(cands))
	defer give(&m.spare, shared)
	var touched, top []int32
	for _, y := range newC {
		j := y.node
		if !oldNames.has(m.newName.at(j)) || m.newMatch[j] >= 0 || (rule.nested && m.newAncestorPaired(y)) {
			continue
		}
		words := wordsOf(m.new.Flat, j, rule.words(m.newMatch), &wordBuf, &index, nil) // index holds words
		name := nameHash(m.newName.at(j))
		for _, k := range touched {
			shared[k] = 0
		}
		touched = touched[:0]
		for _, w := range words {
			for _, k := range byWord.list(w ^ name) {
				if shared[k] == 0 {
					touched = append(touched, k)
				}
				shared[k]++
			}
		}
		// The exact similarity only for the few free candidates sharing the
		// most rare words (ties: first in document order). Whether a
		// candidate is free is asked once per candidate here, not once per
		// word it shares.
		top = top[:0]
		before := func(a, b int32) bool {
			return shared[a] > shared[b] || (shared[a] == shared[b] && cands[a].node < cands[b].node)
		}
		for _, k := range touched {
			if len(top) == leftoverExact && !before(k, top[len(top)-1]) {
				continue // most candidates, passed over without a call
			}
			if c := &cands[k]; c.taken || !m.sameKey(c.node, j) || !rule.allows(c, y) {
				continue
			}
			top = keepTop(top, k, before)
		}
		best, bestScore := int32(-1), leftoverSimilarity
		for _, k := range top {
			c := &cands[k]
			if m.oldName.at(c.node) != m.newName.at(j) {
				continue // two (name, word) keys that collide
			}
			s, common := index.diceCommon(words, c.words)
			if rule.nested && common < leftoverNestedShared {
				continue
			}
			if s > bestScore || (s == bestScore && (best < 0 || c.node < cands[best].node)) {
				best, bestScore = k, s
			}
		}
		if best >= 0 {
			i := cands[best].node
			// The candidates inside it come just before it.
			for k := best; k >= 0 && cands[k].node > i-m.old.Size[i]; k-- {
				cands[k].taken = true
			}
			m.pair(i, j)
			m.leftoverPairs = append(m.leftoverPairs, i)
		}
	}
}

// classSet is a set of name classes, indexed by class.
type classSet []bool

// classSetOf returns the set of the name classes of the candidates cs,
// given the classes of their version.
func classSetOf(cs []wordCand, class *classes) classSet {
	top := int32(0)
	for _, c := range cs {
		top = max(top, class.at(c.node))
	}
	set := make(classSet, top+1)
	for _, c := range cs {
		set[class.at(c.node)] = true
	}
	return set
}

// has reports whether class k is in the set.
func (s classSet) has(k int32) bool { return int(k) < len(s) && s[k] }

// keepTop adds k to top, the leftoverExact best items so far under the
// order before, and returns it.
func keepTop(top []int32, k int32, before func(a, b int32) bool) []int32 {
	if len(top) < leftoverExact {
		top = append(top, k)
	} else if before(k, top[len(top)-1]) {
		top[len(top)-1] = k
	} else {
		return top
	}
	for x := len(top) - 1; x > 0 && before(top[x], top[x-1]); x-- {
		top[x], top[x-1] = top[x-1], top[x]
	}
	return top
}

// regionRoots returns the nodes of a version that are unmatched under a
// matched parent, in post-order.
func regionRoots(t *tree.Measure, match, parent []int32) []int32 {
	var roots []int32
	for i := range t.Len() {
		if isRegionRoot(int32(i), match, parent) {
			roots = push(roots, int32(i))
		}
	}
	return roots
}

// elementRoots returns the elements of a version that are unmatched under a
// matched parent, in post-order, given the region roots before the
// identical regions were paired (roots) and the pairs zipped then (side 0
// of each for the old version, 1 for the new). A zip can make new region
// roots inside the regions it pairs, where a node was already matched
// elsewhere: those regions are searched again, not the whole version.
func (m *matching) elementRoots(t *tree.Measure, match, parent, roots []int32, zips [][2]int32, side int) []int32 {
	out := roots[:0]
	for _, i := range roots {
		if match[i] < 0 && t.Kind[i] == tree.Element {
			out = append(out, i)
		}
	}
	found := len(out)
	for _, z := range zips {
		r := z[side]
		for i := r - t.Size[r] + 1; i < r; i++ {
			if isRegionRoot(i, match, parent) && t.Kind[i] == tree.Element {
				out = append(out, i)
			}
		}
	}
	if len(out) > found {
		// A root inside a zipped region (under a node matched elsewhere)
		// may be in both lists.
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out
}

// isRegionRoot reports whether node i (of the old or new tree, by its
// matches and parents) is unmatched under a matched parent: the root of a
// deleted or inserted region.
func isRegionRoot(i int32, match, parent []int32) bool {
	return match[i] < 0 && parent[i] >= 0 && match[parent[i]] >= 0
}

// pairIdenticalRegions pairs inserted and deleted regions (the roots given,
// in post-order) whose subtrees are identical, whatever their place: one
// move instead of deleting and inserting the same content. Regions are
// paired in document order. A text of no letter or digit (the " | " or ", "
// between links, a lone space) is not content that moves: one such
// separator that went with a deleted item and another that came with an
// inserted one are a delete and an insert, not a move of the separator.
// It returns the pairs it zipped.
func (m *matching) pairIdenticalRegions(oldRoots, newRoots []int32) [][2]int32 {
	if len(oldRoots) == 0 {
		return nil
	}
	// The old roots by signature, in document order.
	table := newSigTableOf(&m.spare, m.old.Signature, oldRoots)
	defer table.release(&m.spare)
	var zips [][2]int32
	for _, j := range newRoots {
		if m.newMatch[j] >= 0 {
			continue // inside a region zipped before
		}
		sig := m.new.Signature[j]
		if !table.mayHave(sig) {
			continue
		}
		first := table.lookup(sig).first
		if first < 0 || (m.new.Kind[j] == tree.Text && !hasWordChar(m.new.Value(j))) {
			continue
		}
		for k := first; k >= 0; k = table.next(k) {
			if i := table.node(k); m.oldMatch[i] < 0 && m.sameKey(i, j) {
				m.zip(i, j)
				zips = append(zips, [2]int32{i, j})
				// The candidates before it are not looked at again.
				table.dropThrough(sig, k)
				break
			}
		}
	}
	return zips
}

// hasWordChar reports whether s holds a letter or a digit.
func hasWordChar(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}
