package crawl_test

import (
	"context"
	"math"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlHugeMaxPages: a MaxPages near the largest int (vigil site
// crawl --max-pages takes any) is a bound never reached, not one that
// overflows: twice it, the most URLs queued, was negative, so a breadth
// first crawl queued no link and called itself truncated, and the
// frontier of an importance crawl (MaxLinks + 4·MaxPages URLs) knew none.
func TestCrawlHugeMaxPages(t *testing.T) {
	const site = "https://huge.example/"
	f := fetcherFunc(func(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
		body := `<p>leaf</p>`
		if req.URL == site {
			body = `<a href="a.html">a</a> <a href="b.html">b</a>`
		}
		return &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Body: []byte("<html><body>" + body + "</body></html>")}, nil
	})
	for _, order := range []crawl.Order{crawl.OrderBreadth, crawl.OrderImportance} {
		for _, maxPages := range []int{math.MaxInt, math.MaxInt / 2, math.MaxInt/4 + 1} {
			snap := crawlSite(t, f, crawl.Query{Start: site, MaxDepth: 2, MaxPages: maxPages, Order: order})
			if len(snap.Pages) != 3 || snap.Truncated {
				t.Errorf("%s, MaxPages %d: %d pages, truncated %v; want 3, not truncated", order, maxPages, len(snap.Pages), snap.Truncated)
			}
		}
	}
}
