package intent

import (
	"strings"
	"unicode/utf8"

	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// wordReader appends the words of a content's text leaves, in order, to
// content.words, reading a word that inline markup splits as one word, as
// a browser shows it: the last word of a text leaf and the first of the
// next one, which continues it (leaf.glue), are one word
// (<span class="dropcap">R</span>efunds is "Refunds", <b>price</b>list
// "pricelist"). Such a word is placed at the leaf where it starts, with
// that leaf's index of its first part; content.spans tells the last leaf
// it spans.
//
// The last field of each leaf waits (pending) until the next leaf tells
// whether it goes on. Each leaf's words are those the symtab split once
// (symtab.valueWords); only a word joined from several leaves is built and
// keyed anew, its parts appended to one buffer, so that a word of many
// parts (a letter a span) costs its length, not its length squared.
type wordReader struct {
	c             *content
	caseSensitive bool
	brk           bool // a block started since the last word

	// The pending word: the last field of the text so far.
	pending bool
	leaf    int32  // where it starts
	last    int32  // the last leaf it spans
	idx     int32  // its index among the fields of leaf
	id      int32  // its key's symtab number, -1 for none (punctuation alone); unused once joined
	text    string // its text, while it is one leaf's
	joined  bool   // it spans several leaves: its text is buf
	buf     []byte
	wbrk    bool // it starts a block
}

// add reads the text leaf at index i of the content's leaves.
func (r *wordReader) add(i int32) {
	c := r.c
	l := &c.leaves[i]
	v := l.value
	ws := c.tab.valueWords(l.vid, v, r.caseSensitive)
	k := 0 // the first of ws not read yet
	if l.glue && r.pending {
		// The first field of v continues the pending word.
		first := v
		sp := strings.IndexByte(v, ' ')
		if sp >= 0 {
			first = v[:sp]
		}
		if !r.joined {
			r.buf = append(r.buf[:0], r.text...)
			r.joined = true
		}
		r.buf = append(r.buf, first...)
		r.last = i
		if sp < 0 {
			return // the whole leaf is in the pending word, which may go on
		}
		r.flush()
		if len(ws) > 0 && ws[0].off == 0 {
			k = 1
		}
	} else {
		r.flush()
		r.brk = r.brk || l.brk
	}
	// The words before the last field, then the last field, pending. A
	// block that starts inside the leaf (a feed's escaped HTML,
	// content.feedBlocks) starts at the first word at or after it.
	blocks := c.feedBlocks[i]
	lastOff := int32(strings.LastIndexByte(v, ' ') + 1)
	for ; k < len(ws) && ws[k].off < lastOff; k++ {
		w := ws[k]
		for len(blocks) > 0 && blocks[0] <= w.off {
			r.brk, blocks = true, blocks[1:]
		}
		c.words = append(c.words, word{text: v[w.off : w.off+w.n], leaf: i, idx: w.idx, id: w.id, brk: r.brk})
		r.brk = false
	}
	if len(blocks) > 0 { // one starts at or before the last field
		r.brk = true
	}
	r.pending, r.joined = true, false
	r.leaf, r.last, r.text = i, i, v[lastOff:]
	r.wbrk, r.brk = r.brk, false
	if k < len(ws) {
		r.idx, r.id = ws[k].idx, ws[k].id
	} else {
		r.idx, r.id = int32(strings.Count(v, " ")+1), -1
	}
}

// flush appends the pending word, if any, to the content's words.
func (r *wordReader) flush() {
	if !r.pending {
		return
	}
	r.pending = false
	c := r.c
	text, id := r.text, r.id
	if r.joined {
		text, id = string(r.buf), -1
		if k := spec.WordKey(text, r.caseSensitive); k != "" {
			id = c.tab.id(k)
		}
	}
	if id < 0 {
		// No word (punctuation alone): the block starts at the next.
		r.brk = r.brk || r.wbrk
		return
	}
	if r.last > r.leaf {
		if c.spans == nil {
			c.spans = make(map[int32]int32)
		}
		c.spans[int32(len(c.words))] = r.last
	}
	c.words = append(c.words, word{text: text, leaf: r.leaf, idx: r.idx, id: id, brk: r.wbrk})
}

// wordLeaves calls f with the index in leaves of each text leaf word wi
// spans: the leaf it starts in, and those inline markup split it into
// (content.spans).
func (c *content) wordLeaves(wi int, f func(li int32)) {
	first := c.words[wi].leaf
	f(first)
	last, ok := c.spans[int32(wi)]
	if !ok {
		return
	}
	for li := first + 1; li <= last; li++ {
		if c.leaves[li].kind == leafText {
			f(li)
		}
	}
}

// inSiblingElements reports whether text nodes a and b, a before b, sit in
// two different elements side by side: below their lowest common
// ancestor, each is inside an element of its own, as the links of a
// minified menu (<a>Home</a><a>About</a>) or tag pills
// (<span>go</span><span>web</span>) are. A style sheet shows such
// elements apart (a margin, a block), so they do not make one word, while
// a text that goes on in the element around (<span>R</span>efunds,
// <b>pri<i>ce</i></b>) does: there the parent of one is an ancestor of the
// other. Ancestors are looked for maxWordDepth levels up at most, so that
// a page nested deep costs no more a text (a word split deeper is read as
// two). It reports false when either is nil.
func inSiblingElements(a, b *tree.Node) bool {
	if a == nil || b == nil {
		return false
	}
	return !ancestorWithin(b.Parent, a) && !ancestorWithin(a.Parent, b)
}

// maxWordDepth bounds the levels inSiblingElements climbs.
const maxWordDepth = 16

// ancestorWithin reports whether p is one of n's maxWordDepth nearest
// ancestors.
func ancestorWithin(p, n *tree.Node) bool {
	x := n.Parent
	for k := 0; k < maxWordDepth && x != nil; k++ {
		if x == p {
			return true
		}
		x = x.Parent
	}
	return false
}

// oneLetter reports whether a text leaf's value is a single character.
func oneLetter(v string) bool {
	_, n := utf8.DecodeRuneInString(v)
	return n == len(v)
}
