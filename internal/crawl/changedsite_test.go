package crawl_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlRedirectedURLLaterAPage: a URL that redirected (x.html to
// y.html) and that another URL's redirect then leads to as a page of its
// own (w.html to x.html: a site that changed during the crawl) is a page
// whose links are followed in either order. In importance order its links
// were known but never fetched (its OPIC page was merged away, and
// frontier.read returned before carrying its depth to its links), so the
// two orders gave different snapshots of a crawl MaxPages did not cut.
func TestCrawlRedirectedURLLaterAPage(t *testing.T) {
	const site = "https://changing.example/"
	pages := map[string]string{ // asked -> final URL and body
		"":       `<a href="x.html">x</a> <a href="w.html">w</a>`,
		"y.html": `<p>y</p>`,
		"x.html": `<a href="z.html">z</a>`,
		"z.html": `<p>z</p>`,
	}
	redirect := map[string]string{"x.html": "y.html", "w.html": "x.html"}
	f := fetcherFunc(func(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
		p := strings.TrimPrefix(req.URL, site)
		if to, ok := redirect[p]; ok {
			p = to
		}
		body, ok := pages[p]
		if !ok {
			return nil, fmt.Errorf("fetch %s: not found", req.URL)
		}
		return &vigil.FetchResult{URL: site + p, Status: 200, ContentType: "text/html", Body: []byte("<html><body>" + body + "</body></html>")}, nil
	})
	var got [][]string
	for _, order := range []crawl.Order{crawl.OrderBreadth, crawl.OrderImportance} {
		snap := crawlSite(t, f, crawl.Query{Start: site, MaxDepth: 3, MaxPages: 50, Order: order})
		var urls []string
		for _, p := range snap.Pages {
			urls = append(urls, strings.TrimPrefix(p.URL, site))
		}
		if snap.Truncated {
			t.Errorf("%s: truncated", order)
		}
		if !slices.Contains(urls, "z.html") {
			t.Errorf("%s: pages %q; want z.html, linked from x.html", order, urls)
		}
		got = append(got, urls)
	}
	if !slices.Equal(got[0], got[1]) {
		t.Errorf("breadth first: %q; importance: %q; want the same pages", got[0], got[1])
	}
}

// TestCrawlRedirectShorterPathLater: a URL that redirected (x.html to
// y.html) and is then found nearer the start (b.html links to it, read
// after it) brings the page it led to nearer too, as a breadth-first
// crawl has it (the page a redirect led to is at the depth of the URL
// asked): in importance order the shorter distance stopped at the
// redirect, so y.html stayed at MaxDepth and its links (z.html) were not
// followed.
func TestCrawlRedirectShorterPathLater(t *testing.T) {
	const site = "https://shorter.example/"
	links := func(ts ...string) string {
		var b strings.Builder
		for _, t := range ts {
			fmt.Fprintf(&b, `<a href="%s">%s</a> `, t, t)
		}
		return b.String()
	}
	var cs, as []string
	for i := 1; i <= 4; i++ {
		cs = append(cs, fmt.Sprintf("c%d.html", i))
	}
	pages := map[string]string{"b.html": links("x.html"), "y.html": links("z.html"), "z.html": "z"}
	for i := 1; i <= 16; i++ {
		a := fmt.Sprintf("a%d.html", i)
		as = append(as, a)
		pages[a] = "leaf"
		if i <= 8 {
			pages[a] = links(cs...) // the c pages get rich, and x through them
		}
	}
	for _, c := range cs {
		pages[c] = links("x.html")
	}
	pages[""] = links(append(as, "b.html")...) // b is read last of the start's links
	f := fetcherFunc(func(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
		p := strings.TrimPrefix(req.URL, site)
		if p == "x.html" {
			p = "y.html"
		}
		body, ok := pages[p]
		if !ok {
			return nil, fmt.Errorf("fetch %s: not found", req.URL)
		}
		return &vigil.FetchResult{URL: site + p, Status: 200, ContentType: "text/html", Body: []byte("<html><body>" + body + "</body></html>")}, nil
	})
	var got [][]string
	for _, order := range []crawl.Order{crawl.OrderBreadth, crawl.OrderImportance} {
		snap := crawlSite(t, f, crawl.Query{Start: site, MaxDepth: 3, MaxPages: 100, Order: order})
		var urls []string
		for _, p := range snap.Pages {
			urls = append(urls, fmt.Sprintf("%s@%d", strings.TrimPrefix(p.URL, site), p.Depth))
		}
		if !slices.Contains(urls, "z.html@3") {
			t.Errorf("%s: pages %q; want z.html at depth 3, linked from y.html at 2", order, urls)
		}
		got = append(got, urls)
	}
	if !slices.Equal(got[0], got[1]) {
		t.Errorf("breadth first: %q; importance: %q; want the same pages", got[0], got[1])
	}
}
