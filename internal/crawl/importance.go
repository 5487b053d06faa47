package crawl

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/vigil-web/vigil/opic"
)

// importanceReads is how many times on average the importance of a
// snapshot reads each page (Greedy). On the site corpus and on power-law
// graphs the estimate is then within about 1 % of PageRank on the top
// tenth of the pages (BENCHMARKS.md, opic).
const importanceReads = 10

// importanceDigits is the significant digits an importance keeps in a
// snapshot: enough to order pages, short in JSON.
const importanceDigits = 6

// Site is a site of a snapshot, its pages' origin (scheme, host and
// port), with its importance: the sum of its pages' (the seed's
// I_site[Y], Theorem B.0.1, note 001b §3).
type Site struct {
	Origin     string  `json:"origin"`
	Pages      int     `json:"pages"`
	Importance float64 `json:"importance"`
}

// setImportance gives each page of s its importance and s its sites. The
// graph is the pages of s and their links to pages of s (links to URLs
// that are not pages, and failed pages, lead to no page: such pages pay
// the seed's virtual page, as every page does a share α =
// opic.DefaultAlpha of its cash). OPIC reads it with the Greedy policy,
// from the seed's uniform cash, importanceReads times a page on average,
// and the importance is the estimate (H + C − C0)/Z, normalised to sum to
// 1 over the pages (opic.EstimatePropagated, the one that converges best
// with Greedy). It depends on the pages and links of s and their order,
// not on the order the crawl fetched them in.
func (s *Snapshot) setImportance() error {
	n := len(s.Pages)
	if n == 0 {
		return nil
	}
	id := make(map[string]opic.PageID, n)
	for i, p := range s.Pages {
		id[p.URL] = opic.PageID(i)
	}
	links := make([][]opic.PageID, n)
	for i, p := range s.Pages {
		for _, l := range p.Links {
			if t, ok := id[l.Target]; ok {
				links[i] = append(links[i], t)
			}
		}
		slices.Sort(links[i])
		links[i] = slices.Compact(links[i])
	}
	o, err := opic.New(n, opic.Config{Alpha: opic.DefaultAlpha})
	if err != nil {
		return err
	}
	g := opic.NewGreedy(o)
	for o.Reads() < uint64(importanceReads*n) {
		p, ok := g.Next()
		if !ok {
			break
		}
		if err := o.Read(p, links[p]); err != nil {
			return err
		}
	}
	imp := o.Importances(nil, opic.EstimatePropagated)
	origins := map[string]uint32{}
	siteOf := make([]uint32, n)
	s.Sites = nil
	for i, p := range s.Pages {
		p.Importance = round(imp[i])
		origin, _, _, _ := splitURL(p.URL)
		k, ok := origins[origin]
		if !ok {
			k = uint32(len(s.Sites))
			origins[origin] = k
			s.Sites = append(s.Sites, Site{Origin: origin})
		}
		siteOf[i] = k
		s.Sites[k].Pages++
	}
	for k, v := range opic.SiteImportance(imp, siteOf) {
		s.Sites[k].Importance = round(v)
	}
	slices.SortStableFunc(s.Sites, func(a, b Site) int {
		switch {
		case a.Importance > b.Importance:
			return -1
		case a.Importance < b.Importance:
			return 1
		}
		return 0
	})
	return nil
}

// round keeps importanceDigits significant digits of v.
func round(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', importanceDigits, 64), 64)
	return r
}

// validImportance returns an error if v is not an importance: a number
// from 0 to 1.
func validImportance(v float64) error {
	if math.IsNaN(v) || v < 0 || v > 1 {
		return fmt.Errorf("%v is not from 0 to 1", v)
	}
	return nil
}
