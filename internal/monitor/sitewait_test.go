package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestSiteCrawlWaitEndsWithLease: a check whose lease ends as the crawl
// it waits for ends takes that crawl, rather than failing as cut short
// (select picks either ready case at random: fifty tries catch it).
func TestSiteCrawlWaitEndsWithLease(t *testing.T) {
	now := time.Now()
	q := crawl.Query{Start: "http://docs.example/", MaxDepth: 1, MaxPages: 5}
	for try := range 50 {
		m := &Monitor{Now: func() time.Time { return now }, SiteFresh: time.Minute}
		done := &siteCrawl{done: make(chan struct{}), record: &siteRecord{Snapshot: &crawl.Snapshot{}}}
		close(done.done)
		m.siteCrawls.flights = map[string]*siteCrawl{siteKey(q): done} // ended, not yet moved to recent
		cctx, cancel := context.WithCancel(context.Background())
		cancel() // the lease ended too
		c, ran := m.sharedCrawl(context.Background(), cctx, q, nil, time.Minute, now)
		if c != done || ran {
			t.Fatalf("try %d: crawl %p (ran %v), want the crawl waited for, %p", try, c, ran, done)
		}
	}
}
