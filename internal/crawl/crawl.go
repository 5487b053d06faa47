package crawl

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
)

// batchSize bounds the URLs of one layer fetched before their pages are
// recorded, and so the bodies held at once.
const batchSize = 64

// Crawl runs the coupling query q against the Web through f: a walk from
// q.Start that fetches each URL once, records every page it reaches
// (failures included, as pages with an error), and follows the in-scope
// links of HTML pages, and the URLs written in pages read as their source
// text (a text sitemap, an llms.txt: fetchPage), up to q.MaxDepth, within
// q.MaxPages fetches, in the order q.Order says
// (breadth first, or the most OPIC cash first). Every request goes
// through f, so its politeness, robots.txt and address guard apply. Each
// page gets its importance, the OPIC estimate over the link graph of the
// pages read (importance.go), and each host of the snapshot its site
// importance.
//
// The snapshot lists pages in the order of discovery of a breadth-first
// walk: by depth, and within a depth in the order their first links were
// met, each page's links in document order (in importance order, the
// pages read are put in that order when the crawl is done). Workers fetch
// at once but pages are recorded in a fixed order, so equal sites give
// equal snapshots (but for the times).
//
// Crawl returns an EINVALID error for a bad query, and an error wrapping
// ctx.Err() if ctx ends before the crawl does; a page that fails is not an
// error of the crawl, even the start page (see Snapshot.StartFailure).
// A fetch that panics on a worker makes Crawl panic, in its caller's
// goroutine, with a *WorkerPanic.
func Crawl(ctx context.Context, f vigil.Fetcher, q Query) (*Snapshot, error) {
	q, err := q.resolved()
	if err != nil {
		return nil, err
	}
	c := newCrawler(f, q)
	if err := c.crawl(ctx); err != nil {
		return nil, err
	}
	return c.snap, nil
}

type crawler struct {
	f     vigil.Fetcher
	q     Query
	scope *scope
	snap  *Snapshot
	pages map[string]*Page // by URL
	seen  map[string]bool  // URLs queued, fetched or led to by a redirect
	// queued counts the URLs queued, at most twice MaxPages: of those
	// queued before, at most MaxPages are fetched and at most as many
	// skipped (a redirect made them pages), so no URL queued later could
	// be fetched, and endless links (query strings) cost no memory.
	queued int
	// fetches counts the URLs fetched, against q.MaxPages: a URL
	// robots.txt disallows is never requested, and takes none, up to
	// freeBlocked of them (counted by blocked).
	fetches, blocked int
	// greedy is the frontier of OrderImportance.
	greedy *frontier
}

// newCrawler returns the crawler of the resolved query q.
func newCrawler(f vigil.Fetcher, q Query) *crawler {
	c := &crawler{f: f, q: q, pages: map[string]*Page{}, seen: map[string]bool{q.Start: true}}
	c.snap = &Snapshot{Format: Format, Started: time.Now().UTC()}
	return c
}

// crawl runs the crawl in the query's order and completes its snapshot.
func (c *crawler) crawl(ctx context.Context) error {
	run := c.run
	if c.q.Order == OrderImportance {
		run = c.runGreedy
	}
	if err := run(ctx); err != nil {
		return fmt.Errorf("crawl %s: %w", vigil.RedactURL(c.q.Start), err)
	}
	c.resolveRedirects()
	if err := c.snap.setImportance(); err != nil {
		return fmt.Errorf("crawl %s: importance: %w", vigil.RedactURL(c.q.Start), err)
	}
	c.snap.Query = c.q
	c.snap.Finished = time.Now().UTC()
	return nil
}

// run walks the site layer by layer: layer d holds the URLs first found
// on pages at depth d-1.
func (c *crawler) run(ctx context.Context) error {
	layer := []string{c.q.Start}
	for depth := 0; len(layer) > 0; depth++ {
		var next []string
		for len(layer) > 0 {
			// URLs that a redirect already led to are pages now.
			todo := layer[:0:0]
			for _, u := range layer {
				if c.pages[u] == nil {
					todo = append(todo, u)
				}
			}
			layer = todo
			if len(layer) == 0 {
				break
			}
			if c.fetches >= c.q.MaxPages {
				c.snap.Truncated = true
				return nil
			}
			n := min(len(layer), c.q.MaxPages-c.fetches, batchSize)
			batch := layer[:n]
			layer = layer[n:]
			visits := c.fetchAll(ctx, batch, depth)
			c.fetches += c.sent(visits)
			for _, v := range visits {
				if v.err != nil {
					return v.err
				}
				if err := c.record(v, depth, &next); err != nil {
					return err
				}
			}
		}
		layer = next
	}
	return nil
}

// sent counts the visits of a batch that take one of MaxPages's fetches:
// all but those of URLs robots.txt blocked, never requested, which are
// free up to freeBlocked of them in a crawl (past it, a site of endless
// disallowed links would keep the crawl listing them). Blocked URLs leave
// the queue too, so that they do not fill it (crawler.queued).
func (c *crawler) sent(visits []visit) int {
	n := 0
	for _, v := range visits {
		if v.page != nil && v.page.Blocked && c.blocked < freeBlocked(c.q.MaxPages) {
			c.blocked++
			c.queued = max(c.queued-1, 0)
			continue
		}
		n++
	}
	return n
}

// freeBlocked is the most URLs robots.txt blocks that a crawl fetching
// at most maxPages lists without counting them among its fetches: as many
// as its frontier knows (frontierURLs).
func freeBlocked(maxPages int) int { return frontierURLs(maxPages) }

// fetchAll fetches a batch of the layer at depth with q.Workers workers
// and returns the visits in the batch's order. Past the start page, the
// fetcher follows a redirect only into the scope.
func (c *crawler) fetchAll(ctx context.Context, batch []string, depth int) []visit {
	var check func(string) error
	if depth > 0 {
		check = c.checkRedirect
	}
	out := make([]visit, len(batch))
	work := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var panicked *WorkerPanic
	for range min(c.q.Workers, len(batch)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				func() {
					// A fetch that panics (a bug in the fetcher or in
					// reading its page) is raised again below, in the
					// caller's goroutine, where it may be recovered: on
					// this one it would crash the process. The worker
					// goes on, lest the batch wait for it for ever.
					defer func() {
						if r := recover(); r != nil {
							once.Do(func() { panicked = &WorkerPanic{Value: r, Stack: debug.Stack()} })
						}
					}()
					out[i] = fetchPage(ctx, c.f, batch[i], c.q.Bodies, check)
				}()
			}
		}()
	}
	for i := range batch {
		work <- i
	}
	close(work)
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	return out
}

// WorkerPanic is what Crawl panics with when the fetch of a page panicked
// on one of its workers: the worker's panic and its stack, raised again
// in Crawl's goroutine, where its caller may recover it. A crawl is not
// to swallow a bug; it hands it to its caller, whose goroutine it is.
type WorkerPanic struct {
	Value any    // what the worker panicked with
	Stack []byte // the worker's stack when it panicked
}

// Error says the worker's panic and its stack.
func (p *WorkerPanic) Error() string {
	return fmt.Sprintf("crawl worker panicked: %v\n\nworker's stack:\n%s", p.Value, p.Stack)
}

// Unwrap returns the worker's panic if it is an error (a runtime error).
func (p *WorkerPanic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// errOutOfScope refuses a redirect that leaves the crawl's scope.
var errOutOfScope = errors.New("out of the crawl's scope")

// checkRedirect is the fetcher's CheckRedirect past the start page: a
// redirect out of the scope is not followed (its target is not fetched);
// the crawl records the redirect alone. The scope is read only, so the
// workers may call it at once.
func (c *crawler) checkRedirect(target string) error {
	u, err := vigil.CanonicalURL(target)
	if err != nil {
		return err
	}
	if !c.scope.contains(u) {
		return errOutOfScope
	}
	return nil
}

// record adds a visit's page to the snapshot at depth and queues its new
// in-scope links in next.
func (c *crawler) record(v visit, depth int, next *[]string) error {
	p, err := c.accept(v, depth)
	if p == nil || err != nil || depth >= c.q.MaxDepth {
		return err
	}
	for _, l := range p.Links {
		if c.seen[l.Target] {
			continue
		}
		if c.queued/2 >= c.q.MaxPages { // queued >= 2·MaxPages, which may overflow
			c.snap.Truncated = true // MaxPages would have stopped it
			break
		}
		c.seen[l.Target] = true
		c.queued++
		*next = append(*next, l.Target)
	}
	return nil
}

// accept records a visit: the redirect it met, and its page at depth with
// its links in scope, unless the page is already recorded or out of the
// scope (nil then). The visit of the start page (depth 0) sets the scope.
func (c *crawler) accept(v visit, depth int) (*Page, error) {
	p := v.page
	start := depth == 0
	if p.URL != v.asked {
		c.snap.Redirects = append(c.snap.Redirects, Redirect{From: v.asked, To: p.URL})
		c.seen[p.URL] = true
	}
	if start && c.scope == nil {
		if len(c.q.Scope) == 0 {
			dir, err := DefaultScope(p.URL)
			if err != nil {
				return nil, err // p.URL is canonical: cannot happen
			}
			c.q.Scope = []string{dir}
		} else if up, ok := upgradedScope(c.q.Scope, c.q.Start, p.URL); ok {
			// A written scope follows the site's move to https, as
			// the start page's directory does (Query.Scope).
			c.q.Scope = up
		}
		s, err := newScope(&c.q, false)
		if err != nil {
			return nil, err
		}
		c.scope = s
	}
	if c.pages[p.URL] != nil || !start && !c.scope.contains(p.URL) {
		// Led by a redirect to a page already recorded, or out of the
		// scope: the redirect is all there is to record.
		return nil, nil
	}
	p.Depth = depth
	p.Links, p.LinksTruncated = c.scoped(p.URL, v.links)
	c.pages[p.URL] = p
	c.snap.Pages = append(c.snap.Pages, p)
	return p, nil
}

// scoped returns the links of the page at from that are in scope, each
// (target, label) once, without links to the page itself, at most
// MaxLinks of them, and whether there were more. A link out of the scope
// whose https form is in it (an http link of a site that moved to https,
// scope.upgraded) is read as that form, as the site's redirect would
// lead it, so that the page it reaches is no page only such links reach
// that the crawl leaves out.
func (c *crawler) scoped(from string, links []Link) ([]Link, bool) {
	var out []Link
	dup := map[Link]bool{}
	for _, l := range links {
		if up, ok := c.scope.upgraded(l.Target); ok {
			l.Target = up
		}
		if l.Target == from || dup[l] || !c.scope.contains(l.Target) {
			continue
		}
		if len(out) == MaxLinks {
			return out, true
		}
		dup[l] = true
		out = append(out, l)
	}
	return out, false
}

// resolveRedirects points the links to a URL that redirected to a page of
// the snapshot at that page, and drops the links that become duplicates or
// links to their own page.
func (c *crawler) resolveRedirects() {
	to := map[string]string{}
	for _, r := range c.snap.Redirects {
		if c.pages[r.To] != nil {
			to[r.From] = r.To
		}
	}
	if len(to) == 0 {
		return
	}
	for _, p := range c.snap.Pages {
		changed := false
		for i, l := range p.Links {
			if t, ok := to[l.Target]; ok {
				p.Links[i].Target = t
				changed = true
			}
		}
		if !changed {
			continue
		}
		links := p.Links[:0]
		dup := map[Link]bool{}
		for _, l := range p.Links {
			if l.Target == p.URL || dup[l] {
				continue
			}
			dup[l] = true
			links = append(links, l)
		}
		p.Links = links
	}
}
