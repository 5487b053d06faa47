package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestMetaRefresh: an HTML page whose meta refresh of at most
// MaxRefreshDelay seconds names another page is a redirect: the result
// is that page's, its URL the final one, as an HTTP redirect's; the
// redirect is held to robots.txt and the caller's CheckRedirect, a loop
// fails as a loop of HTTP redirects does, and a refresh of the page
// itself, a longer delay, a refresh in <noscript> or one that is not http
// are no redirect: the page is read as itself. Before, every such page
// was read as itself, the pages it led to never fetched.
func TestMetaRefresh(t *testing.T) {
	pages := map[string]string{
		"/zero":       `<meta http-equiv="refresh" content="0; url=/target">moved`,
		"/quoted":     `<html><head><META HTTP-EQUIV="Refresh" CONTENT="5;URL='target'"></head></html>`,
		"/based":      `<base href="/dir/"><meta http-equiv="refresh" content="0;url=target">`,
		"/dir/target": `<title>dir target</title>`,
		"/chain":      `<meta http-equiv="refresh" content="0;url=/zero">`,
		"/http":       `<meta http-equiv="refresh" content="0;url=/redirect">`,
		"/self":       `<title>self</title><meta http-equiv="refresh" content="0;url=/self#top">`,
		"/reload":     `<title>reload</title><meta http-equiv="refresh" content="60">`,
		"/slow":       `<title>slow</title><meta http-equiv="refresh" content="30; url=/target">`,
		"/noscript":   `<title>noscript</title><noscript><meta http-equiv="refresh" content="0; url=/target"></noscript>`,
		"/js":         `<title>js</title><meta http-equiv="refresh" content="0; url=javascript:alert(1)">`,
		"/a":          `<meta http-equiv="refresh" content="0; url=/b">`,
		"/b":          `<meta http-equiv="refresh" content="0; url=/a">`,
		"/private":    `<meta http-equiv="refresh" content="0; url=/secret/page">`,
		"/out":        `<meta http-equiv="refresh" content="0; url=/elsewhere">`,
		"/target":     `<title>target</title>`,
		"/text":       `<meta http-equiv="refresh" content="0; url=/target">`,
	}
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path]++
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /secret/\n")
			return
		case "/redirect":
			http.Redirect(w, r, "/target", http.StatusFound)
			return
		case "/text":
			w.Header().Set("Content-Type", "text/plain")
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, body)
	}))
	defer srv.Close()
	u := func(p string) string { return srv.URL + p }
	c := testClient(Options{})
	outOfScope := errors.New("out of scope")
	for _, tc := range []struct {
		path, url, body, err string
	}{
		{path: "/zero", url: "/target", body: "<title>target</title>"},
		{path: "/quoted", url: "/target", body: "<title>target</title>"},
		{path: "/based", url: "/dir/target", body: "<title>dir target</title>"},
		{path: "/chain", url: "/target", body: "<title>target</title>"},
		{path: "/http", url: "/target", body: "<title>target</title>"},
		{path: "/self", url: "/self", body: pages["/self"]},
		{path: "/reload", url: "/reload", body: pages["/reload"]},
		{path: "/slow", url: "/slow", body: pages["/slow"]},
		{path: "/noscript", url: "/noscript", body: pages["/noscript"]},
		{path: "/js", url: "/js", body: pages["/js"]},
		{path: "/text", url: "/text", body: pages["/text"]},
		{path: "/a", err: "fetch " + u("/a") + ": redirect loop: " + u("/a") + " → " + u("/b") + " → " + u("/a")},
		{path: "/private", url: "/secret/page", err: "fetch " + u("/private") + ": redirect to " + u("/secret/page") + ": disallowed by robots.txt"},
		{path: "/out", url: "/elsewhere", err: "fetch " + u("/out") + ": redirect to " + u("/elsewhere") + ": out of scope"},
	} {
		t.Run(strings.TrimPrefix(tc.path, "/"), func(t *testing.T) {
			clear(hits)
			req := &vigil.FetchRequest{URL: u(tc.path), CheckRedirect: func(target string) error {
				if strings.HasSuffix(target, "/elsewhere") {
					return outOfScope
				}
				return nil
			}}
			res, err := c.Fetch(context.Background(), req)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("Fetch(%s): %v, want %s", tc.path, err, tc.err)
				}
				if tc.url != "" && (res == nil || res.URL != u(tc.url)) {
					t.Errorf("Fetch(%s): result %+v, want URL %s", tc.path, res, u(tc.url))
				}
				if hits["/secret/page"]+hits["/elsewhere"] != 0 {
					t.Errorf("a refused refresh was requested: %v", hits)
				}
				return
			}
			if err != nil {
				t.Fatalf("Fetch(%s): %v", tc.path, err)
			}
			if res.URL != u(tc.url) || string(res.Body) != tc.body {
				t.Errorf("Fetch(%s) = URL %s, body %q; want %s, %q", tc.path, res.URL, res.Body, u(tc.url), tc.body)
			}
		})
	}
}

// TestMetaRefreshCap: meta refreshes count against MaxRedirects with
// HTTP redirects, so a chain of them ends.
func TestMetaRefreshCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<meta http-equiv="refresh" content="0; url=`+r.URL.Path+`x">`)
	}))
	defer srv.Close()
	c := testClient(Options{IgnoreRobots: true, MaxRedirects: 3})
	_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/p"})
	if !errors.Is(err, ErrRedirects) || !strings.Contains(err.Error(), "more than 3 redirects") {
		t.Errorf("a chain of refreshes: %v, want more than 3 redirects (ErrRedirects)", err)
	}
}
