package crawl_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
)

// TestSchemeUpgrade: only a move of a scope prefix to its https form, on
// the same host, each on its scheme's default port, to the same path, is
// an upgrade.
func TestSchemeUpgrade(t *testing.T) {
	for name, tc := range map[string]struct {
		from, to   string
		ok         bool
		oldO, newO string
	}{
		"https alone":         {"http://example.org/docs/", "https://example.org/docs/", true, "http://example.org", "https://example.org"},
		"default ports named": {"http://Example.org:80/docs/", "https://example.org:443/docs/", true, "http://example.org", "https://example.org"},
		"another host":        {"http://example.org/docs/", "https://www.example.org/docs/", false, "", ""},
		"another directory":   {"http://example.org/docs/", "https://example.org/v2/docs/", false, "", ""},
		"a port kept":         {"http://example.org:8080/docs/", "https://example.org:8080/docs/", false, "", ""},
		"another port":        {"http://example.org/docs/", "https://example.org:8443/docs/", false, "", ""},
		"back to http":        {"https://example.org/docs/", "http://example.org/docs/", false, "", ""},
		"the same":            {"http://example.org/docs/", "http://example.org/docs/", false, "", ""},
		"not a URL":           {"docs/", "https://example.org/docs/", false, "", ""},
	} {
		t.Run(name, func(t *testing.T) {
			oldO, newO, ok := crawl.SchemeUpgrade(tc.from, tc.to)
			if ok != tc.ok || oldO != tc.oldO || newO != tc.newO {
				t.Errorf("SchemeUpgrade(%q, %q) = %q, %q, %v; want %q, %q, %v", tc.from, tc.to, oldO, newO, ok, tc.oldO, tc.newO, tc.ok)
			}
		})
	}
}

// TestSnapshotRekeyed: a crawl rekeyed to another origin is a valid
// snapshot whose pages, links, redirects, scope and sites are at the new
// origin, its start kept and led to its first page by a redirect; the
// crawl itself is not changed.
func TestSnapshotRekeyed(t *testing.T) {
	site := crawltest.NewSite(t, crawltest.Release{
		"/docs/index.html":     []byte(`<title>Docs</title><a href="guide.html">Guide</a><a href="sub">Sub</a>`),
		"/docs/guide.html":     []byte(`<title>Guide</title><a href="index.html">Back</a>`),
		"/docs/sub/index.html": []byte(`<title>Sub</title>`),
	})
	for name, start := range map[string]string{"start page itself": "/docs/", "start page redirected": "/docs/index.html"} {
		t.Run(name, func(t *testing.T) {
			snap, err := crawl.Crawl(context.Background(), loopbackFetcher(), crawl.NewQuery(site.URL(start)))
			if err != nil {
				t.Fatal(err)
			}
			from := site.Srv.URL
			to := "https://" + strings.TrimPrefix(from, "http://")
			before := snap.Pages[0].URL
			got := snap.Rekeyed(from, to)
			if err := got.Validate(); err != nil {
				t.Fatalf("rekeyed: %v", err)
			}
			if snap.Pages[0].URL != before {
				t.Errorf("the crawl changed: its first page is %s", snap.Pages[0].URL)
			}
			if got.Query.Start != snap.Query.Start {
				t.Errorf("start %s, want %s kept", got.Query.Start, snap.Query.Start)
			}
			var urls []string
			urls = append(urls, got.Query.Scope...)
			for _, p := range got.Pages {
				urls = append(urls, p.URL)
				for _, l := range p.Links {
					urls = append(urls, l.Target)
				}
			}
			for _, r := range got.Redirects {
				if r.From != got.Query.Start {
					urls = append(urls, r.From)
				}
				urls = append(urls, r.To)
			}
			for _, s := range got.Sites {
				urls = append(urls, s.Origin)
			}
			for _, u := range urls {
				if !strings.HasPrefix(u, to) {
					t.Errorf("%s: not at %s", u, to)
				}
			}
			if len(got.Pages) != 3 {
				t.Errorf("%d pages, want 3 (the index, the guide, sub/)", len(got.Pages))
			}
		})
	}
}
