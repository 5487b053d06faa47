package crawl_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/opic"
)

// TestCorpusImportance: each page read of a crawl of the site corpus has
// its importance, they sum to 1, and on the top tenth of the pages they
// are within 5 % of the PageRank (damping 0.85) of the same graph, the
// pages read and their links between them; the site's importance is the
// sum of its pages'. A page gone (404), which pages link to, has none.
func TestCorpusImportance(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	s.Gone = map[string]bool{"/git-log.html": true}
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(s.url("/")))
	var read []*crawl.Page
	id := map[string]opic.PageID{}
	for _, p := range snap.Pages {
		if p.Failed() {
			if p.Importance != 0 {
				t.Errorf("%s failed (%s), importance %v", p.URL, p.Failure(), p.Importance)
			}
			continue
		}
		id[p.URL] = opic.PageID(len(read))
		read = append(read, p)
	}
	if len(read) != len(snap.Pages)-1 {
		t.Fatalf("%d pages read of %d, want all but the one gone", len(read), len(snap.Pages))
	}
	var edges []opic.Edge
	sum := 0.0
	imp := make([]float64, len(read))
	for i, p := range read {
		if p.Importance <= 0 {
			t.Errorf("%s: importance %v", p.URL, p.Importance)
		}
		imp[i] = p.Importance
		sum += p.Importance
		for _, l := range p.Links {
			if j, ok := id[l.Target]; ok {
				edges = append(edges, opic.Edge{From: opic.PageID(i), To: j})
			}
		}
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Errorf("importances sum to %v", sum)
	}
	g, err := opic.NewGraph(len(read), edges)
	if err != nil {
		t.Fatal(err)
	}
	pr, _, err := opic.PageRank(g, opic.DefaultAlpha, 1e-12, 1000)
	if err != nil {
		t.Fatal(err)
	}
	top := opic.TopPages(pr, 0.1)
	if e := opic.SubsetRelativeError(imp, pr, top); e > 0.05 {
		t.Errorf("top 10 %%: mean relative error %.2f %% against PageRank, want at most 5 %%", 100*e)
	}
	best := read[top[0]]
	t.Logf("%d pages; most important %s: %.4f (PageRank %.4f); top 10 %% error %.2f %%", len(read), best.URL, best.Importance, pr[top[0]], 100*opic.SubsetRelativeError(imp, pr, top))
	if len(snap.Sites) != 1 || snap.Sites[0].Origin != s.Srv.URL || snap.Sites[0].Pages != len(read) || math.Abs(snap.Sites[0].Importance-1) > 1e-4 {
		t.Errorf("sites %+v", snap.Sites)
	}
}

// failingSite serves the same small site twice, under /with/ and
// /without/: an index, a.html, b.html and c.html. Under /with/ its pages
// also link to missing.html (404), down.html (503) and private/x.html,
// which robots.txt disallows; every page links to missing.html, so that
// it would be the most important page if a failed page took a share.
func failingSite(t *testing.T) *httptest.Server {
	pages := map[string]string{
		"":       `<title>Home</title><a href="a.html">A</a> <a href="b.html">B</a>` + "%s",
		"a.html": `<title>A</title><a href="b.html">B</a> <a href="c.html">C</a>` + "%s",
		"b.html": `<title>B</title><a href="./">Home</a>` + "%s",
		"c.html": `<title>C</title>` + "%s",
	}
	failing := map[string]string{
		"":       `<a href="missing.html">Missing</a> <a href="down.html">Down</a> <a href="private/x.html">X</a>`,
		"a.html": `<a href="missing.html">Missing</a> <a href="private/x.html">X</a>`,
		"b.html": `<a href="missing.html">Missing</a> <a href="down.html">Down</a>`,
		"c.html": `<a href="missing.html">Missing</a>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /with/private/\nDisallow: /without/private/\n")
			return
		}
		dir, name, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		body, ok := pages[name]
		switch {
		case name == "down.html":
			http.Error(w, "down for a moment", http.StatusServiceUnavailable)
			return
		case !ok || dir != "with" && dir != "without":
			http.NotFound(w, r)
			return
		}
		more := ""
		if dir == "with" {
			more = failing[name]
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, body, more)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestImportanceFailedPages: a page that failed (404, 503) or that
// robots.txt blocked has no importance, and the links to it pass none:
// the pages read have the importances, to the last digit, of the same
// site without those links, summing to 1, and their site's importance is
// theirs. The snapshot's JSON has no importance for the failed pages.
func TestImportanceFailedPages(t *testing.T) {
	srv := failingSite(t)
	with := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/with/"))
	without := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/without/"))
	failed := map[string]string{}
	sum := 0.0
	var read []string
	for _, p := range with.Pages {
		name := strings.TrimPrefix(p.URL, srv.URL+"/with/")
		if p.Failed() {
			failed[name] = p.Error
			if p.Importance != 0 {
				t.Errorf("%s failed (%s), importance %v; want none", name, p.Failure(), p.Importance)
			}
			continue
		}
		read = append(read, name)
		sum += p.Importance
		ref := without.Page(srv.URL + "/without/" + name)
		if ref == nil {
			t.Errorf("%s: read under /with/ only", name)
			continue
		}
		if p.Importance != ref.Importance || p.Importance <= 0 {
			t.Errorf("%s: importance %v, without the links to failed pages %v", name, p.Importance, ref.Importance)
		}
	}
	if want := []string{"", "a.html", "b.html", "c.html"}; !slices.Equal(read, want) {
		t.Errorf("pages read %q, want %q", read, want)
	}
	if len(failed) != 3 || failed["missing.html"] == "" || failed["down.html"] == "" || failed["private/x.html"] == "" {
		t.Errorf("pages failed %q, want missing.html, down.html and private/x.html", failed)
	}
	if p := with.Page(srv.URL + "/with/private/x.html"); p == nil || !p.Blocked {
		t.Errorf("private/x.html: %+v, want blocked by robots.txt", p)
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Errorf("importances of the pages read sum to %v", sum)
	}
	if len(with.Sites) != 1 || with.Sites[0].Pages != len(read) || with.Sites[0].Importance != without.Sites[0].Importance {
		t.Errorf("sites %+v, want one of %d pages read, importance %v", with.Sites, len(read), without.Sites[0].Importance)
	}
	var buf bytes.Buffer
	if err := with.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Pages []map[string]any `json:"pages"`
	}
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	for _, p := range js.Pages {
		if _, ok := p["importance"]; ok == (p["error"] != nil) {
			t.Errorf("JSON page %v: importance %v, error %v", p["url"], p["importance"], p["error"])
		}
	}
}

// TestImportanceCarried: a page kept from the last crawl after a
// momentary failure (Carry) is a page read, its last good read: it keeps
// an importance, as do the pages only it links to, and the importances of
// the carried snapshot sum to 1.
func TestImportanceCarried(t *testing.T) {
	s := newFlakySite(t)
	first := s.crawl(t)
	s.set("/docs/a.html", 503)
	out := carry(t, first, s.crawl(t))
	sum := 0.0
	for _, p := range out.Pages {
		if p.Failed() || p.Importance <= 0 {
			t.Errorf("%s: error %q, importance %v; want a page read, with an importance", p.URL, p.Error, p.Importance)
		}
		sum += p.Importance
	}
	if a := out.Page(s.srv.URL + "/docs/a.html"); a == nil || a.Carried == nil {
		t.Fatalf("a.html: %+v, want carried", a)
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Errorf("importances sum to %v", sum)
	}
}
