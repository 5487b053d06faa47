package intent

import (
	"slices"
	"strings"

	"github.com/vigil-web/vigil/spec"
)

// phraseKeys returns the comparison form of a phrase's words.
func phraseKeys(p string, caseSensitive bool) []string {
	var out []string
	for _, w := range splitWords(p) {
		if k := spec.WordKey(w, caseSensitive); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// kmpSearch returns the start indexes of every occurrence of pat in the
// keys of words (Knuth-Morris-Pratt, as the seed's Fig 7.4 step 5), each
// within a block: a word that starts one (word.brk) starts the search
// afresh.
func kmpSearch(words []word, pat []int32) []int {
	if len(pat) == 0 {
		return nil
	}
	fail := make([]int, len(pat))
	for i, k := 1, 0; i < len(pat); i++ {
		for k > 0 && pat[i] != pat[k] {
			k = fail[k-1]
		}
		if pat[i] == pat[k] {
			k++
		}
		fail[i] = k
	}
	var out []int
	for i, k := 0, 0; i < len(words); i++ {
		if words[i].brk {
			k = 0
		}
		for k > 0 && words[i].id != pat[k] {
			k = fail[k-1]
		}
		if words[i].id == pat[k] {
			k++
		}
		if k == len(pat) {
			out = append(out, i-len(pat)+1)
			k = fail[k-1]
		}
	}
	return out
}

type phraseMatch struct {
	lo, hi int // first and last word
	phrase int // index into the phrases
}

// phraseLeaves realigns c's leaves as the seed's Fig 7.4 does: each
// occurrence of a phrase (left to right, longest first, without overlap)
// becomes one phrase leaf whose value is the phrase and whose signature is
// the spanned leaves' common path followed by the rest of their paths; the
// words of a spanned leaf outside the phrase stay as residual text leaves
// with the leaf's signature. Leaves are renumbered from 1.
func phraseLeaves(c *content, phrases []string, keys [][]string) []*cxLeaf {
	var ms []phraseMatch
	for pi, k := range keys {
		ids := make([]int32, len(k))
		for i, w := range k {
			ids[i] = c.tab.id(w)
		}
		for _, s := range kmpSearch(c.words, ids) {
			ms = append(ms, phraseMatch{s, s + len(k) - 1, pi})
		}
	}
	slices.SortFunc(ms, func(a, b phraseMatch) int {
		if a.lo != b.lo {
			return a.lo - b.lo
		}
		return b.hi - a.hi
	})
	var kept []phraseMatch
	last := -1
	for _, m := range ms {
		if m.lo > last {
			kept = append(kept, m)
			last = m.hi
		}
	}
	// first word of each leaf
	first := make([]int, len(c.leaves)+1)
	for i := range first {
		first[i] = -1
	}
	for wi := len(c.words) - 1; wi >= 0; wi-- {
		first[c.words[wi].leaf] = wi
	}
	out := make([]*cxLeaf, 0, len(c.leaves)+len(kept))
	backing := make([]cxLeaf, 0, len(c.leaves))
	keep := func(l *leaf) {
		backing = append(backing, cxLeaf{leaf: l, pos: int32(len(out) + 1)})
		out = append(out, &backing[len(backing)-1])
	}
	emit := func(l leaf) {
		out = append(out, &cxLeaf{leaf: &l, pos: int32(len(out) + 1)})
	}
	mi := 0
	consumed := -1 // last word inside an emitted phrase
	// absorbed is the last leaf that the words of the leaves touched so
	// far span (content.spans): a leaf whose text is only the end of such
	// a word is in the phrase or the residual text that holds it.
	absorbed := int32(-1)
	for li := range c.leaves {
		l := c.leaves[li]
		if l.kind == leafText && first[li] < 0 && int32(li) <= absorbed {
			continue
		}
		if l.kind != leafText || first[li] < 0 {
			keep(&c.leaves[li])
			continue
		}
		touched := consumed >= first[li] || (mi < len(kept) && kept[mi].lo >= first[li] && int(c.words[kept[mi].lo].leaf) == li)
		if !touched {
			keep(&c.leaves[li])
			continue
		}
		var residual []string
		flush := func() {
			if len(residual) > 0 {
				r := l
				r.value = strings.Join(residual, " ")
				r.vid = c.tab.val(r.value)
				emit(r)
				residual = residual[:0]
			}
		}
		for wi := first[li]; wi < len(c.words) && int(c.words[wi].leaf) == li; wi++ {
			if last, ok := c.spans[int32(wi)]; ok {
				absorbed = max(absorbed, last)
			}
			switch {
			case wi <= consumed:
			case mi < len(kept) && kept[mi].lo == wi:
				flush()
				m := kept[mi]
				mi++
				value, sig := strings.Join(keys[m.phrase], " "), phraseSig(c, m)
				emit(leaf{
					kind: leafPhrase, node: l.node, value: value, group: l.group, vid: c.tab.val(value), sid: c.tab.path(sig),
					phrase: &phraseLeaf{display: phrases[m.phrase], wlo: m.lo, whi: m.hi},
				})
				consumed = m.hi
			default:
				residual = append(residual, c.words[wi].text)
			}
		}
		flush()
	}
	return out
}

// phraseSig is the signature of a phrase leaf (the note's phrase_sig): the
// longest common prefix of the spanned leaves' paths (those of each part
// of a word that inline markup splits too), then the remaining
// labels of each spanned leaf in order. The thesis example gives
// Books-Section-Book-Name-Author, as its labels.
func phraseSig(c *content, m phraseMatch) []string {
	var paths [][]string
	lastLeaf := int32(-1)
	for wi := m.lo; wi <= m.hi; wi++ {
		c.wordLeaves(wi, func(li int32) {
			if li > lastLeaf {
				lastLeaf = li
				paths = append(paths, c.tab.sigLabels(c.leaves[li].sid))
			}
		})
	}
	if len(paths) == 1 {
		return paths[0]
	}
	n := len(paths[0])
	for _, p := range paths[1:] {
		k := 0
		for k < n && k < len(p) && p[k] == paths[0][k] {
			k++
		}
		n = k
	}
	out := slices.Clone(paths[0][:n])
	for _, p := range paths {
		out = append(out, p[n:]...)
	}
	return out
}

// phraseWindow returns the words of the other version that stand where the
// words [lo, hi] of this version stood: the words between the images of
// the nearest aligned words before lo and after hi. align maps a word of
// this version to its partner in the other, or -1.
func phraseWindow(align []int, otherLen, lo, hi int) (int, int) {
	wlo, whi := 0, otherLen-1
	for i := lo - 1; i >= 0; i-- {
		if align[i] >= 0 {
			wlo = align[i] + 1
			break
		}
	}
	for i := hi + 1; i < len(align); i++ {
		if align[i] >= 0 {
			whi = align[i] - 1
			break
		}
	}
	return wlo, whi
}

// phraseSimilarity compares a phrase with a window of words, block by
// block (a phrase stands within one, and so does what it became: word.brk
// starts one): of the block whose longest common subsequence with the
// phrase is longest (the first of those), the length of that subsequence
// over the phrase's length, that length (the phrase's words kept), and
// the block's words from the first to the last common one, extended over
// the words that replace the phrase's unmatched ends.
func phraseSimilarity(tab *symtab, pat []string, window []word) (sim float64, kept int, words []word) {
	if len(pat) == 0 || len(window) == 0 {
		return 0, 0, nil
	}
	a := make([]int32, len(pat))
	for i, k := range pat {
		a[i] = tab.id(k)
	}
	var best []lcsPair
	var bestBlock []word
	for lo := 0; lo < len(window); {
		hi := lo + 1
		for hi < len(window) && !window[hi].brk {
			hi++
		}
		block := window[lo:hi]
		b := make([]int32, len(block))
		for i, w := range block {
			b[i] = w.id
		}
		if ps := lcs(a, b); len(ps) > len(best) {
			best, bestBlock = ps, block
		}
		lo = hi
	}
	if len(best) == 0 {
		return 0, 0, nil
	}
	lo, hi := best[0].b, best[len(best)-1].b
	// extend to the block's words that replace the phrase's unmatched ends
	lo = max(0, lo-best[0].a)
	hi = min(len(bestBlock)-1, hi+(len(pat)-1-best[len(best)-1].a))
	return float64(len(best)) / float64(len(pat)), len(best), bestBlock[lo : hi+1]
}

// swapSides is what wordSwapped reads of a phrase gone from one version:
// the content of that version (this) and of the other, the word
// alignments of each with the other (align maps a word of this to its
// partner in other, alignOther the reverse; -1 for none), the phrase's
// words in this, lo to hi, and the number of words of other that stand
// where it stood (phraseWindow).
type swapSides struct {
	this, other       *content
	align, alignOther []int
	lo, hi            int
	window            int
}

// minSwapContext is the fewest words, beside a phrase of which one word
// was swapped, that its block of text must keep, in both versions, for
// the swap to be an edit of the phrase (wordSwapped).
const minSwapContext = 2

// wordSwapped reports whether the phrase pat, gone from sw.this, became
// became in the other version by one of its words replaced with one
// other word, in place, the others kept (its two words being "free
// shipping", "fast shipping"), within a block of text that keeps at
// least minSwapContext of its other words, aligned in both versions
// ("Free shipping on orders over $50" -> "Fast shipping on orders over
// $50"): the same sentence edited, which a user reads as the phrase
// changed. One word left of a phrase is otherwise no evidence of an edit
// (minPhraseKept): a block that keeps fewer words around it ("Reviews:
// great shop." -> "Reviews: closed shop.") may be other text standing
// there, and so is a phrase one of whose words was taken out, or
// replaced by several.
func (p *Pair) wordSwapped(sw swapSides, pat []string, became []word) bool {
	// One word for one: the words standing where the phrase stood are
	// as many as its own.
	if len(became) != len(pat) || sw.window != len(pat) {
		return false
	}
	swapped := 0
	for i, w := range became {
		if w.id != p.tab.id(pat[i]) {
			swapped++
		}
	}
	if swapped != 1 {
		return false
	}
	at := wordIndex(sw.other, became[0].leaf+1, int(became[0].idx))
	if at < 0 {
		return false
	}
	blo, bhi := blockOf(sw.this.words, sw.lo)
	olo, ohi := blockOf(sw.other.words, at)
	if sw.hi > bhi || at+len(became)-1 > ohi {
		return false
	}
	context := 0
	for j := olo; j <= ohi; j++ {
		if j >= at && j < at+len(became) {
			continue
		}
		if k := sw.alignOther[j]; k >= blo && k <= bhi && (k < sw.lo || k > sw.hi) {
			context++
		}
	}
	return context >= minSwapContext
}

// blockOf returns the first and last words of the block of text (see
// word.brk) that holds words[i].
func blockOf(words []word, i int) (lo, hi int) {
	lo, hi = i, i
	for lo > 0 && !words[lo].brk {
		lo--
	}
	for hi+1 < len(words) && !words[hi+1].brk {
		hi++
	}
	return lo, hi
}
