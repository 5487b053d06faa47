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

// Site is a site of a snapshot, the origin (scheme, host and port, and
// the user information of URLs that have one, as splitURL cuts it) of
// pages it read, with its importance: the sum of its pages' (the seed's
// I_site[Y], Theorem B.0.1, note 001b §3). Pages counts the pages read of
// the origin; an origin whose every page failed is no site. In snapshots
// made before failed pages were left out of the importance (setImportance),
// Pages counts them too.
type Site struct {
	Origin     string  `json:"origin"`
	Pages      int     `json:"pages"`
	Importance float64 `json:"importance"`
}

// setImportance gives each page of s that was read its importance, and s
// its sites.
//
// The graph is the pages read (a page carried over, Page.Carried, is its
// last good read: one of them) and their links to one another. A page
// that failed (an error status, a timeout, a host that does not exist)
// or that robots.txt blocked was not read: it is no page of the graph and
// has no importance (0, left out of the JSON), and a link to it passes
// nothing, as a link to a URL that is no page of s does: it is dropped,
// so the linking page's cash goes to its other links, or, if it has none
// left, to the virtual page, which pays every page alike (the dangling
// page of PageRank and OPIC). The pages read then rank as they would on
// the site without the links to failed pages, and a failed page never
// ranks above one read, however many pages link to it. Snapshots of the
// same format made before this rule may give failed pages an importance:
// they read as they are, and vigil site diff never compares two
// importances.
//
// OPIC reads the graph with the Greedy policy, from the seed's uniform
// cash, importanceReads times a page on average, every page paying the
// virtual page a share α = opic.DefaultAlpha of its cash, and the
// importance is the estimate (H + C − C0)/Z, normalised to sum to 1 over
// the pages read (opic.EstimatePropagated, the one that converges best
// with Greedy). It depends on the pages and links of s and their order,
// not on the order the crawl fetched them in. A snapshot whose every page
// failed has no importance and no site.
func (s *Snapshot) setImportance() error {
	s.Sites = nil
	var read []*Page
	id := make(map[string]opic.PageID, len(s.Pages))
	for _, p := range s.Pages {
		p.Importance = 0
		if p.Failed() {
			continue
		}
		id[p.URL] = opic.PageID(len(read))
		read = append(read, p)
	}
	n := len(read)
	if n == 0 {
		return nil
	}
	links := make([][]opic.PageID, n)
	for i, p := range read {
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
	for i, p := range read {
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
