package crawl

import (
	"context"
	"slices"

	"github.com/vigil-web/vigil/opic"
)

// Order is the order in which a crawl fetches the URLs it found.
type Order string

const (
	// OrderImportance fetches the URL with the most OPIC cash first: the
	// seed's Greedy policy (note 001b §1.5), which reads first the pages
	// the pages already read point to most, weighted by their own cash.
	// A crawl that MaxPages cuts short keeps the most important pages it
	// could reach, where breadth first keeps the nearest ones.
	OrderImportance Order = "importance"
	// OrderBreadth fetches layer by layer, each in the order its URLs were
	// first linked.
	OrderBreadth Order = "breadth"
)

// greedyBatch is how many URLs of the greedy frontier are fetched at once:
// the richest ones, taken together before any of their pages is read, so
// a larger batch follows the cash less closely. It does not depend on
// Query.Workers, so that the workers change how fast a crawl goes, never
// what it finds.
const greedyBatch = 8

// runGreedy crawls in OrderImportance: the start page alone (it sets the
// scope), then batches of the richest URLs of the frontier, each recorded
// in the batch's order, until the frontier is empty or MaxPages URLs were
// fetched. The pages are then put in breadth-first order (reorder).
func (c *crawler) runGreedy(ctx context.Context) error {
	fr, err := newFrontier(c.q.Start, c.q.MaxDepth, frontierURLs(c.q.MaxPages))
	if err != nil {
		return err
	}
	c.greedy = fr
	for first := true; ; first = false {
		if len(fr.heap) == 0 {
			break
		}
		if c.fetches >= c.q.MaxPages {
			c.snap.Truncated = true
			break
		}
		n := min(greedyBatch, c.q.MaxPages-c.fetches)
		if first {
			n = 1
		}
		var ids []opic.PageID
		var urls []string
		for len(ids) < n {
			id, ok := fr.take()
			if !ok {
				break
			}
			ids = append(ids, id)
			urls = append(urls, fr.nodes[id].url)
		}
		depth := 1
		if first {
			depth = 0
		}
		visits := c.fetchAll(ctx, urls, depth)
		c.fetches += c.sent(visits)
		for i, v := range visits {
			if v.err != nil {
				return v.err
			}
			if err := c.recordGreedy(v, ids[i]); err != nil {
				return err
			}
		}
	}
	if fr.truncated {
		c.snap.Truncated = true // MaxPages would have stopped it
	}
	c.reorder()
	return nil
}

// recordGreedy records the visit of URL id: its page (accept), at the
// depth the frontier knows, and the OPIC state: the page read, or the URL
// merged into the page its redirect led to, or dropped when it led out of
// the scope.
func (c *crawler) recordGreedy(v visit, id opic.PageID) error {
	fr := c.greedy
	depth := fr.nodes[id].depth
	p, err := c.accept(v, depth)
	if err != nil {
		return err
	}
	final := v.page.URL
	if p == nil {
		if final == v.asked {
			return nil // a redirect in its batch made it a page already
		}
		if c.pages[final] != nil {
			return fr.merge(id, fr.id(final))
		}
		return fr.drop(id)
	}
	page := id
	if final != v.asked {
		page = fr.id(final)
		if err := fr.merge(id, page); err != nil {
			return err
		}
		fr.lower(page, depth)
	}
	return fr.read(page, p.Links)
}

// reorder puts the pages of a greedy crawl, and its redirects, in the
// order a breadth-first crawl of the same pages records them (run and
// record, replayed on the visits made), with the depths it gives them:
// the shortest link distances from the start among the pages read. A
// greedy crawl that was not cut short read the pages a breadth-first one
// reads, so the two give the same snapshot.
func (c *crawler) reorder() {
	to := make(map[string]string, len(c.snap.Redirects))
	for _, r := range c.snap.Redirects {
		to[r.From] = r.To
	}
	pages := make([]*Page, 0, len(c.snap.Pages))
	redirects := make([]Redirect, 0, len(c.snap.Redirects))
	placed := make(map[string]bool, len(c.snap.Pages))
	redirected := map[string]bool{}
	seen := map[string]bool{c.q.Start: true}
	layer := []string{c.q.Start}
	for depth := 0; len(layer) > 0; depth++ {
		var next []string
		for _, u := range layer {
			if placed[u] {
				continue
			}
			p := c.pages[u]
			if t, ok := to[u]; ok {
				redirects = append(redirects, Redirect{From: u, To: t})
				redirected[u] = true
				seen[t] = true
				if p = c.pages[t]; p == nil || placed[t] {
					continue
				}
			} else if p == nil {
				continue // not fetched: the crawl was cut short
			}
			p.Depth = depth
			placed[p.URL] = true
			pages = append(pages, p)
			if depth >= c.q.MaxDepth {
				continue
			}
			for _, l := range p.Links {
				if !seen[l.Target] {
					seen[l.Target] = true
					next = append(next, l.Target)
				}
			}
		}
		layer = next
	}
	// Every page read was linked from a page read, within MaxDepth: none
	// is left. Should one be, it is kept, at the depth the crawl found.
	for _, p := range c.snap.Pages {
		if !placed[p.URL] {
			pages = append(pages, p)
		}
	}
	slices.SortStableFunc(pages, func(a, b *Page) int { return a.Depth - b.Depth })
	for _, r := range c.snap.Redirects {
		if !redirected[r.From] {
			redirects = append(redirects, r)
		}
	}
	c.snap.Pages, c.snap.Redirects = pages, redirects
}
