package treediff

import "github.com/vigil-web/vigil/tree"

// wordSet is the set of words of a subtree's text and attribute values, as
// distinct 64-bit hashes in the order they first occur: cheaper to build and
// to compare than a map of strings, and a collision only nudges a
// similarity score.
type wordSet []uint64

// wordOptions tells wordsOf what to read.
type wordOptions struct {
	// pairs makes the set one of the pairs of consecutive words of the
	// subtree's texts (the first word with the start), its attributes
	// left out: the order of the words counts, so that two texts of one
	// vocabulary in another order share few, and two items of the same
	// attributes (a class, a lang) share none of them.
	pairs bool
	// match, when set, is the version's matches: texts matched already
	// are not read, as they are not part of the region.
	match []int32
}

// wordsOf returns the words of node i's subtree (or, with opt.pairs, the
// pairs of them), reading at most leftoverTextLimit bytes of text, in
// document order, and the attributes of the elements that begin before
// the limit is reached, while the set holds fewer than leftoverTextLimit
// words (a set is compared with every set that shares a rare word with
// it, so none may be as long as the document). Words are split at ASCII
// white space and hashed byte by byte (FNV-1a), in one pass over the
// text. scratch and index are working space, reused from call to call;
// index holds the set returned until its next use (see
// wordIndex.diceCommon). The set is carved from store, to be kept; when
// store is nil it is scratch's, valid until the next call.
func wordsOf(t *tree.Flat, i int32, opt wordOptions, scratch *wordSet, index *wordIndex, store *wordSet) wordSet {
	set := (*scratch)[:0]
	budget := leftoverTextLimit
	// The subtree is the post-order range [i-Size+1, i]: its leaves come in
	// document order, each element after its descendants. spent is the
	// index of the leaf that used the last of the budget: an element that
	// begins after it is not read.
	spent := i + 1
	prev := uint64(0) // the word before, in pairs mode
	for k := i - t.Size[i] + 1; k <= i; k++ {
		if t.Kind[k] == tree.Element {
			if k-t.Size[k]+1 <= spent && !opt.pairs {
				for _, a := range t.Attrs(k) {
					if len(set) >= leftoverTextLimit {
						break // an element's attributes are bounded by its size only
					}
					set = append(set, mixWord(wordHash(wordHash(fnvBasis, a.Name)^'=', a.Value)))
				}
			}
			continue
		}
		if budget <= 0 || (opt.match != nil && opt.match[k] >= 0) {
			continue
		}
		s := t.Value(k)
		if len(s) > budget {
			s = s[:budget]
		}
		budget -= len(s)
		if budget <= 0 {
			spent = k
		}
		h, in := uint64(fnvBasis), false
		word := func() {
			w := mixWord(h)
			if opt.pairs {
				w, prev = mixWord(prev*fnvPrime^w), w
			}
			set = append(set, w)
		}
		for k := 0; k < len(s); k++ {
			switch c := s[k]; c {
			case ' ', '\t', '\n', '\r', '\f', '\v':
				if in {
					word()
					h, in = fnvBasis, false
				}
			default:
				h = (h ^ uint64(c)) * fnvPrime
				in = true
			}
		}
		if in {
			word()
		}
	}
	*scratch = set
	// Distinct words, first occurrences kept in place.
	index.reset(len(set))
	n := 0
	for _, x := range set {
		if index.add(x) {
			set[n] = x
			n++
		}
	}
	if store == nil {
		return set[:n]
	}
	kept := carve((*[]uint64)(store), n, 1<<14)
	copy(kept, set[:n])
	return kept
}

// FNV-1a constants for word hashes.
const (
	fnvBasis = 14695981039346656037
	fnvPrime = 1099511628211
)

// wordHash folds the bytes of s into h with FNV-1a.
func wordHash(h uint64, s string) uint64 {
	for k := 0; k < len(s); k++ {
		h = (h ^ uint64(s[k])) * fnvPrime
	}
	return h
}

// nameHash spreads a name class over 64 bits, to be combined with a word
// hash into one key.
func nameHash(class int32) uint64 { return mixWord(uint64(uint32(class)) + 1) }

// mixWord spreads a word hash's bits (SplitMix64's finaliser), so that
// short words do not crowd the same slots of a wordIndex.
func mixWord(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// wordIndex is a set of word hashes in an open-addressing table, emptied at
// once by a new generation rather than cleared slot by slot. It replaces a
// sort of every word set: a set is indexed once and looked up, which costs
// less than ordering it.
type wordIndex struct {
	slots []wordSlot
	mask  uint64
	gen   uint32
}

type wordSlot struct {
	word uint64
	gen  uint32 // the slot holds word in generation gen only
}

// reset empties the index and sizes it for up to n words.
func (x *wordIndex) reset(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	x.gen++
	if len(x.slots) < size || x.gen == 0 {
		x.slots = make([]wordSlot, size)
		x.gen = 1
	}
	x.mask = uint64(size - 1)
}

// add adds w and reports whether it was not there yet.
func (x *wordIndex) add(w uint64) bool {
	for s := w & x.mask; ; s = (s + 1) & x.mask {
		slot := &x.slots[s]
		if slot.gen != x.gen {
			slot.word, slot.gen = w, x.gen
			return true
		}
		if slot.word == w {
			return false
		}
	}
}

// has reports whether w is in the index.
func (x *wordIndex) has(w uint64) bool {
	for s := w & x.mask; ; s = (s + 1) & x.mask {
		slot := &x.slots[s]
		if slot.gen != x.gen {
			return false
		}
		if slot.word == w {
			return true
		}
	}
}

// diceCommon returns 2|a∩b| / (|a|+|b|), and 1 for two empty sets, and
// |a∩b|, where a is the set the index holds and b a set of distinct words.
func (x *wordIndex) diceCommon(a, b wordSet) (float64, int) {
	if len(a)+len(b) == 0 {
		return 1, 0
	}
	common := 0
	for _, w := range b {
		if x.has(w) {
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b)), common
}
