package opic

import (
	"fmt"
	"math"
	"slices"
)

// SiteWeighting says how the links of a site's pages are weighted in the
// site graph (seed §8.4.2 and App. B).
type SiteWeighting int

const (
	// SiteByImportance weights each page by its importance within its site:
	// L'[Y,Z] = sum over p in Y, q in Z of (I[p] / I[Y]) L[p,q]. It is the
	// seed's reference definition; the PageRank of the site graph is then
	// the sum of its pages' PageRanks (Theorem B.0.1).
	SiteByImportance SiteWeighting = iota
	// SiteByUniform takes all pages of a site as equally important (link
	// counts): cheap, and different (the tests measure how much).
	SiteByUniform
	// SiteByOutDegree is the seed's coarsest approximation: L'[Y,Z] =
	// 1/out(Y) for each site Z that Y links to, Y itself included when Y
	// has internal links.
	SiteByOutDegree
	// SiteByInternalRank weights pages by their PageRank on the site's
	// internal links only: the seed's "better" approximation, computed
	// site by site.
	SiteByInternalRank
)

// SiteLink is a weighted edge of the site graph.
type SiteLink struct {
	To     uint32
	Weight float64
}

// SiteGraph is the graph G' of sites with the weights L' (self-links
// kept: internal links are L'[Y,Y]).
type SiteGraph struct {
	rows [][]SiteLink // sorted by To
}

// NewSiteGraph builds the site graph of g, where siteOf[p] is the site of
// page p (sites are numbered 0 .. max). pageImp is the page importance
// SiteByImportance needs (ignored otherwise). A page's links weigh
// L[p,q] = 1/out[p]; dangling pages add nothing, so their site's row sums
// to less than 1 and Rank spreads the difference uniformly.
func NewSiteGraph(g LinkGraph, siteOf []uint32, w SiteWeighting, pageImp []float64) (*SiteGraph, error) {
	n := g.Len()
	if len(siteOf) != n {
		return nil, fmt.Errorf("opic: site graph: %d site numbers for %d pages", len(siteOf), n)
	}
	if w == SiteByImportance && len(pageImp) != n {
		return nil, fmt.Errorf("opic: site graph: %d importances for %d pages", len(pageImp), n)
	}
	sites := 0
	for _, s := range siteOf {
		sites = max(sites, int(s)+1)
	}
	size := make([]int, sites)
	for _, s := range siteOf {
		size[s]++
	}
	weight := make([]float64, n) // page weight within its site
	switch w {
	case SiteByImportance:
		sum := make([]float64, sites)
		for p, s := range siteOf {
			sum[s] += pageImp[p]
		}
		for p, s := range siteOf {
			if sum[s] > 0 {
				weight[p] = pageImp[p] / sum[s]
			} else {
				weight[p] = 1 / float64(size[s])
			}
		}
	case SiteByUniform, SiteByOutDegree:
		for p, s := range siteOf {
			weight[p] = 1 / float64(size[s])
		}
	case SiteByInternalRank:
		if err := internalRank(g, siteOf, sites, weight); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("opic: site graph: unknown weighting %d", w)
	}
	acc := make([]map[uint32]float64, sites)
	for i := range acc {
		acc[i] = map[uint32]float64{}
	}
	for p := 0; p < n; p++ {
		links := g.Links(PageID(p))
		y := siteOf[p]
		for _, q := range links {
			acc[y][siteOf[q]] += weight[p] / float64(len(links))
		}
	}
	sg := &SiteGraph{rows: make([][]SiteLink, sites)}
	for y, m := range acc {
		row := make([]SiteLink, 0, len(m))
		for z, v := range m {
			if w == SiteByOutDegree {
				v = 1 / float64(len(m))
			}
			row = append(row, SiteLink{z, v})
		}
		slices.SortFunc(row, func(a, b SiteLink) int { return int(a.To) - int(b.To) })
		sg.rows[y] = row
	}
	return sg, nil
}

// internalRank sets weight[p] to p's PageRank (damping 0.85) on the links
// inside its site.
func internalRank(g LinkGraph, siteOf []uint32, sites int, weight []float64) error {
	members := make([][]PageID, sites)
	local := make([]PageID, g.Len())
	for p, s := range siteOf {
		local[p] = PageID(len(members[s]))
		members[s] = append(members[s], PageID(p))
	}
	for s, pages := range members {
		var edges []Edge
		for _, p := range pages {
			for _, q := range g.Links(p) {
				if siteOf[q] == uint32(s) {
					edges = append(edges, Edge{local[p], local[q]})
				}
			}
		}
		sub, err := NewGraph(len(pages), edges)
		if err != nil {
			return err
		}
		pr, _, err := PageRank(sub, DefaultAlpha, 1e-12, 1000)
		if err != nil {
			return err
		}
		for i, p := range pages {
			weight[p] = pr[i]
		}
	}
	return nil
}

// Sites returns the number of sites.
func (sg *SiteGraph) Sites() int { return len(sg.rows) }

// Links returns the weighted out-links of site y.
func (sg *SiteGraph) Links(y uint32) []SiteLink { return sg.rows[y] }

// Weight returns L'[from, to].
func (sg *SiteGraph) Weight(from, to uint32) float64 {
	row := sg.rows[from]
	i, ok := slices.BinarySearchFunc(row, to, func(l SiteLink, t uint32) int { return int(l.To) - int(t) })
	if !ok {
		return 0
	}
	return row[i].Weight
}

// Rank returns the site importance: the fixpoint of L' by power iteration
// with a virtual site of share alpha that pays the sites in proportion to
// teleport (nil: uniformly), the missing mass of rows summing to less than
// 1 (dangling pages) paid the same way. alpha = 0 is the seed's
// definition. With alpha > 0 and teleport proportional to the sites'
// page counts, the virtual site pays what the virtual page pays the
// site's pages, and the rank of the SiteByImportance graph is the sum of
// the pages' PageRanks (Theorem B.0.1 on the augmented graph).
func (sg *SiteGraph) Rank(alpha float64, teleport []float64, tol float64, maxIter int) ([]float64, error) {
	n := len(sg.rows)
	if n == 0 {
		return nil, nil
	}
	if !(alpha >= 0 && alpha < 1) {
		return nil, fmt.Errorf("opic: site rank alpha %v: want 0 <= alpha < 1", alpha)
	}
	tp := make([]float64, n)
	if teleport == nil {
		for i := range tp {
			tp[i] = 1 / float64(n)
		}
	} else {
		if len(teleport) != n {
			return nil, fmt.Errorf("opic: site rank: %d teleport weights for %d sites", len(teleport), n)
		}
		sum := 0.0
		for _, v := range teleport {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("opic: site rank: teleport weight %v", v)
			}
			sum += v
		}
		if sum == 0 {
			return nil, fmt.Errorf("opic: site rank: teleport weights sum to 0")
		}
		for i, v := range teleport {
			tp[i] = v / sum
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	next := make([]float64, n)
	for range maxIter {
		clear(next)
		leak := 0.0
		for y, row := range sg.rows {
			out := 0.0
			for _, l := range row {
				v := x[y] * (1 - alpha) * l.Weight
				next[l.To] += v
				out += v
			}
			leak += x[y] - out
		}
		delta := 0.0
		for i := range next {
			next[i] += leak * tp[i]
			delta += math.Abs(next[i] - x[i])
		}
		x, next = next, x
		if delta < tol {
			break
		}
	}
	return x, nil
}

// SiteImportance returns I_site[Y], the sum of the importances of Y's
// pages (Theorem B.0.1: the PageRank of the site graph weighted
// SiteByImportance).
func SiteImportance(pageImp []float64, siteOf []uint32) []float64 {
	sites := 0
	for _, s := range siteOf {
		sites = max(sites, int(s)+1)
	}
	out := make([]float64, sites)
	for p, s := range siteOf {
		if p < len(pageImp) {
			out[s] += pageImp[p]
		}
	}
	return out
}
