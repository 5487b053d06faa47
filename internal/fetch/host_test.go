package fetch

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestHostKey: the spellings of one host (its case, a trailing dot, the
// scheme's default port written out, Unicode or punycode) have one key;
// another port has another.
func TestHostKey(t *testing.T) {
	tests := map[string]struct{ url, want string }{
		"plain":                  {"http://example.com/a", "example.com"},
		"upper case":             {"http://EXAMPLE.com/a", "example.com"},
		"trailing dot":           {"http://example.com./a", "example.com"},
		"default port":           {"http://example.com:80/a", "example.com"},
		"https default port":     {"https://example.com:443/a", "example.com"},
		"all at once":            {"HTTPS://Example.COM.:443/a", "example.com"},
		"other port":             {"http://example.com:8080/a", "example.com:8080"},
		"the other default port": {"http://example.com:443/a", "example.com:443"},
		"trailing dot and port":  {"http://example.com.:8080/a", "example.com:8080"},
		"Unicode":                {"http://BÜCHER.example./a", "xn--bcher-kva.example"},
		"punycode, default port": {"http://xn--bcher-kva.example:80/a", "xn--bcher-kva.example"},
		"IPv6":                   {"http://[::1]:80/a", "[::1]"},
		"IPv6, other port":       {"http://[::1]:8080/a", "[::1]:8080"},
	}
	for name, tt := range tests {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := hostKey(u); got != tt.want {
			t.Errorf("%s: hostKey(%s) = %q, want %q", name, tt.url, got, tt.want)
		}
	}
}

// TestHostSpellings: pages of one host spelt with a trailing dot, or with
// its scheme's default port written out, share its robots.txt and its
// turns. Each spelling had a turn of its own, so that a redirect to
// "host.:80" skipped the host's delay, and the trailing dot a robots.txt.
func TestHostSpellings(t *testing.T) {
	var robotsRead atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robotsRead.Add(1)
			io.WriteString(w, "User-agent: *\nDisallow: /private\n")
			return
		}
		io.WriteString(w, "<p>page</p>")
	}))
	t.Cleanup(srv.Close)
	c := testClient(Options{})
	// Every name and port is this machine's server.
	c.page.Transport.(*http.Transport).DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	for _, u := range []string{"http://example.test/a", "http://Example.TEST:80/b", "http://example.test./c", "http://example.test.:80/d"} {
		if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u}); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	if n := robotsRead.Load(); n != 1 {
		t.Errorf("robots.txt read %d times, want once", n)
	}
	c.hosts.mu.Lock()
	var slots []string
	for h := range c.hosts.hosts {
		slots = append(slots, h)
	}
	c.hosts.mu.Unlock()
	if len(slots) != 1 {
		t.Errorf("hosts taking turns: %q, want one", slots)
	}
}
