package treediff

import "github.com/vigil-web/vigil/tree"

// blockRun aligns a long list of children that a common run (commonRun)
// would pair better than in-order pairing but the budget does not pay for:
// a list of repeated items (a few values, or one, with some unique items
// or none) in which blocks of items moved. No signature there is unique,
// or too few are, to anchor the list; but a run of w consecutive children
// mostly is. As patience diff does with lines, blockRun anchors on the
// windows of w children whose signatures, hashed in a row, occur once on
// each side, kept along a longest increasing subsequence: the windows of
// the blocks that stayed, not those of the blocks that moved. The
// children of the windows kept are paired; the short gaps between them
// (around the ends of a block that moved, and the block itself) are
// aligned as any gap between anchors (fillGap). The windows unique on
// both sides that the subsequence left are the blocks that moved: their
// children are paired too, where the alignment leaves them free (see
// align.run), so that each is a move, not left to the heaviest-first
// phase, which pairs repeated items with whichever twin it finds first
// (an update and an insert and a delete, where a move would do). A
// window of w children
// that repeats (every window of a list with a period shorter than w) is
// no anchor: w starts at blockWindow and is doubled, up to
// blockWindowMax, while fewer than half the windows are unique on both
// sides; and where most of those cross, they are unique by chance in a
// list that changed too much, and blockRun gives up.
//
// It costs a few passes over the list and a longest increasing
// subsequence a window size tried, O(n log n), and runs only where a
// common run was wanted and not found.
type blockRun struct {
	hash  []tree.Signature // the hash of each old window, then each new one
	entry []int32          // the table's slot of each old window
	uniq  [][2]int32       // windows unique on both sides: old start, new start
	pairs [][2]int32       // the children the windows kept pair
	out   [][2]int32       // the alignment, before it is compared
	lis   increasing       // not align's: its anchors are in use
	kept  [][2]int32       // the windows the subsequence kept (in lis)
	// moved lists the children (old and new node) of the windows unique
	// on both sides that the subsequence left: blocks that moved. They
	// are paired (align.run) where the alignment left both free.
	moved [][2]int32
}

// blockWindow and blockWindowMax bound the number of consecutive children
// blockRun hashes together.
const (
	blockWindow    = 8
	blockWindowMax = 32
)

// betterBlocks replaces the alignment out[start:] of a[pa:ea] with
// b[pb:eb] by their block alignment (blockRun) when that pairs more, and
// adds the blocks it found moved to the moved list either way.
func (m *matching) betterBlocks(out [][2]int32, start int, a, b []int32, pa, ea, pb, eb int) [][2]int32 {
	br := &m.blocks
	n, k := ea-pa, eb-pb
	if min(n, k) < 2*blockWindow {
		return out
	}
	for w := blockWindow; w <= blockWindowMax && w <= min(n, k); w *= 2 {
		pairs, enough := m.blockAnchors(a, b, pa, ea, pb, eb, w)
		if 2*len(br.kept) < len(br.uniq) {
			// Most windows unique on both sides cross: they are
			// unique by chance, in a list that changed too much for
			// runs to stay (the subsequence of points at random
			// keeps about the root of their number).
			return out
		}
		if !enough && w < blockWindowMax {
			// Too few windows unique: the list repeats with a period
			// of w or more, or has so few values that most runs of w
			// recur; longer ones may not.
			continue
		}
		if len(pairs) == 0 {
			return out // the gap's alignment again
		}
		run := br.out[:0]
		x, y := pa, pb
		for _, p := range pairs {
			if int(p[0]) > x && int(p[1]) > y {
				run = m.fillGap(run, a, b, x, int(p[0]), y, int(p[1]), false)
			}
			run = append(run, p)
			x, y = int(p[0])+1, int(p[1])+1
		}
		if x < ea && y < eb {
			run = m.fillGap(run, a, b, x, ea, y, eb, false)
		}
		br.out = run
		// The blocks that moved are moved, whichever alignment is kept:
		// where it leaves their children free (align.run), they are
		// identical runs unique on both sides.
		m.blockMoves(a, b, pa, pb, w)
		if len(run) <= len(out)-start {
			return out
		}
		m.markDisplaced(run, a, b, pa, ea, pb, eb)
		return append(out[:start], run...)
	}
	return out
}

// blockAnchors returns the pairs of children of a[pa:ea] and b[pb:eb]
// (indexes into a and b, increasing on both sides) that the windows of w
// children unique on both sides, kept in increasing order, pair; and
// whether most windows of the shorter side are unique on both sides.
func (m *matching) blockAnchors(a, b []int32, pa, ea, pb, eb, w int) ([][2]int32, bool) {
	br := &m.blocks
	nw, kw := ea-pa-w+1, eb-pb-w+1
	hash := grow(&br.hash, nw+kw)
	windowHashes(hash[:nw], m.old.Signature, a[pa:ea], w)
	windowHashes(hash[nw:], m.new.Signature, b[pb:eb], w)
	counts := m.sigCounts.reset(nw)
	entry := grow(&br.entry, nw)
	for x := range nw {
		entry[x] = counts.addOld(hash[x])
	}
	for y := range kw {
		counts.addNew(hash[nw+y], int32(y))
	}
	uniq := br.uniq[:0]
	for x := range nw {
		if c := &counts.slots[entry[x]]; c.a == 1 && c.b == 1 {
			uniq = append(uniq, [2]int32{int32(x), c.posB})
		}
	}
	br.uniq = uniq
	kept := br.lis.longest(uniq)
	br.kept = kept
	// The children of the windows kept, in order on both sides; a hash
	// that collides pairs nothing that differs.
	pairs := br.pairs[:0]
	lastX, lastY := -1, -1
	for _, u := range kept {
		for i := range w {
			x, y := int(u[0])+i, int(u[1])+i
			if x > lastX && y > lastY && m.old.Signature[a[pa+x]] == m.new.Signature[b[pb+y]] {
				pairs = append(pairs, [2]int32{int32(pa + x), int32(pb + y)})
				lastX, lastY = x, y
			}
		}
	}
	br.pairs = pairs
	return pairs, 2*len(uniq) >= min(nw, kw)
}

// blockMoves adds to the moved list the children of the windows of w
// children (starting at pa and pb) that blockAnchors found unique on both
// sides and left off the increasing subsequence.
func (m *matching) blockMoves(a, b []int32, pa, pb, w int) {
	br := &m.blocks
	on := 0
	lastX, lastY := -1, -1
	for _, u := range br.uniq {
		if on < len(br.kept) && br.kept[on] == u {
			on++
			continue
		}
		x, y := int(u[0]), int(u[1])
		i := 0
		if x-y == lastX-lastY && x <= lastX {
			i = lastX - x + 1 // the next window of the same block
		}
		for ; i < w; i++ {
			if i, j := a[pa+x+i], b[pb+y+i]; m.old.Signature[i] == m.new.Signature[j] {
				br.moved = append(br.moved, [2]int32{i, j})
			}
		}
		lastX, lastY = x+w-1, y+w-1
	}
}

// windowHashes sets hash[i] to a hash of the signatures of the w children
// list[i:i+w], rolled from one window to the next.
func windowHashes(hash []tree.Signature, sig []tree.Signature, list []int32, w int) {
	const mul = 0x9e3779b97f4a7c15
	var h, top uint64 = 0, 1 // top = mul^(w-1)
	for range w - 1 {
		top *= mul
	}
	for i, x := range list {
		if i >= w {
			h -= uint64(sig[list[i-w]]) * top
		}
		h = h*mul + uint64(sig[x])
		if i >= w-1 {
			hash[i-w+1] = tree.Signature(h)
		}
	}
}
