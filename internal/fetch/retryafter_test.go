package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRetryAfter: a host that answers 429 or 503 with Retry-After is left
// alone for that long, by the page's fetch and every other fetch of the
// host, and the page is asked again once then, within the fetch's time:
// a site that rate-limits a crawl has its pages read, not recorded as
// failing, and is not asked again before it said.
func TestRetryAfter(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			var mu sync.Mutex
			var until time.Time // no request before it
			early, limited := 0, false
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				if time.Now().Before(until) {
					early++
				}
				if r.URL.Path == "/a" && !limited {
					limited = true
					until = time.Now().Add(time.Second)
					w.Header().Set("Retry-After", "1")
					w.WriteHeader(status)
					return
				}
				w.Write([]byte("<p>" + r.URL.Path + "</p>"))
			}))
			defer srv.Close()
			c := New(Options{AllowPrivateNetworks: true, IgnoreRobots: true, TotalTimeout: 10 * time.Second})
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/a"})
			if err != nil || res.Status != http.StatusOK {
				t.Fatalf("fetch of a page limited for a second: %+v, %v; want it read when asked again", res, err)
			}
			if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/b"}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if early != 0 {
				t.Errorf("%d requests before the time Retry-After gave", early)
			}
		})
	}
}
