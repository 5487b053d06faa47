package treediff

import (
	"slices"
	"testing"
)

// TestPostings checks the inverted index against a map of slices, the
// index it replaced: the same candidates for every key, in the same order,
// and a key held by more than leftoverPostings candidates skipped.
func TestPostings(t *testing.T) {
	// Candidate k holds words k%7, k%13 and, for a few, a word so common
	// that the index must drop it, and one held by exactly the most kept.
	var cands []leftover
	for k := range 300 {
		words := wordSet{uint64(k % 7), uint64(100 + k%13)}
		if k%4 == 0 {
			words = append(words, 1000) // 75 holders: too common
		}
		if k < leftoverPostings {
			words = append(words, 2000) // exactly leftoverPostings holders
		}
		cands = append(cands, leftover{node: int32(k), words: words})
	}
	name := func(i int32) uint64 { return nameHash(int32(i % 2)) }
	want := map[uint64][]int32{}
	for k, c := range cands {
		for _, w := range c.words {
			key := w ^ name(c.node)
			if p := want[key]; len(p) <= leftoverPostings {
				want[key] = append(p, int32(k))
			}
		}
	}
	var x postings
	memory := &spare{}
	x.build(memory, cands, name)
	for key, p := range want {
		got := x.list(key)
		if len(p) > leftoverPostings {
			if len(got) != 0 {
				t.Errorf("key %x: held by %d candidates, listed (%d) where it should be skipped", key, len(p), len(got))
			}
			continue
		}
		if !slices.Equal(got, p) {
			t.Errorf("key %x: got %v, want %v", key, got, p)
		}
	}
	if got := x.list(^uint64(0)); len(got) != 0 {
		t.Errorf("absent key: got %v, want an empty list", got)
	}
	// Built again, smaller, in the first build's memory, it forgets the
	// first build.
	x.build(memory, cands[:3], name)
	if got := x.list(uint64(1000) ^ name(0)); !slices.Equal(got, []int32{0}) {
		t.Errorf("after a second build, key 1000 under name 0: got %v, want [0]", got)
	}
}
