package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRedirectTargetValidators: validators given for the page a redirect
// leads to (FetchRequest.ValidatorsURL) go with the request of that page
// only, when the redirect lands there again, so that its 304 is read as
// not modified; the redirecting page, and a page the redirect leads to
// instead, are asked without them.
func TestRedirectTargetValidators(t *testing.T) {
	lastModified := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := map[string]struct {
		path          string // asked
		validatorsFor string // FetchRequest.ValidatorsURL's path, "" for none
		notModified   bool
		final         string
		sent          map[string]string // path: the validators its request had
	}{
		"redirect to the validators' page": {
			path: "/moved", validatorsFor: "/target", notModified: true, final: "/target",
			sent: map[string]string{"/moved": "|", "/target": `"v1"|` + lastModified.Format(http.TimeFormat)},
		},
		"redirect elsewhere": {
			path: "/moved", validatorsFor: "/old-target", final: "/target",
			sent: map[string]string{"/moved": "|", "/target": "|"},
		},
		"the page asked no longer redirects": {
			path: "/own", validatorsFor: "/target", final: "/own",
			sent: map[string]string{"/own": "|"},
		},
		"the page asked's own validators": {
			path: "/own", validatorsFor: "/own", notModified: true, final: "/own",
			sent: map[string]string{"/own": `"v1"|` + lastModified.Format(http.TimeFormat)},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			sent := map[string]string{}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				sent[r.URL.Path] = r.Header.Get("If-None-Match") + "|" + r.Header.Get("If-Modified-Since")
				mu.Unlock()
				switch r.URL.Path {
				case "/moved":
					http.Redirect(w, r, "/target", http.StatusMovedPermanently)
				case "/target", "/own":
					w.Header().Set("ETag", `"v1"`)
					if r.Header.Get("If-None-Match") == `"v1"` {
						w.WriteHeader(http.StatusNotModified)
						return
					}
					w.Header().Set("Content-Type", "text/html")
					io.WriteString(w, "<p>the page</p>")
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			c := testClient(Options{IgnoreRobots: true})
			req := &vigil.FetchRequest{URL: srv.URL + tc.path, ETag: `"v1"`, LastModified: lastModified}
			if tc.validatorsFor != "" {
				req.ValidatorsURL = srv.URL + tc.validatorsFor
			}
			res, err := c.Fetch(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if res.NotModified != tc.notModified || res.URL != srv.URL+tc.final {
				t.Errorf("Fetch = not modified %v at %s; want not modified %v at %s", res.NotModified, res.URL, tc.notModified, srv.URL+tc.final)
			}
			mu.Lock()
			defer mu.Unlock()
			for p, want := range tc.sent {
				if sent[p] != want {
					t.Errorf("%s was sent validators %q, want %q", p, sent[p], want)
				}
			}
		})
	}
}
