package crawl_test

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	xhtml "golang.org/x/net/html"

	"github.com/vigil-web/vigil/internal/zstd"
)

// corpusSite is the shared corpus's site, two releases of Git's HTML
// documentation, found beside the repository as the other corpus tests
// find it (../shared/corpus from the module root); siteArchive is the
// same site, whole, in the repository (what CI has): a tar file
// compressed by zstd with a window spanning both releases, 0.8 MB for
// 17 MB.
const (
	corpusSite  = "../../../shared/corpus/site-git-htmldocs"
	siteArchive = "../../testdata/corpus/site-git-htmldocs.tar.zst"
)

// The two releases and their dates (the corpus README gives the commits).
const (
	oldRelease = "v2.30.0"
	newRelease = "v2.31.0"
)

var (
	oldDate = time.Date(2020, 12, 27, 0, 0, 0, 0, time.UTC)
	newDate = time.Date(2021, 3, 17, 0, 0, 0, 0, time.UTC)
)

// release is the files of one release, by URL path ("/git.html").
type release map[string][]byte

var (
	releasesOnce sync.Once
	releases     map[string]release
	releasesErr  error
)

// corpus returns the two releases: from the shared corpus beside the
// repository, or else from the repository's archive of it.
func corpus(t testing.TB) map[string]release {
	t.Helper()
	releasesOnce.Do(func() {
		if _, err := os.Stat(corpusSite); err != nil {
			releases, releasesErr = readArchive(siteArchive)
			return
		}
		releases = map[string]release{}
		for _, name := range []string{oldRelease, newRelease} {
			r, err := readRelease(filepath.Join(corpusSite, name))
			if err != nil {
				releasesErr = err
				return
			}
			releases[name] = r
		}
	})
	if releasesErr != nil {
		t.Fatal(releasesErr)
	}
	return releases
}

// readArchive reads both releases from the tar.zst archive of the site
// (site-git-htmldocs/RELEASE/PATH).
func readArchive(name string) (map[string]release, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("the site corpus is neither at %s nor at %s: %w", corpusSite, name, err)
	}
	codec, err := zstd.New(0)
	if err != nil {
		return nil, err
	}
	if data, err = codec.Decompress(data); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := map[string]release{oldRelease: {}, newRelease: {}}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rel, file, _ := strings.Cut(strings.TrimPrefix(h.Name, "site-git-htmldocs/"), "/")
		r, ok := out[rel]
		if h.Typeflag != tar.TypeReg || !ok {
			continue
		}
		if r["/"+file], err = io.ReadAll(tr); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, h.Name, err)
		}
	}
}

func readRelease(dir string) (release, error) {
	r := release{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		r["/"+filepath.ToSlash(rel)] = b
		return err
	})
	return r, err
}

// site is a static web server on loopback, serving a release as the
// servers of documentation sites do (Go's http.FileServer, nginx):
//
//   - a directory's URL ends in a slash; without it, a 301 leads there;
//   - with listing off, a directory serves its index.html and
//     /dir/index.html redirects (301) to /dir/; with listing on, a
//     directory lists its entries (nginx's autoindex) and index.html is a
//     file like the others;
//   - Last-Modified from dates, when set;
//   - robots.txt disallowing one prefix, when set.
type site struct {
	srv *httptest.Server

	mu       sync.Mutex
	files    release
	dates    map[string]time.Time // nil: no Last-Modified
	listing  bool
	disallow string            // robots.txt: Disallow this prefix for every agent
	moved    map[string]string // old path -> new path: 301 from the old, the file served at the new
	gone     map[string]bool   // paths answered with 404
	hits     map[string]int    // requests by path
}

func newSite(t testing.TB, files release) *site {
	s := &site{files: files, hits: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.srv.Close)
	return s
}

// url returns the absolute URL of a path on the site.
func (s *site) url(p string) string { return s.srv.URL + p }

// set replaces the release served, with Last-Modified dates or none.
func (s *site) set(files release, dates map[string]time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files, s.dates = files, dates
}

// response is what the site answers at a path.
type response struct {
	status   int
	location string // path a redirect leads to
	body     []byte
	ctype    string
	modified time.Time
}

func (s *site) respond(p string) response {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p == "/robots.txt" {
		if s.disallow == "" {
			return response{status: 404}
		}
		return response{status: 200, ctype: "text/plain; charset=utf-8", body: []byte("User-agent: *\nDisallow: " + s.disallow + "\n")}
	}
	if s.gone[p] {
		return response{status: 404}
	}
	if to, ok := s.moved[p]; ok {
		return response{status: 301, location: to}
	}
	for from, to := range s.moved {
		if p == to {
			p = from // the file is served at its new path
		}
	}
	if strings.HasSuffix(p, "/") {
		if s.listing {
			if entries := s.entries(p); len(entries) > 0 {
				return response{status: 200, ctype: "text/html; charset=utf-8", body: listing(entries)}
			}
			return response{status: 404}
		}
		if b, ok := s.files[p+"index.html"]; ok {
			return response{status: 200, ctype: "text/html; charset=utf-8", body: b, modified: s.dates[p+"index.html"]}
		}
		return response{status: 404}
	}
	if !s.listing && path.Base(p) == "index.html" {
		return response{status: 301, location: strings.TrimSuffix(p, "index.html")}
	}
	if b, ok := s.files[p]; ok {
		return response{status: 200, ctype: mime.TypeByExtension(path.Ext(p)), body: b, modified: s.dates[p]}
	}
	if len(s.entries(p+"/")) > 0 {
		return response{status: 301, location: p + "/"}
	}
	return response{status: 404}
}

// entries lists the names in directory dir ("/howto/"), subdirectories
// with a trailing slash, sorted.
func (s *site) entries(dir string) []string {
	set := map[string]bool{}
	for p := range s.files {
		rest, ok := strings.CutPrefix(p, dir)
		if !ok {
			continue
		}
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[:i+1]
		}
		set[rest] = true
	}
	var out []string
	for name := range set {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// listing is a directory listing as http.FileServer writes it.
func listing(entries []string) []byte {
	var b bytes.Buffer
	b.WriteString("<!doctype html>\n<meta name=\"viewport\" content=\"width=device-width\">\n<pre>\n")
	for _, name := range entries {
		u := url.URL{Path: name}
		fmt.Fprintf(&b, "<a href=\"%s\">%s</a>\n", html.EscapeString(u.String()), html.EscapeString(name))
	}
	b.WriteString("</pre>\n")
	return b.Bytes()
}

func (s *site) serveHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	res := s.respond(r.URL.Path)
	switch {
	case res.location != "":
		http.Redirect(w, r, res.location, res.status)
	case res.status != 200:
		http.Error(w, http.StatusText(res.status), res.status)
	default:
		w.Header().Set("Content-Type", res.ctype)
		http.ServeContent(w, r, r.URL.Path, res.modified, bytes.NewReader(res.body))
	}
}

// releaseDates gives each file of cur the date of the release that last
// changed it: old's date if it is byte for byte in old, else date.
func releaseDates(cur, old release, oldDate, date time.Time) map[string]time.Time {
	out := map[string]time.Time{}
	for p, b := range cur {
		if ob, ok := old[p]; ok && bytes.Equal(ob, b) {
			out[p] = oldDate
		} else {
			out[p] = date
		}
	}
	return out
}

// expected is what a crawl of the site should find, worked out without
// the crawler: the site's answers taken directly (respond), hrefs read by
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
		var res response
		if s.disallow != "" && strings.HasPrefix(p, s.disallow) {
			res = response{status: 0}
		} else {
			res = s.respond(p)
			for hops := 0; res.location != ""; hops++ {
				if hops > 10 {
					t.Fatalf("%s: redirect loop", it.p)
				}
				// The fetcher checks robots.txt for the URL asked for,
				// not for where its redirects lead.
				p = res.location
				res = s.respond(p)
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
		if res.status != 200 {
			e.failed[p] = true
			continue
		}
		if !strings.HasPrefix(res.ctype, "text/html") {
			continue
		}
		for _, h := range hrefs(t, res.body) {
			u, err := url.Parse(s.url(p))
			if err != nil {
				t.Fatal(err)
			}
			target, err := u.Parse(strings.TrimSpace(h))
			if err != nil || target.Scheme+"://"+target.Host != s.srv.URL {
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
