package treediff

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestSigTable: the table indexes the unmatched nodes by signature, its
// chains in document order, and counts the other version's nodes of each
// signature that one node has, the count "unique on both sides" reads.
func TestSigTable(t *testing.T) {
	const a, b, c, d, e tree.Signature = 11, 22, 33, 44, 55
	// Old nodes 0-5; node 4 (signature e) is matched, so not indexed.
	old := []tree.Signature{a, b, c, b, e, b}
	match := []int32{-1, -1, -1, -1, 7, -1}
	tab := newSigTable(&spare{}, old, match)
	tab.countOthers([]tree.Signature{a, a, c, b, d, e, b})
	chain := func(first int32) []int32 {
		var nodes []int32
		for l := first; l >= 0; l = tab.next(l) {
			nodes = append(nodes, tab.node(l))
		}
		return nodes
	}
	tests := []struct {
		sig    tree.Signature
		nodes  []int32
		others int // checked only for a signature of one node
	}{
		{a, []int32{0}, 2},
		{b, []int32{1, 3, 5}, -1},
		{c, []int32{2}, 1},
		{d, nil, -1},
		{e, nil, -1}, // matched
	}
	for _, tt := range tests {
		got := tab.lookup(tt.sig)
		if nodes := chain(got.first); !slices.Equal(nodes, tt.nodes) {
			t.Errorf("signature %d: chain %v, want %v", tt.sig, nodes, tt.nodes)
		}
		if int(got.count) != len(tt.nodes) {
			t.Errorf("signature %d: count %d, want %d", tt.sig, got.count, len(tt.nodes))
		}
		if tt.others >= 0 && int(got.others) != tt.others {
			t.Errorf("signature %d: others %d, want %d", tt.sig, got.others, tt.others)
		}
		if len(tt.nodes) > 0 && !tab.mayHave(tt.sig) {
			t.Errorf("signature %d: mayHave false for a signature in the table", tt.sig)
		}
	}
}

// TestSigTableOf: a table of given nodes indexes those alone, in the order
// given, and dropThrough passes over the front of a chain.
func TestSigTableOf(t *testing.T) {
	const a, b, c tree.Signature = 11, 22, 33
	sigs := []tree.Signature{a, b, a, c, b, a, b}
	tab := newSigTableOf(&spare{}, sigs, []int32{1, 2, 4, 5, 6})
	chain := func(sig tree.Signature) []int32 {
		var nodes []int32
		for l := tab.lookup(sig).first; l >= 0; l = tab.next(l) {
			nodes = append(nodes, tab.node(l))
		}
		return nodes
	}
	for _, tt := range []struct {
		sig   tree.Signature
		nodes []int32
	}{{a, []int32{2, 5}}, {b, []int32{1, 4, 6}}, {c, nil}} {
		if got := chain(tt.sig); !slices.Equal(got, tt.nodes) {
			t.Errorf("signature %d: chain %v, want %v", tt.sig, got, tt.nodes)
		}
	}
	second := tab.next(tab.lookup(b).first)
	tab.dropThrough(b, second)
	if got := chain(b); !slices.Equal(got, []int32{6}) {
		t.Errorf("after dropping through node 4, chain of b %v, want [6]", got)
	}
	if got := chain(a); !slices.Equal(got, []int32{2, 5}) {
		t.Errorf("dropping from b's chain changed a's: %v", got)
	}
}

// TestSigTableDroppedChains: a chain dropThrough emptied leaves the
// signatures placed past its slot found (a table three quarters full
// probes past many slots).
func TestSigTableDroppedChains(t *testing.T) {
	const n = 3000
	sigs := make([]tree.Signature, n)
	nodes := make([]int32, n)
	for i := range sigs {
		sigs[i] = tree.Signature(uint64(i)*0x9e3779b97f4a7c15 + 1)
		nodes[i] = int32(i)
	}
	tab := newSigTableOf(&spare{}, sigs, nodes)
	for i := 0; i < n; i += 2 {
		tab.dropThrough(sigs[i], tab.lookup(sigs[i]).first)
	}
	for i, sig := range sigs {
		first := tab.lookup(sig).first
		if i%2 == 0 && first != -1 {
			t.Errorf("signature %d, dropped: chain at %d, want none", i, first)
		}
		if i%2 == 1 && (first < 0 || tab.node(first) != int32(i)) {
			t.Errorf("signature %d, kept: chain at %d, want node %d", i, first, i)
		}
	}
}

// TestSigTableLarge: on a table of thousands of signatures, most of several
// nodes, every chain holds its signature's unmatched nodes in document
// order, and the count of a signature of one node is the number of nodes
// of the other version with it.
func TestSigTableLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 50_000
	sigs := make([]tree.Signature, n)
	match := make([]int32, n)
	for i := range sigs {
		sigs[i] = tree.Signature(r.Uint64N(n / 3)) // most signatures repeat
		match[i] = -1
		if r.IntN(4) == 0 {
			match[i] = 0
		}
	}
	others := make([]tree.Signature, n)
	for j := range others {
		others[j] = tree.Signature(r.Uint64N(n))
	}
	want := map[tree.Signature][]int32{}
	for i, sig := range sigs {
		if match[i] < 0 {
			want[sig] = append(want[sig], int32(i))
		}
	}
	otherCount := map[tree.Signature]int{}
	for _, sig := range others {
		otherCount[sig]++
	}
	tab := newSigTable(&spare{}, sigs, match)
	tab.countOthers(others)
	for sig := range tree.Signature(n / 3) {
		got := tab.lookup(sig)
		var chain []int32
		for l := got.first; l >= 0; l = tab.next(l) {
			chain = append(chain, tab.node(l))
		}
		if !slices.Equal(chain, want[sig]) {
			t.Fatalf("signature %d: chain %v, want %v", sig, chain, want[sig])
		}
		if len(chain) == 1 && int(got.others) != otherCount[sig] {
			t.Fatalf("signature %d: others %d, want %d", sig, got.others, otherCount[sig])
		}
	}
}
