package crawl_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlIDN: a site whose name is internationalised, crawled from its
// punycode URL (as a sentinel's and vigil site crawl's are written), links
// to its own pages spelling the host in Unicode: those links are the
// site's, in scope, followed and recorded in punycode, frames included; a
// host IDNA refuses is left out, as other invalid links are. A real
// server cannot be reached by a Unicode name without DNS, so the pages
// come from a table keyed by the URL asked. The links were dropped: the
// crawl read only the start page.
func TestCrawlIDN(t *testing.T) {
	const site = "http://xn--bcher-kva.example"
	pages := map[string]string{
		site + "/docs/": `<title>Home</title>
<a href="http://bücher.example/docs/a.html">a</a> <a href="HTTP://BÜCHER.example:80/docs/b.html">b</a>
<a href="http://b%C3%BCcher.example/docs/c.html">c</a> <iframe src="http://bücher.example/docs/frame.html" title="f"></iframe>
<a href="http://bücher.example/other/">out of scope</a> <a href="http://-bücher.example/docs/bad.html">refused</a>`,
		site + "/docs/a.html":     `<title>A</title><a href="http://bücher.example/docs/">home</a>`,
		site + "/docs/b.html":     `<title>B</title>`,
		site + "/docs/c.html":     `<title>C</title>`,
		site + "/docs/frame.html": `<title>Frame</title>`,
	}
	var mu sync.Mutex
	var asked []string
	f := fetcherFunc(func(_ context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
		mu.Lock()
		asked = append(asked, req.URL)
		mu.Unlock()
		body, ok := pages[req.URL]
		if !ok {
			return &vigil.FetchResult{URL: req.URL, Status: 404}, fmt.Errorf("fetch %s: HTTP error status 404", req.URL)
		}
		return &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Charset: "utf-8", Body: []byte(body)}, nil
	})
	q := crawl.NewQuery(site + "/docs/")
	snap := crawlSite(t, f, q)
	var got []string
	for _, p := range snap.Pages {
		got = append(got, p.URL)
		if p.Failed() {
			t.Errorf("page %s failed: %s", p.URL, p.Error)
		}
	}
	want := []string{site + "/docs/", site + "/docs/a.html", site + "/docs/b.html", site + "/docs/c.html", site + "/docs/frame.html"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q (asked %q)", got, want, asked)
	}
	home := snap.Page(site + "/docs/")
	if home == nil {
		t.Fatal("no start page")
	}
	var links []string
	for _, l := range home.Links {
		links = append(links, l.Target)
	}
	if want := want[1:]; !slices.Equal(links, want) {
		t.Errorf("the start page's links %q, want %q", links, want)
	}
}
