package fetch

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestGuardFailureBoundToOrigin: the guardFailureHeader of the guard
// proxy's answer to a plain request it could not forward names its error
// for an answer to that origin only: a page's script reads the header of
// the proxy's answer to a request of its own origin, and its server may
// send it on an https answer (through a tunnel, which the proxy does not
// read), or on another host's, where it named the failure all the same
// and the render failed with another request's error.
func TestGuardFailureBoundToOrigin(t *testing.T) {
	var d net.Dialer
	p, err := startGuardProxy(d.DialContext, nil, time.Minute, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	user, pass := p.credentials()
	pu, _ := url.Parse(p.URL())
	pu.User = url.UserPassword(user, pass)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	closed := closedPort(t)
	resp, err := client.Get("http://" + closed + "/page")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	value := resp.Header.Get(guardFailureHeader)
	if resp.StatusCode != http.StatusBadGateway || value == "" {
		t.Fatalf("the proxy's answer to an unreachable server: %d, %s %q", resp.StatusCode, guardFailureHeader, value)
	}
	host, port, _ := net.SplitHostPort(closed)
	for _, tc := range []struct {
		doc  string
		want bool
	}{
		{"http://" + closed + "/page", true},
		{"http://" + closed + "/other", true},
		{"HTTP://" + strings.ToUpper(host) + ":" + port + "/", true},
		{"https://" + closed + "/page", false}, // a server's answer through a tunnel
		{"http://" + host + ":1/page", false},
		{"http://a.example/page", false},
		{"not a url\x7f", false},
	} {
		if got := p.failure(value, tc.doc) != nil; got != tc.want {
			t.Errorf("failure %q on an answer to %q: %v, want %v", value, tc.doc, got, tc.want)
		}
	}
}
