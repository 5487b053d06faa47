package fetch

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// closedPort returns a loopback address where nothing listens: a listener
// opened and closed, so a dial there is refused.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// silentHost returns a loopback address that accepts connections and
// never answers, and a channel that receives once per connection.
func silentHost(t *testing.T) (string, <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan struct{}, 16)
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
			select {
			case accepted <- struct{}{}:
			default:
			}
		}
	}()
	return ln.Addr().String(), accepted
}

// TestUnreachableHostIsThePages: a page whose host cannot be reached (its
// name does not resolve, nothing listens on its port, its TLS handshake
// fails, it does not answer in time) fails with the page's own error, naming the page and the cause. robots.txt, read first,
// failed the same way, and its failure was what the user saw:
// "robots.txt: Get ...robots.txt: dial tcp: lookup ...", which reads as a
// site that blocks Vigil.
func TestUnreachableHostIsThePages(t *testing.T) {
	silent, _ := silentHost(t)
	// A certificate the client does not trust: the handshake fails.
	untrusted := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<p>page</p>")
	}))
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake's failure, expected
	untrusted.StartTLS()
	t.Cleanup(untrusted.Close)
	tests := map[string]struct {
		url   string
		cause string // in the error's text
	}{
		"name that does not resolve": {url: "http://no-such-host.invalid/", cause: "lookup no-such-host.invalid"},
		"connection refused":         {url: "http://" + closedPort(t) + "/page", cause: "connection refused"},
		"TLS that fails":             {url: untrusted.URL + "/page", cause: "tls: failed to verify certificate"},
		"no answer in time":          {url: "http://" + silent + "/page", cause: "no answer from " + silent + ": context deadline exceeded"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			c := testClient(Options{HostWait: 300 * time.Millisecond})
			_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: tt.url})
			if err == nil {
				t.Fatal("the page was fetched; want an error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "fetch "+tt.url+": ") {
				t.Errorf("error %q does not begin by naming the page (fetch %s: )", msg, tt.url)
			}
			if !strings.Contains(msg, tt.cause) {
				t.Errorf("error %q does not name the cause %q", msg, tt.cause)
			}
			if strings.Contains(msg, "robots.txt") {
				t.Errorf("error %q blames robots.txt; the host cannot be reached", msg)
			}
			if errors.Is(err, ErrRobots) {
				t.Errorf("error %q wraps ErrRobots", msg)
			}
		})
	}
}

// TestRobotsAnswersKeepTheirWording: where the host answered, robots.txt
// is still named: one that disallows the page, one that answers 5xx (RFC
// 9309: every page disallowed), and one whose redirect leads to a host
// that cannot be reached (the page's host answered; robots.txt's own
// redirect is what failed).
func TestRobotsAnswersKeepTheirWording(t *testing.T) {
	dead := closedPort(t)
	tests := map[string]struct {
		robots func(w http.ResponseWriter)
		want   string
	}{
		"disallows": {robots: func(w http.ResponseWriter) {
			io.WriteString(w, "User-agent: *\nDisallow: /\n")
		}, want: "disallowed by robots.txt"},
		"answers 503": {robots: func(w http.ResponseWriter) {
			http.Error(w, "oops", http.StatusServiceUnavailable)
		}, want: "disallowed by robots.txt (it answered HTTP 503"},
		"redirects to a dead host": {robots: func(w http.ResponseWriter) {
			w.Header().Set("Location", "http://"+dead+"/robots.txt")
			w.WriteHeader(http.StatusFound)
		}, want: "robots.txt: "},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					tt.robots(w)
					return
				}
				io.WriteString(w, "<p>page</p>")
			}))
			t.Cleanup(srv.Close)
			_, err := testClient(Options{}).Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/page"})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Fetch: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestUnreachableHostWhileWaiting: a fetch whose time runs out while it
// waits for another's robots.txt of a host that has not answered fails as
// the page's own, naming the host that gave no answer, not as robots.txt's.
func TestUnreachableHostWhileWaiting(t *testing.T) {
	silent, accepted := silentHost(t)
	c := testClient(Options{HostWait: 2 * time.Second})
	first := make(chan error, 1)
	go func() {
		_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: "http://" + silent + "/a"})
		first <- err
	}()
	<-accepted // the first fetch is reading robots.txt: the second waits for it
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.Fetch(ctx, &vigil.FetchRequest{URL: "http://" + silent + "/b"})
	if err == nil {
		t.Fatal("the page was fetched; want an error")
	}
	if msg := err.Error(); strings.Contains(msg, "robots.txt") || !strings.Contains(msg, "no answer from "+silent) {
		t.Errorf("error %q, want the page's, saying %s gave no answer, not robots.txt's", msg, silent)
	}
	if err := <-first; err == nil || strings.Contains(err.Error(), "robots.txt") {
		t.Errorf("first fetch: %v, want the page's error, not robots.txt's", err)
	}
}

// TestUnreachablePageNamedOnce: a page whose host stops answering once its
// robots.txt is known (read by an earlier fetch, and kept) fails naming
// the page once, with the cause, as when robots.txt is read first: the
// error was net/http's, "fetch URL: Get "URL": dial tcp ...", the URL
// twice and a method no user asked for.
func TestUnreachablePageNamedOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "<p>page</p>")
	}))
	c := testClient(Options{})
	url := srv.URL + "/page"
	if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: url}); err != nil {
		t.Fatalf("first fetch: %v", err)
	}
	srv.Close() // robots.txt is known: the page is asked for at once
	_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: url})
	if err == nil {
		t.Fatal("the page was fetched; want an error")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "fetch "+url+": ") || strings.Count(msg, url) != 1 || strings.Contains(msg, `Get "`) {
		t.Errorf("error %q, want it to name the page once (fetch %s: ...), without net/http's Get %q", msg, url, url)
	}
	if !strings.Contains(msg, "connection refused") {
		t.Errorf("error %q does not name the cause, connection refused", msg)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("error %q no longer wraps the refused connection, which a crawl takes for a failure of the moment", msg)
	}
}
