package fetch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
)

// Host names DNS refuses (spec.CheckHostName), each with the words of
// the error that names it.
var (
	emptyLabelHost = "a..example"
	longLabelHost  = strings.Repeat("x", 64) + ".example"
	longNameHost   = strings.Repeat(strings.Repeat("y", 50)+".", 5) + "example"
)

// TestRefuseHostDNSRefuses: a page asked for, a redirect of a page or of
// robots.txt, and a document of a rendered page's main frame whose host
// DNS refuses (an empty label, a label over 63 bytes, a name over 253)
// are refused before any request, with an error that names the host and
// what is wrong with it, and no credentials. A redirect to one was
// followed: its request went out (here, every name dials the test's
// server) and failed, if at all, on DNS, saying only "no such host".
func TestRefuseHostDNSRefuses(t *testing.T) {
	var mu sync.Mutex
	var asked []string // the hosts of the requests to a refused name
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, _, _ := net.SplitHostPort(r.Host)
		if name != "good.example" && name != "robots.example" {
			mu.Lock()
			asked = append(asked, r.Host)
			mu.Unlock()
		}
		_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
		switch {
		case r.URL.Path == "/robots.txt" && name == "robots.example":
			http.Redirect(w, r, "http://"+emptyLabelHost+":"+port+"/robots.txt", http.StatusFound)
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case r.URL.Path == "/to-credentials":
			w.Header().Set("Location", "http://user:s3cret@"+emptyLabelHost+":"+port+"/page")
			w.WriteHeader(http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/to/"):
			w.Header().Set("Location", "http://"+strings.TrimPrefix(r.URL.Path, "/to/")+":"+port+"/page")
			w.WriteHeader(http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>page</p>"))
		}
	}))
	t.Cleanup(srv.Close)
	c := testClient(Options{})
	// Every name is this machine's server.
	c.page.Transport.(*http.Transport).DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	good := "http://good.example:" + port
	tests := []struct {
		name, url, err string
	}{
		{"redirect, empty label", good + "/to/" + emptyLabelHost,
			`redirect 302 to a bad Location "http://a..example:` + port + `/page": host "a..example" has an empty label`},
		{"redirect, long label", good + "/to/" + longLabelHost,
			`has a label of 64 bytes: DNS takes at most 63`},
		{"redirect, long name", good + "/to/" + longNameHost,
			`is 262 bytes long: DNS takes at most 253`},
		{"redirect with credentials", good + "/to-credentials",
			`host "a..example" has an empty label`},
		{"asked", "http://" + emptyLabelHost + ":" + port + "/page", `fetch http://a..example:` + port + `/page: host "a..example" has an empty label`},
		{"robots.txt's redirect", "http://robots.example:" + port + "/page", `host "a..example" has an empty label`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: tt.url})
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("Fetch(%s): %v, want an error with %q", tt.url, err, tt.err)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the error shows the credentials: %v", err)
			}
		})
	}
	if len(asked) != 0 {
		t.Errorf("refused names were asked for: %q", asked)
	}
	// The rendered page's gate (Chromium.Allow) refuses them too: the
	// navigation gate names the document ("redirect to URL: ...").
	for _, host := range []string{emptyLabelHost, longLabelHost, longNameHost} {
		if err := c.allowDocument(context.Background(), "http://"+host+"/page"); err == nil || !strings.Contains(err.Error(), `host "`+host[:min(len(host), 20)]) {
			t.Errorf("allowDocument(%s): %v, want an error naming the host", host, err)
		}
	}
	if err := c.allowDocument(context.Background(), good+"/page"); err != nil {
		t.Errorf("allowDocument(%s): %v", good, err)
	}
}
