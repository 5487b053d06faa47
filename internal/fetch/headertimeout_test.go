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

// TestHeaderWaitFollowsTotal: a page that answers its headers after 21 s,
// past the 20 s a fetch used to wait for them, is fetched within a
// TotalTimeout of 30 s (vigil serve --fetch-timeout), since a page may
// take its whole budget to answer; a HeaderTimeout set on its own still
// bounds the wait.
func TestHeaderWaitFollowsTotal(t *testing.T) {
	t.Parallel()
	slow := 21 * time.Second
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(slow):
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "<p>at last</p>")
	}))
	defer srv.Close()
	c := testClient(Options{IgnoreRobots: true, TotalTimeout: 30 * time.Second})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/slow"})
	if err != nil || string(res.Body) != "<p>at last</p>" {
		t.Fatalf("a page answering after %v within a TotalTimeout of 30s: err = %v; want its body", slow, err)
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
