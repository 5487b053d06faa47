package crawl_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlTextMediaTypes: a crawl tells a text page from a binary leaf
// by vigil.IsTextMediaType, the fetcher's rule. Its own list, the
// fetcher's old one, left out the JavaScript aliases but
// application/javascript and newline-delimited JSON: a script served as
// application/x-javascript was a binary leaf without a version of its
// content, and one served as application/x-ndjson was a binary leaf too
// (whose charset no one knows: read now, as in a meta element).
func TestCrawlTextMediaTypes(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/site/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<a href="app.js">App</a> <a href="feed.ndjson">Feed</a> <a href="old.js">Old</a>`))
	})
	mux.HandleFunc("/site/app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-javascript")
		w.Write([]byte("var a = 1;\n"))
	})
	mux.HandleFunc("/site/old.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "Application/ECMAScript; charset=utf-8")
		w.Write([]byte("var b = 2;\n"))
	})
	mux.HandleFunc("/site/feed.ndjson", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson; charset=x-no-such-charset")
		w.Write([]byte("{\"a\": 1}\n"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/site/"))
	for _, tt := range []struct {
		path, contentType, body string
	}{
		{"/site/app.js", "application/x-javascript", "var a = 1;\n"},
		{"/site/old.js", "application/ecmascript", "var b = 2;\n"},
		{"/site/feed.ndjson", "application/x-ndjson", "{\"a\": 1}\n"},
	} {
		p := snap.Page(srv.URL + tt.path)
		if p == nil || p.Failed() || p.ContentType != tt.contentType || p.Hash != hashOf([]byte(tt.body)) ||
			p.Version != p.Hash || p.VersionKind != crawl.VersionContentHash {
			t.Errorf("%s: %+v, want a text page of type %s with the hash of its body as its version", tt.path, p, tt.contentType)
		}
	}
}
