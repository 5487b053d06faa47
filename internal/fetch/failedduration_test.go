package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestFailedFetchDuration: a fetch whose redirects loop, or pass
// MaxRedirects, and a rendered fetch that fails before its page came (a
// refused connection, a redirect loop), return with their error a result
// holding the URL asked, no status, and the time the fetch took, as a
// plain fetch that had no answer does (TestNoAnswerDuration). They
// returned none, and the failed version's fetchDuration was 0. The
// rendered cases need Chromium (needChromium).
func TestFailedFetchDuration(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == "/a":
			http.Redirect(w, r, "/b", http.StatusFound)
		case p == "/b":
			http.Redirect(w, r, "/a", http.StatusFound)
		case strings.HasPrefix(p, "/hop/"):
			n, _ := strconv.Atoi(strings.TrimPrefix(p, "/hop/"))
			http.Redirect(w, r, "/hop/"+strconv.Itoa(n+1), http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedURL := "http://" + closed.Addr().String() + "/page"
	closed.Close()

	for _, tc := range []struct {
		name   string
		url    string
		render bool
		want   error // nil: any error
	}{
		{"redirect loop", srv.URL + "/a", false, ErrRedirects},
		{"too many redirects", srv.URL + "/hop/0", false, ErrRedirects},
		{"rendered, connection refused", refusedURL, true, nil},
		{"rendered, redirect loop", srv.URL + "/a", true, ErrRedirects},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{IgnoreRobots: true, TotalTimeout: 30 * time.Second, MaxRedirects: 3}
			if tc.render {
				needChromium(t)
				chrome := &Chromium{}
				t.Cleanup(func() { chrome.Close() })
				opt.Renderer = chrome
			}
			c := testClient(opt)
			before := time.Now()
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: tc.url, Render: tc.render})
			after := time.Now()
			if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("fetch of %s: %v; want an error (%v)", tc.url, err, tc.want)
			}
			if res == nil {
				t.Fatalf("fetch of %s: %v and no result; want one with the time taken", tc.url, err)
			}
			if res.Status != 0 || res.Body != nil || res.URL != tc.url {
				t.Errorf("result %+v; want the URL asked, no status and no body", res)
			}
			if res.FetchedAt.Before(before) || res.FetchedAt.After(after) {
				t.Errorf("FetchedAt %v, not within the fetch (%v to %v)", res.FetchedAt, before, after)
			}
			if res.Duration <= 0 || res.Duration > after.Sub(res.FetchedAt) {
				t.Errorf("Duration %v; want the time from FetchedAt to the failure (at most %v)", res.Duration, after.Sub(res.FetchedAt))
			}
		})
	}
}
