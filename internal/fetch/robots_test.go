package fetch

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRobotsCacheOrigin: a URL as given and the same URL as a browser
// writes it (host lower-cased, default port dropped) share one robots.txt,
// so that the renderer's check of the page asked for reads none; other
// origins have their own.
func TestRobotsCacheOrigin(t *testing.T) {
	tests := []struct {
		name        string
		given, next string
		shared      bool
	}{
		{name: "same URL", given: "http://example.com/a", next: "http://example.com/b", shared: true},
		{name: "host case", given: "http://Example.COM/a", next: "http://example.com/a", shared: true},
		{name: "http default port", given: "http://example.com:80/a", next: "http://example.com/a", shared: true},
		{name: "https default port", given: "HTTPS://example.com:443/a", next: "https://example.com/a", shared: true},
		{name: "other port", given: "http://example.com:8080/a", next: "http://example.com/a"},
		{name: "other scheme", given: "https://example.com/a", next: "http://example.com/a"},
		{name: "port 443 on http", given: "http://example.com:443/a", next: "http://example.com/a"},
		{name: "other host", given: "http://example.com/a", next: "http://www.example.com/a"},
		{name: "Unicode host", given: "http://xn--bcher-kva.example/a", next: "http://bücher.example/b", shared: true},
		{name: "Unicode host's case", given: "http://BÜCHER.example:80/a", next: "http://xn--bcher-kva.example/b", shared: true},
		{name: "Unicode host, other port", given: "http://bücher.example:8080/a", next: "http://xn--bcher-kva.example/b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newRobotsCache(time.Minute)
			fetched := 0
			for _, raw := range []string{tt.given, tt.next} {
				u, err := url.Parse(raw)
				if err != nil {
					t.Fatal(err)
				}
				c.get(context.Background(), u, func(context.Context, string) (*robotsRules, error) {
					fetched++
					return &robotsRules{fetched: time.Now()}, nil
				})
			}
			if want := map[bool]int{true: 1, false: 2}[tt.shared]; fetched != want {
				t.Errorf("robots.txt read %d times for %s then %s, want %d", fetched, tt.given, tt.next, want)
			}
		})
	}
}

// TestRobotsIDN: a host with an internationalised name, spelt in its
// ASCII (punycode) form by the page asked and in Unicode by the Location
// of its redirect, is one host: its robots.txt is read once, and its
// pages take turns in one slot. The spellings had a robots.txt and a turn
// each: robots.txt was read twice, and a redirect skipped the host's
// delay.
func TestRobotsIDN(t *testing.T) {
	var robotsRead atomic.Int32
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			robotsRead.Add(1)
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
		case "/to-unicode":
			_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
			w.Header().Set("Location", "http://bücher.example:"+port+"/page")
			w.WriteHeader(http.StatusFound)
		default:
			io.WriteString(w, "<p>page</p>")
		}
	}))
	t.Cleanup(srv.Close)
	c := testClient(Options{})
	// Every name is this machine's server.
	c.page.Transport.(*http.Transport).DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, u := range []string{"http://xn--bcher-kva.example:" + port + "/to-unicode", "http://bücher.example:" + port + "/other"} {
		if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u}); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	if n := robotsRead.Load(); n != 1 {
		t.Errorf("robots.txt read %d times, want once", n)
	}
	c.hosts.mu.Lock()
	slots := len(c.hosts.hosts)
	c.hosts.mu.Unlock()
	if slots != 1 {
		t.Errorf("%d hosts take turns, want one", slots)
	}
}

// TestRobotsCacheAbandoned: a robots.txt read that ends because its own
// caller gave up (a render cancelled while its tab's check read it) is
// no verdict for the callers waiting on it: they read robots.txt again,
// instead of failing with a cancellation not theirs.
func TestRobotsCacheAbandoned(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newRobotsCache(time.Minute)
		u, _ := url.Parse("http://example.com/a")
		reads := 0
		read := func(ctx context.Context, _ string) (*robotsRules, error) {
			reads++
			if reads == 1 {
				<-ctx.Done() // the first reader's caller gives up meanwhile
				return nil, ctx.Err()
			}
			return &robotsRules{fetched: time.Now()}, nil
		}
		gaveUp, cancel := context.WithCancel(context.Background())
		var firstErr, secondErr error
		first := make(chan struct{})
		go func() {
			defer close(first)
			_, firstErr = c.get(gaveUp, u, read)
		}()
		synctest.Wait() // the first reads robots.txt
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, secondErr = c.get(context.Background(), u, read)
		}()
		synctest.Wait() // the second waits for the first's read
		cancel()
		<-first
		<-done
		if !errors.Is(firstErr, context.Canceled) {
			t.Errorf("the caller that gave up: %v, want context.Canceled", firstErr)
		}
		if secondErr != nil || reads != 2 {
			t.Errorf("the caller waiting: %v after %d reads, want robots.txt read again", secondErr, reads)
		}
	})
}

// TestRobotsServerError: a robots.txt that answers 5xx disallows every
// page (RFC 9309), and the refusal says so: "disallowed by robots.txt"
// alone sent the user looking for a rule in a file that has none.
func TestRobotsServerError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Error(w, "oops", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "page")
	}))
	defer srv.Close()
	_, err := testClient(Options{}).Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/page"})
	want := "disallowed by robots.txt (it answered HTTP 503, which disallows every page until it works)"
	if !errors.Is(err, ErrRobots) || !strings.Contains(err.Error(), want) {
		t.Errorf("Fetch: %v, want ErrRobots saying %q", err, want)
	}
}

// TestRobotsRedirectCredentials: robots.txt that redirects to a URL with
// credentials (http://user:pass@host/...) is refused as a page's redirect
// is, with ErrUnsupported: the host it names is never asked, and the
// page's error, which the log and the dashboard show, says why without
// them. robots.txt's client followed such a redirect, sending them as
// Basic authentication, and the error of one it refused for another
// reason quoted the Location with them.
func TestRobotsRedirectCredentials(t *testing.T) {
	var asked, sent atomic.Int32 // requests to b, and those with credentials
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if r.Header.Get("Authorization") != "" {
			sent.Add(1)
		}
		io.WriteString(w, "User-agent: *\nDisallow:\n")
	}))
	t.Cleanup(b.Close)
	withCredentials := strings.Replace(b.URL, "://", "://user:s3cret@", 1)
	tests := map[string]struct {
		location    string
		unsupported bool // the error wraps ErrUnsupported
	}{
		"to http":                    {location: withCredentials + "/robots.txt", unsupported: true},
		"to ftp":                     {location: strings.Replace(withCredentials, "http:", "ftp:", 1) + "/robots.txt", unsupported: true},
		"a port that does not parse": {location: withCredentials + ":x/robots.txt"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					w.Header().Set("Location", tt.location)
					w.WriteHeader(http.StatusFound)
					return
				}
				io.WriteString(w, "<p>a</p>")
			}))
			t.Cleanup(a.Close)
			_, err := testClient(Options{}).Fetch(context.Background(), &vigil.FetchRequest{URL: a.URL + "/page"})
			if err == nil {
				t.Fatal("the page was fetched; want robots.txt's redirect refused")
			}
			if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "user:") {
				t.Errorf("the error shows the credentials: %v", err)
			}
			if tt.unsupported && !errors.Is(err, ErrUnsupported) {
				t.Errorf("err = %v, want ErrUnsupported", err)
			}
		})
	}
	if asked.Load() != 0 || sent.Load() != 0 {
		t.Errorf("the host robots.txt's redirect named was asked %d times, %d of them with credentials; want none", asked.Load(), sent.Load())
	}
}

// TestRobotsPercentEncoding: a robots.txt path and a page's path are
// compared as RFC 9309 (§2.2.2) compares them: a percent-encoded
// unreserved character is the character (%7E is ~), a non-ASCII
// character written as such in robots.txt is its UTF-8 percent-encoded
// (café is caf%C3%A9, as the page's URL is sent), and the hex digits of
// the other encoded octets match in either case; a reserved character
// encoded (%2F) stays another than itself (/).
func TestRobotsPercentEncoding(t *testing.T) {
	const body = "User-agent: *\n" +
		"Disallow: /%7ejoe\n" +
		"Disallow: /café\n" +
		"Disallow: /b%c3%bccher\n" +
		"Disallow: /a%2fb\n" +
		"Disallow: /Straße*.pdf$\n" +
		"Allow: /\n"
	tests := []struct {
		url     string
		allowed bool
	}{
		{"http://h.example/~joe", false},
		{"http://h.example/%7Ejoe", false},
		{"http://h.example/%7ejoe/x", false},
		{"http://h.example/café", false},
		{"http://h.example/caf%C3%A9", false},
		{"http://h.example/caf%c3%a9/menu", false},
		{"http://h.example/bücher", false},
		{"http://h.example/b%C3%BCcher", false},
		{"http://h.example/a%2Fb", false},
		{"http://h.example/a/b", true},
		{"http://h.example/Stra%C3%9Fe-1.pdf", false},
		{"http://h.example/Stra%C3%9Fe-1.pdfx", true},
		{"http://h.example/cafe", true},
		{"http://h.example/joe", true},
	}
	rules := parseRobots(200, []byte(body))
	for _, tt := range tests {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := rules.allowed("vigil", u); got != tt.allowed {
			t.Errorf("allowed(%s) = %v, want %v", tt.url, got, tt.allowed)
		}
	}
}

// TestRobotsPercentEncodingCRLines: a robots.txt whose lines end in a
// carriage return alone (which the parser takes for a line end) has its
// rules' paths read in the same form as a page's path, as one whose lines
// end in "\n".
func TestRobotsPercentEncodingCRLines(t *testing.T) {
	const body = "User-agent: *\rDisallow: /%7ejoe\rDisallow: /café\r"
	rules := parseRobots(200, []byte(body))
	for _, raw := range []string{"http://h.example/~joe", "http://h.example/%7Ejoe", "http://h.example/caf%C3%A9"} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if rules.allowed("vigil", u) {
			t.Errorf("allowed(%s) = true, want false", raw)
		}
	}
}
