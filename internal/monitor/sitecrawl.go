package monitor

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
)

// Shared crawls. Sentinels that watch the same site query (the same start
// URL, scope, match, depth, pages and crawl order: siteKey, the fields
// sameSiteQuery compares) are served by one crawl:
//
//   - In flight: a check that finds the query being crawled by another
//     check waits for that crawl's result instead of crawling again (one
//     flight a query), as long as its own lease allows (its context): a
//     wait cut there fails as a crawl cut there does, and so does a wait
//     for a crawl cut by the lease of the check that runs it. A crawl
//     that ends because its own check was abandoned (the monitor
//     stopping) serves no one: its waiters crawl again, or wait for a new
//     flight.
//   - Recently finished: a crawl that ended less than Monitor.SiteFresh
//     ago serves the checks of the query that begin meanwhile, if it began
//     after the crawl the check compares with ended (newerCrawl): a check
//     never compares with an older crawl than its reference, and a
//     sentinel checked again at once (check now) crawls again rather than
//     compare its reference with itself. Only crawls that ended normally
//     are kept (their start page may have failed: that is the site's
//     answer); a crawl cut by its time limit, abandoned or with pages it
//     could not store is not.
//
// A crawl serves each sentinel as its own did: each compares it with its
// own previous crawl, reads its modified pages through its own Monitor
// clause, reports its own change or failure and keeps its own snapshot
// (vigil.CheckRecord.Site). The pages' versions are stored once, by the
// crawl (siteFetcher), and the failure of its start page too.
//
// Waiting holds the waiter's worker and site slots (Monitor.Workers): it
// cannot deadlock, since the crawl waited for runs in a check that holds
// its own slots already and needs none of the waiter's (it waits for
// nothing but the fetcher and the store); and it holds them no longer
// than a crawl of its own would, since the crawl it waits for began
// first.
//
// Memory: a finished crawl is kept at most SiteFresh (by the monitor's
// clock when looked at, and by a timer otherwise), and at most
// maxSharedCrawls of them, the oldest forgotten first; a crawl in flight
// is held by the checks that run or wait for it anyway.

// siteCrawl is one crawl of a site query and what its fetcher kept,
// shared by the checks it serves. Its fields are written by the check
// that runs it before done is closed, and only read after.
type siteCrawl struct {
	done chan struct{}
	// record is the crawl with the versions of its pages (nil if err).
	record *siteRecord
	err    error
	// limit is the crawl's time limit, cut says it was reached.
	limit time.Duration
	cut   bool
	// abandoned says the crawl ended because its check was (the monitor
	// stopping): it serves no one.
	abandoned bool
	// failed counts the pages read whose body (for one read without it,
	// the version saying why: storeLeaf) could not be stored,
	// notStored why the first was not.
	failed    int
	notStored string
	// at is when it ended, by the monitor's clock; waiters counts the
	// checks that joined it in flight (written under siteCrawls.mu).
	at      time.Time
	waiters int
	// kept numbers it among the crawls kept (siteCrawls.kept), for the
	// timer that forgets it.
	kept uint64
}

// reusable reports whether a finished crawl may serve later checks: one
// that ended normally, every page it read stored.
func (c *siteCrawl) reusable() bool {
	return c.err == nil && !c.cut && !c.abandoned && c.failed == 0
}

// siteCrawls holds the site crawls in flight and those recently finished,
// by siteKey.
type siteCrawls struct {
	mu      sync.Mutex
	flights map[string]*siteCrawl
	recent  map[string]*siteCrawl
	// kept counts the crawls ever kept in recent.
	kept uint64
}

// maxSharedCrawls returns how many finished crawls are kept: twice as
// many as can run at once (siteSlots), so that the memory they take is at
// most twice that of the crawls running.
func (m *Monitor) maxSharedCrawls() int { return 2 * m.siteSlots() }

// siteKey returns the key of the crawls of a query: what determines what
// it finds (the fields sameSiteQuery compares, the start and the scope
// canonical, the scope a set).
func siteKey(q crawl.Query) string {
	start, err := vigil.CanonicalURL(q.Start)
	if err != nil {
		start = q.Start // the crawl fails on it, once a check
	}
	return fmt.Sprintf("%q %q %q %d %d %q", start, strings.Join(crawl.CanonicalScope(q.Scope), "\x00"), q.Match, q.MaxDepth, q.MaxPages, q.CrawlOrder())
}

// newerCrawl reports whether crawl c may be compared with prev, the
// crawl a check compares with (nil: none): it began after prev ended.
// A crawl that failed has no snapshot and is the check's failure.
func newerCrawl(c *siteCrawl, prev *crawl.Snapshot) bool {
	if prev == nil || c.record == nil {
		return true
	}
	started := c.record.Snapshot.Started
	return started.After(prev.Started) && !started.Before(prev.Finished)
}

// join returns the crawl of key that serves a check whose previous crawl
// is prev: one finished less than fresh before now and newer than prev,
// else the one in flight, else a new flight, which the caller runs (lead)
// and ends with finish.
func (s *siteCrawls) join(key string, prev *crawl.Snapshot, now time.Time, fresh time.Duration) (c *siteCrawl, lead bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, r := range s.recent {
		if now.Sub(r.at) >= fresh {
			delete(s.recent, k)
		}
	}
	if r := s.recent[key]; r != nil && newerCrawl(r, prev) {
		return r, false
	}
	if f := s.flights[key]; f != nil {
		f.waiters++
		return f, false
	}
	if s.flights == nil {
		s.flights = map[string]*siteCrawl{}
	}
	c = &siteCrawl{done: make(chan struct{})}
	s.flights[key] = c
	return c, true
}

// finish ends the flight of key, c, at now: its waiters are woken, and c
// is kept for fresh if it may serve later checks, at most keep crawls
// (the oldest forgotten first).
func (s *siteCrawls) finish(key string, c *siteCrawl, now time.Time, fresh time.Duration, keep int) {
	s.mu.Lock()
	defer close(c.done)
	defer s.mu.Unlock()
	delete(s.flights, key)
	c.at = now
	if fresh <= 0 || !c.reusable() {
		return
	}
	if s.recent == nil {
		s.recent = map[string]*siteCrawl{}
	}
	s.recent[key] = c
	for len(s.recent) > keep {
		oldest := ""
		for k, r := range s.recent {
			if oldest == "" || r.at.Before(s.recent[oldest].at) {
				oldest = k
			}
		}
		delete(s.recent, oldest)
	}
	// Dropped when stale even if no check looks at the crawls again. The
	// timer holds its number, not the crawl: one dropped before (the
	// oldest past keep, or replaced by a newer crawl of its query) is
	// garbage at once, not when its timer fires.
	s.kept++
	c.kept = s.kept
	n := c.kept
	time.AfterFunc(fresh, func() { s.forget(key, n) })
}

// forget drops the crawl of key kept as number n, if it is still kept.
func (s *siteCrawls) forget(key string, n uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.recent[key]; r != nil && r.kept == n {
		delete(s.recent, key)
	}
}

// sharedCrawl returns the crawl of q that serves a check whose previous
// crawl is prev, running it if no crawl in flight or recent does (then
// ran is set). ctx is the run's, cctx the check's (bounded by its lease:
// limit). It returns nil if cctx ended first, while the check waited for
// another's crawl.
func (m *Monitor) sharedCrawl(ctx, cctx context.Context, q crawl.Query, prev *crawl.Snapshot, limit time.Duration, now time.Time) (c *siteCrawl, ran bool) {
	key := siteKey(q)
	for {
		c, lead := m.siteCrawls.join(key, prev, m.Now(), m.SiteFresh)
		if lead {
			m.runCrawl(ctx, cctx, key, c, q, limit, now)
			return c, true
		}
		select {
		case <-c.done:
		case <-cctx.Done():
			// A crawl that ended as the lease did still serves: select
			// picks either when both are ready.
			select {
			case <-c.done:
			default:
				return nil, false
			}
		}
		if c.abandoned || !newerCrawl(c, prev) {
			// Of no use to this check: crawled again, or waited for
			// again, as long as its lease allows.
			if cctx.Err() != nil {
				return nil, false
			}
			continue
		}
		return c, false
	}
}

// runCrawl runs c, the crawl of q, in the check of cctx, bounded by its
// limit, through a fetcher that stores each page read (siteFetcher), and
// ends its flight.
func (m *Monitor) runCrawl(ctx, cctx context.Context, key string, c *siteCrawl, q crawl.Query, limit time.Duration, now time.Time) {
	c.abandoned = true // until the crawl ends
	defer func() { m.siteCrawls.finish(key, c, m.Now(), m.SiteFresh, m.maxSharedCrawls()) }()
	sf := &siteFetcher{m: m, inner: m.Fetcher, versions: map[string]int64{}, leaves: map[string]leaf{}}
	snap, err := crawl.Crawl(cctx, sf, q)
	if ctx.Err() != nil {
		return // shutting down: the crawl is abandoned
	}
	c.abandoned, c.limit, c.err = false, limit, err
	c.cut = err != nil && cctx.Err() != nil
	c.failed, c.notStored = sf.failed, sf.notStored
	if err != nil {
		return
	}
	c.record = &siteRecord{Snapshot: snap, Versions: map[string]int64{}}
	for _, p := range snap.Pages {
		if id := sf.versions[p.URL]; id != 0 && !p.Failed() {
			c.record.Versions[p.URL] = id
			if why, read := crawl.ReadAsText(p); read {
				m.recordReadAsText(ctx, id, why)
			}
			continue
		}
		l, ok := sf.leaves[p.URL]
		if !ok || p.Failed() {
			continue
		}
		id, err := m.storeLeaf(ctx, p.URL, l, now)
		if err != nil {
			// A page read without a version, as one whose body could not
			// be stored: the crawl is no reference.
			c.failed++
			if c.notStored == "" {
				c.notStored = notStoredWhy(p.URL, err)
			}
			m.Logger.Error("store site page", logURL(p.URL), LogError, err)
			continue
		}
		c.record.Versions[p.URL] = id
	}
	if snap.StartFailure() != "" {
		m.storeStartFailure(ctx, q.Start, snap, now)
	}
}
