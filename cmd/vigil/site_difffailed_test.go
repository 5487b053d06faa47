package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"
)

// TestSiteDiffJSONFailed: the JSON of vigil site diff tells a page that
// fails from one removed, as the text output does ("now failing: HTTP
// 503"), and a page added that failed before from one new: a script that
// acts on "deleted" would otherwise take a page down for a moment for a
// page gone.
func TestSiteDiffJSONFailed(t *testing.T) {
	var release atomic.Int32 // 0: a and b; 1: a fails, b is gone; 2: a works again
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/docs/":
			index := `<title>Docs</title><a href="a.html">A</a>`
			if release.Load() == 0 {
				index += `<a href="b.html">B</a>`
			}
			w.Write([]byte(index))
		case "/docs/a.html":
			if release.Load() == 1 {
				http.Error(w, "down for a moment", http.StatusServiceUnavailable)
				return
			}
			w.Write([]byte(`<title>A</title>`))
		case "/docs/b.html":
			w.Write([]byte(`<title>B</title>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	a := srv.URL + "/docs/a.html"
	dir := t.TempDir()
	first := siteCrawl(t, dir, "first.json", srv.URL+"/docs/")
	release.Store(1)
	second := siteCrawl(t, dir, "second.json", srv.URL+"/docs/")
	release.Store(2)
	third := siteCrawl(t, dir, "third.json", srv.URL+"/docs/")

	type failed struct {
		Old string `json:"old"`
		New string `json:"new"`
	}
	for _, tc := range []struct {
		old, new string
		want     map[string]failed
	}{
		{first, second, map[string]failed{a: {New: "HTTP 503"}}},
		{second, third, map[string]failed{a: {Old: "HTTP 503"}}},
	} {
		_, out := siteDiff(t, "--format", "json", tc.old, tc.new)
		var got struct {
			Failed map[string]failed `json:"failed"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s", out)
		}
		if !reflect.DeepEqual(got.Failed, tc.want) {
			t.Errorf("failed %+v, want %+v (b.html, removed, is not failing)\n%s", got.Failed, tc.want, out)
		}
	}
}
