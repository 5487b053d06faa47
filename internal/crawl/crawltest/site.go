package crawltest

import (
	"bytes"
	"fmt"
	"html"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Site is a static web server on loopback, serving a release as the
// servers of documentation sites do (Go's http.FileServer, nginx):
//
//   - a directory's URL ends in a slash; without it, a 301 leads there;
//   - with Listing off, a directory serves its index.html and
//     /dir/index.html redirects (301) to /dir/; with Listing on, a
//     directory lists its entries (nginx's autoindex) and index.html is a
//     file like the others;
//   - Last-Modified from dates, when set;
//   - robots.txt disallowing one prefix, when set.
//
// Set the exported fields before the requests, or with Mu held.
type Site struct {
	Srv *httptest.Server

	Mu       sync.Mutex
	files    Release
	dates    map[string]time.Time // nil: no Last-Modified
	Listing  bool
	Disallow string            // robots.txt: Disallow this prefix for every agent
	Moved    map[string]string // old path -> new path: 301 from the old, the file served at the new
	Gone     map[string]bool   // paths answered with 404
	Failing  map[string]int    // paths answered with this status (503: a deploy), not their file
	Hits     map[string]int    // requests by path
}

// NewSite starts a server of files, closed when the test ends.
func NewSite(t testing.TB, files Release) *Site {
	s := &Site{files: files, Hits: map[string]int{}}
	s.Srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.Srv.Close)
	return s
}

// NewTLSSite is NewSite for a site served over https, with the test
// certificate of httptest (Srv.Certificate), which a client trusts only
// when told to.
func NewTLSSite(t testing.TB, files Release) *Site {
	s := &Site{files: files, Hits: map[string]int{}}
	s.Srv = httptest.NewTLSServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(s.Srv.Close)
	return s
}

// URL returns the absolute URL of a path on the site.
func (s *Site) URL(p string) string { return s.Srv.URL + p }

// Set replaces the release served, with Last-Modified dates or none.
func (s *Site) Set(files Release, dates map[string]time.Time) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.files, s.dates = files, dates
}

// Response is what the site answers at a path.
type Response struct {
	Status   int
	Location string // path a redirect leads to
	Body     []byte
	Type     string
	Modified time.Time
}

// Respond returns the site's answer at path p.
func (s *Site) Respond(p string) Response {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if p == "/robots.txt" {
		if s.Disallow == "" {
			return Response{Status: 404}
		}
		return Response{Status: 200, Type: "text/plain; charset=utf-8", Body: []byte("User-agent: *\nDisallow: " + s.Disallow + "\n")}
	}
	if s.Gone[p] {
		return Response{Status: 404}
	}
	if code := s.Failing[p]; code != 0 {
		return Response{Status: code}
	}
	if to, ok := s.Moved[p]; ok {
		return Response{Status: 301, Location: to}
	}
	for from, to := range s.Moved {
		if p == to {
			p = from // the file is served at its new path
		}
	}
	if strings.HasSuffix(p, "/") {
		if s.Listing {
			if entries := s.entries(p); len(entries) > 0 {
				return Response{Status: 200, Type: "text/html; charset=utf-8", Body: listing(entries)}
			}
			return Response{Status: 404}
		}
		if b, ok := s.files[p+"index.html"]; ok {
			return Response{Status: 200, Type: "text/html; charset=utf-8", Body: b, Modified: s.dates[p+"index.html"]}
		}
		return Response{Status: 404}
	}
	if !s.Listing && path.Base(p) == "index.html" {
		return Response{Status: 301, Location: strings.TrimSuffix(p, "index.html")}
	}
	if b, ok := s.files[p]; ok {
		return Response{Status: 200, Type: mime.TypeByExtension(path.Ext(p)), Body: b, Modified: s.dates[p]}
	}
	if len(s.entries(p+"/")) > 0 {
		return Response{Status: 301, Location: p + "/"}
	}
	return Response{Status: 404}
}

// entries lists the names in directory dir ("/howto/"), subdirectories
// with a trailing slash, sorted.
func (s *Site) entries(dir string) []string {
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

func (s *Site) serveHTTP(w http.ResponseWriter, r *http.Request) {
	s.Mu.Lock()
	s.Hits[r.URL.Path]++
	s.Mu.Unlock()
	res := s.Respond(r.URL.Path)
	switch {
	case res.Location != "":
		http.Redirect(w, r, res.Location, res.Status)
	case res.Status != 200:
		http.Error(w, http.StatusText(res.Status), res.Status)
	default:
		w.Header().Set("Content-Type", res.Type)
		http.ServeContent(w, r, r.URL.Path, res.Modified, bytes.NewReader(res.Body))
	}
}
