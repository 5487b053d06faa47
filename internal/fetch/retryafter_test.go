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

// TestRetryAfterValues: what each Retry-After value asks the client to
// wait: seconds (capped at a day), an HTTP date (nothing if past), and
// nothing for a value that is neither, or for a status other than 429
// and 503. A number of seconds too large for an int64, and a date
// centuries ahead, ask for the longest wait (a day), not for none or for
// centuries.
func TestRetryAfterValues(t *testing.T) {
	day := 24 * time.Hour
	for _, tc := range []struct {
		name, value string
		status      int
		want        time.Duration
	}{
		{"seconds", "120", http.StatusTooManyRequests, 2 * time.Minute},
		{"seconds with spaces", " 7 ", http.StatusServiceUnavailable, 7 * time.Second},
		{"zero", "0", http.StatusTooManyRequests, 0},
		{"negative", "-5", http.StatusTooManyRequests, 0},
		{"over a day", "100000", http.StatusTooManyRequests, day},
		{"past int64", "99999999999999999999999", http.StatusTooManyRequests, day},
		{"a date past", "Wed, 21 Oct 2015 07:28:00 GMT", http.StatusServiceUnavailable, 0},
		{"a date centuries ahead", "Fri, 31 Dec 2999 23:59:59 GMT", http.StatusServiceUnavailable, day},
		{"garbage", "soon", http.StatusTooManyRequests, 0},
		{"a fraction", "1.5", http.StatusTooManyRequests, 0},
		{"another status", "120", http.StatusInternalServerError, 0},
		{"none", "", http.StatusTooManyRequests, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: tc.status, Header: http.Header{}}
			if tc.value != "" {
				resp.Header.Set("Retry-After", tc.value)
			}
			if got := retryAfter(resp); got != tc.want {
				t.Errorf("Retry-After %q on %d: %v, want %v", tc.value, tc.status, got, tc.want)
			}
		})
	}
}
