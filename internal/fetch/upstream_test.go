package fetch

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch/proxytest"
)

// publicAddr is a public address the tests never reach directly: the
// proxy's rewrite sends it to a loopback server.
const publicAddr = "93.184.215.14"

const proxyPassword = "s3cret-proxy-pw"

func basicAuth(user, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
}

func loopbackSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<p>through the proxy</p>")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestProxyFetch: with Options.Proxy, a page and its robots.txt are asked
// of the proxy, with the proxy's credentials, for a target the client
// never dials itself (a public address it cannot reach here).
func TestProxyFetch(t *testing.T) {
	site := loopbackSite(t)
	p := proxytest.Start(t, map[string]string{publicAddr + ":80": site.Listener.Addr().String()})
	c := New(Options{Proxy: p.URL("vigil", proxyPassword), TotalTimeout: 5 * time.Second})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: "http://" + publicAddr + "/page"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Body), "through the proxy") {
		t.Errorf("body %q", res.Body)
	}
	want := []proxytest.Ask{
		{Method: "GET", Target: "http://" + publicAddr + "/robots.txt", Auth: basicAuth("vigil", proxyPassword)},
		{Method: "GET", Target: "http://" + publicAddr + "/page", Auth: basicAuth("vigil", proxyPassword)},
	}
	if got := p.Requests(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the proxy was asked\n%v\nwant\n%v", got, want)
	}
	// Disallowed by robots.txt, read through the proxy: not asked.
	if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: "http://" + publicAddr + "/private/x"}); !errors.Is(err, ErrRobots) {
		t.Errorf("disallowed page: %v", err)
	}
	if n := len(p.Requests()); n != 2 {
		t.Errorf("the proxy got %d requests, want 2", n)
	}
}

// wantRefused checks that c refuses u, as a page (Fetch) and through
// HTTPClient, which webhooks and chat services use.
func wantRefused(t *testing.T, c *Client, u string) {
	t.Helper()
	if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u}); !errors.Is(err, ErrRefused) {
		t.Errorf("%s: %v, want a refusal", u, err)
	}
	if resp, err := c.HTTPClient().Get(u); !errors.Is(err, ErrRefused) {
		if resp != nil {
			resp.Body.Close()
		}
		t.Errorf("HTTPClient %s: %v, want a refusal", u, err)
	}
}

// TestProxyRefusesPrivateTarget: a target that is, or whose name resolves
// to, a private or loopback address is refused before the request is
// handed to the proxy, which would otherwise reach it on the client's
// behalf; AllowPrivateNetworks lets it through the proxy.
func TestProxyRefusesPrivateTarget(t *testing.T) {
	site := loopbackSite(t)
	p := proxytest.Start(t, nil)
	port := site.URL[strings.LastIndex(site.URL, ":")+1:]
	c := New(Options{Proxy: p.URL("", ""), IgnoreRobots: true, TotalTimeout: 5 * time.Second})
	for _, host := range []string{"localhost", "127.0.0.1", "[::1]", "10.1.2.3", "169.254.169.254", "[::ffff:127.0.0.1]"} {
		wantRefused(t, c, "http://"+host+":"+port+"/page")
	}
	if got := p.Requests(); len(got) != 0 {
		t.Errorf("the proxy was asked %v", got)
	}
	allowed := New(Options{Proxy: p.URL("", ""), IgnoreRobots: true, AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second})
	u := "http://localhost:" + port + "/page"
	if _, err := allowed.Fetch(context.Background(), &vigil.FetchRequest{URL: u}); err != nil {
		t.Fatalf("allowed: %v", err)
	}
	if got := p.Requests(); len(got) != 1 || got[0].Target != u {
		t.Errorf("the proxy was asked %v, want %s", got, u)
	}
}

// TestProxyRedirectToPrivate: a redirect to a private address, by name or
// literal, is refused before the proxy is asked for it: in a page fetch,
// and on the transport webhooks use.
func TestProxyRedirectToPrivate(t *testing.T) {
	var backendPort string
	mux := http.NewServeMux()
	mux.HandleFunc("/by-name", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+backendPort+"/page", http.StatusFound)
	})
	mux.HandleFunc("/by-address", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:"+backendPort+"/page", http.StatusFound)
	})
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<p>inside</p>") })
	backend := httptest.NewServer(mux)
	defer backend.Close()
	backendPort = backend.URL[strings.LastIndex(backend.URL, ":")+1:]
	p := proxytest.Start(t, map[string]string{publicAddr + ":80": backend.Listener.Addr().String()})
	c := New(Options{Proxy: p.URL("", ""), IgnoreRobots: true, TotalTimeout: 5 * time.Second})
	for _, path := range []string{"/by-name", "/by-address"} {
		u := "http://" + publicAddr + path
		if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u}); !errors.Is(err, ErrRefused) {
			t.Errorf("Fetch %s: %v, want a refusal", u, err)
		}
		resp, err := c.HTTPClient().Get(u)
		if resp != nil {
			resp.Body.Close()
		}
		if !errors.Is(err, ErrRefused) {
			t.Errorf("HTTPClient %s: %v, want a refusal", u, err)
		}
	}
	for _, a := range p.Requests() {
		if !strings.Contains(a.Target, publicAddr) {
			t.Errorf("the proxy was asked for %s", a.Target)
		}
	}
	if n := len(p.Requests()); n != 4 {
		t.Errorf("the proxy got %d requests, want 4 (the first hop of each)", n)
	}
}

// TestProxyTunnel: an https page goes through the proxy by CONNECT, with
// the proxy's credentials, on the transport (a clone, as callers that need
// their own TLS settings make) and by the dialler the rendering browser's
// proxy chains with.
func TestProxyTunnel(t *testing.T) {
	site := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<p>tunnelled</p>")
	}))
	defer site.Close()
	p := proxytest.Start(t, map[string]string{
		publicAddr + ":443": site.Listener.Addr().String(),
		publicAddr + ":80":  site.Listener.Addr().String(),
	})
	c := New(Options{Proxy: p.URL("vigil", proxyPassword), IgnoreRobots: true, TotalTimeout: 5 * time.Second})
	tr := c.Transport().Clone()
	pool := x509.NewCertPool()
	pool.AddCert(site.Certificate())
	tr.TLSClientConfig = &tls.Config{RootCAs: pool, ServerName: "example.com"}
	resp, err := (&http.Client{Transport: tr}).Get("https://" + publicAddr + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "tunnelled") {
		t.Errorf("body %q", body)
	}
	want := proxytest.Ask{Method: "CONNECT", Target: publicAddr + ":443", Auth: basicAuth("vigil", proxyPassword)}
	if got := p.Requests(); len(got) != 1 || got[0] != want {
		t.Errorf("the proxy was asked %v, want %v", got, want)
	}

	// The browser's dialler: a tunnel through the proxy, checked first.
	conn, err := c.dialTarget(context.Background(), "tcp", publicAddr+":80")
	if err != nil {
		t.Fatal(err)
	}
	tc := tls.Client(conn, &tls.Config{RootCAs: pool, ServerName: "example.com"})
	fmt.Fprintf(tc, "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
	r, err := http.ReadResponse(bufio.NewReader(tc), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(r.Body)
	tc.Close()
	if !strings.Contains(string(body), "tunnelled") {
		t.Errorf("tunnel body %q", body)
	}
	if got := p.Requests(); len(got) != 2 || got[1] != (proxytest.Ask{Method: "CONNECT", Target: publicAddr + ":80", Auth: basicAuth("vigil", proxyPassword)}) {
		t.Errorf("the proxy was asked %v", got)
	}
	port := site.URL[strings.LastIndex(site.URL, ":")+1:]
	if _, err := c.dialTarget(context.Background(), "tcp", "localhost:"+port); !errors.Is(err, ErrRefused) {
		t.Errorf("tunnel to localhost: %v, want a refusal", err)
	}
	if n := len(p.Requests()); n != 2 {
		t.Errorf("the proxy got %d requests, want 2", n)
	}
}

// TestProxyCredentialsHidden: the proxy's password is in no error, whether
// the proxy refuses the credentials (407), cannot be reached, or refuses a
// tunnel.
func TestProxyCredentialsHidden(t *testing.T) {
	p := proxytest.Start(t, nil)
	p.Status = http.StatusProxyAuthRequired
	closed := proxytest.Start(t, nil)
	dead := closed.URL("vigil", proxyPassword)
	closed.Server.Close()
	for name, proxy := range map[string]*url.URL{"407": p.URL("vigil", proxyPassword), "unreachable": dead} {
		c := New(Options{Proxy: proxy, IgnoreRobots: true, TotalTimeout: 3 * time.Second})
		var errs []error
		_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: "http://" + publicAddr + "/page"})
		errs = append(errs, err)
		resp, err := c.HTTPClient().Get("https://" + publicAddr + "/hook")
		if resp != nil {
			resp.Body.Close()
		}
		errs = append(errs, err)
		_, err = c.dialTarget(context.Background(), "tcp", publicAddr+":443")
		errs = append(errs, err)
		for i, err := range errs {
			if name == "407" && i == 0 {
				// The proxy's 407 is the page's status.
				if !errors.Is(err, ErrStatus) {
					t.Errorf("%s: %v, want the 407", name, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s %d: no error", name, i)
				continue
			}
			if strings.Contains(err.Error(), proxyPassword) {
				t.Errorf("%s %d: the password shows: %v", name, i, err)
			}
		}
	}
	if _, err := ParseProxy("ftp://vigil:" + proxyPassword + "@proxy.example:21"); err == nil || strings.Contains(err.Error(), proxyPassword) {
		t.Errorf("ParseProxy: %v", err)
	}
	if _, err := ParseProxy("http://vigil:" + proxyPassword + "@proxy.example:port"); err == nil || strings.Contains(err.Error(), proxyPassword) {
		t.Errorf("ParseProxy: %v", err)
	}
}

// TestProxyRender: the rendering browser's guard proxy chains to the
// operator's proxy: the page (at an address reached only through it) is
// asked of it with the credentials, and an image the page loads from a
// loopback name is refused before the proxy is asked.
func TestProxyRender(t *testing.T) {
	needChromium(t)
	var mu sync.Mutex
	var paths []string
	var port string
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!DOCTYPE html><html><body><div id="out">static</div><img src="http://localhost:%s/img">
<script>document.getElementById("out").textContent = "written by " + "script";</script></body></html>`, port)
	}))
	defer site.Close()
	port = site.URL[strings.LastIndex(site.URL, ":")+1:]
	p := proxytest.Start(t, map[string]string{publicAddr + ":80": site.Listener.Addr().String()})
	chrome := &Chromium{}
	defer chrome.Close()
	c := New(Options{Proxy: p.URL("vigil", proxyPassword), IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: "http://" + publicAddr + "/", Render: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Body), "written by script") {
		t.Errorf("rendered page lacks the script's text:\n%s", res.Body)
	}
	// The browser may try https first (a CONNECT to port 443).
	asked := p.Requests()
	if !slices.Contains(asked, proxytest.Ask{Method: "GET", Target: "http://" + publicAddr + "/", Auth: basicAuth("vigil", proxyPassword)}) {
		t.Errorf("the proxy was asked %v", asked)
	}
	for _, a := range asked {
		if strings.Contains(a.Target, "localhost") || a.Auth != basicAuth("vigil", proxyPassword) {
			t.Errorf("the proxy was asked for %s with %q", a.Target, a.Auth)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if slices.Contains(paths, "/img") {
		t.Errorf("the refused image was fetched: %v", paths)
	}
}

// TestProxyHTTPS: an https:// proxy is spoken to in TLS, a plain page's
// request and an https page's CONNECT alike, with its credentials.
func TestProxyHTTPS(t *testing.T) {
	plain := loopbackSite(t)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<p>tunnelled</p>")
	}))
	defer secure.Close()
	p := proxytest.StartTLS(t, map[string]string{
		publicAddr + ":80":  plain.Listener.Addr().String(),
		publicAddr + ":443": secure.Listener.Addr().String(),
	})
	c := New(Options{Proxy: p.URL("vigil", proxyPassword), IgnoreRobots: true, TotalTimeout: 5 * time.Second})
	tr := c.Transport().Clone()
	pool := x509.NewCertPool()
	pool.AddCert(p.Server.Certificate())
	pool.AddCert(secure.Certificate())
	// Both test certificates name example.com, which the https page is
	// reached by, through the proxy's rewrite of its public address.
	tr.TLSClientConfig = &tls.Config{RootCAs: pool, ServerName: "example.com"}
	for u, want := range map[string]string{"http://" + publicAddr + "/page": "through the proxy", "https://" + publicAddr + "/": "tunnelled"} {
		resp, err := (&http.Client{Transport: tr}).Get(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), want) {
			t.Errorf("%s: body %q", u, body)
		}
	}
	want := []proxytest.Ask{
		{Method: "GET", Target: "http://" + publicAddr + "/page", Auth: basicAuth("vigil", proxyPassword)},
		{Method: "CONNECT", Target: publicAddr + ":443", Auth: basicAuth("vigil", proxyPassword)},
	}
	// The map's order is random: the two requests in either order.
	got := p.Requests()
	if len(got) != 2 || !slices.Contains(got, want[0]) || !slices.Contains(got, want[1]) {
		t.Errorf("the proxy was asked %v, want %v", got, want)
	}
}

// TestProxyRefusesNumericHost: a host the URL standard reads as an IPv4
// address though it is not written as four decimal numbers (2130706433,
// 0x7f.1, 127.1, 0177.0.0.1), as browsers and many proxies read it, is
// refused by that address before the proxy is asked, not left to a DNS
// lookup here that a search domain could answer with a public address
// while the proxy dials 127.0.0.1.
func TestProxyRefusesNumericHost(t *testing.T) {
	p := proxytest.Start(t, nil)
	c := New(Options{Proxy: p.URL("", ""), IgnoreRobots: true, TotalTimeout: 5 * time.Second})
	for _, host := range []string{"2130706433", "0x7f000001", "0x7F.1", "127.1", "127.0.1", "0177.0.0.1", "0", "10.1.", "0xa9.0xfe.0xa9.0xfe"} {
		wantRefused(t, c, "http://"+host+"/page")
	}
	if got := p.Requests(); len(got) != 0 {
		t.Errorf("the proxy was asked %v", got)
	}
}

// TestProxyTunnelCanceled: a tunnel through the proxy ends when its
// context is canceled, while the proxy keeps the CONNECT unanswered (a
// fetch stopped, the daemon shutting down), as net/http's own CONNECT
// did: it waited for the context's deadline, up to a whole fetch's time,
// or a minute without one.
func TestProxyTunnelCanceled(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var held []net.Conn // answered never, closed at the end
	var mu sync.Mutex
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, conn)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	}()
	c := New(Options{Proxy: &url.URL{Scheme: "http", Host: ln.Addr().String()}, IgnoreRobots: true})
	for _, deadline := range []bool{true, false} {
		ctx, cancel := context.WithCancel(context.Background())
		if deadline {
			ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
		}
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, err := c.up.tunnel(ctx, "tcp", publicAddr+":443")
		if took := time.Since(start); err == nil || took > 5*time.Second || !errors.Is(err, context.Canceled) {
			t.Errorf("deadline %v: tunnel ended after %v with %v, want soon after the cancel, with context.Canceled", deadline, took, err)
		}
		cancel()
	}
}

// TestProxyRenderAuthenticates: through an operator's proxy that demands
// its credentials (407 without them), a rendered page loads, its
// document, a script's request and an image alike: Chromium takes no
// credentials from a proxy URL, but it speaks only to its guard proxy,
// whose credentials the tab gives when asked (a Fetch.authRequired of
// source Proxy), and which forwards to the operator's proxy with the
// operator's. A server's own challenge (401) gets neither those nor the
// operator's: the page reads it unanswered. Nothing the client logs, nor
// its errors, shows the operator's password.
func TestProxyRenderAuthenticates(t *testing.T) {
	needChromium(t)
	var mu sync.Mutex
	var toSite []string // each request the site got, with its credentials
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		toSite = append(toSite, fmt.Sprintf("%s %q %q", r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Proxy-Authorization")))
		mu.Unlock()
		switch r.URL.Path {
		case "/data":
			fmt.Fprint(w, "fetched by script")
		case "/members":
			w.Header().Set("WWW-Authenticate", `Basic realm="members"`)
			http.Error(w, "members only", http.StatusUnauthorized)
		case "/pixel.gif":
			w.Header().Set("Content-Type", "image/gif")
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body><div id="out">static</div><div id="members">?</div><img src="/pixel.gif">
<script>
fetch("/data").then(r => r.text()).then(t => document.getElementById("out").textContent = t);
fetch("/members", {credentials: "include"}).then(r => document.getElementById("members").textContent = "members: " + r.status);
</script></body></html>`)
		}
	}))
	defer site.Close()
	p := proxytest.Start(t, map[string]string{publicAddr + ":80": site.Listener.Addr().String()})
	p.Require = basicAuth("vigil", proxyPassword)
	logs := &logBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	chrome := &Chromium{Settle: 500 * time.Millisecond, Logger: logger}
	defer chrome.Close()
	c := New(Options{Proxy: p.URL("vigil", proxyPassword), IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: "http://" + publicAddr + "/", Render: true})
	if err != nil {
		if strings.Contains(err.Error(), proxyPassword) {
			t.Errorf("the error shows the proxy's password: %v", err)
		}
		t.Fatalf("render through a proxy that demands its credentials: %v", err)
	}
	for _, want := range []string{"fetched by script", "members: 401"} {
		if !strings.Contains(string(res.Body), want) {
			t.Errorf("the rendered page lacks %q:\n%s", want, res.Body)
		}
	}
	asked := p.Requests()
	if !slices.Contains(asked, proxytest.Ask{Method: "GET", Target: "http://" + publicAddr + "/", Auth: p.Require}) {
		t.Errorf("the proxy was not asked for the page with its credentials: %v", asked)
	}
	for _, a := range asked {
		if a.Auth != p.Require {
			t.Errorf("the proxy was asked for %s %s with %q, want its credentials", a.Method, a.Target, a.Auth)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, path := range []string{"/", "/data", "/members", "/pixel.gif"} {
		if !slices.Contains(toSite, fmt.Sprintf("%s %q %q", path, "", "")) {
			t.Errorf("the site got no request for %s without credentials: %v", path, toSite)
		}
	}
	for _, got := range toSite {
		if !strings.HasSuffix(got, `"" ""`) {
			t.Errorf("the site got credentials: %s", got)
		}
	}
	if l := logs.String(); strings.Contains(l, proxyPassword) || strings.Contains(l, p.Require) {
		t.Errorf("the log shows the proxy's credentials:\n%s", l)
	}
}

// logBuffer is a log's text, written by several goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
