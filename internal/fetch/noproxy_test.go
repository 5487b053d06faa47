package fetch

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch/proxytest"
)

// TestNoProxy: which hosts NoProxy sends directly.
func TestNoProxy(t *testing.T) {
	p := &upstream{noProxy: []string{"intranet.example", ".corp.example.", "10.0.0.0/8", "192.0.2.7", "[2001:db8::1]", " "}}
	for host, want := range map[string]bool{
		"intranet.example":      true,
		"INTRANET.example.":     true,
		"wiki.intranet.example": true,
		"xintranet.example":     false,
		"corp.example":          true,
		"a.corp.example":        true,
		"example":               false,
		"10.1.2.3":              true,
		"11.1.2.3":              false,
		"192.0.2.7":             true,
		"192.0.2.8":             false,
		"2001:db8::1":           true,
		"::ffff:10.0.0.1":       true,
		"public.example":        false,
	} {
		if got := p.bypass(host); got != want {
			t.Errorf("bypass(%q) = %v, want %v", host, got, want)
		}
	}
	if all := (&upstream{noProxy: []string{"*"}}); !all.bypass("anything.example") {
		t.Error(`"*" does not match every host`)
	}
}

// TestNoProxyDirect: a host of NoProxy is dialled directly, under the
// address guard, and the proxy is not asked; the proxy's own address,
// which the client dials unguarded, is refused as a direct target as any
// loopback address is.
func TestNoProxyDirect(t *testing.T) {
	site := loopbackSite(t)
	p := proxytest.Start(t, nil)
	port := site.URL[strings.LastIndex(site.URL, ":")+1:]
	proxyPort := p.Server.URL[strings.LastIndex(p.Server.URL, ":")+1:]
	strict := New(Options{Proxy: p.URL("", ""), NoProxy: []string{"localhost", "127.0.0.1"}, IgnoreRobots: true, TotalTimeout: 5 * time.Second})
	for _, u := range []string{"http://localhost:" + port + "/page", "http://127.0.0.1:" + proxyPort + "/", "http://localhost:" + proxyPort + "/"} {
		if _, err := strict.Fetch(context.Background(), &vigil.FetchRequest{URL: u}); !errors.Is(err, ErrRefused) {
			t.Errorf("%s: %v, want a refusal", u, err)
		}
	}
	allowed := New(Options{Proxy: p.URL("", ""), NoProxy: []string{"localhost"}, IgnoreRobots: true, AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second})
	res, err := allowed.Fetch(context.Background(), &vigil.FetchRequest{URL: "http://localhost:" + port + "/page"})
	if err != nil || res.Status != http.StatusOK {
		t.Fatalf("allowed: %v", err)
	}
	if got := p.Requests(); len(got) != 0 {
		t.Errorf("the proxy was asked %v", got)
	}
}

// TestNoProxyDirectUnicode: a target spelt in Unicode that net/http
// dials as the proxy's own address (its IDNA form: full-width digits and
// dots are 127.0.0.1) is refused as the proxy's address written in ASCII
// is, not dialled unguarded as the proxy. HTTPClient takes such a URL as
// given (a webhook's), without Fetch's conversion to ASCII.
func TestNoProxyDirectUnicode(t *testing.T) {
	p := proxytest.Start(t, nil)
	proxyPort := p.Server.URL[strings.LastIndex(p.Server.URL, ":")+1:]
	c := New(Options{Proxy: p.URL("", ""), NoProxy: []string{"*"}, TotalTimeout: 5 * time.Second})
	u := "http://１２７．０．０．１:" + proxyPort + "/"
	resp, err := c.HTTPClient().Get(u)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("%s: %s, want a refusal", u, resp.Status)
	}
	if !errors.Is(err, ErrRefused) {
		t.Errorf("%s: %v, want a refusal", u, err)
	}
}

// TestNoProxyTunnel: the rendering browser's tunnel (its CONNECT, which
// the guard proxy dials with Client.dialTarget) to a host of NoProxy is
// dialled directly, not through the proxy, and under the address guard:
// a private one is refused, and reached only when private networks are
// allowed.
func TestNoProxyTunnel(t *testing.T) {
	site := loopbackSite(t)
	p := proxytest.Start(t, nil)
	addr := strings.TrimPrefix(site.URL, "http://")
	strict := New(Options{Proxy: p.URL("", ""), NoProxy: []string{"127.0.0.1"}})
	if conn, err := strict.dialTarget(context.Background(), "tcp", addr); !errors.Is(err, ErrRefused) {
		if conn != nil {
			conn.Close()
		}
		t.Errorf("tunnel to %s: %v, want a refusal", addr, err)
	}
	allowed := New(Options{Proxy: p.URL("", ""), NoProxy: []string{"127.0.0.1"}, AllowPrivateNetworks: true})
	conn, err := allowed.dialTarget(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatalf("allowed: tunnel to %s: %v", addr, err)
	}
	conn.Close()
	if got := p.Requests(); len(got) != 0 {
		t.Errorf("the proxy was asked %v", got)
	}
}
