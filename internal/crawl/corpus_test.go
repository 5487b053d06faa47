package crawl_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/fetch"
)

// prefixScope is a scope of path prefixes.
func prefixScope(prefixes ...string) func(string) bool {
	return func(p string) bool {
		for _, pre := range prefixes {
			if strings.HasPrefix(p, pre) {
				return true
			}
		}
		return false
	}
}

// check compares a snapshot with what the oracle expects: the pages in
// their order, their depths and failures, the distinct links between
// pages and the redirects.
func (s *site) check(t *testing.T, snap *crawl.Snapshot, e *expected) {
	t.Helper()
	var got []string
	for _, p := range snap.Pages {
		got = append(got, s.path(t, p.URL))
	}
	if !slices.Equal(got, e.order) {
		t.Fatalf("pages: got %d, want %d\n%s", len(got), len(e.order), firstDifference(got, e.order))
	}
	edges := map[[2]string]int{}
	for _, p := range snap.Pages {
		from := s.path(t, p.URL)
		if d := e.depth[from]; p.Depth != d {
			t.Errorf("%s: depth %d, want %d", from, p.Depth, d)
		}
		if p.Failed() != e.failed[from] {
			t.Errorf("%s: failed %v (%q), want %v", from, p.Failed(), p.Error, e.failed[from])
		}
		for _, l := range p.Links {
			edges[[2]string{from, s.path(t, l.Target)}]++
		}
	}
	for k := range e.edges {
		if edges[k] == 0 {
			t.Errorf("link %s -> %s missing", k[0], k[1])
		}
	}
	for k := range edges {
		if e.edges[k] == 0 {
			t.Errorf("link %s -> %s not expected", k[0], k[1])
		}
	}
	redirects := map[string]string{}
	for _, r := range snap.Redirects {
		redirects[s.path(t, r.From)] = s.path(t, r.To)
	}
	if fmt.Sprint(redirects) != fmt.Sprint(e.redirects) {
		t.Errorf("redirects %v, want %v", redirects, e.redirects)
	}
}

// path returns the path of a URL of the site.
func (s *site) path(t testing.TB, u string) string {
	p, ok := strings.CutPrefix(u, s.Srv.URL)
	if !ok {
		t.Fatalf("%s is not on the site %s", u, s.Srv.URL)
	}
	return p
}

func firstDifference(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("first difference at %d: got %s, want %s", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("one is a prefix of the other (got %d, want %d)", len(got), len(want))
}

// distinctEdges counts the distinct links between pages whose path ends
// in .html, as BENCHMARKS.md counts the site's graph.
func (s *site) distinctEdges(t testing.TB, snap *crawl.Snapshot) (pages, edges int) {
	set := map[[2]string]bool{}
	for _, p := range snap.Pages {
		from := s.path(t, p.URL)
		if !strings.HasSuffix(from, ".html") {
			continue
		}
		pages++
		for _, l := range p.Links {
			to := s.path(t, l.Target)
			if strings.HasSuffix(to, ".html") && snap.Page(l.Target) != nil {
				set[[2]string{from, to}] = true
			}
		}
	}
	return pages, len(set)
}

// TestCorpusReleases crawls the two releases of the site at one URL, as
// two polls of one coupling query see a site change: each crawl finds what
// the oracle finds, the second finds the page the release added, and a
// page's version changes exactly when its content does, whether the
// server gives Last-Modified dates or not.
func TestCorpusReleases(t *testing.T) {
	rel := corpus(t)
	old, cur := rel[oldRelease], rel[newRelease]
	s := newSite(t, old)
	for _, dated := range []bool{true, false} {
		t.Run(fmt.Sprintf("last-modified=%v", dated), func(t *testing.T) {
			var oldDates, curDates map[string]time.Time
			if dated {
				oldDates = releaseDates(old, nil, oldDate, oldDate)
				curDates = releaseDates(cur, old, oldDate, newDate)
			}
			q := crawl.NewQuery(s.url("/"))
			s.Set(old, oldDates)
			e1 := s.expect(t, "/", q.MaxDepth, prefixScope("/"))
			snap1 := crawlSite(t, loopbackFetcher(), q)
			s.check(t, snap1, e1)
			s.Set(cur, curDates)
			e2 := s.expect(t, "/", q.MaxDepth, prefixScope("/"))
			snap2 := crawlSite(t, loopbackFetcher(), q)
			s.check(t, snap2, e2)

			// The home page is git.html's copy: every page but 26 of
			// the top level and technical/ is within 2 links of it.
			if len(snap1.Pages) != 200 || len(snap2.Pages) != 201 {
				t.Errorf("pages: %d and %d, want 200 and 201", len(snap1.Pages), len(snap2.Pages))
			}
			mailmap := s.url("/gitmailmap.html")
			if snap1.Page(mailmap) != nil {
				t.Errorf("%s in %s", mailmap, oldRelease)
			}
			if p := snap2.Page(mailmap); p == nil || p.Depth != 1 || p.Title != "gitmailmap(5)" || p.Failed() {
				t.Errorf("%s in %s: %+v, want a page at depth 1 titled gitmailmap(5)", mailmap, newRelease, p)
			}

			kind := crawl.VersionContentHash
			if dated {
				kind = crawl.VersionLastModified
			}
			same, changed := 0, 0
			for _, p := range snap2.Pages {
				if p.VersionKind != kind {
					t.Fatalf("%s: version kind %q, want %q", p.URL, p.VersionKind, kind)
				}
				q := snap1.Page(p.URL)
				if q == nil {
					continue
				}
				path := s.path(t, p.URL)
				if path == "/" {
					path = "/index.html"
				}
				equal := bytes.Equal(old[path], cur[path])
				if (p.Version == q.Version) != equal {
					t.Errorf("%s: versions %s and %s, but the content is equal: %v", p.URL, q.Version, p.Version, equal)
				}
				if equal {
					same++
				} else {
					changed++
				}
			}
			t.Logf("%d pages, then %d: %d unchanged, %d changed, 1 added", len(snap1.Pages), len(snap2.Pages), same, changed)
		})
	}
}

// TestCorpusAllPages crawls the releases from a directory listing, which
// links every file: the crawl reaches the 226 and 227 pages that
// BENCHMARKS.md counts, and their links.
func TestCorpusAllPages(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[oldRelease])
	s.Listing = true
	for _, tc := range []struct {
		release      string
		pages, edges int
	}{
		// BENCHMARKS.md counts 1 444 links in v2.31.0: it reads
		// git-config.html's ../technical/pack-format.html as a link above
		// the site's root, to a missing page; a browser, and the crawler,
		// read it as /technical/pack-format.html, which is there.
		{oldRelease, 226, 1428},
		{newRelease, 227, 1445},
	} {
		t.Run(tc.release, func(t *testing.T) {
			s.Set(rel[tc.release], nil)
			q := crawl.NewQuery(s.url("/"))
			q.MaxPages = 1000
			snap := crawlSite(t, loopbackFetcher(), q)
			s.check(t, snap, s.expect(t, "/", q.MaxDepth, prefixScope("/")))
			pages, edges := s.distinctEdges(t, snap)
			if pages != tc.pages || edges != tc.edges {
				t.Errorf("%d pages, %d links between them; want %d, %d", pages, edges, tc.pages, tc.edges)
			}
			// The listings of /, /howto/ and /technical/, and the
			// stylesheet.
			if n := len(snap.Pages) - pages; n != 4 {
				t.Errorf("%d pages besides the .html ones, want 4", n)
			}
			if snap.Truncated {
				t.Error("truncated")
			}
		})
	}
}

// TestCorpusLeaves: a document that is not HTML (the stylesheet, linked
// from the listing) is a page without links, with its version.
func TestCorpusLeaves(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	s.Listing = true
	q := crawl.NewQuery(s.url("/"))
	q.MaxDepth = 1
	snap := crawlSite(t, loopbackFetcher(), q)
	css := snap.Page(s.url("/docbook-xsl.css"))
	want := hashOf(rel[newRelease]["/docbook-xsl.css"])
	if css == nil || css.Failed() || css.ContentType != "text/css" || len(css.Links) != 0 || css.Title != "" ||
		css.Hash != want || css.Version != want || css.Size != int64(len(rel[newRelease]["/docbook-xsl.css"])) || css.Depth != 1 {
		t.Errorf("stylesheet: %+v, want a leaf at depth 1 with hash %s", css, want)
	}
}

// TestCorpusDepth: the depth bound stops the walk, and each page's depth
// is its shortest distance from the start.
func TestCorpusDepth(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	for _, depth := range []int{0, 1, 2} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			q := crawl.NewQuery(s.url("/git-log.html"))
			q.MaxDepth = depth
			snap := crawlSite(t, loopbackFetcher(), q)
			s.check(t, snap, s.expect(t, "/git-log.html", depth, prefixScope("/")))
			if depth == 0 && (len(snap.Pages) != 1 || len(snap.Pages[0].Links) == 0) {
				t.Errorf("depth 0: %d pages, the start with %d links; want the start alone, with its links", len(snap.Pages), len(snap.Pages[0].Links))
			}
		})
	}
}

// TestCorpusScope: links are followed only under the scope's prefixes
// (by default the start page's directory) and where the URL matches the
// query's expression.
func TestCorpusScope(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	t.Run("default", func(t *testing.T) {
		snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(s.url("/technical/api-index.html")))
		if !slices.Equal(snap.Query.Scope, []string{s.url("/technical/")}) {
			t.Errorf("scope %q, want the start page's directory", snap.Query.Scope)
		}
		s.check(t, snap, s.expect(t, "/technical/api-index.html", 3, prefixScope("/technical/")))
		if len(snap.Pages) < 5 {
			t.Errorf("only %d pages", len(snap.Pages))
		}
	})
	t.Run("prefixes", func(t *testing.T) {
		q := crawl.NewQuery(s.url("/"))
		q.Scope = []string{s.url("/howto/"), s.url("/git-rebase.html")}
		snap := crawlSite(t, loopbackFetcher(), q)
		s.check(t, snap, s.expect(t, "/", 3, prefixScope("/howto/", "/git-rebase.html")))
		for _, p := range snap.Pages[1:] {
			if path := s.path(t, p.URL); !strings.HasPrefix(path, "/howto/") && path != "/git-rebase.html" {
				t.Errorf("%s is out of scope", p.URL)
			}
		}
	})
	t.Run("match", func(t *testing.T) {
		q := crawl.NewQuery(s.url("/"))
		q.Match = `/git-(log|diff)[a-z-]*\.html$`
		snap := crawlSite(t, loopbackFetcher(), q)
		s.check(t, snap, s.expect(t, "/", 3, func(p string) bool {
			return strings.HasPrefix(p, "/git-log") || strings.HasPrefix(p, "/git-diff")
		}))
		if len(snap.Pages) < 4 {
			t.Errorf("only %d pages", len(snap.Pages))
		}
	})
}

// TestCorpusMaxPages: the page bound ends the crawl, and says so. Breadth
// first, it keeps the first pages of the full crawl, in its order; in
// importance order, the pages it keeps hold more of the full crawl's
// importance than the breadth-first ones (the most important pages are not
// the nearest), and the bound that cuts nothing gives the full crawl.
func TestCorpusMaxPages(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	q := crawl.NewQuery(s.url("/"))
	full := crawlSite(t, loopbackFetcher(), q)
	mass := func(snap *crawl.Snapshot) float64 {
		sum := 0.0
		for _, p := range snap.Pages {
			sum += full.Page(p.URL).Importance
		}
		return sum
	}
	for _, n := range []int{1, 10, 25, 150, len(full.Pages)} {
		q.MaxPages = n
		q.Order = crawl.OrderBreadth
		breadth := crawlSite(t, loopbackFetcher(), q)
		q.Order = crawl.OrderImportance
		greedy := crawlSite(t, loopbackFetcher(), q)
		for _, snap := range []*crawl.Snapshot{breadth, greedy} {
			if len(snap.Pages) != n || snap.Truncated != (n < len(full.Pages)) {
				t.Fatalf("max %d, %s: %d pages, truncated %v", n, snap.Query.Order, len(snap.Pages), snap.Truncated)
			}
		}
		for i, p := range breadth.Pages {
			if p.URL != full.Pages[i].URL || p.Depth != full.Pages[i].Depth {
				t.Fatalf("max %d: page %d is %s at %d, the full crawl's is %s at %d", n, i, p.URL, p.Depth, full.Pages[i].URL, full.Pages[i].Depth)
			}
		}
		mb, mg := mass(breadth), mass(greedy)
		t.Logf("max %d: importance of the pages kept: breadth first %.4f, importance order %.4f", n, mb, mg)
		if n > 1 && n < len(full.Pages) && mg <= mb {
			t.Errorf("max %d: the pages of the importance order hold %.4f of the importance, breadth first's %.4f", n, mg, mb)
		}
	}
	q.MaxPages = len(full.Pages)
	if a, b := encodeTimeless(t, full), encodeTimeless(t, crawlSite(t, loopbackFetcher(), q)); !bytes.Equal(a, b) {
		t.Errorf("a bound that cuts nothing changes the snapshot")
	}
}

// TestCorpusOrdersAgree: a crawl that MaxPages does not cut short finds
// the same snapshot in importance order as breadth first, pages, depths,
// links, redirects, failures and importance alike, on a site with moved,
// missing and disallowed pages.
func TestCorpusOrdersAgree(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	s.Listing = true
	s.Disallow = "/technical/"
	s.Moved = map[string]string{"/git-log.html": "/log/git-log.html", "/howto/": "/recipes/"}
	s.Gone = map[string]bool{"/git-diff.html": true}
	for _, depth := range []int{1, 2, 3} {
		q := crawl.NewQuery(s.url("/"))
		q.MaxDepth = depth
		q.MaxPages = 1000
		greedy := crawlSite(t, loopbackFetcher(), q)
		q.Order = crawl.OrderBreadth
		breadth := crawlSite(t, loopbackFetcher(), q)
		if len(greedy.Redirects) < 2 || greedy.Stats().Failures < 2 {
			t.Errorf("depth %d: %+v: the site shows too little", depth, greedy.Stats())
		}
		if a, b := encodeTimeless(t, greedy), encodeTimeless(t, breadth); !bytes.Equal(a, b) {
			t.Errorf("depth %d: the snapshots differ\n%s", depth, firstDifference(strings.Split(string(a), "\n"), strings.Split(string(b), "\n")))
		}
	}
}

// encodeTimeless encodes a snapshot without its times, its query's
// MaxPages and Order.
func encodeTimeless(t testing.TB, snap *crawl.Snapshot) []byte {
	t.Helper()
	c := *snap
	c.Started, c.Finished = time.Time{}, time.Time{}
	c.Query.MaxPages, c.Query.Order = 0, ""
	var b bytes.Buffer
	if err := c.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCorpusBrokenLink: a page that has gone (404) is a page with its
// error, linked as before; the crawl goes on without it.
func TestCorpusBrokenLink(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	s.Gone = map[string]bool{"/git-log.html": true}
	q := crawl.NewQuery(s.url("/"))
	snap := crawlSite(t, loopbackFetcher(), q)
	s.check(t, snap, s.expect(t, "/", q.MaxDepth, prefixScope("/")))
	p := snap.Page(s.url("/git-log.html"))
	if p == nil || p.Status != 404 || !strings.Contains(p.Error, "404") || p.Version != "" || p.Hash != "" {
		t.Fatalf("gone page: %+v, want status 404 with its error", p)
	}
	if st := snap.Stats(); st.Failures != 1 || st.Pages < 190 {
		t.Errorf("stats %+v, want 1 failure among the other pages", st)
	}
}

// TestCorpusRedirects: a page that moved (301) is recorded at its new URL,
// the redirect beside it, and the links to its old URL lead to it; a start
// URL that redirects does the same.
func TestCorpusRedirects(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	s.Moved = map[string]string{"/git-log.html": "/log/git-log.html"}
	q := crawl.NewQuery(s.url("/index.html"))
	snap := crawlSite(t, loopbackFetcher(), q)
	s.check(t, snap, s.expect(t, "/index.html", q.MaxDepth, prefixScope("/")))
	if snap.Pages[0].URL != s.url("/") || snap.Page(s.url("/git-log.html")) != nil {
		t.Errorf("start %s, want %s; a page at the old URL: %v", snap.Pages[0].URL, s.url("/"), snap.Page(s.url("/git-log.html")) != nil)
	}
	moved := snap.Page(s.url("/log/git-log.html"))
	if moved == nil || moved.Failed() || moved.Title != "git-log(1)" {
		t.Fatalf("moved page: %+v", moved)
	}
	want := []crawl.Redirect{{From: s.url("/index.html"), To: s.url("/")}, {From: s.url("/git-log.html"), To: s.url("/log/git-log.html")}}
	if !slices.Equal(snap.Redirects, want) {
		t.Errorf("redirects %v, want %v", snap.Redirects, want)
	}
	linked := 0
	for _, p := range snap.Pages {
		for _, l := range p.Links {
			if l.Target == s.url("/git-log.html") {
				t.Errorf("%s links to the old URL", p.URL)
			}
			if l.Target == moved.URL {
				linked++
			}
		}
	}
	if linked < 10 {
		t.Errorf("%d links to the moved page", linked)
	}
}

// TestCorpusRobots: pages that robots.txt disallows are never requested;
// they are pages with the fetcher's error, and the rest of the site is
// crawled.
func TestCorpusRobots(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	s.Listing = true
	s.Disallow = "/technical/"
	q := crawl.NewQuery(s.url("/"))
	q.MaxPages = 1000
	snap := crawlSite(t, loopbackFetcher(), q)
	s.check(t, snap, s.expect(t, "/", q.MaxDepth, prefixScope("/")))
	disallowed := 0
	for _, p := range snap.Pages {
		if strings.HasPrefix(s.path(t, p.URL), "/technical/") {
			disallowed++
			if !strings.Contains(p.Error, "robots.txt") || p.Status != 0 {
				t.Errorf("%s: status %d, error %q; want the robots.txt refusal", p.URL, p.Status, p.Error)
			}
		} else if p.Failed() {
			t.Errorf("%s failed: %s", p.URL, p.Error)
		}
	}
	if disallowed == 0 {
		t.Error("no page under /technical/ in the snapshot")
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	for p, n := range s.Hits {
		if strings.HasPrefix(p, "/technical/") {
			t.Errorf("%s requested %d times", p, n)
		}
	}
}

// TestCorpusDeterministic: two crawls of one release give equal
// snapshots, whether one page is fetched at a time or eight.
func TestCorpusDeterministic(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	s.Listing = true
	var first []byte
	for _, workers := range []int{1, 8, 8} {
		q := crawl.NewQuery(s.url("/"))
		q.MaxPages = 1000
		q.Workers = workers
		f := fetch.New(fetch.Options{AllowPrivateNetworks: true, HostConcurrency: 8})
		snap := crawlSite(t, f, q)
		snap.Started, snap.Finished = time.Time{}, time.Time{}
		var b bytes.Buffer
		if err := snap.Encode(&b); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b.Bytes()
		} else if !bytes.Equal(first, b.Bytes()) {
			t.Fatalf("%d workers: the snapshot differs from the first crawl's", workers)
		}
	}
}

// TestPrivateNetworkRefused: the daemon's fetcher with its defaults
// refuses the loopback server; the crawl records the start page's refusal
// and nothing is requested. (It needs no corpus.)
func TestPrivateNetworkRefused(t *testing.T) {
	s := newSite(t, release{"/index.html": []byte(`<a href="a.html">A</a>`), "/a.html": []byte(`<title>A</title>`)})
	snap := crawlSite(t, fetch.New(fetch.Options{}), crawl.NewQuery(s.url("/")))
	if len(snap.Pages) != 1 || !strings.Contains(snap.StartFailure(), "address refused") {
		t.Fatalf("%d pages, start failure %q; want the start page refused", len(snap.Pages), snap.StartFailure())
	}
	if len(s.Hits) != 0 {
		t.Errorf("the server was asked for %v", s.Hits)
	}
}
