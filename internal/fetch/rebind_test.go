package fetch

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/fetch/proxytest"
)

// rebinding returns a resolver that answers publicAddr for host the first
// time it is asked, and 127.0.0.1 every time after (DNS rebinding), and
// nothing for other names; asked counts its answers.
func rebinding(host string, asked *atomic.Int32) func(context.Context, string) ([]netip.Addr, error) {
	return func(_ context.Context, name string) ([]netip.Addr, error) {
		if name != host {
			return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
		}
		if asked.Add(1) == 1 {
			return []netip.Addr{netip.MustParseAddr(publicAddr)}, nil
		}
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
}

// TestProxyTunnelPinned: through the operator's proxy, an https request
// (a webhook's, on the transport) and a tunnel of the rendering browser's
// guard proxy (dialTarget) give the proxy the address checked here, not
// the name, which the proxy would resolve again and could find rebound to
// a private address.
func TestProxyTunnelPinned(t *testing.T) {
	site := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<p>tunnelled to %s</p>", r.Host)
	}))
	defer site.Close()
	p := proxytest.Start(t, map[string]string{publicAddr + ":443": site.Listener.Addr().String()})
	var asked atomic.Int32
	c := New(Options{Proxy: p.URL("vigil", proxyPassword), IgnoreRobots: true, TotalTimeout: 5 * time.Second,
		resolve: rebinding("rebind.example", &asked)})
	tr := c.Transport().Clone()
	pool := x509.NewCertPool()
	pool.AddCert(site.Certificate())
	tr.TLSClientConfig = &tls.Config{RootCAs: pool, ServerName: "example.com"}
	resp, err := (&http.Client{Transport: tr}).Get("https://rebind.example/hook")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "tunnelled to rebind.example") {
		t.Errorf("body %q", body)
	}

	asked.Store(0)
	conn, err := c.dialTarget(context.Background(), "tcp", "rebind.example:443")
	if err != nil {
		t.Fatal(err)
	}
	tc := tls.Client(conn, &tls.Config{RootCAs: pool, ServerName: "example.com"})
	fmt.Fprintf(tc, "GET / HTTP/1.1\r\nHost: rebind.example\r\nConnection: close\r\n\r\n")
	r, err := http.ReadResponse(bufio.NewReader(tc), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(r.Body)
	tc.Close()
	if !strings.Contains(string(body), "tunnelled to rebind.example") {
		t.Errorf("tunnel body %q", body)
	}
	want := proxytest.Ask{Method: "CONNECT", Target: publicAddr + ":443", Auth: basicAuth("vigil", proxyPassword)}
	if got := p.Requests(); len(got) != 2 || got[0] != want || got[1] != want {
		t.Errorf("the proxy was asked %v, want %v twice", got, want)
	}
}

// TestGuardProxyDialsChecked: without an operator's proxy, the rendering
// browser's guard proxy dials as the client does, the address checked
// being the one connected (the dialer's Control), with no lookup of its
// own that DNS could answer otherwise: a name that resolves to loopback
// (this host's name, in /etc/hosts) is refused, by CONNECT and by a plain
// request, as a page and a webhook are, and the loopback server gets
// nothing.
func TestGuardProxyDialsChecked(t *testing.T) {
	name, err := os.Hostname()
	if err != nil {
		t.Skip(err)
	}
	addrs, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip", name)
	if err != nil || len(addrs) == 0 || privateReason(addrs[0]) == "" {
		t.Skipf("this host's name %s resolves to %v (%v): no private address", name, addrs, err)
	}
	var reached atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached.Add(1) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	c := New(Options{IgnoreRobots: true, TotalTimeout: 5 * time.Second})
	gp, err := startGuardProxy(c.dialTarget, nil, 5*time.Second, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer gp.Close()
	user, pass := gp.credentials()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	target := net.JoinHostPort(name, port)
	for _, req := range []string{
		fmt.Sprintf("CONNECT %s HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n", target, target, auth),
		fmt.Sprintf("GET http://%s/ HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n", target, target, auth),
	} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(gp.URL(), "http://"))
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(conn, req)
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		conn.Close()
		if err != nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("%q: %v, %v; want 403", strings.Fields(req)[0], resp, err)
		}
	}
	// The client's own requests, a page's and a webhook's, as well.
	wantRefused(t, c, "http://"+target+"/")
	if n := reached.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
}
