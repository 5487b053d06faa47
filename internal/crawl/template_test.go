package crawl_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlSkipsTemplates: a crawl follows no link, frame or paging link
// inside a <template>, whose content is inert (a browser neither shows
// nor follows it): they are no links of the page. It followed them, and a
// site's client-side templates (a row written for a script to copy) were
// pages of the site.
func TestCrawlSkipsTemplates(t *testing.T) {
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, body)
		}
	}
	mux.HandleFunc("/site/{$}", page(`<html><head><title>Home</title></head><body>`+
		`<template id="row"><a href="t/a.html">T</a><iframe src="t/frame.html"></iframe><link rel="next" href="t/next.html">`+
		`<template><a href="t/nested.html">N</a></template><svg><a xlink:href="t/svg.html">S</a></svg></template>`+
		`<a href="b.html">B</a></body></html>`))
	mux.HandleFunc("/site/b.html", page(`<title>B</title>`))
	for _, p := range []string{"/site/t/a.html", "/site/t/frame.html", "/site/t/next.html", "/site/t/nested.html", "/site/t/svg.html"} {
		mux.HandleFunc(p, page(`<title>Template</title>`))
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	u := func(p string) string { return srv.URL + p }

	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(u("/site/")))
	var got []string
	for _, p := range snap.Pages {
		got = append(got, p.URL)
	}
	if want := []string{u("/site/"), u("/site/b.html")}; !slices.Equal(got, want) {
		t.Errorf("pages\n%q\nwant\n%q", got, want)
	}
	if home := snap.Page(u("/site/")); home == nil || !slices.Equal(home.Links, []crawl.Link{{u("/site/b.html"), "B"}}) {
		t.Errorf("home links %+v, want b.html only", home)
	}
}
