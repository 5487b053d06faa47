package treediff

import (
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// alignWindow is how far ahead, among the children between two anchors, an
// identical or similar child is looked for before giving up on it.
const alignWindow = 8

// align is a fast path for what most pairs of versions have in common: the
// children of matched nodes that are identical subtrees, in the same order.
// From the roots down, the children of each matched pair are compared by
// signature: the common prefix and suffix, then the signatures unique on
// both sides kept in increasing order (patience diff), then in-order pairing
// of identical children between those anchors. Identical children are
// zipped whole.
//
// Align then descends: between two aligned children, an old and a new
// element of the same name are paired when at least half of the heavier
// one's weight is identical children of theirs in order (so two unrelated
// elements that happen to stand in the same place are not), and their
// children are aligned in turn. Where one old and one new child are left,
// they are tried together (and paired when small, see pairSmall); where
// more are left, each old child is tried, in order, with the next few new
// ones. What it leaves, the seed's phases match as usual, with far fewer
// subtrees to look at: on a list of records where a deleted or inserted
// record stands next to a changed one, the changed records would otherwise
// go through the heaviest-first phase node by node.
type align struct{}

func (align) name() string { return "align" }

func (align) run(m *matching) {
	type pair struct {
		i, j  int32
		pairs [][2]int32 // the children's alignment, when already computed
		moved [][2]int32 // and the blocks of children it found moved
	}
	stack := []pair{{i: m.old.Root(), j: m.new.Root()}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m.old.Signature[p.i] == m.new.Signature[p.j] {
			m.zip(p.i, p.j) // pairs already matched (the roots) are skipped
			continue
		}
		// The lists serve this pair only: what is pushed below holds
		// indexes into them, but they are listed again when popped.
		m.alignOld = m.old.ChildList(p.i, m.alignOld)
		m.alignNew = m.new.ChildList(p.j, m.alignNew)
		a, b := m.alignOld, m.alignNew
		pairs, moved := p.pairs, p.moved
		if pairs == nil {
			pairs = m.alignChildren(a, b)
			moved = m.blocks.moved
		}
		for _, k := range pairs {
			m.zip(a[k[0]], b[k[1]])
		}
		for _, k := range moved {
			// Blocks of identical children that moved (blockRun), where
			// the alignment did not pair them otherwise.
			if m.oldMatch[k[0]] < 0 && m.newMatch[k[1]] < 0 {
				m.zip(k[0], k[1])
			}
		}
		// The gaps between aligned children, and after the last.
		pa, pb := 0, 0
		for g := 0; g <= len(pairs); g++ {
			ea, eb := len(a), len(b)
			if g < len(pairs) {
				ea, eb = int(pairs[g][0]), int(pairs[g][1])
			}
			// Pair similar children in order, each old child with the
			// first similar new one within a window.
			k := pb
			for _, x := range a[pa:ea] {
				for y := k; y < eb && y < k+alignWindow; y++ {
					if sub, ok := m.similarChildren(x, b[y]); ok {
						m.pair(x, b[y])
						var moved [][2]int32
						if len(m.blocks.moved) > 0 {
							moved = slices.Clone(m.blocks.moved) // rare
						}
						stack = push(stack, pair{x, b[y], sub, moved})
						k = y + 1
						break
					}
				}
			}
			if ea-pa == 1 && eb-pb == 1 && m.small(a[pa], b[pb]) && !m.displaced.swapped(a[pa], b[pb]) {
				// One child left on each side, and not similar: paired
				// when small (pairSmall leaves a pair made above alone),
				// unless each is the same as a child left on the other
				// side elsewhere: siblings that changed places are
				// moves, not values rewritten.
				m.pairSmall(a[pa], b[pb])
			}
			if g < len(pairs) {
				pa, pb = int(pairs[g][0])+1, int(pairs[g][1])+1
			}
		}
	}
	m.releaseAlign()
}

// releaseAlign hands align's working space, which no later phase uses, to
// m.spare.
func (m *matching) releaseAlign() {
	s := &m.spare
	give(s, m.sigCounts.slots)
	give(s, m.alignEntry)
	give(s, m.alignUniq)
	give(s, m.alignPlain)
	give(s, m.pairBuf)
	m.sigCounts.slots, m.alignEntry, m.alignUniq, m.alignPlain, m.pairBuf = nil, nil, nil, nil, nil
	b := &m.blocks
	give(s, b.hash)
	give(s, b.entry)
	give(s, b.uniq)
	give(s, b.pairs)
	give(s, b.out)
	give(s, b.moved)
	// kept is the array of lis.out: given once, with lis's.
	give(s, b.lis.tails)
	give(s, b.lis.values)
	give(s, b.lis.prev)
	give(s, b.lis.out)
	m.blocks = blockRun{}
	y := &m.myers
	give(s, y.sa)
	give(s, y.sb)
	give(s, y.bag)
	give(s, y.v)
	give(s, y.trace)
	y.sa, y.sb, y.bag, y.v, y.trace = nil, nil, nil, nil, nil
}

// pairInOrder appends to out the identical children of a[pa:ea] and
// b[pb:eb] paired in order: each old child with the first identical new
// one within alignWindow, after the last pair. With inPlace, a pair that
// differs where inPlace sees a change in place is passed over on both
// sides (looking ahead for the old child's twin would pair it with the next
// repeated child, and every pair after it one item off).
func (m *matching) pairInOrder(out [][2]int32, a, b []int32, pa, ea, pb, eb int, inPlace bool) [][2]int32 {
	for x, y := pa, pb; x < ea && y < eb; x++ {
		sx := m.old.Signature[a[x]]
		if inPlace && sx != m.new.Signature[b[y]] && m.inPlace(a, b, x, y, ea, eb) {
			y++
			continue
		}
		for k := y; k < eb && k < y+alignWindow; k++ {
			if m.new.Signature[b[k]] == sx {
				out = append(out, [2]int32{int32(x), int32(k)})
				y = k + 1
				break
			}
		}
	}
	return out
}

// inPlace reports whether old child a[x] and new child b[y], which differ,
// look changed in place: the gap ends with both, or one of the next few
// pairs on their diagonal is identical.
func (m *matching) inPlace(a, b []int32, x, y, ea, eb int) bool {
	if x+1 == ea && y+1 == eb {
		return true
	}
	for s := 1; s <= inPlaceLook && x+s < ea && y+s < eb; s++ {
		if m.old.Signature[a[x+s]] == m.new.Signature[b[y+s]] {
			return true
		}
	}
	return false
}

// inPlaceLook is how many pairs ahead inPlace looks for one that agrees.
const inPlaceLook = 3

// twinsLeft reports whether in-order pairing, which paired the children
// of a[pa:ea] and b[pb:eb] listed in paired, left identical ones unpaired
// that a common run could pair: in a short gap, each child compared with
// each; in a long one, by counting the signatures both sides have. It
// returns too the fewest edits any common run leaves (0 when not counted).
func (m *matching) twinsLeft(paired [][2]int32, a, b []int32, pa, ea, pb, eb int) (bool, int) {
	if ea-pa > 64 || eb-pb > 64 {
		common := m.myers.common(m, a[pa:ea], b[pb:eb])
		return common > len(paired), ea - pa + eb - pb - 2*common
	}
	var usedA, usedB uint64
	for _, p := range paired {
		usedA |= 1 << (int(p[0]) - pa)
		usedB |= 1 << (int(p[1]) - pb)
	}
	for x := pa; x < ea; x++ {
		if usedA&(1<<(x-pa)) != 0 {
			continue
		}
		sx := m.old.Signature[a[x]]
		for y := pb; y < eb; y++ {
			if usedB&(1<<(y-pb)) == 0 && m.new.Signature[b[y]] == sx {
				return true, 0
			}
		}
	}
	return false, 0
}

// pairSmall pairs old node i and new node j, alone between two aligned
// children, when both are small (a leaf, or an element with at most one
// child) of the same name, and their single children too: a changed text
// or field becomes an update. Pairing them never costs more than what it
// replaces (a move and an edit at most, against a delete and an insert).
func (m *matching) pairSmall(i, j int32) {
	if !m.small(i, j) {
		return
	}
	m.pair(i, j)
	if m.old.Size[i] == 2 && m.new.Size[j] == 2 && m.canMatch(i-1, j-1) {
		m.pair(i-1, j-1) // the only children, just before their parents
	}
}

// small reports whether pairSmall would pair old node i and new node j:
// both free and of the same name, a leaf or an element with one child.
func (m *matching) small(i, j int32) bool {
	return m.old.Size[i] <= 2 && m.new.Size[j] <= 2 && m.canMatch(i, j)
}

// similarChildren reports whether old element i and new element j may be
// paired by align: free, the same name and ID key, and at least half of
// the heavier one's weight in identical children aligned in order. It
// returns that alignment.
func (m *matching) similarChildren(i, j int32) ([][2]int32, bool) {
	if !m.canMatch(i, j) || m.old.Kind[i] != tree.Element || m.old.Size[i] == 1 || m.new.Size[j] == 1 {
		return nil, false
	}
	m.simOld = m.old.ChildList(i, m.simOld)
	m.simNew = m.new.ChildList(j, m.simNew)
	a, b := m.simOld, m.simNew
	need := float64(max(m.old.Weight[i], m.new.Weight[j]))
	if len(a)*len(b) <= similarScan {
		// Bound the identical weight first, without aligning: the old
		// children whose signature any new child has.
		var bound float64
		for _, x := range a {
			for _, y := range b {
				if m.old.Signature[x] == m.new.Signature[y] {
					bound += float64(m.old.Weight[x])
					break
				}
			}
		}
		if 2*bound < need {
			return nil, false
		}
	}
	m.displaced.trial, m.displaced.log = true, m.displaced.log[:0]
	pairs := m.alignChildren(a, b)
	m.displaced.trial = false
	var same float64
	for _, k := range pairs {
		same += float64(m.old.Weight[a[k[0]]])
	}
	if 2*same < need {
		m.displaced.undo() // an alignment not kept places nothing
		// Not kept: give back the room alignChildren carved, the last.
		m.pairBuf = m.pairBuf[:len(m.pairBuf)-min(len(a), len(b))]
		return nil, false
	}
	return pairs, true
}

// similarScan bounds the pairs of children that similarChildren compares to
// reject two elements before aligning their children.
const similarScan = 256

// alignChildren returns index pairs of identical children of a and b (old
// and new node indexes), in increasing order on both sides. It leaves in
// m.blocks.moved the blocks of children it found moved, until the next
// call (see blockRun).
func (m *matching) alignChildren(a, b []int32) [][2]int32 {
	m.blocks.moved = m.blocks.moved[:0]
	sigA := func(k int) tree.Signature { return m.old.Signature[a[k]] }
	sigB := func(k int) tree.Signature { return m.new.Signature[b[k]] }
	out := m.pairSpace(min(len(a), len(b)))
	lo := 0
	for lo < len(a) && lo < len(b) && sigA(lo) == sigB(lo) {
		out = append(out, [2]int32{int32(lo), int32(lo)})
		lo++
	}
	ha, hb := len(a), len(b)
	for ha > lo && hb > lo && sigA(ha-1) == sigB(hb-1) {
		ha, hb = ha-1, hb-1
	}
	if ha > lo && hb > lo {
		out = m.alignMiddle(out, a, b, lo, ha, lo, hb)
	}
	for k := range len(a) - ha {
		out = append(out, [2]int32{int32(ha + k), int32(hb + k)})
	}
	return out
}

// pairSpace returns an empty list of pairs with room for n, carved from
// one shared buffer: align keeps the alignment of every pair it pushes
// until it is popped, and a list each would be an allocation each.
func (m *matching) pairSpace(n int) [][2]int32 {
	return carve(&m.pairBuf, n, 1<<12)[:0]
}

// alignMiddle appends to out the alignment of a[la:ha] with b[lb:hb]:
// anchors on signatures unique in both ranges, kept along a longest
// increasing subsequence, then in-order pairing within a small window
// between consecutive anchors.
func (m *matching) alignMiddle(out [][2]int32, a, b []int32, la, ha, lb, hb int) [][2]int32 {
	counts := m.sigCounts.reset(ha - la)
	entry := grow(&m.alignEntry, ha-la) // the slot of a[k], so as not to look again
	for k := la; k < ha; k++ {
		entry[k-la] = counts.addOld(m.old.Signature[a[k]])
	}
	for k := lb; k < hb; k++ {
		counts.addNew(m.new.Signature[b[k]], int32(k))
	}
	// Unique pairs in a's order; keep those increasing in b.
	// Room for all at once: appends to a long list grow it a quarter at
	// a time, allocating five times its size on the way.
	uniq := slices.Grow(m.alignUniq[:0], min(ha-la, hb-lb))
	repeated := false // a signature both sides have, more than once on one
	for k := la; k < ha; k++ {
		if c := &counts.slots[entry[k-la]]; c.a == 1 && c.b == 1 {
			uniq = append(uniq, [2]int32{int32(k), c.posB})
		} else if c.b != 0 {
			repeated = true
		}
	}
	m.alignUniq = uniq
	// From here on, counts is free for commonRun.
	anchors := m.lis.longest(uniq)
	if len(anchors) < len(uniq) {
		// The unique pairs off the run changed places: see swapped.
		on := 0
		for _, u := range uniq {
			if on < len(anchors) && anchors[on] == u {
				on++
				continue
			}
			m.displaced.mark(m, a[u[0]], b[u[1]])
		}
	}
	pa, pb := la, lb
	begin, budget := len(out), m.myers.budget
	for _, an := range anchors {
		out = m.fillGap(out, a, b, pa, int(an[0]), pb, int(an[1]), true)
		out = append(out, an)
		pa, pb = int(an[0])+1, int(an[1])+1
	}
	out = m.fillGap(out, a, b, pa, ha, pb, hb, true)
	if len(anchors) > 0 && 2*len(anchors) < len(out)-begin {
		out = m.unanchored(out, begin, budget, a, b, la, ha, lb, hb)
	}
	if m.twinsLeftOver || repeated && len(out)-begin < min(ha-la, hb-lb) {
		// Repeated children left on both sides, in a gap or in
		// different gaps, may have changed places (see markLoose).
		m.twinsLeftOver = false
		m.markLoose(out[begin:], a, b, la, ha, lb, hb)
	}
	return out
}

// fillGap appends to out the alignment of the children a[pa:ea] and
// b[pb:eb] between two anchors: identical children paired in order, then,
// where that left children on both sides, a longest common run when it
// pairs more. With blocks, a long gap the budget gives no common run is
// aligned by its runs of children instead (blockRun).
func (m *matching) fillGap(out [][2]int32, a, b []int32, pa, ea, pb, eb int, blocks bool) [][2]int32 {
	start := len(out)
	out = m.pairInOrder(out, a, b, pa, ea, pb, eb, true)
	if n := len(out) - start; n < min(ea-pa, eb-pb) {
		// The in-place rule guesses: where children were inserted or
		// deleted among repeated ones, a pair on the diagonal agrees
		// by chance, and plain pairing pairs more. The better wins.
		plain := m.pairInOrder(m.alignPlain[:0], a, b, pa, ea, pb, eb, false)
		m.alignPlain = plain
		if len(plain) > n {
			out = append(out[:start], plain...)
		}
	}
	// Where in-order pairing left children on both sides, a longest
	// common run may do better: repeated children, which no unique
	// signature anchors, pair one item off (see commonRun). It is
	// looked for with fewer edits than the pairing left, so it is
	// better when found, and costs little when the pairing was
	// close.
	edits := ea - pa + eb - pb - 2*(len(out)-start)
	if len(out)-start < min(ea-pa, eb-pb) {
		if twins, fewest := m.twinsLeft(out[start:], a, b, pa, ea, pb, eb); twins && fewest < edits {
			if run, ok := m.commonRun(out[:start], a, b, pa, ea, pb, eb, fewest, edits-1); ok {
				out = run
			} else {
				if blocks && (ea-pa > 64 || eb-pb > 64) {
					// A long gap that differs by more than the budget
					// pays for.
					out = m.betterBlocks(out, start, a, b, pa, ea, pb, eb)
				}
				// Identical children are left on both sides:
				// alignMiddle marks them once it is done.
				m.twinsLeftOver = true
			}
		}
	}
	return out
}

// unanchored replaces the alignment out[begin:] of a[la:ha] with
// b[lb:hb] by a longest common run of the whole range when that pairs more.
// alignMiddle calls it when a few unique children anchored the alignment
// and the pairs the stretches between them made are most of it: the
// anchors may be the ones that moved (in a list of repeated items with a
// few unique ones moved, the moved ones are the only anchors, in order or
// not), and then the stretches between them hold the repeated items of
// other stretches, which in-order pairing within each leaves unpaired, and
// each a move. (Where unique children make most pairs, the stretches are
// short and hold their own repeats, which fill's runs have paired: a run
// of a list of thousands would be tried for nothing, and cost as much
// again as the gaps' runs.) It costs a look-up a child when the signature
// counts show that no run pairs more. Where the budget pays for no run,
// the list's block alignment (betterBlocks) replaces it when that pairs
// more.
func (m *matching) unanchored(out [][2]int32, begin, budget int, a, b []int32, la, ha, lb, hb int) [][2]int32 {
	paired := len(out) - begin
	if paired == min(ha-la, hb-lb) {
		return out // one side is all paired: no run pairs more
	}
	edits := ha - la + hb - lb - 2*paired
	fewest := ha - la + hb - lb - 2*m.myers.common(m, a[la:ha], b[lb:hb])
	if fewest >= edits {
		return out
	}
	// The run replaces what the gaps' runs found: it may spend the budget
	// they spent (and they, once, what it spends), so that a long list
	// is not left without the budget its gaps took.
	spent := budget - m.myers.budget
	m.myers.budget = budget
	run, ok := m.commonRun(out[:begin], a, b, la, ha, lb, hb, fewest, edits-1)
	m.myers.budget = max(m.myers.budget-spent, 0)
	if ok {
		return run
	}
	return m.betterBlocks(out, begin, a, b, la, ha, lb, hb)
}

// increasing finds longest increasing subsequences, with working space
// kept from call to call.
type increasing struct {
	tails  []int32 // index into pairs of the smallest tail of each length
	values []int32 // values[k] = pairs[tails[k]][1], increasing
	prev   []int32
	out    [][2]int32
	spare  *spare // where larger arrays come from, or nil
}

// longest returns the longest subsequence of pairs (in their order) whose
// second elements increase, in O(n log n). The result is valid until the
// next call.
func (s *increasing) longest(pairs [][2]int32) [][2]int32 {
	if len(pairs) == 0 {
		return nil
	}
	tails, values := room(s.spare, s.tails, len(pairs)), room(s.spare, s.values, len(pairs))
	s.prev = room(s.spare, s.prev, len(pairs))[:len(pairs)]
	prev := s.prev
	for i, p := range pairs {
		// Most sequences are mostly in order: try the end first.
		k := len(values)
		if k > 0 && p[1] <= values[k-1] {
			k, _ = slices.BinarySearch(values, p[1])
		}
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails, values = append(tails, int32(i)), append(values, p[1])
		} else {
			tails[k], values[k] = int32(i), p[1]
		}
	}
	s.tails, s.values = tails, values
	s.out = room(s.spare, s.out, len(tails))[:len(tails)]
	out := s.out
	for i, k := len(tails)-1, tails[len(tails)-1]; i >= 0; i, k = i-1, prev[k] {
		out[i] = pairs[k]
	}
	return out
}

// sigCounts counts, per signature, the children of each side with it, in
// an open-addressing table: a flat list of a hundred thousand children
// would cost a map entry and an allocation each. A slot takes 16 bytes, and
// the table is reused from list to list: on a long list it outgrows the
// processor's second-level cache, and every look-up is a miss.
type sigCounts struct {
	slots []sigCount
	mask  uint64
}

type sigCount struct {
	key  tree.Signature
	posB int32 // position of the last new child with it
	// a and b count the children with the signature on each side,
	// stopping at 2: callers only tell one from more. A slot with a == 0
	// is empty.
	a, b uint8
}

// reset empties the table and sizes it for n old children.
func (t *sigCounts) reset(n int) *sigCounts {
	size := 16
	for size*3 < 4*n {
		size <<= 1
	}
	if cap(t.slots) < size {
		t.slots = make([]sigCount, size)
	} else {
		t.slots = t.slots[:size]
		clear(t.slots)
	}
	t.mask = uint64(size - 1)
	return t
}

// addOld counts an old child with signature sig and returns its slot.
func (t *sigCounts) addOld(sig tree.Signature) int32 {
	for s := uint64(sig) * 0x9e3779b97f4a7c15 >> 7 & t.mask; ; s = (s + 1) & t.mask {
		c := &t.slots[s]
		if c.a == 0 {
			c.key, c.a = sig, 1
			return int32(s)
		}
		if c.key == sig {
			c.a = min(c.a+1, 2)
			return int32(s)
		}
	}
}

// find returns the slot of sig, nil if no old child has it.
func (t *sigCounts) find(sig tree.Signature) *sigCount {
	for s := uint64(sig) * 0x9e3779b97f4a7c15 >> 7 & t.mask; ; s = (s + 1) & t.mask {
		c := &t.slots[s]
		if c.a == 0 {
			return nil
		}
		if c.key == sig {
			return c
		}
	}
}

// addNew counts the new child at position pos with signature sig, if an
// old child has it.
func (t *sigCounts) addNew(sig tree.Signature, pos int32) {
	for s := uint64(sig) * 0x9e3779b97f4a7c15 >> 7 & t.mask; ; s = (s + 1) & t.mask {
		c := &t.slots[s]
		if c.a == 0 {
			return
		}
		if c.key == sig {
			c.b = min(c.b+1, 2)
			c.posB = pos
			return
		}
	}
}
