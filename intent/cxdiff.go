package intent

import (
	"hash/maphash"
	"slices"
	"strconv"
)

// cxMode is the change type CX-Diff runs for (Fig 7.3: A, K, P).
type cxMode uint8

const (
	cxAny cxMode = iota + 1
	cxKeyword
	cxPhrase
)

// Leaf states after Phase I.
const (
	unmatched  uint8 = iota // no leaf of the other tree has the same value and signature, nor the same signature
	matched                 // totalMatch: some leaf of the other tree has the same value and signature
	sigMatched              // signatureMatch: some unmatched leaf of the other tree has the same signature
)

// cxLeaf is a leaf as CX-Diff sees it.
type cxLeaf struct {
	*leaf
	// more holds what few leaves have (keywords, members); nil for the
	// others, so that a leaf costs 24 bytes: a large page has hundreds of
	// thousands.
	more  *cxMore
	pos   int32 // 1-based ordinal in its (possibly realigned) sequence
	state uint8
}

// cxMore is what a CX-Diff leaf may have besides its leaf and place.
type cxMore struct {
	kws []kwOcc // keyword mode: the keywords in the leaf
	// members are the leaves of a common second-level subtree collapsed
	// into this one by Phase III.
	members []*cxLeaf
}

// keywords returns the keywords in the leaf (keyword mode).
func (x *cxLeaf) keywords() []kwOcc {
	if x.more == nil {
		return nil
	}
	return x.more.kws
}

// members returns the leaves collapsed into x by Phase III, nil for a
// leaf that is not a collapsed subtree.
func (x *cxLeaf) members() []*cxLeaf {
	if x.more == nil {
		return nil
	}
	return x.more.members
}

// addKeyword attaches a keyword occurrence to the leaf.
func (x *cxLeaf) addKeyword(k kwOcc) {
	if x.more == nil {
		x.more = &cxMore{}
	}
	x.more.kws = append(x.more.kws, k)
}

// kwOcc is an occurrence of a keyword in a leaf.
type kwOcc struct {
	key  string // the keyword's comparison form
	text string // the word as written
	idx  int    // 1-based word index in the leaf
	// owner is the leaf holding the occurrence when it is not the leaf the
	// occurrence is attached to (a collapsed subtree, or a leaf that a
	// word inline markup splits spans past the leaf it starts in).
	owner *cxLeaf
}

// cxRecord is one operation CX-Diff reports.
type cxRecord struct {
	op   Operation
	old  *cxLeaf // delete, move, update
	new  *cxLeaf // insert, move, update
	kw   *kwOcc  // keyword mode
	rank int     // for ordering: position in the old (delete) or new (others) sequence
}

// cxOptions are CX-Diff's switches.
type cxOptions struct {
	optimize bool // Phase III: drop common second-level subtrees first (LCS over subtree hashes)
	updates  bool // report a signature-matched delete and insert on the LCS as one update (Vigil)
	tab      *symtab
	// states, when not nil, caches the Phase I states of the leaves of
	// both versions for another mode over the same leaves.
	states *[2][]uint8
}

// key is the leaf's (value, signature) as one number.
func (x *cxLeaf) key() int64 { return int64(x.vid)<<32 | int64(uint32(x.sid)) }

// interner numbers (kind, a, b) tokens.
type interner struct {
	m map[tokenKey]int32
}

type tokenKey struct {
	kind uint8
	n    int64
	a    string
}

func (in *interner) idn(kind uint8, n int64, a string) int32 {
	k := tokenKey{kind, n, a}
	if v, ok := in.m[k]; ok {
		return v
	}
	v := int32(len(in.m))
	in.m[k] = v
	return v
}

// cxdiff runs CX-Diff (the note's §4.9) over two leaf sequences whose
// document roots are labelled root1 and root2.
func cxdiff(root1 string, L1 []*cxLeaf, root2 string, L2 []*cxLeaf, mode cxMode, opt cxOptions) []cxRecord {
	var out []cxRecord
	if root1 != root2 { // Assumption 1: M = ∅
		for _, x := range L1 {
			out = append(out, cxUnique(x, Delete, mode)...)
		}
		for _, y := range L2 {
			out = append(out, cxUnique(y, Insert, mode)...)
		}
		return out
	}
	if opt.optimize {
		L1, L2 = collapseCommonSubtrees(L1, L2, opt.tab)
	}
	// Phase I: totalMatch and signatureMatch, by existence.
	if opt.states != nil && !opt.optimize && len(opt.states[0]) == len(L1) && len(opt.states[1]) == len(L2) {
		for i, x := range L1 {
			x.state = opt.states[0][i]
		}
		for j, y := range L2 {
			y.state = opt.states[1][j]
		}
	} else {
		phaseI(L1, L2)
		if opt.states != nil && !opt.optimize {
			opt.states[0] = make([]uint8, len(L1))
			opt.states[1] = make([]uint8, len(L2))
			for i, x := range L1 {
				opt.states[0][i] = x.state
			}
			for j, y := range L2 {
				opt.states[1][j] = y.state
			}
		}
	}
	// Unique deletes and inserts.
	var del, ins []cxRecord
	for _, x := range L1 {
		if x.state != matched && cxReports(x, mode) {
			del = append(del, cxUnique(x, Delete, mode)...)
		}
	}
	for _, y := range L2 {
		if y.state != matched && cxReports(y, mode) {
			ins = append(ins, cxUnique(y, Insert, mode)...)
		}
	}
	if mode == cxKeyword {
		// Unique means unmatched here: a signature-matched leaf's keywords
		// may still be matched through the LCS.
		del, ins = del[:0], ins[:0]
		for _, x := range L1 {
			if x.state == unmatched {
				del = append(del, cxUnique(x, Delete, mode)...)
			}
		}
		for _, y := range L2 {
			if y.state == unmatched {
				ins = append(ins, cxUnique(y, Insert, mode)...)
			}
		}
	}
	// Early stop (§4.6.2): no keyword or phrase survives Phase I.
	if mode != cxAny && !cxAnyCandidate(L1, mode) && !cxAnyCandidate(L2, mode) {
		return append(del, ins...)
	}
	// Phase II: the common order subsequence.
	seq1, seq2 := survivors(L1), survivors(L2)
	in := &interner{m: make(map[tokenKey]int32)}
	// Matched leaves share their tokens with the other version: the
	// larger sequence is about how many there are.
	ids := make(map[int64]int32, max(len(seq1), len(seq2)))
	tok := func(x *cxLeaf) int32 {
		k := -int64(x.sid) - 1 // signature tokens are negative
		switch {
		case x.state == matched:
			k = x.key()
		case mode == cxKeyword && len(x.keywords()) > 0:
			k = -int64(1<<40) - int64(in.idn(2, int64(x.sid), kwSignature(x.keywords())))
		}
		if v, ok := ids[k]; ok {
			return v
		}
		v := int32(len(ids))
		ids[k] = v
		return v
	}
	t1 := make([]int32, len(seq1))
	t2 := make([]int32, len(seq2))
	for i, x := range seq1 {
		t1[i] = tok(x)
	}
	for j, y := range seq2 {
		t2[j] = tok(y)
	}
	pairs := lcs(t1, t2)
	on1 := make([]bool, len(seq1))
	on2 := make([]bool, len(seq2))
	for _, p := range pairs {
		on1[p.a], on2[p.b] = true, true
	}
	var moves, upd []cxRecord
	switch mode {
	case cxAny:
		// Short values changed in place come first (Vigil): off the LCS
		// between the same two anchors, with the same signature.
		used := map[*cxLeaf]bool{}
		if opt.updates {
			upd = gapUpdates(seq1, seq2, pairs, on1, on2, used)
		}
		// detectMoves: off-LCS matched leaves with the same value and
		// signature (Vigil requires both; the seed pairs by value).
		type queue struct{ ys []*cxLeaf }
		c2 := map[int64]*queue{}
		for j, y := range seq2 {
			if !on2[j] && y.state == matched && !used[y] {
				k := y.key()
				q := c2[k]
				if q == nil {
					q = &queue{}
					c2[k] = q
				}
				q.ys = append(q.ys, y)
			}
		}
		for i, x := range seq1 {
			if on1[i] || x.state != matched || used[x] {
				continue
			}
			if q := c2[x.key()]; q != nil && len(q.ys) > 0 {
				y := q.ys[0]
				q.ys = q.ys[1:]
				used[y] = true
				moves = append(moves, cxRecord{op: Move, old: x, new: y, rank: int(y.pos)})
			} else {
				del = append(del, cxRecord{op: Delete, old: x, rank: int(x.pos)})
			}
		}
		for j, y := range seq2 {
			if !on2[j] && y.state == matched && !used[y] {
				ins = append(ins, cxRecord{op: Insert, new: y, rank: int(y.pos)})
			}
		}
		if len(upd) > 0 {
			// A signature-matched leaf paired in its gap was listed with
			// the unmatched ones before Phase II.
			del = slices.DeleteFunc(del, func(r cxRecord) bool { return used[r.old] })
			ins = slices.DeleteFunc(ins, func(r cxRecord) bool { return used[r.new] })
		}
		if opt.updates {
			// A signature-matched pair on the LCS is a leaf whose value
			// changed in place: one update instead of a delete and an insert.
			gone := map[*cxLeaf]bool{}
			for _, p := range pairs {
				x, y := seq1[p.a], seq2[p.b]
				if x.state == sigMatched && y.state == sigMatched {
					upd = append(upd, cxRecord{op: Update, old: x, new: y, rank: int(y.pos)})
					gone[x], gone[y] = true, true
				}
			}
			del = slices.DeleteFunc(del, func(r cxRecord) bool { return gone[r.old] })
			ins = slices.DeleteFunc(ins, func(r cxRecord) bool { return gone[r.new] })
		}
	case cxKeyword:
		for i, x := range seq1 {
			if !on1[i] {
				del = append(del, cxUnique(x, Delete, mode)...)
			}
		}
		for j, y := range seq2 {
			if !on2[j] {
				ins = append(ins, cxUnique(y, Insert, mode)...)
			}
		}
		del, ins = keptOccurrences(seq1, seq2, pairs, del, ins)
	case cxPhrase:
		for i, x := range seq1 {
			if !on1[i] && x.kind == leafPhrase && x.state == matched {
				del = append(del, cxRecord{op: Delete, old: x, rank: int(x.pos)})
			}
		}
		for j, y := range seq2 {
			if !on2[j] && y.kind == leafPhrase && y.state == matched {
				ins = append(ins, cxRecord{op: Insert, new: y, rank: int(y.pos)})
			}
		}
	}
	return sortRecords(del, upd, ins, expandMoves(moves))
}

// keptOccurrences drops from del and ins the keyword occurrences that a
// pair of the LCS keeps: a word that inline markup splits is in each leaf
// it spans (kwOcc.owner), and where one of them is paired by its keywords
// (a signature-matched leaf, whose token holds them) with a leaf holding
// the same, the word stands there in both versions, whatever another of
// its leaves did (a drop cap set on a word: <span>R</span>efunds for
// Refunds). A pair of leaves matched by value says nothing of the words
// they end or start, which their neighbours' texts make.
func keptOccurrences(seq1, seq2 []*cxLeaf, pairs []lcsPair, del, ins []cxRecord) ([]cxRecord, []cxRecord) {
	type occ struct {
		l   *leaf
		idx int
	}
	var kept map[occ]bool
	mark := func(x *cxLeaf) {
		for _, k := range x.keywords() {
			o := x
			if k.owner != nil {
				o = k.owner
			}
			if kept == nil {
				kept = make(map[occ]bool)
			}
			kept[occ{o.leaf, k.idx}] = true
		}
	}
	for _, p := range pairs {
		if x, y := seq1[p.a], seq2[p.b]; x.state == sigMatched && y.state == sigMatched {
			mark(x)
			mark(y)
		}
	}
	if kept == nil {
		return del, ins
	}
	drop := func(recs []cxRecord, op Operation) []cxRecord {
		return slices.DeleteFunc(recs, func(r cxRecord) bool {
			x := r.new
			if op == Delete {
				x = r.old
			}
			return r.kw != nil && kept[occ{x.leaf, r.kw.idx}]
		})
	}
	return drop(del, Delete), drop(ins, Insert)
}

// shortValue is the most bytes of a value that gapUpdates pairs: a price,
// a date, a count or a label, which other places of a page may well come
// to hold by chance. A longer value found elsewhere is taken as moved.
const shortValue = 32

// survivors returns the leaves of L that Phase I did not leave unmatched,
// in order.
func survivors(L []*cxLeaf) []*cxLeaf {
	n := 0
	for _, x := range L {
		if x.state != unmatched {
			n++
		}
	}
	out := make([]*cxLeaf, 0, n)
	for _, x := range L {
		if x.state != unmatched {
			out = append(out, x)
		}
	}
	return out
}

// gapUpdates pairs the off-LCS leaves between the same two consecutive
// pairs of the LCS (leaves matched in Phase I; those whose value and
// signature the other version lacks were reported before), as many in
// each version (at most gapValues), place by place, when they hold
// different short values with the same signatures place by place: values
// changed in place. Such a leaf whose value and signature also stand
// elsewhere in the other version (the seed's totalMatch finds them there)
// would otherwise be reported as moved there, and its counterpart in place
// as deleted or inserted: in a table of prices, a new price that another
// row held before is a coincidence, not a move. A pair is kept only if
// every off-LCS leaf elsewhere that holds the value and signature of one
// of its two leaves is itself kept in such a pair: a heading that moved
// with its section leaves its value where no value changed in place, and
// stays a move (the finya golden file has one). The leaves paired are
// marked in used.
func gapUpdates(seq1, seq2 []*cxLeaf, pairs []lcsPair, on1, on2 []bool, used map[*cxLeaf]bool) []cxRecord {
	short := func(x *cxLeaf) bool {
		return x.members() == nil && len(x.value) <= shortValue
	}
	var cands [][2]*cxLeaf
	kept := map[*cxLeaf]bool{}
	pa, pb := 0, 0
	for k := 0; k <= len(pairs); k++ {
		ea, eb := len(seq1), len(seq2)
		if k < len(pairs) {
			ea, eb = pairs[k].a, pairs[k].b
		}
		if n := ea - pa; n > 0 && n == eb-pb && n <= gapValues {
			same := true
			for d := range n {
				x, y := seq1[pa+d], seq2[pb+d]
				// Equal values left off the LCS (which cuts long
				// sequences at anchors, so is not always the longest)
				// are no update: move detection takes them.
				same = same && x.sid == y.sid && x.vid != y.vid && short(x) && short(y)
			}
			for d := 0; same && d < n; d++ {
				x, y := seq1[pa+d], seq2[pb+d]
				cands = append(cands, [2]*cxLeaf{x, y})
				kept[x], kept[y] = true, true
			}
		}
		if k < len(pairs) {
			pa, pb = ea+1, eb+1
		}
	}
	if len(cands) == 0 {
		return nil
	}
	// loose counts, per value and side, the off-LCS leaves holding it that
	// no kept pair holds.
	looseOld, looseNew := map[int64]int{}, map[int64]int{}
	count := func(loose map[int64]int, seq []*cxLeaf, on []bool) {
		for i, x := range seq {
			if !on[i] && x.state == matched && !kept[x] {
				loose[x.key()]++
			}
		}
	}
	count(looseOld, seq1, on1)
	count(looseNew, seq2, on2)
	// A pair is dropped when a value of its leaves is held loose elsewhere;
	// dropping it loosens its own values, which may drop others: those are
	// looked at again, once a value first becomes loose.
	byOld, byNew := map[int64][]int{}, map[int64][]int{} // pairs by their old leaf's value, by their new leaf's
	work := make([]int, len(cands))
	for k, c := range cands {
		byOld[c[0].key()] = append(byOld[c[0].key()], k)
		byNew[c[1].key()] = append(byNew[c[1].key()], k)
		work[k] = k
	}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		x, y := cands[k][0], cands[k][1]
		if !kept[x] || looseNew[x.key()] == 0 && looseOld[y.key()] == 0 {
			continue
		}
		kept[x], kept[y] = false, false
		if x.state == matched {
			if looseOld[x.key()]++; looseOld[x.key()] == 1 {
				work = append(work, byNew[x.key()]...) // pairs whose new leaf holds x's value
			}
		}
		if y.state == matched {
			if looseNew[y.key()]++; looseNew[y.key()] == 1 {
				work = append(work, byOld[y.key()]...)
			}
		}
	}
	var upd []cxRecord
	for _, c := range cands {
		if x, y := c[0], c[1]; kept[x] {
			upd = append(upd, cxRecord{op: Update, old: x, new: y, rank: int(y.pos)})
			used[x], used[y] = true, true
		}
	}
	return upd
}

// gapValues is the most values changed together in place that gapUpdates
// pairs between two LCS pairs: a few cells of a row, a few items of a list.
const gapValues = 8

// expandMoves turns the move of a collapsed subtree into the moves of its
// leaves.
func expandMoves(moves []cxRecord) []cxRecord {
	var out []cxRecord
	for _, r := range moves {
		if r.old.members() == nil {
			out = append(out, r)
			continue
		}
		for k, x := range r.old.members() {
			y := r.new.members()[k]
			out = append(out, cxRecord{op: Move, old: x, new: y, rank: int(y.pos)})
		}
	}
	return out
}

// phaseI is totalMatch and signatureMatch (§4.6.2): it sets the state of
// every leaf.
func phaseI(L1, L2 []*cxLeaf) {
	// has answers "is there a leaf with this value and signature in the
	// other version" (bit 1: old, bit 2: new): existence-based, as the
	// seed's totalMatch (§4.6.2). Values and signatures are small numbers:
	// a value's first signature is kept in arrays, others in a map.
	maxV, maxS := int32(0), int32(0)
	for _, L := range [2][]*cxLeaf{L1, L2} {
		for _, x := range L {
			maxV, maxS = max(maxV, x.vid), max(maxS, x.sid)
		}
	}
	first := make([]int32, maxV+1) // sid+2 of the value's first leaf, 0 for none (sid >= -1)
	flags := make([]uint8, maxV+1)
	var more map[int64]uint8
	mark := func(x *cxLeaf, bit uint8) {
		switch f := first[x.vid]; {
		case f == 0:
			first[x.vid] = x.sid + 2
			flags[x.vid] |= bit
		case f == x.sid+2:
			flags[x.vid] |= bit
		default:
			if more == nil {
				more = make(map[int64]uint8)
			}
			more[x.key()] |= bit
		}
	}
	has := func(x *cxLeaf) uint8 {
		if first[x.vid] == x.sid+2 {
			return flags[x.vid]
		}
		return more[x.key()]
	}
	for _, x := range L1 {
		mark(x, 1)
	}
	for _, y := range L2 {
		mark(y, 2)
	}
	sigs := make([]uint8, maxS+2) // by sid+1: bit 1, an unmatched old leaf has it; bit 2, a new one
	for _, x := range L1 {
		x.state = unmatched
		if has(x)&2 != 0 {
			x.state = matched
		} else {
			sigs[x.sid+1] |= 1
		}
	}
	for _, y := range L2 {
		y.state = unmatched
		if has(y)&1 != 0 {
			y.state = matched
		} else {
			sigs[y.sid+1] |= 2
		}
	}
	for _, x := range L1 {
		if x.state == unmatched && sigs[x.sid+1]&2 != 0 {
			x.state = sigMatched
		}
	}
	for _, y := range L2 {
		if y.state == unmatched && sigs[y.sid+1]&1 != 0 {
			y.state = sigMatched
		}
	}
}

// sortRecords orders records: deletes by old position, then updates,
// inserts and moves by new position.
func sortRecords(del, upd, ins, moves []cxRecord) []cxRecord {
	byRank := func(a, b cxRecord) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		ai, bi := 0, 0
		if a.kw != nil {
			ai = a.kw.idx
		}
		if b.kw != nil {
			bi = b.kw.idx
		}
		return ai - bi
	}
	for _, s := range [][]cxRecord{del, upd, ins, moves} {
		slices.SortStableFunc(s, byRank)
	}
	out := make([]cxRecord, 0, len(del)+len(upd)+len(ins)+len(moves))
	out = append(out, del...)
	out = append(out, upd...)
	out = append(out, ins...)
	return append(out, moves...)
}

// cxReports reports whether a leaf is an object of the mode: every leaf for
// any change, phrase leaves for phrases.
func cxReports(x *cxLeaf, mode cxMode) bool {
	switch mode {
	case cxPhrase:
		return x.kind == leafPhrase
	case cxKeyword:
		return len(x.keywords()) > 0
	}
	return true
}

// cxAnyCandidate reports whether some object of the mode survived Phase I.
func cxAnyCandidate(L []*cxLeaf, mode cxMode) bool {
	for _, x := range L {
		switch mode {
		case cxKeyword:
			if x.state != unmatched && len(x.keywords()) > 0 {
				return true
			}
		case cxPhrase:
			if x.state == matched && x.kind == leafPhrase {
				return true
			}
		}
	}
	return false
}

// cxUnique returns the records for a leaf that is deleted (or inserted) as
// a whole: the leaf itself, or its keywords.
func cxUnique(x *cxLeaf, op Operation, mode cxMode) []cxRecord {
	var out []cxRecord
	switch mode {
	case cxKeyword:
		kws := x.keywords()
		for i := range kws {
			k := &kws[i]
			owner := x
			if k.owner != nil {
				owner = k.owner
			}
			r := cxRecord{op: op, kw: k, rank: int(owner.pos)}
			if op == Delete {
				r.old = owner
			} else {
				r.new = owner
			}
			out = append(out, r)
		}
		return out
	case cxPhrase:
		if x.kind != leafPhrase {
			return nil
		}
	}
	r := cxRecord{op: op, rank: int(x.pos)}
	if op == Delete {
		r.old = x
	} else {
		r.new = x
	}
	return append(out, r)
}

func kwSignature(kws []kwOcc) string {
	if len(kws) == 0 {
		return ""
	}
	if len(kws) == 1 {
		return kws[0].key
	}
	b := make([]byte, 0, 16*len(kws))
	for i, k := range kws {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, k.key...)
	}
	return string(b)
}

var subtreeSeed = maphash.MakeSeed()

// collapseCommonSubtrees is Phase III with a repair of the note's defect
// (§4.11 item 9). The seed removes second-level subtrees whose leaves and
// signatures are equal in both versions, which hides a reordering of whole
// subtrees (T4). Here each such pair of subtrees (paired one to one, in
// order, by a hash of their ordered leaves and then compared exactly, the
// seed's computeSubtreeHash and exactCompare) is collapsed into a single
// leaf on each side instead: Phases I and II see far fewer leaves, and a
// collapsed subtree that falls off the LCS is reported as the moves of its
// leaves. Leaves keep their original positions.
func collapseCommonSubtrees(L1, L2 []*cxLeaf, tab *symtab) ([]*cxLeaf, []*cxLeaf) {
	type grp struct {
		lo, hi int // leaves [lo, hi)
		h      uint64
	}
	groups := func(L []*cxLeaf) []grp {
		var gs []grp
		for i := 0; i < len(L); {
			j := i + 1
			for j < len(L) && L[j].group == L[i].group {
				j++
			}
			if L[i].group >= 0 {
				var h maphash.Hash
				h.SetSeed(subtreeSeed)
				var buf [8]byte
				for _, x := range L[i:j] {
					k := uint64(x.key())
					for b := range buf {
						buf[b] = byte(k >> (8 * b))
					}
					h.Write(buf[:])
				}
				gs = append(gs, grp{i, j, h.Sum64()})
			}
			i = j
		}
		return gs
	}
	g1, g2 := groups(L1), groups(L2)
	byHash := map[uint64][]int{}
	for j, g := range g2 {
		byHash[g.h] = append(byHash[g.h], j)
	}
	equal := func(a, b grp) bool {
		if a.hi-a.lo != b.hi-b.lo {
			return false
		}
		for k := 0; k < a.hi-a.lo; k++ {
			x, y := L1[a.lo+k], L2[b.lo+k]
			if x.vid != y.vid || x.sid != y.sid {
				return false
			}
		}
		return true
	}
	head1 := map[int]*cxLeaf{} // first leaf index -> collapsed leaf
	head2 := map[int]*cxLeaf{}
	skip1 := make([]bool, len(L1))
	skip2 := make([]bool, len(L2))
	n := 0
	for _, a := range g1 {
		q := byHash[a.h]
		for k, j := range q {
			b := g2[j]
			if !equal(a, b) {
				continue
			}
			byHash[a.h] = append(q[:k:k], q[k+1:]...)
			n++
			v := "\x00subtree-" + strconv.Itoa(n)
			first1, first2 := L1[a.lo], L2[b.lo]
			vid, sid := tab.val(v), tab.step(-1, "\x00")
			c1 := &cxLeaf{leaf: &leaf{kind: leafText, node: first1.node, value: v, group: first1.group, vid: vid, sid: sid}, pos: first1.pos, more: &cxMore{members: L1[a.lo:a.hi]}}
			c2 := &cxLeaf{leaf: &leaf{kind: leafText, node: first2.node, value: v, group: first2.group, vid: vid, sid: sid}, pos: first2.pos, more: &cxMore{members: L2[b.lo:b.hi]}}
			for _, x := range c1.more.members {
				for _, kw := range x.keywords() {
					if kw.owner == nil {
						kw.owner = x
					}
					c1.more.kws = append(c1.more.kws, kw)
				}
			}
			for k := a.lo; k < a.hi; k++ {
				skip1[k] = true
			}
			for _, y := range c2.more.members {
				for _, kw := range y.keywords() {
					if kw.owner == nil {
						kw.owner = y
					}
					c2.more.kws = append(c2.more.kws, kw)
				}
			}
			for k := b.lo; k < b.hi; k++ {
				skip2[k] = true
			}
			head1[a.lo], head2[b.lo] = c1, c2
			break
		}
	}
	if n == 0 {
		return L1, L2
	}
	rebuild := func(L []*cxLeaf, skip []bool, head map[int]*cxLeaf) []*cxLeaf {
		out := make([]*cxLeaf, 0, len(L))
		for i, x := range L {
			if c := head[i]; c != nil {
				out = append(out, c)
			}
			if !skip[i] {
				out = append(out, x)
			}
		}
		return out
	}
	return rebuild(L1, skip1, head1), rebuild(L2, skip2, head2)
}
