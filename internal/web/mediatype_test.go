package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestVersionBodyTextMediaTypes: the API serves a version's body as
// text/plain when its type is text by vigil.IsTextMediaType, the rule the
// fetcher keeps bodies by, else as application/octet-stream. Its own list
// took application/ecmascript but not the other JavaScript aliases or
// newline-delimited JSON: a body of application/x-javascript or
// application/x-ndjson kept without a charset (one imported from a WARC
// file) was a binary download.
func TestVersionBodyTextMediaTypes(t *testing.T) {
	ctx := context.Background()
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	cookie, err := s.newSessionCookie(u)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, tt := range []struct{ contentType, want string }{
		{"application/x-javascript", "text/plain; charset=utf-8"},
		{"application/x-ndjson", "text/plain; charset=utf-8"},
		{"application/ecmascript", "text/plain; charset=utf-8"},
		{"application/javascript", "text/plain; charset=utf-8"},
		{"text/csv", "text/plain; charset=utf-8"},
		{"application/pdf", "application/octet-stream"},
	} {
		t.Run(tt.contentType, func(t *testing.T) {
			v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/p", FetchedAt: at.Add(time.Duration(i) * time.Hour),
				Status: 200, ContentType: tt.contentType, Body: []byte("var a = " + strconv.Itoa(i) + ";\n")})
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest("GET", srv.URL+"/api/v1/versions/"+strconv.FormatInt(v.ID, 10)+"/body", nil)
			req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET body: %d %s", resp.StatusCode, b)
			}
			if got := resp.Header.Get("Content-Type"); got != tt.want {
				t.Errorf("Content-Type %q, want %q", got, tt.want)
			}
			if got := resp.Header.Get("X-Vigil-Content-Type"); got != tt.contentType {
				t.Errorf("X-Vigil-Content-Type %q, want %q", got, tt.contentType)
			}
		})
	}
}
