package fetch

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch/proxytest"
)

// TestNoProxy: which hosts, on which ports, NoProxy sends directly.
func TestNoProxy(t *testing.T) {
	p := &upstream{noProxy: noProxyRules([]string{"intranet.example", ".corp.example.", "*.lab.example", "10.0.0.0/8", "192.0.2.7",
		"[2001:db8::1]", "2001:db8::2", "[2001:db8::3]:8443", "build.example:8080", "192.0.2.9:8080", "bücher.example", "127.1", "::ffff:172.16.0.0/108", " "})}
	for _, tc := range []struct {
		host, port string
		want       bool
	}{
		{"intranet.example", "80", true},
		{"INTRANET.example.", "443", true},
		{"wiki.intranet.example", "80", true},
		{"xintranet.example", "80", false},
		{"corp.example", "80", true},
		{"a.corp.example", "80", true},
		{"lab.example", "80", true},
		{"a.b.lab.example", "80", true},
		{"xlab.example", "80", false},
		{"example", "80", false},
		{"10.1.2.3", "80", true},
		{"11.1.2.3", "80", false},
		{"192.0.2.7", "80", true},
		{"192.0.2.8", "80", false},
		{"2001:db8::1", "80", true},
		{"2001:db8::2", "80", true},
		{"::ffff:10.0.0.1", "80", true},
		{"2001:db8::3", "8443", true},
		{"2001:db8::3", "443", false},
		{"build.example", "8080", true},
		{"ci.build.example", "8080", true},
		{"build.example", "80", false},
		{"build.example", "08080", true},
		{"192.0.2.9", "8080", true},
		{"192.0.2.9", "80", false},
		{"xn--bcher-kva.example", "80", true},
		{"bücher.example", "80", true},
		{"www.BÜCHER.example", "80", true},
		{"127.0.0.1", "80", true},
		{"127.0.0.2", "80", false},
		{"172.16.5.5", "80", true},
		{"::ffff:172.31.0.1", "80", true},
		{"172.32.0.1", "80", false},
		{"public.example", "80", false},
	} {
		if got := p.bypass(tc.host, tc.port); got != tc.want {
			t.Errorf("bypass(%q, %q) = %v, want %v", tc.host, tc.port, got, tc.want)
		}
	}
	if all := (&upstream{noProxy: noProxyRules([]string{"*"})}); !all.bypass("anything.example", "80") {
		t.Error(`"*" does not match every host`)
	}
}

// TestParseNoProxy: the entries a NoProxy list takes are those bypass
// matches (as Go's httpproxy reads NO_PROXY: a name, .suffix or
// *.suffix, an address, a prefix, each but a prefix with a port or not,
// and *); any other is refused with an error that names it.
func TestParseNoProxy(t *testing.T) {
	got, err := ParseNoProxy(" intranet.example, .corp.example,*.lab.example ,10.0.0.0/8,192.0.2.7,[2001:db8::1]:8443,2001:db8::2,build.example:8080,bücher.example,my_host.example,*,,")
	want := []string{"intranet.example", ".corp.example", "*.lab.example", "10.0.0.0/8", "192.0.2.7", "[2001:db8::1]:8443", "2001:db8::2",
		"build.example:8080", "bücher.example", "my_host.example", "*"}
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("ParseNoProxy = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{
		"http://intranet.example", "intranet.example/wiki", "intra net.example", "user@intranet.example", ":8080",
		"intranet.example:", "intranet.example:0", "intranet.example:65536", "intranet.example:http", "10.0.0.0/33",
		"10.0.0.0/", "intranet.example/8", "[2001:db8::1]/64", "*example.com", "*.", ".", "*:80", "**", "a..example",
		"10.0.0.300", "1.2.3.4.5", "example.123", "[intranet.example]", "[192.0.2.1]", "[2001:db8::1", "-.example!",
		"10.0.0.0/8:80", ".10.0.0.1", "*.10.0.0.1", "*.127.1:80",
	} {
		if _, err := ParseNoProxy("intranet.example," + bad); err == nil || !strings.Contains(err.Error(), strconv.Quote(bad)) {
			t.Errorf("ParseNoProxy(%q): %v, want an error naming the entry", bad, err)
		}
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
