package editdist

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPreferOnPath: the likeness table prefer fills only on the paths of
// minimum cost from the start holds, on every cell of those paths, what
// the table filled everywhere holds; backtrack reads no other cell. The
// lists are of small records whose texts repeat words, so that matches of
// different subtrees tie with deletes and inserts.
func TestPreferOnPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := []string{"red", "green", "blue", "red green", "blue red", "green blue red"}
	list := func(n int) string {
		var b strings.Builder
		b.WriteString("<r>")
		for range n {
			fmt.Fprintf(&b, "<i><a>%s</a><b>%s</b></i>", words[rng.IntN(len(words))], words[rng.IntN(len(words))])
		}
		b.WriteString("</r>")
		return b.String()
	}
	tied := 0
	for round := range 300 {
		a, b := parse(t, list(1+rng.IntN(8))), parse(t, list(1+rng.IntN(8)))
		s, err := newSelkow(a.Root.Children, b.Root.Children, MaxPairs)
		if err != nil {
			t.Fatal(err)
		}
		ka := forestRoots(s.a, len(a.Root.Children), nil)
		kb := forestRoots(s.b, len(b.Root.Children), nil)
		tab, u := s.prefer(ka, kb)
		if u == nil {
			continue
		}
		tied++
		want := fullLikeness(s, ka, kb, tab)
		on := s.onPath(ka, kb, tab)
		for k := range want {
			if on[k] && u[k] != want[k] {
				t.Fatalf("round %d: cell %d on a path of minimum cost: likeness %d, the full table's %d", round, k, u[k], want[k])
			}
		}
		if !on[0] {
			t.Fatalf("round %d: the start is not on a path of minimum cost", round)
		}
	}
	if tied < 20 {
		t.Fatalf("only %d of 300 rounds had ties: the test does not test the pruning", tied)
	}
}

// fullLikeness is prefer's likeness table filled on every cell, as it was
// before the cells off the paths of minimum cost were left out.
func fullLikeness(s *selkow, ka, kb []int32, t []int32) []int32 {
	ca, cb := len(ka), len(kb)
	w := cb + 1
	u := make([]int32, len(t))
	for x := ca - 1; x >= 0; x-- {
		ax := ka[x]
		for y := cb - 1; y >= 0; y-- {
			by := kb[y]
			cost, like := t[x*w+y], int32(forbidden)
			if cost == t[(x+1)*w+y]+s.a.size[ax] {
				like = u[(x+1)*w+y]
			}
			if cost == t[x*w+y+1]+s.b.size[by] {
				like = min(like, u[x*w+y+1])
			}
			if d := s.get(ax, by); d < forbidden && cost == t[(x+1)*w+y+1]+d {
				like = min(like, u[(x+1)*w+y+1]+s.unlike(ax, by, d))
			}
			u[x*w+y] = like
		}
	}
	return u
}
