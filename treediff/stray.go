package treediff

import (
	"cmp"
	"math"
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// strayScan bounds the children of a parent that the stray-move check
// lists: in a parent with more, a light move is kept as it is.
const strayScan = 256

// unpairStrayMoves takes back the short values that the heaviest-first
// phase matched only because their content is unique on both sides (pairs
// of old and new roots), where that match is more likely a coincidence
// than a move (see strayMove). A short value is a small subtree with
// little text (see strayNodes): a number, a date, a price or a label,
// that other places of a document may well come to hold by chance; longer
// content unique on both sides is taken as moved whatever its neighbours
// say. It runs once every pop is done, when the neighbours that say where
// a subtree belongs are matched too, and again after the bottom-up pass
// (see strayMoves) on the pairs it returns: those it kept without placing
// their parents. What it frees, the later phases pair in place.
func (m *matching) unpairStrayMoves(pairs [][2]int32) [][2]int32 {
	if len(pairs) == 0 {
		return pairs
	}
	// The pairs are judged in document order (of their new roots), not in
	// the order the heaviest-first phase matched them, all over both
	// documents: one after another, their neighbourhoods are near each
	// other's in memory. The order changes no judgement: keeping a pair
	// only ever makes another less stray (see below), so the pairs kept
	// in the end are the same in any order.
	slices.SortFunc(pairs, func(x, y [2]int32) int { return cmp.Compare(x[1], y[1]) })
	// A pair's in-place alternative may itself be held by another such
	// pair (values that went round, each taking another's): those are
	// judged together, so they do not stand in each other's way. A pair
	// judged not stray stays and holds its nodes for good.
	tentative := make(bitSet, (m.new.Len()+63)/64) // by new root
	for _, p := range pairs {
		tentative.set(p[1])
	}
	// final marks the pairs whose parents the neighbours placed: a pair
	// kept where they could not may be looked at again later.
	final := make(bitSet, len(tentative))
	// A pair judged stray is judged again when a pair it counted on is
	// kept: dependents lists them by the kept pair's new root.
	dependents := map[int32][]int32{}
	work := make([]int32, len(pairs)) // a stack: the first pair on top
	for k := range pairs {
		work[len(pairs)-1-k] = int32(k)
	}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		i, j := pairs[k][0], pairs[k][1]
		if !tentative.has(j) {
			continue // kept already
		}
		stray, settled, holders := m.strayMove(i, j, tentative)
		if settled {
			final.set(j)
		}
		if stray {
			for _, h := range holders {
				if h >= 0 {
					dependents[h] = append(dependents[h], k)
				}
			}
			continue
		}
		tentative.clear(j)
		work = append(work, dependents[j]...)
		delete(dependents, j)
	}
	again := pairs[:0]
	for _, p := range pairs {
		switch {
		case tentative.has(p[1]):
			m.unzip(p[0], p[1])
		case !final.has(p[1]):
			again = append(again, p)
		}
	}
	return again
}

// strayMoves looks again, once the bottom-up pass has matched the parents
// of what the heaviest-first phase matched, at the short values it kept:
// where the rows of a table all changed, no row was matched to place a
// value's parent when the phase ended.
type strayMoves struct{}

func (strayMoves) name() string { return "stray-moves" }

func (strayMoves) run(m *matching) { m.lightMoves = m.unpairStrayMoves(m.lightMoves) }

// strayMove reports whether the short values old i and new j, matched by
// the "unique on both sides" rule, are more likely two values that changed
// in place, one into the other's old value (a table's prices, a list's
// dates), than the same content moved. Their parents are placed by their
// own matched neighbours: when j's parent stands where another old node
// than i's parent stood, and i's parent where another new node than j's
// parent stands, and in both of those, at the same position, is a node
// that could be paired instead (free, or held by another such pair), two
// updates in place say what happened. A subtree moved for real leaves no
// such gap at both ends, and is kept.
//
// settled reports that the neighbours placed both parents, so that the
// judgement is final (otherwise it may be made again later, see
// strayMoves); holders gives the new roots of the pairs that hold the two
// alternatives, -1 for a free one: a stray judgement counts on them being
// stray too.
func (m *matching) strayMove(i, j int32, tentative bitSet) (stray, settled bool, holders [2]int32) {
	holders = [2]int32{-1, -1}
	pi, pj := m.oldParent[i], m.newParent[j]
	if pi < 0 || pj < 0 {
		return false, true, holders
	}
	eo := placed(m.new, m.old, m.newMatch, pj) // the old node in pj's place
	if eo < 0 || eo == pi {
		return false, eo == pi, holders
	}
	en := placed(m.old, m.new, m.oldMatch, pi) // the new node in pi's place
	if en < 0 || en == pj {
		return false, en == pj, holders
	}
	y := m.childAt(m.old, eo, m.new.Pos[j], &m.strayOld)
	if y < 0 || !m.alike(y, j) {
		return false, true, holders
	}
	if h := m.oldMatch[y]; h >= 0 {
		if !tentative.has(h) {
			return false, true, holders
		}
		holders[0] = h
	}
	x := m.childAt(m.new, en, m.old.Pos[i], &m.strayNew)
	if x < 0 || !m.alike(i, x) {
		return false, true, holders
	}
	if m.newMatch[x] >= 0 {
		if !tentative.has(x) {
			return false, true, holders
		}
		holders[1] = x
	}
	return true, true, holders
}

// bitSet is a set of node indexes.
type bitSet []uint64

func (s bitSet) set(n int32)      { s[n>>6] |= 1 << (n & 63) }
func (s bitSet) clear(n int32)    { s[n>>6] &^= 1 << (n & 63) }
func (s bitSet) has(n int32) bool { return s[n>>6]&(1<<(n&63)) != 0 }

// Bounds of a short value: at most strayNodes nodes holding at most
// strayText bytes of text. A node weighs 1, plus the logarithm of its
// text's length (see tree.Measure), so a subtree of size nodes holds at
// most that much text in one value when it weighs at most size + ln
// strayText; strayWeight bounds every short value's weight.
const (
	strayNodes = 4
	strayText  = 32
)

var strayWeight = strayNodes + math.Log(strayText)

// shortValue reports whether a subtree of size nodes and weight w is a
// short value.
func shortValue(size int32, w float64) bool {
	return size <= strayNodes && w <= float64(size)+math.Log(strayText)
}

// placed returns the node of version b that stands in node n's place (n of
// version a, matched to b through match): n's own match, or else the node
// as far from the match of n's nearest matched sibling (at most
// alignWindow siblings away) as n is from that sibling; -1 when there is
// none.
func placed(a, b *tree.Measure, match []int32, n int32) int32 {
	if match[n] >= 0 {
		return match[n]
	}
	before, after := n, n
	for d := 1; d <= alignWindow && (before >= 0 || after >= 0); d++ {
		if before >= 0 {
			if before = prevSibling(a.Flat, before); before >= 0 && match[before] >= 0 {
				return walkSiblings(b.Flat, match[before], d)
			}
		}
		if after >= 0 {
			if after = nextSibling(a.Flat, after); after >= 0 && match[after] >= 0 {
				return walkSiblings(b.Flat, match[after], -d)
			}
		}
	}
	return -1
}

// walkSiblings returns the sibling d places after node n (before, for a
// negative d), or -1.
func walkSiblings(f *tree.Flat, n int32, d int) int32 {
	for ; d > 0 && n >= 0; d-- {
		n = nextSibling(f, n)
	}
	for ; d < 0 && n >= 0; d++ {
		n = prevSibling(f, n)
	}
	return n
}

// prevSibling returns the sibling just before node n, or -1.
func prevSibling(f *tree.Flat, n int32) int32 {
	p := f.Parent[n]
	if p < 0 || n-f.Size[n] <= p-f.Size[p] {
		return -1
	}
	return n - f.Size[n]
}

// nextSibling returns the sibling just after node n, or -1: the ancestor
// of the node after n (in post-order, the first of the next sibling's
// subtree) that is a child of n's parent.
func nextSibling(f *tree.Flat, n int32) int32 {
	p := f.Parent[n]
	if p < 0 || n+1 == p {
		return -1
	}
	s := n + 1
	for f.Parent[s] != p {
		s = f.Parent[s]
	}
	return s
}

// childAt returns the child of node n of version t at position pos, or -1
// (also when n has more than strayScan children). buf is scratch space.
func (m *matching) childAt(t *tree.Measure, n, pos int32, buf *[]int32) int32 {
	if int(pos) >= t.ChildCount(n) || t.ChildCount(n) > strayScan {
		return -1
	}
	*buf = t.ChildList(n, *buf)
	return (*buf)[pos]
}

// alike reports whether old node i and new node j could be paired, matched
// or not: the same name class and ID key.
func (m *matching) alike(i, j int32) bool {
	return m.oldName.at(i) == m.newName.at(j) && m.sameKey(i, j)
}

// unzip undoes zip(i, j): the pairs it made in the two subtrees are taken
// back.
func (m *matching) unzip(i, j int32) {
	size := m.oldSize[i]
	oi, nj := i-size+1, j-size+1
	for k := int32(0); k < size; k++ {
		if m.zipped[nj+k] && m.newMatch[nj+k] == oi+k {
			m.oldMatch[oi+k], m.newMatch[nj+k] = -1, -1
			m.zipped[nj+k] = false
		}
	}
}
