package crawl_test

import (
	"bytes"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/zstd"
)

// The corpus and its server are crawltest's, shared with vigil site's
// tests.
const (
	oldRelease = crawltest.OldRelease
	newRelease = crawltest.NewRelease
)

var (
	oldDate      = crawltest.OldDate
	newDate      = crawltest.NewDate
	releaseDates = crawltest.ReleaseDates
)

type release = crawltest.Release

// corpus returns the two releases: from the shared corpus beside the
// repository, or else from the repository's archive of it.
func corpus(t testing.TB) map[string]release {
	t.Helper()
	rel, err := crawltest.Corpus(decompress)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

func decompress(b []byte) ([]byte, error) {
	codec, err := zstd.New(0)
	if err != nil {
		return nil, err
	}
	return codec.Decompress(b)
}

// site is the loopback server of crawltest, with the oracle of this
// package's tests.
type site struct{ *crawltest.Site }

func newSite(t testing.TB, files release) *site { return &site{crawltest.NewSite(t, files)} }

// url returns the absolute URL of a path on the site.
func (s *site) url(p string) string { return s.URL(p) }

// expected is what a crawl of the site should find, worked out without
// the crawler: the site's answers taken directly (Respond), hrefs read by
// golang.org/x/net/html's tokenizer and resolved by net/url, a plain
// breadth-first walk. Paths stand for URLs.
type expected struct {
	order     []string          // pages in the order of discovery
	depth     map[string]int    // page -> depth
	failed    map[string]bool   // pages that answered an error or were disallowed
	edges     map[[2]string]int // distinct (page, target) links in scope, not to the page itself
	redirects map[string]string
	fetches   int
}

// expect walks the site from start, following links in scope up to
// maxDepth, as Crawl does (without its fetch limit).
func (s *site) expect(t testing.TB, start string, maxDepth int, inScope func(string) bool) *expected {
	t.Helper()
	e := &expected{depth: map[string]int{}, failed: map[string]bool{}, edges: map[[2]string]int{}, redirects: map[string]string{}}
	type item struct {
		p string
		d int
	}
	queue := []item{{start, 0}}
	seen := map[string]bool{start: true}
	links := map[string][]string{}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if _, done := e.depth[it.p]; done {
			continue // a redirect led there first
		}
		e.fetches++
		p := it.p
		var res crawltest.Response
		if s.Disallow != "" && strings.HasPrefix(p, s.Disallow) {
			res = crawltest.Response{Status: 0}
		} else {
			res = s.Respond(p)
			for hops := 0; res.Location != ""; hops++ {
				if hops > 10 {
					t.Fatalf("%s: redirect loop", it.p)
				}
				// The fetcher checks robots.txt for the URL asked for,
				// not for where its redirects lead.
				p = res.Location
				res = s.Respond(p)
			}
		}
		if p != it.p {
			e.redirects[it.p] = p
			seen[p] = true
			if _, done := e.depth[p]; done || it.d > 0 && !inScope(p) {
				continue
			}
		}
		e.order = append(e.order, p)
		e.depth[p] = it.d
		if res.Status != 200 {
			e.failed[p] = true
			continue
		}
		if !strings.HasPrefix(res.Type, "text/html") {
			continue
		}
		for _, h := range hrefs(t, res.Body) {
			u, err := url.Parse(s.url(p))
			if err != nil {
				t.Fatal(err)
			}
			target, err := u.Parse(strings.TrimSpace(h))
			if err != nil || target.Scheme+"://"+target.Host != s.Srv.URL {
				continue
			}
			tp := target.EscapedPath()
			if tp == "" {
				tp = "/"
			}
			if target.RawQuery != "" {
				tp += "?" + target.RawQuery
			}
			if tp == p || !inScope(tp) {
				continue
			}
			links[p] = append(links[p], tp)
			if it.d < maxDepth && !seen[tp] {
				seen[tp] = true
				queue = append(queue, item{tp, it.d + 1})
			}
		}
	}
	for from, targets := range links {
		for _, to := range targets {
			if r, ok := e.redirects[to]; ok {
				if _, page := e.depth[r]; page {
					to = r
				}
			}
			if to != from {
				e.edges[[2]string{from, to}]++
			}
		}
	}
	return e
}

// hrefs returns the href of every <a> and <area> of an HTML document.
func hrefs(t testing.TB, doc []byte) []string {
	z := xhtml.NewTokenizer(bytes.NewReader(doc))
	var out []string
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			if !errors.Is(z.Err(), io.EOF) {
				t.Fatal(z.Err())
			}
			return out
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			name, more := z.TagName()
			if (string(name) != "a" && string(name) != "area") || !more {
				continue
			}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				if string(k) == "href" {
					out = append(out, string(v))
				}
			}
		}
	}
}
