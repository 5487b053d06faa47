package opic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// LinkGraph is a link graph read row by row: the out-links of each page, as
// a crawler sees them. Links returns a slice the caller must not modify.
type LinkGraph interface {
	Len() int
	Links(p PageID) []PageID
}

// Edge is a link from one page to another.
type Edge struct {
	From, To PageID
}

// Graph is a static link graph in compressed rows: 4 bytes per page and 4
// per link. It is the simulator's and the reference PageRank's graph; the
// OPIC state itself never stores one.
type Graph struct {
	off []uint32 // row p is dst[off[p]:off[p+1]]
	dst []PageID
}

// NewGraph builds the graph of n pages with the given links. Self-links and
// repeated links are dropped: a page votes once for another page and never
// for itself. Each row is sorted.
func NewGraph(n int, edges []Edge) (*Graph, error) {
	if n < 0 || int64(n) >= math.MaxUint32 {
		return nil, fmt.Errorf("opic: graph of %d pages: out of range", n)
	}
	if int64(len(edges)) >= math.MaxUint32 {
		return nil, fmt.Errorf("opic: graph of %d links: too many", len(edges))
	}
	off := make([]uint32, n+1)
	for _, e := range edges {
		if int(e.From) >= n || int(e.To) >= n {
			return nil, fmt.Errorf("opic: link %d -> %d: page out of range 0..%d", e.From, e.To, n-1)
		}
		off[e.From+1]++
	}
	for i := 1; i <= n; i++ {
		off[i] += off[i-1]
	}
	dst := make([]PageID, len(edges))
	fill := slices.Clone(off[:n])
	for _, e := range edges {
		dst[fill[e.From]] = e.To
		fill[e.From]++
	}
	// Sort, drop self-links and duplicates, compact in place.
	w := uint32(0)
	start := uint32(0)
	for p := 0; p < n; p++ {
		row := dst[start:off[p+1]]
		start = off[p+1]
		slices.Sort(row)
		off[p] = w
		prev := PageID(math.MaxUint32)
		for _, q := range row {
			if q == PageID(p) || q == prev {
				continue
			}
			prev = q
			dst[w] = q
			w++
		}
	}
	off[n] = w
	return &Graph{off: off, dst: slices.Clip(dst[:w])}, nil
}

// Len returns the number of pages.
func (g *Graph) Len() int { return len(g.off) - 1 }

// Links returns the out-links of page p.
func (g *Graph) Links(p PageID) []PageID { return g.dst[g.off[p]:g.off[p+1]] }

// Edges returns the number of links.
func (g *Graph) Edges() int { return len(g.dst) }

// EdgeList returns the graph's links, row by row.
func (g *Graph) EdgeList() []Edge {
	out := make([]Edge, 0, len(g.dst))
	for p := 0; p < g.Len(); p++ {
		for _, q := range g.Links(PageID(p)) {
			out = append(out, Edge{PageID(p), q})
		}
	}
	return out
}

// Dangling returns the number of pages without out-links.
func (g *Graph) Dangling() int {
	d := 0
	for p := 0; p < g.Len(); p++ {
		if g.off[p] == g.off[p+1] {
			d++
		}
	}
	return d
}

// InDegreeExponent is the exponent of the in-degree law of the web
// measured by Broder et al. and used by the seed's synthetic graphs:
// P(in-degree = k) proportional to k^-2.1.
const InDegreeExponent = 2.1

// PowerLaw returns a synthetic graph of n pages whose in-degrees follow
// P(k) ~ k^-exponent (k >= 1, at most n-1), each in-link coming from a
// uniformly random page; out-degrees are then about Poisson, so a few pages
// are dangling. The seed's generator is "details omitted"; this is the
// simplest model with its in-degree law. Deterministic for a given seed.
func PowerLaw(n int, exponent float64, seed uint64) (*Graph, error) {
	if n < 2 {
		return nil, fmt.Errorf("opic: power-law graph of %d pages: want at least 2", n)
	}
	if !(exponent > 1) {
		return nil, fmt.Errorf("opic: power-law exponent %v: want > 1", exponent)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0xda3e39cb94b95bdb))
	var edges []Edge
	for j := 0; j < n; j++ {
		k := inDegree(rng, exponent, n-1)
		for range k {
			i := PageID(rng.IntN(n - 1))
			if i >= PageID(j) {
				i++
			}
			edges = append(edges, Edge{i, PageID(j)})
		}
	}
	return NewGraph(n, edges)
}

// inDegree draws k >= 1 with P(k) ~ k^-exponent by inverting the Pareto law
// and rounding down, capped at max.
func inDegree(rng *rand.Rand, exponent float64, max int) int {
	u := 1 - rng.Float64() // (0, 1]
	k := math.Floor(math.Pow(u, -1/(exponent-1)))
	if k > float64(max) {
		return max
	}
	return int(k)
}

// Rewire returns a changed copy of g, the seed's change model (§7.6.2): a
// fraction of the pages, chosen at random, have their in-degree multiplied
// or divided by two (each with probability 1/2; halving drops each in-link
// with probability 1/2, doubling adds as many in-links from random pages).
// It returns the new graph and the changed pages.
func Rewire(g *Graph, fraction float64, seed uint64) (*Graph, []PageID, error) {
	n := g.Len()
	if !(fraction >= 0 && fraction <= 1) {
		return nil, nil, fmt.Errorf("opic: rewire fraction %v: want 0 to 1", fraction)
	}
	if n < 2 {
		return nil, nil, fmt.Errorf("opic: rewire a graph of %d pages: want at least 2", n)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x4f1bbcdcbfa53e0b))
	const (
		same = iota
		halve
		double
	)
	change := make([]uint8, n)
	var changed []PageID
	for _, p := range rng.Perm(n)[:int(fraction*float64(n))] {
		change[p] = halve + uint8(rng.IntN(2))
		changed = append(changed, PageID(p))
	}
	slices.Sort(changed)
	indeg := make([]int, n)
	edges := make([]Edge, 0, g.Edges())
	for _, e := range g.EdgeList() {
		indeg[e.To]++
		if change[e.To] == halve && rng.IntN(2) == 0 {
			continue
		}
		edges = append(edges, e)
	}
	for _, p := range changed {
		if change[p] != double {
			continue
		}
		for range indeg[p] {
			i := PageID(rng.IntN(n - 1))
			if i >= p {
				i++
			}
			edges = append(edges, Edge{i, p})
		}
	}
	ng, err := NewGraph(n, edges)
	return ng, changed, err
}
