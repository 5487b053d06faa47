package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestHeaderWaitFollowsTotal: a page may take its whole TotalTimeout
// (vigil serve --fetch-timeout) to send its headers, since a page may be
// slow to answer (a report generated on request): the defaults leave the
// wait for the headers no timer of its own, in the client's options and
// in the transport its fetches go through, where a fetch used to give up
// on them after 20 s whatever its TotalTimeout; and a page that answers
// its headers late in its TotalTimeout is fetched. A HeaderTimeout set on
// its own still bounds the wait (TestHeaderTimeoutOnItsOwn).
func TestHeaderWaitFollowsTotal(t *testing.T) {
	t.Parallel()
	total, slow := time.Second, 600*time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(slow):
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "<p>at last</p>")
	}))
	defer srv.Close()
	c := testClient(Options{IgnoreRobots: true, TotalTimeout: total})
	if c.opt.HeaderTimeout != 0 {
		t.Errorf("Options' defaults set a HeaderTimeout of %v; want none: the headers' wait bounded by TotalTimeout alone", c.opt.HeaderTimeout)
	}
	for name, hc := range map[string]*http.Client{"pages": c.page, "HTTPClient and Transport": c.http, "robots.txt": c.robotsHTTP} {
		if got := hc.Transport.(*http.Transport).ResponseHeaderTimeout; got != 0 {
			t.Errorf("the transport of %s waits %v for headers on a timer of its own; want TotalTimeout alone", name, got)
		}
	}
	start := time.Now()
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/slow"})
	if err != nil || string(res.Body) != "<p>at last</p>" {
		t.Fatalf("a page answering after %v within a TotalTimeout of %v: err = %v after %v; want its body", slow, total, err, time.Since(start))
	}
}

// TestHeaderTimeoutOnItsOwn: a HeaderTimeout set shorter than
// TotalTimeout fails a page whose headers come later.
func TestHeaderTimeoutOnItsOwn(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "<p>late</p>")
	}))
	defer srv.Close()
	c := testClient(Options{IgnoreRobots: true, TotalTimeout: 5 * time.Second, HeaderTimeout: 200 * time.Millisecond})
	_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/late"})
	if err == nil || !strings.Contains(err.Error(), "timeout awaiting response headers") {
		t.Errorf("headers after 2s with a HeaderTimeout of 200ms: err = %v; want a timeout awaiting response headers", err)
	}
}
