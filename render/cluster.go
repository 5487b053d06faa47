package render

// MaxClusterRunes is how far ClusterCut looks, each way, for the edge of a
// character as a reader sees it; a longer cluster (a letter under more
// than a thousand combining marks) is cut where asked.
const MaxClusterRunes = 1024

// ClusterCut returns i, or the nearest place before it (else after it,
// within MaxClusterRunes) where r can be cut without splitting a character
// as a reader sees it (ClusterBoundary); an i outside r is taken as its
// start or end. Every view that shortens a text cuts it here: the text
// view and the changes of an attribute; a cut under a hard limit (vigil
// diff's summary, a notification's subject, a chat message) uses
// ClusterCutBefore or ClusterCutAfter.
//
// It reads at most MaxClusterRunes runes before i and as many from i on,
// each at most twice, so its cost does not grow with r. A place is only
// taken if what decides it lies within that reach: inside a run of more
// than MaxClusterRunes regional indicators, or of marks after an emoji or
// a consonant, a place whose side of a flag or of a conjunct depends on
// where the run starts is passed over.
//
// Where r is cut before its first rune, i is counted from that cut, which
// must itself be a boundary: a pair of regional indicators is counted from
// the start of their run in r.
func ClusterCut(r []rune, i int) int {
	i = min(max(i, 0), len(r))
	if i == 0 || i == len(r) {
		return i
	}
	c, ok, st := clusterBefore(r, i)
	if ok {
		return c
	}
	if c, ok := clusterAfter(r, i, st); ok {
		return c
	}
	return i
}

// ClusterCutBefore is ClusterCut for a cut under a hard limit (a
// service's most characters): it returns the nearest place at or before
// i, within MaxClusterRunes, where r can be cut without splitting a
// character as a reader sees it, else i; never a place after i.
func ClusterCutBefore(r []rune, i int) int {
	i = min(max(i, 0), len(r))
	if i == 0 || i == len(r) {
		return i
	}
	c, _, _ := clusterBefore(r, i)
	return c
}

// ClusterCutAfter is ClusterCut for where the end of a text kept under a
// limit starts: it returns the nearest place at or after i, within
// MaxClusterRunes, where r can be cut without splitting a character as a
// reader sees it, else i; never a place before i.
func ClusterCutAfter(r []rune, i int) int {
	i = min(max(i, 0), len(r))
	if i == 0 || i == len(r) {
		return i
	}
	st := clusterStateAt(r, i, max(0, i-MaxClusterRunes))
	c := classify(r[i])
	if brk, known := st.judge(c); brk && known {
		return i
	}
	st.push(c)
	if c, ok := clusterAfter(r, i, st); ok {
		return c
	}
	return i
}

// ClusterBoundary reports whether r can be cut before r[i] without
// splitting a character as a reader sees it: whether UAX #29's extended
// grapheme cluster rules GB3 to GB13 put a boundary there. It is not
// between CR and LF, inside a Hangul syllable written in jamo, before a
// mark, a skin tone, a zero-width joiner or a spacing mark, after a
// prepended mark, inside an Indic conjunct (क्ष), inside an emoji ZWJ
// sequence, nor between the two regional indicators of a flag, paired
// from the start of their run (🇫🇷🇩🇪 is cut between FR and DE only). The
// start and the end of r, and any place outside it, are boundaries.
//
// It reads r back from i to the nearest rune that is not a regional
// indicator, a mark (Extend) or a zero-width joiner, so its cost is the
// length of that run.
func ClusterBoundary(r []rune, i int) bool {
	if i <= 0 || i >= len(r) {
		return true
	}
	st := clusterStateAt(r, i, 0)
	brk, _ := st.judge(classify(r[i])) // known: read back to a stable rune or the start
	return brk
}

// clusterBefore returns the nearest boundary at or before i, 0 < i <
// len(r), if one is within MaxClusterRunes, else i, and the state of r up
// to and with r[i], for clusterAfter. It reads back from i to the nearest
// stable rune, then forward to i judging each place; if none is a
// boundary, it does the same from that rune back, and so on, so that each
// rune is read at most twice.
func clusterBefore(r []rune, i int) (int, bool, clusterState) {
	lo := max(0, i-MaxClusterRunes)
	var at clusterState
	for hi := i; hi > lo; {
		s := stableBefore(r, hi, lo)
		st := clusterStart(r, s)
		last := -1
		for p := s + 1; p <= hi; p++ {
			c := classify(r[p])
			if brk, known := st.judge(c); brk && known {
				last = p
			}
			st.push(c)
		}
		if hi == i {
			at = st
		}
		switch {
		case last >= 0:
			return last, true, at
		case s == 0:
			return 0, true, at
		}
		hi = s
	}
	return i, false, at
}

// clusterAfter returns the nearest boundary after i, within
// MaxClusterRunes, given the state st of r up to and with r[i].
func clusterAfter(r []rune, i int, st clusterState) (int, bool) {
	for p := i + 1; p <= i+MaxClusterRunes && p <= len(r); p++ {
		if p == len(r) {
			return p, true
		}
		c := classify(r[p])
		if brk, known := st.judge(c); brk && known {
			return p, true
		}
		st.push(c)
	}
	return i, false
}

// clusterStateAt returns the state of r[:i], 0 < i, read from the nearest
// stable rune before i, looking back no further than lo.
func clusterStateAt(r []rune, i, lo int) clusterState {
	s := stableBefore(r, i, lo)
	st := clusterStart(r, s)
	for p := s + 1; p < i; p++ {
		st.push(classify(r[p]))
	}
	return st
}

// stableBefore returns the nearest place s before hi, lo <= s < hi, where
// r[s] is stable, else lo.
func stableBefore(r []rune, hi, lo int) int {
	s := hi - 1
	for s > lo && !classify(r[s]).stable() {
		s--
	}
	return s
}

// clusterStart returns the state of r up to and with r[s]: exact when s
// is 0 or r[s] is stable, else not known where what came before s
// decides.
func clusterStart(r []rune, s int) clusterState {
	st := clusterState{prev: clControl, riKnown: true} // the start of text
	if s > 0 {
		// Anything may come before: prev stands for a regional indicator
		// so that one at s leaves the parity of its run unknown.
		st = clusterState{prev: clRegional, pict: pictUnknown, conj: conjUnknown}
	}
	st.push(classify(r[s]))
	return st
}

// stable reports whether the state of a text after a rune of class c is
// known from c alone: it ends no run of regional indicators, and no run
// of marks after an emoji (GB11) or a consonant (GB9c).
func (c clusterClass) stable() bool {
	return c != clRegional && c != clExtend && c != clLinker && c != clZWJ
}

// clusterState is what the rules need to know of a text to tell whether
// it ends a cluster before the rune that follows.
type clusterState struct {
	prev    clusterClass // the class of the last rune
	riOdd   bool         // the text ends with an odd run of regional indicators
	riKnown bool         // riOdd is known
	pict    uint8        // how the text ends for GB11
	conj    uint8        // how the text ends for GB9c
}

// The values of clusterState.pict.
const (
	pictNone    = iota
	pictSeen    // ExtPict Extend*
	pictJoined  // ExtPict Extend* ZWJ
	pictUnknown // marks or a joiner, whose start is not known
)

// The values of clusterState.conj.
const (
	conjNone      = iota
	conjConsonant // Consonant [Extend Linker]*, no Linker
	conjLinked    // Consonant [Extend Linker]* Linker [Extend Linker]*
	conjUnknown   // marks, whose start is not known
)

// push adds a rune of class c to the text st describes.
func (st *clusterState) push(c clusterClass) {
	if c == clRegional {
		if st.prev == clRegional {
			st.riOdd = !st.riOdd
		} else {
			st.riOdd, st.riKnown = true, true
		}
	} else {
		st.riOdd, st.riKnown = false, true
	}
	switch c {
	case clPictographic:
		st.pict = pictSeen
	case clExtend, clLinker:
		if st.pict != pictSeen && st.pict != pictUnknown {
			st.pict = pictNone
		}
	case clZWJ:
		switch st.pict {
		case pictSeen:
			st.pict = pictJoined
		case pictUnknown:
		default:
			st.pict = pictNone
		}
	default:
		st.pict = pictNone
	}
	switch c {
	case clConsonant:
		st.conj = conjConsonant
	case clLinker:
		if st.conj == conjConsonant {
			st.conj = conjLinked
		}
	case clExtend, clZWJ:
	default:
		st.conj = conjNone
	}
	st.prev = c
}

// judge tells whether the text st describes ends a cluster before a rune
// of class c, by the rules of UAX #29 in their order; known is false where
// the rule that decides needs what st does not know.
func (st *clusterState) judge(c clusterClass) (brk, known bool) {
	p := st.prev
	switch {
	case p == clCR && c == clLF: // GB3
		return false, true
	case p == clCR || p == clLF || p == clControl: // GB4
		return true, true
	case c == clCR || c == clLF || c == clControl: // GB5
		return true, true
	case p == clL && (c == clL || c == clV || c == clLV || c == clLVT): // GB6
		return false, true
	case (p == clLV || p == clV) && (c == clV || c == clT): // GB7
		return false, true
	case (p == clLVT || p == clT) && c == clT: // GB8
		return false, true
	case c == clExtend || c == clLinker || c == clZWJ: // GB9
		return false, true
	case c == clSpacingMark: // GB9a
		return false, true
	case p == clPrepend: // GB9b
		return false, true
	case c == clConsonant && st.conj == conjUnknown: // GB9c
		return false, false
	case c == clConsonant && st.conj == conjLinked:
		return false, true
	case p == clZWJ && c == clPictographic: // GB11
		return st.pict != pictJoined, st.pict != pictUnknown
	case p == clRegional && c == clRegional: // GB12, GB13
		return !st.riOdd, st.riKnown
	}
	return true, true // GB999
}
