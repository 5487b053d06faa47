package monitor

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// scopedRelease is a site whose documentation links a text file, a blog
// post beside it and a page elsewhere on the host.
func scopedRelease(post string) crawltest.Release {
	return crawltest.Release{
		"/docs/index.html": []byte(`<html><head><title>Docs</title></head><body><a href="guide.html">Guide</a> <a href="notes.txt">Notes</a> <a href="/blog/post.html">Post</a> <a href="/shop/item.html">Shop</a></body></html>`),
		"/docs/guide.html": []byte(`<html><head><title>Guide</title></head><body><p>Install.</p></body></html>`),
		"/docs/notes.txt":  []byte("notes"),
		"/blog/post.html":  []byte(`<html><head><title>Post</title></head><body><p>` + post + `</p></body></html>`),
		"/shop/item.html":  []byte(`<html><head><title>Item</title></head><body><p>Buy.</p></body></html>`),
	}
}

// TestSiteScopeAndMatch: a site sentinel's scope and match decide the
// links its crawl follows, the start page aside; a change under a scope
// other than the start page's directory is reported; an edited scope
// makes the next crawl a new reference.
func TestSiteScopeAndMatch(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, scopedRelease("First post."))
	now := time.Now().UTC()
	src := "Create Sentinel docs Using site " + site.URL("/docs/") + " scope " + site.URL("/docs/") + " scope " + site.URL("/blog") +
		` match "\\.html$" Every interactive`
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	crawled := func() []string {
		t.Helper()
		var urls []string
		for _, p := range siteRecordOf(t, db, sen).Snapshot.Pages {
			urls = append(urls, p.URL)
		}
		slices.Sort(urls)
		return urls
	}
	want := []string{site.URL("/blog/post.html"), site.URL("/docs/"), site.URL("/docs/guide.html")}
	if got := crawled(); !slices.Equal(got, want) {
		t.Fatalf("crawled %v, want %v (the text file fails the match, the shop is out of scope)", got, want)
	}

	site.Set(scopedRelease("First post, edited."), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1 (the blog post, in the second scope)", len(cs))
	}
	if recs := siteRecords(t, cs[0]); len(recs) != 1 || recs[0].Page == nil || recs[0].Page.URL != site.URL("/blog/post.html") {
		t.Errorf("records %+v, want the blog post changed", recs)
	}

	// Without the match, the text file is crawled too: a new reference,
	// no change reported.
	editSpec(t, db, u, sen, "Create Sentinel docs Using site "+site.URL("/docs/")+" scope "+site.URL("/docs/")+" scope "+site.URL("/blog")+" Every interactive", now)
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 1 {
		t.Fatalf("the edited sentinel reported %d changes in all, want the 1 from before", len(cs))
	}
	want = []string{site.URL("/blog/post.html"), site.URL("/docs/"), site.URL("/docs/guide.html"), site.URL("/docs/notes.txt")}
	if got := crawled(); !slices.Equal(got, want) {
		t.Errorf("crawled %v after the edit, want %v", got, want)
	}
}

// publicStart answers the start page of a site itself, as a public host
// would, and passes every other request to the fetcher inner.
type publicStart struct {
	url, body string
	inner     vigil.Fetcher
}

func (f *publicStart) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	if req.URL != f.url {
		return f.inner.Fetch(ctx, req)
	}
	return &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Charset: "utf-8",
		Body: []byte(f.body), FetchedAt: time.Now()}, nil
}

// TestSiteScopePrivate: a scope on another host does not pass the
// fetcher's address guard: a public start page linking into a scope on a
// loopback address gets the page recorded as refused, and the loopback
// server is never asked.
func TestSiteScopePrivate(t *testing.T) {
	db, wh, u := testStore(t)
	var hits atomic.Int32
	private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "<html><body><p>Internal.</p></body></html>")
	}))
	t.Cleanup(private.Close)
	const start = "http://docs.example/"
	secret := private.URL + "/secret.html"
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+start+" scope "+private.URL+"/ Every interactive")
	f := &publicStart{url: start, body: `<html><body><a href="` + secret + `">Secret</a></body></html>`,
		inner: fetch.New(fetch.Options{TotalTimeout: 5 * time.Second})}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return now }, Rand: func() float64 { return 0.5 }}
	runOnce(t, m, 1)

	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback server was asked %d times", n)
	}
	r := siteRecordOf(t, db, sen)
	p := r.Snapshot.Page(secret)
	if p == nil || !p.Failed() || !strings.Contains(p.Error, "loopback") {
		t.Errorf("the page in the loopback scope: %+v, want it refused as loopback", p)
	}
	if _, ok := r.Versions[secret]; ok {
		t.Errorf("the page in the loopback scope has a version")
	}
}
