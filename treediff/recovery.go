package treediff

import (
	"slices"
)

// recoveryBudget bounds the node pairs of a gap that is matched exactly;
// larger gaps are aligned by name only. It keeps the exact step linear in
// practice: a gap costs at most recoveryBudget steps.
const recoveryBudget = 1 << 14

// labelAlignLimit bounds the name alignment of a large gap (a table of
// labelAlignLimit cells); beyond it, same-name children are paired in order,
// each old child with the first new one of its name within alignWindow.
const labelAlignLimit = 1 << 20

// recovery re-matches what XyDiff left unmatched under matched parents, as
// GumTree's recovery step does: between two children of a matched pair that
// are matched to each other in order (anchors), the unmatched children of
// both sides form a gap. A small gap is matched exactly with Selkow's
// minimum edit distance (package editdist); a large one by aligning the
// names of its children in order. A text that changed is paired with its
// old value this way, an update instead of a delete and an insert.
type recovery struct {
	// leftoversOnly limits the pass to the insides of the regions the
	// leftovers phase paired: everywhere else, the first pass has
	// already matched what it could.
	leftoversOnly bool
}

func (recovery) name() string { return "recovery" }

func (r recovery) run(m *matching) {
	stack := []int32{m.old.Root()}
	if r.leftoversOnly {
		stack = append(stack[:0], m.leftoverPairs...)
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if j := m.oldMatch[i]; j >= 0 {
			if m.zipped[j] {
				continue // an identical subtree: nothing to recover below
			}
			m.recoverChildren(i, j)
		}
		// AppendChildren goes right to left: pushed so, the children pop
		// left to right. (No count of children asked first, to make room:
		// it costs a read of Pos, a cache miss at most nodes of a large
		// document; AppendChildren makes room for a long list it keeps,
		// and the stack keeps what it grew to.)
		stack = m.old.AppendChildren(stack, i)
	}
}

// recoverChildren matches the gaps between the anchored children of old
// node i and new node j.
func (m *matching) recoverChildren(i, j int32) {
	if m.old.Size[i] == 1 || m.new.Size[j] == 1 {
		return
	}
	m.gapKidsOld = m.old.ChildList(i, m.gapKidsOld)
	m.gapKidsNew = m.new.ChildList(j, m.gapKidsNew)
	oc, vc := m.gapKidsOld, m.gapKidsNew
	anchors := m.childAnchors(i, oc, vc)
	gapOld, gapNew := m.gapOld[:0], m.gapNew[:0]
	ko, kv := 0, 0
	flush := func(endOld, endNew int) {
		gapOld, gapNew = gapOld[:0], gapNew[:0]
		for ; ko < endOld; ko++ {
			if c := oc[ko]; m.oldMatch[c] < 0 {
				gapOld = append(gapOld, c)
			}
		}
		for ; kv < endNew; kv++ {
			if c := vc[kv]; m.newMatch[c] < 0 {
				gapNew = append(gapNew, c)
			}
		}
		if len(gapOld) > 0 && len(gapNew) > 0 {
			m.matchGap(gapOld, gapNew)
		}
	}
	for _, a := range anchors {
		flush(int(a[0]), int(a[1]))
		ko, kv = int(a[0])+1, int(a[1])+1
	}
	flush(len(oc), len(vc))
	m.gapOld, m.gapNew = gapOld, gapNew // their room, for the next pair
}

// childAnchors returns the anchors of old node i's children oc and a new
// node's children vc (both in increasing order): the pairs (kx, ky) of
// positions in oc and vc of children matched to each other, along a
// longest subsequence in increasing order on both sides. The slice is
// m.anchors's room, valid until the next call.
func (m *matching) childAnchors(i int32, oc, vc []int32) [][2]int32 {
	// Anchors: children of i matched with children of j, along a longest
	// subsequence in increasing order on both sides. Taking them greedily
	// in old order would let one child moved from the front to the back
	// end every gap at the back, and leave the whole list unrecovered.
	//
	// They are found from the new side: a new child whose match lies in
	// i's subtree and among i's children (oc is in increasing order) is
	// one, at the positions its place in both lists gives. From the old
	// side, each matched child's match would cost reads of newParent and
	// newPos, wherever the match is; the callers read the new children's
	// matches anyway.
	m.anchors = room(&m.spare, m.anchors, min(len(oc), len(vc)))
	start, sorted, next := i-m.old.Size[i], true, 0
	for ky, c := range vc {
		mi := m.newMatch[c]
		if mi <= start || mi >= i {
			continue
		}
		// Most lists are in the same order on both sides: the old child
		// after the last anchor's is the one to try first.
		kx, ok := next, next < len(oc) && oc[next] == mi
		if !ok {
			kx, ok = slices.BinarySearch(oc, mi)
		}
		if ok {
			sorted = sorted && kx >= next // after the last anchor's
			m.anchors = append(m.anchors, [2]int32{int32(kx), int32(ky)})
			next = kx + 1
		}
	}
	if !sorted {
		// In old order, as the longest subsequence wants them: each old
		// position holds one anchor at most.
		at := room(&m.spare, m.anchorAt, len(oc))[:len(oc)]
		for k := range at {
			at[k] = -1
		}
		for _, a := range m.anchors {
			at[a[0]] = a[1]
		}
		m.anchors = m.anchors[:0]
		for kx, ky := range at {
			if ky >= 0 {
				m.anchors = append(m.anchors, [2]int32{int32(kx), ky})
			}
		}
		m.anchorAt = at
	}
	anchors := m.anchors
	for k := 1; k < len(anchors); k++ {
		if anchors[k][1] < anchors[k-1][1] {
			anchors = m.lis.longest(anchors)
			break
		}
	}
	return anchors
}

// matchGap pairs the unmatched subtrees of a gap, given by the indexes of
// their roots.
func (m *matching) matchGap(a, b []int32) {
	var sa, sb int
	for _, i := range a {
		sa += int(m.oldSize[i])
	}
	for _, j := range b {
		sb += int(m.newSize[j])
	}
	if sa*sb <= recoveryBudget {
		if len(a) == 1 && len(b) == 1 && m.pairSameShape(a[0], b[0]) {
			return // as the exact matcher would pair them
		}
		pairs, err := m.gapMatcher.Match(m.old.Flat, a, m.new.Flat, b, recoveryBudget)
		if err == nil {
			for _, p := range pairs {
				if m.canPair(p[0], p[1]) {
					m.pair(p[0], p[1])
				}
			}
			return
		}
	}
	m.alignNames(a, b)
	if len(a) == 1 && len(b) == 1 {
		m.pairWrapped(a[0], b[0])
	}
}

// pairWrapped pairs, when old node i and new node j are left alone in a
// large gap under different names, i with j's only child, or i's only
// child with j, if their names agree and their words are alike: the new
// version wrapped the old subtree in an element, or unwrapped it. The pair
// is an insert and a move (or a delete and a move) where nothing would be
// a delete and an insert of the whole subtree; recovery goes on below it.
func (m *matching) pairWrapped(i, j int32) {
	if m.oldMatch[i] >= 0 || m.newMatch[j] >= 0 {
		return
	}
	// The only child of node k of a measure is k-1, when its subtree is
	// all of k's but k.
	if m.new.Size[j] > 1 && m.new.Size[j-1] == m.new.Size[j]-1 && m.canMatch(i, j-1) && m.wordsAlike(i, j-1) {
		m.pair(i, j-1)
		return
	}
	if m.old.Size[i] > 1 && m.old.Size[i-1] == m.old.Size[i]-1 && m.canMatch(i-1, j) && m.wordsAlike(i-1, j) {
		m.pair(i-1, j)
	}
}

// wordsAlike reports whether old node i's subtree and new node j's have
// alike words (Dice at least leftoverSimilarity, as the leftovers phase
// asks), or too few distinct words to tell (fewer than 4 on both sides
// together: a deep chain around one changed text): a wrapper's content is
// the wrapped content, not other text of the same shape.
func (m *matching) wordsAlike(i, j int32) bool {
	dice, _, n := m.compareWords(i, j, wordOptions{})
	return n < 4 || dice >= leftoverSimilarity
}

// compareWords reads the words of old node i's subtree and of new node
// j's (wordsOf, with opt) and returns the Dice coefficient of the two
// sets, the number of words they share and the sum of their sizes. It
// works in m.wordScratch.
func (m *matching) compareWords(i, j int32, opt wordOptions) (dice float64, common, n int) {
	w := &m.wordScratch
	// Each set in its own scratch slice; the index holds the second.
	oldWords := wordsOf(m.old.Flat, i, opt, &w.old, &w.index, nil)
	newWords := wordsOf(m.new.Flat, j, opt, &w.new, &w.index, nil)
	dice, common = w.index.diceCommon(newWords, oldWords)
	return dice, common, len(oldWords) + len(newWords)
}

// wordScratch is compareWords's working space.
type wordScratch struct {
	old, new wordSet
	index    wordIndex
}

// canPair reports whether old node i and new node j may be paired by the
// exact recovery: both free, the same kind and the same ID key (names may
// differ: a rename costs less than a delete and an insert).
func (m *matching) canPair(i, j int32) bool {
	return m.oldMatch[i] < 0 && m.newMatch[j] < 0 &&
		m.old.Kind[i] == m.new.Kind[j] && m.sameKey(i, j)
}

// alignNames pairs the subtrees of a large gap whose names agree, along a
// longest common subsequence of their names (or in order, when the gap is
// too large for the table).
func (m *matching) alignNames(a, b []int32) {
	if len(a)*len(b) > labelAlignLimit {
		k := 0
		for _, x := range a {
			for y := k; y < len(b) && y < k+alignWindow; y++ {
				if m.canMatch(x, b[y]) {
					m.pair(x, b[y])
					k = y + 1
					break
				}
			}
		}
		return
	}
	ca, cb := len(a), len(b)
	t := make([]int32, (ca+1)*(cb+1))
	for x := ca - 1; x >= 0; x-- {
		for y := cb - 1; y >= 0; y-- {
			best := max(t[(x+1)*(cb+1)+y], t[x*(cb+1)+y+1])
			if m.canMatch(a[x], b[y]) {
				best = max(best, t[(x+1)*(cb+1)+y+1]+1)
			}
			t[x*(cb+1)+y] = best
		}
	}
	for x, y := 0, 0; x < ca && y < cb; {
		switch {
		case m.canMatch(a[x], b[y]) && t[x*(cb+1)+y] == t[(x+1)*(cb+1)+y+1]+1:
			m.pair(a[x], b[y])
			x, y = x+1, y+1
		case t[(x+1)*(cb+1)+y] >= t[x*(cb+1)+y+1]:
			x++
		default:
			y++
		}
	}
}
