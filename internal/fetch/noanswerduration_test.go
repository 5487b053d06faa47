package fetch

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestNoAnswerDuration: a fetch that fails before any answer comes (a
// server that takes the connection and says nothing until the fetch's
// time runs out, a port that refuses it) returns, with its error, a
// result that holds the time it took from its start (FetchedAt, after the
// host's turn) and no status, so that its failed version says how long it
// took: it returned none, and the version's fetchDuration was 0. So does
// one whose host gave robots.txt, read first, no answer: that failure is
// the page's.
func TestNoAnswerDuration(t *testing.T) {
	t.Parallel()
	hung, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hung.Close()
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			conn, err := hung.Accept()
			if err != nil {
				return
			}
			go func() { // read nothing, answer nothing
				<-done
				conn.Close()
			}()
		}
	}()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedURL := "http://" + closed.Addr().String() + "/page"
	closed.Close()

	const total = 300 * time.Millisecond
	for name, tc := range map[string]struct {
		url    string
		robots bool          // robots.txt is read first
		least  time.Duration // the fetch cannot end before it
	}{
		"no answer until the timeout": {"http://" + hung.Addr().String() + "/page", false, total},
		"connection refused":          {refusedURL, false, 0},
		"robots.txt refused":          {refusedURL, true, 0},
	} {
		t.Run(name, func(t *testing.T) {
			c := testClient(Options{IgnoreRobots: !tc.robots, TotalTimeout: total})
			before := time.Now()
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: tc.url})
			after := time.Now()
			if err == nil {
				t.Fatalf("fetch of %s: no error", tc.url)
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
			if res.Duration <= 0 || res.Duration < tc.least || res.Duration > after.Sub(res.FetchedAt) {
				t.Errorf("Duration %v; want the time from FetchedAt to the failure (at least %v, at most %v)", res.Duration, tc.least, after.Sub(res.FetchedAt))
			}
		})
	}
}
