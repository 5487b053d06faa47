package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestFetchTextMediaTypes: the fetcher keeps a body as text by
// vigil.IsTextMediaType, the rule the crawl, the API and the warehouse
// hold it to. Its own list kept application/javascript but refused the
// other JavaScript aliases and newline-delimited JSON as binary
// (application/ecmascript, which the API served as text;
// application/x-javascript and application/x-ndjson, which the warehouse
// read as text), and read a Content-Type whose parameters are malformed
// as no type at all, sniffing the body.
func TestFetchTextMediaTypes(t *testing.T) {
	const body = "{\"a\": \"<b>\"}\n{\"a\": 2}\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", r.URL.Query().Get("type"))
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c := testClient(Options{IgnoreRobots: true})
	tests := []struct {
		contentType, want string // want: the result's ContentType, "" for ErrBinary
	}{
		{"application/javascript", "application/javascript"},
		{"application/ecmascript", "application/ecmascript"},
		{"application/x-javascript", "application/x-javascript"},
		{"application/x-ecmascript", "application/x-ecmascript"},
		{"application/x-ndjson", "application/x-ndjson"},
		{"application/ndjson", "application/ndjson"},
		{"Application/X-JavaScript; charset=UTF-8", "application/x-javascript"},
		{"application/json; charset=utf-8; charset=UTF-8", "application/json"},
		{"application/vnd.api+json", "application/vnd.api+json"},
		{"text/csv", "text/csv"},
		{"application/octet-stream", ""},
		{"application/pdf", ""},
	}
	for _, tt := range tests {
		t.Run(tt.contentType, func(t *testing.T) {
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/?type=" + url.QueryEscape(tt.contentType)})
			if tt.want == "" {
				if !errors.Is(err, ErrBinary) {
					t.Fatalf("Fetch: %v, want ErrBinary", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if res.ContentType != tt.want || string(res.Body) != body || res.Charset != "utf-8" {
				t.Errorf("got type %q charset %q body %q; want type %q and the body", res.ContentType, res.Charset, res.Body, tt.want)
			}
		})
	}
}
