package crawl_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
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

// BenchmarkCrawlGenerated crawls the generated site of 10 000 pages
// (crawltest.Generate) from memory, through a fetcher that answers at
// once, so that what is measured is the crawl's own work: parsing the
// pages and the bookkeeping (frontier, records, order, importance).
// Breadth first and in importance order, the whole site and the first
// 1 000 pages.
//
//	go test -run '^$' -bench CrawlGenerated -benchmem ./internal/crawl
func BenchmarkCrawlGenerated(b *testing.B) {
	const n = 10000
	rel, err := crawltest.Generate(n, 1)
	if err != nil {
		b.Fatal(err)
	}
	f := fetcherFunc(func(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
		path := strings.TrimPrefix(req.URL, "https://example.org")
		if path == "/" {
			path = "/index.html"
		}
		body, ok := rel[path]
		if !ok {
			return &vigil.FetchResult{URL: req.URL, Status: 404}, fmt.Errorf("fetch %s: 404", req.URL)
		}
		return &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Charset: "utf-8", Body: body}, nil
	})
	for _, tc := range []struct {
		order    crawl.Order
		maxPages int
	}{{crawl.OrderBreadth, n}, {crawl.OrderImportance, n}, {crawl.OrderBreadth, 1000}, {crawl.OrderImportance, 1000}} {
		b.Run(fmt.Sprintf("order=%s/pages=%d", tc.order, tc.maxPages), func(b *testing.B) {
			q := crawl.NewQuery("https://example.org/")
			q.MaxDepth = crawl.MaxMaxDepth
			q.MaxPages = tc.maxPages
			q.Order = tc.order
			for b.Loop() {
				snap, err := crawl.Crawl(context.Background(), f, q)
				if err != nil {
					b.Fatal(err)
				}
				if len(snap.Pages) != tc.maxPages {
					b.Fatalf("%d pages", len(snap.Pages))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(tc.maxPages), "µs/page")
		})
	}
}
