package treediff

import (
	"cmp"
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// bottomUp is the seed's "propagate to parents" pass (thesis §3.5.2,
// phase 4): an unmatched new node is matched with the old node that is the
// parent of the heaviest set of its matched children, when the two may be
// matched.
type bottomUp struct{}

func (bottomUp) name() string { return "bottom-up" }

func (bottomUp) run(m *matching) {
	type vote struct {
		parent int32
		weight float64
	}
	var votes []vote
	for j := range m.new.Len() { // post-order: children before parents
		if m.newMatch[j] >= 0 || m.new.Size[j] == 1 {
			continue
		}
		votes = votes[:0]
		for _, c := range m.newChildren(int32(j)) {
			i := m.newMatch[c]
			if i < 0 {
				continue
			}
			p := m.oldParent[i]
			if p < 0 {
				continue
			}
			w := float64(m.new.Weight[c])
			found := false
			for k := range votes {
				if votes[k].parent == p {
					votes[k].weight += w
					found = true
					break
				}
			}
			if !found {
				votes = append(votes, vote{p, w})
			}
		}
		best := int32(-1)
		var bestWeight float64
		for _, vt := range votes {
			if vt.weight > bestWeight && m.canMatch(vt.parent, int32(j)) {
				best, bestWeight = vt.parent, vt.weight
			}
		}
		if best >= 0 {
			m.pair(best, int32(j))
		}
	}
}

// topDown is the seed's "propagate to children" pass (thesis §3.5.2, phase
// 4): under a matched pair, unmatched children that are the only unmatched
// child of their kind and name on both sides are matched. Text children
// count as one name, so a changed text becomes an update.
type topDown struct {
	// inOrder (Vigil's default) pairs two such children only when they
	// stand in the same gap between the children matched in order
	// (childAnchors), where the pair is an update in place. Paired across
	// the list, they are a move whose content was all rewritten: a new
	// item on top of a list and the oldest one gone from its end become
	// a move of the oldest to the top and a rewrite of its text. The
	// leftovers phase pairs the ones that did move, by their words. A
	// child that no other child of either side shares its name with (a
	// title) is paired wherever it stands (see sameGap).
	inOrder bool
}

func (topDown) name() string { return "top-down" }

func (t topDown) run(m *matching) {
	var slots nameSlots
	// Pre-order over the old tree, so that a pair matched here has its own
	// children considered when the walk reaches it.
	stack := []int32{m.old.Root()}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		j := m.oldMatch[i]
		if j >= 0 && m.zipped[j] {
			continue // an identical subtree: everything below is matched
		}
		if m.old.Size[i] == 1 {
			continue
		}
		// AppendChildren goes right to left: pushed so, the children pop
		// left to right. (It makes room first for a list of 32 children
		// or more, which appended to one by one would grow a quarter at a
		// time.)
		stack = m.old.AppendChildren(stack, i)
		if j < 0 {
			continue
		}
		if m.old.ChildCount(i) <= topDownScan && m.new.ChildCount(j) <= topDownScan {
			m.pairUniqueChildren(i, j, t.inOrder)
		} else {
			m.pairUniqueChildrenByName(i, j, &slots, t.inOrder)
		}
	}
}

// nameSlots counts the unmatched children of a pair by name, for
// pairUniqueChildrenByName; it is kept from one pair to the next.
type nameSlots map[int32]*nameSlot

type nameSlot struct {
	oldCount, newCount int
	old, new           int32
}

// pairUniqueChildrenByName is pairUniqueChildren through a map of names,
// for nodes with many children.
func (m *matching) pairUniqueChildrenByName(i, j int32, slots *nameSlots, inOrder bool) {
	if *slots == nil {
		*slots = nameSlots{}
	}
	clear(*slots)
	byName := *slots
	for _, ci := range m.oldChildren(i) {
		if m.oldMatch[ci] >= 0 {
			continue
		}
		s := byName[m.oldName.at(ci)]
		if s == nil {
			s = &nameSlot{}
			byName[m.oldName.at(ci)] = s
		}
		s.oldCount++
		s.old = ci
	}
	if len(byName) == 0 {
		return
	}
	for _, cj := range m.newChildren(j) {
		if m.newMatch[cj] >= 0 {
			continue
		}
		if s := byName[m.newName.at(cj)]; s != nil {
			s.newCount++
			s.new = cj
		}
	}
	cands := m.topDownPairs[:0]
	for _, s := range byName {
		if s.oldCount == 1 && s.newCount == 1 && m.canMatch(s.old, s.new) {
			cands = append(cands, [2]int32{s.old, s.new})
		}
	}
	if inOrder && len(cands) > 0 {
		m.gapKidsOld = m.old.ChildList(i, m.gapKidsOld)
		m.gapKidsNew = m.new.ChildList(j, m.gapKidsNew)
		oc, vc := m.gapKidsOld, m.gapKidsNew
		for k, c := range cands { // nodes to their places among the children
			kx, _ := slices.BinarySearch(oc, c[0])
			ky, _ := slices.BinarySearch(vc, c[1])
			cands[k] = [2]int32{int32(kx), int32(ky)}
		}
		cands = m.sameGap(i, oc, vc, cands)
		for k, c := range cands {
			cands[k] = [2]int32{oc[c[0]], vc[c[1]]}
		}
	}
	for _, c := range cands {
		m.pair(c[0], c[1])
	}
	m.topDownPairs = cands
}

// topDownScan is the number of children on each side up to which the
// top-down pass compares names pairwise rather than through a map.
const topDownScan = 16

// pairUniqueChildren is the top-down pass on old node i and new node j:
// each name that occurs once among the unmatched children of each side
// pairs its two nodes, when inOrder in the same gap only (see topDown).
// It compares the children pairwise, which is faster than a map for nodes
// with few children (see topDownScan).
func (m *matching) pairUniqueChildren(i, j int32, inOrder bool) {
	m.gapKidsOld = m.old.ChildList(i, m.gapKidsOld)
	m.gapKidsNew = m.new.ChildList(j, m.gapKidsNew)
	oc, nc := m.gapKidsOld, m.gapKidsNew
	cands := m.topDownPairs[:0] // places in oc and nc
	for kx, ci := range oc {
		if m.oldMatch[ci] >= 0 {
			continue
		}
		name := m.oldName.at(ci)
		unique, only := true, -1
		for _, other := range oc {
			if other != ci && m.oldMatch[other] < 0 && m.oldName.at(other) == name {
				unique = false
				break
			}
		}
		for ky, cj := range nc {
			if unique && m.newMatch[cj] < 0 && m.newName.at(cj) == name {
				if only >= 0 {
					unique = false
				}
				only = ky
			}
		}
		if unique && only >= 0 && m.canMatch(ci, nc[only]) {
			cands = append(cands, [2]int32{int32(kx), int32(only)})
		}
	}
	if inOrder && len(cands) > 0 {
		cands = m.sameGap(i, oc, nc, cands)
	}
	for _, c := range cands {
		m.pair(oc[c[0]], nc[c[1]])
	}
	m.topDownPairs = cands
}

// sameGap keeps, of the candidate pairs cands (places in oc and vc, the
// children of old node i and of its match), those whose two children
// stand in the same gap between the anchors (childAnchors): as many
// anchors before the one as before the other. It keeps too those whose
// name no other child of either side has, matched or not (a page's
// title, a section's heading): such a child is the same one wherever it
// stands, and pairing it says what changed in it, where a delete and an
// insert would hide it (a title changed in a head whose other children
// moved). And it keeps two texts that read nearly alike (similarTexts): a text
// between elements that moved past some of them and was edited, which the
// leftovers phase, pairing elements only, would leave a delete and an
// insert. It filters cands in place.
func (m *matching) sameGap(i int32, oc, vc []int32, cands [][2]int32) [][2]int32 {
	anchors := m.childAnchors(i, oc, vc)
	kept := cands[:0]
	var counted bool
	for _, c := range cands {
		gx, _ := slices.BinarySearchFunc(anchors, c[0], func(a [2]int32, kx int32) int { return cmp.Compare(a[0], kx) })
		gy, _ := slices.BinarySearchFunc(anchors, c[1], func(a [2]int32, ky int32) int { return cmp.Compare(a[1], ky) })
		if gx != gy {
			if !counted {
				m.countNames(oc, vc, cands)
				counted = true
			}
			if m.nameCount[m.oldName.at(oc[c[0]])] != 2 && !m.similarTexts(oc[c[0]], vc[c[1]]) {
				continue
			}
		}
		kept = append(kept, c)
	}
	return kept
}

// countNames sets m.nameCount to the number of children in oc and vc (old
// and new) of each name of the old children of the candidate pairs cands
// (places in oc and vc).
func (m *matching) countNames(oc, vc []int32, cands [][2]int32) {
	if m.nameCount == nil {
		m.nameCount = map[int32]int32{}
	}
	clear(m.nameCount)
	for _, c := range cands {
		m.nameCount[m.oldName.at(oc[c[0]])] = 0
	}
	for _, ci := range oc {
		if n, ok := m.nameCount[m.oldName.at(ci)]; ok {
			m.nameCount[m.oldName.at(ci)] = n + 1
		}
	}
	for _, cj := range vc {
		if n, ok := m.nameCount[m.newName.at(cj)]; ok {
			m.nameCount[m.newName.at(cj)] = n + 1
		}
	}
}

// similarTexts reports whether old node i and new node j are texts that
// read alike: their sets of pairs of consecutive words (the order counts)
// have a Dice coefficient of at least textSimilarity, with at least
// leftoverNestedShared pairs in common (two short texts alike by chance
// share fewer).
func (m *matching) similarTexts(i, j int32) bool {
	if m.old.Kind[i] != tree.Text || m.new.Kind[j] != tree.Text {
		return false
	}
	dice, common, _ := m.compareWords(i, j, wordOptions{pairs: true})
	return dice >= textSimilarity && common >= leftoverNestedShared
}

// textSimilarity is the least Dice coefficient of two texts' pairs of
// words for similarTexts. It is stricter than the leftovers' for elements
// (leftoverSimilarity): a word changed in a line of ten changes two of its
// ten pairs (0.8), where lines written from one template (a log, a feed of
// bare lines: "User alice logged in at 01:00") differ in a name and a time,
// four pairs of ten, and a new line on top is not the oldest one rewritten.
const textSimilarity = 0.8
