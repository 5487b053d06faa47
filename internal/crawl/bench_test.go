package crawl_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/fetch"
)

// BenchmarkCrawlCorpus crawls the whole site corpus (v2.31.0 from its
// directory listing: 227 pages, 4 listings and the stylesheet, 8.5 MB)
// from a server on loopback, with the daemon's fetcher and no delay
// between requests, one request at a time to the host as vigil serve
// makes them, and with four; and with the bodies kept.
//
//	go test -run '^$' -bench CrawlCorpus -benchmem ./internal/crawl
func BenchmarkCrawlCorpus(b *testing.B) {
	rel := corpus(b)
	s := newSite(b, rel[newRelease])
	s.Listing = true
	for _, tc := range []struct {
		hostConcurrency, workers int
		bodies                   bool
	}{{1, 1, false}, {1, 4, false}, {4, 4, false}, {4, 4, true}} {
		b.Run(fmt.Sprintf("host=%d/workers=%d/bodies=%v", tc.hostConcurrency, tc.workers, tc.bodies), func(b *testing.B) {
			q := crawl.NewQuery(s.url("/"))
			q.MaxPages = 1000
			q.Workers = tc.workers
			q.Bodies = tc.bodies
			var bytes int64
			for b.Loop() {
				// A new fetcher each time: its robots.txt cache and
				// connections are part of a crawl's cost.
				f := fetch.New(fetch.Options{AllowPrivateNetworks: true, HostConcurrency: tc.hostConcurrency, TotalTimeout: time.Minute})
				snap, err := crawl.Crawl(context.Background(), f, q)
				if err != nil {
					b.Fatal(err)
				}
				if len(snap.Pages) != 231 {
					b.Fatalf("%d pages", len(snap.Pages))
				}
				bytes = 0
				for _, p := range snap.Pages {
					bytes += p.Size
				}
			}
			b.SetBytes(bytes)
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/231, "µs/page")
		})
	}
}
