package editdist

import (
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// Several matchings often have the minimum cost: an item edited beside a
// deleted one can be paired with either, for one text update and one
// subtree delete both ways. The cost model cannot tell them apart, and a
// reader can: "red -> green" of the same item, not a rewrite of its
// neighbour. Among the matchings of minimum cost, backtrack takes one that
// pairs the subtrees with the most alike words (the sum of the pairs'
// unlikeness, below, is least), and, where that ties too, the leftmost.

// maxWords bounds the words read of a subtree for its likeness.
const maxWords = 256

// unlikeness returns how unlike the words of subtree i of s.a and subtree
// j of s.b are: 0 for the same words (bags of words compared by Dice's
// coefficient) to 64 for none in common; 0 when neither has words.
func (s *selkow) unlikeness(i, j int32) int32 {
	a, b := s.wordsOf(&s.a, &s.wordsA, i), s.wordsOf(&s.b, &s.wordsB, j)
	if len(a)+len(b) == 0 {
		return 0
	}
	common := 0
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch {
		case a[x] == b[y]:
			common++
			x, y = x+1, y+1
		case a[x] < b[y]:
			x++
		default:
			y++
		}
	}
	return int32(64 - 128*common/(len(a)+len(b)))
}

// subtreeWords caches the sorted word hashes of a forest's subtrees,
// computed when first asked for.
type subtreeWords struct {
	done  []bool
	words [][]uint64
}

func (w *subtreeWords) reset(n int) {
	w.done = slices.Grow(w.done[:0], n)[:n]
	clear(w.done)
	if cap(w.words) < n {
		w.words = make([][]uint64, n)
	}
	w.words = w.words[:n]
}

// wordsOf returns the sorted hashes of the first maxWords words of the
// texts of subtree i of f.
func (s *selkow) wordsOf(f *forest, w *subtreeWords, i int32) []uint64 {
	if len(w.done) != f.len() {
		w.reset(f.len())
	}
	if w.done[i] {
		return w.words[i]
	}
	out := w.words[i][:0]
	add := func(v string) {
		h, in := uint64(14695981039346656037), false
		for k := 0; k < len(v) && len(out) < maxWords; k++ {
			switch c := v[k]; c {
			case ' ', '\t', '\n', '\r', '\f', '\v':
				if in {
					out = append(out, h)
					h, in = 14695981039346656037, false
				}
			default:
				h = (h ^ uint64(c)) * 1099511628211
				in = true
			}
		}
		if in && len(out) < maxWords {
			out = append(out, h)
		}
	}
	if f.flat != nil {
		t, r := f.flat, f.at[i]
		for k := r - t.Size[r] + 1; k <= r && len(out) < maxWords; k++ {
			if t.Kind[k] == tree.Text {
				add(t.Value(k))
			}
		}
	} else {
		tree.Walk(f.nodes[i], func(n *tree.Node) bool {
			if n.Kind == tree.Text {
				add(n.Value)
			}
			return len(out) < maxWords
		})
	}
	slices.Sort(out)
	w.words[i], w.done[i] = out, true
	return out
}

// unlike is unlikeness(i, j) of two subtrees at distance d: 0 for
// identical ones, without reading their words.
func (s *selkow) unlike(i, j, d int32) int32 {
	if d == 0 {
		return 0
	}
	return s.unlikeness(i, j)
}

// prefer returns the edit table of the suffixes of ka and kb,
// t[x*(len(kb)+1)+y] the cost of turning ka[x:] into kb[y:] (align's, from
// the other end), and the table of the least unlikeness of a matching of
// that cost, u likewise; u is nil when no match of two different subtrees
// ties with a delete or an insert, the common case, where every matching
// of minimum cost pairs the same unlike subtrees. Both are valid until
// the next call.
func (s *selkow) prefer(ka, kb []int32) (t, u []int32) {
	ca, cb := len(ka), len(kb)
	n := (ca + 1) * (cb + 1)
	if cap(s.suffix) < n {
		s.suffix = make([]int32, max(n, 2*cap(s.suffix)))
		s.like = make([]int32, max(n, 2*cap(s.like)))
	}
	t = s.suffix[:n]
	w := cb + 1
	t[ca*w+cb] = 0
	for y := cb - 1; y >= 0; y-- {
		t[ca*w+y] = t[ca*w+y+1] + s.b.size[kb[y]]
	}
	tied := false
	for x := ca - 1; x >= 0; x-- {
		ax := ka[x]
		t[x*w+cb] = t[(x+1)*w+cb] + s.a.size[ax]
		for y := cb - 1; y >= 0; y-- {
			by := kb[y]
			cost := min(t[(x+1)*w+y]+s.a.size[ax], t[x*w+y+1]+s.b.size[by])
			if d := s.get(ax, by); d < forbidden {
				c := t[(x+1)*w+y+1] + d
				tied = tied || c == cost && d > 0
				cost = min(cost, c)
			}
			t[x*w+y] = cost
		}
	}
	if !tied {
		return t, nil
	}
	// Only the cells on a path of minimum cost from the start are read
	// by backtrack, and by the cells before them on such a path: the
	// likeness of the others, a comparison of two subtrees' words each,
	// is not computed (most of a long gap's cells are far from every
	// path of minimum cost).
	onPath := s.onPath(ka, kb, t)
	u = s.like[:n]
	clear(u[ca*w:])
	for x := ca - 1; x >= 0; x-- {
		ax := ka[x]
		u[x*w+cb] = 0
		for y := cb - 1; y >= 0; y-- {
			by := kb[y]
			if !onPath[x*w+y] {
				u[x*w+y] = forbidden
				continue
			}
			cost, like := t[x*w+y], int32(forbidden)
			if cost == t[(x+1)*w+y]+s.a.size[ax] {
				like = u[(x+1)*w+y] // delete x
			}
			if cost == t[x*w+y+1]+s.b.size[by] {
				like = min(like, u[x*w+y+1]) // insert y
			}
			if d := s.get(ax, by); d < forbidden && cost == t[(x+1)*w+y+1]+d {
				like = min(like, u[(x+1)*w+y+1]+s.unlike(ax, by, d)) // match x with y
			}
			u[x*w+y] = like
		}
	}
	return t, u
}

// onPath returns, for each cell of prefer's table t of ka and kb, whether
// it is on a path of minimum cost from the start (0, 0): its prefix cost
// (align's table: turning ka[:x] into kb[:y]) plus its suffix cost t is
// t's minimum. A cell reached from such a cell by a step of t's minimum is
// one too, so the cells off every such path are read neither by backtrack
// nor by a cell on one. The slice is valid until the next call.
func (s *selkow) onPath(ka, kb []int32, t []int32) []bool {
	p := s.align(ka, kb)
	n := len(t)
	if cap(s.path) < n {
		s.path = make([]bool, max(n, 2*cap(s.path)))
	}
	on := s.path[:n]
	for k := range on {
		on[k] = p[k]+t[k] == t[0]
	}
	return on
}
