// Package proxytest runs a real forwarding HTTP proxy on loopback, as an
// operator's would be, for the tests of the fetcher (internal/fetch) and
// of vigil serve --proxy. It is imported by tests only.
package proxytest

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
)

// Proxy is a forwarding HTTP proxy on loopback: it answers absolute-URI
// requests by making them itself and CONNECT by tunnelling, and records
// what it was asked. Its rewrite maps a host:port asked for to the address
// it really dials, so that a public address the test cannot reach leads to
// a loopback server: a client that dialled the target itself would not
// get there.
type Proxy struct {
	// Server is the proxy's server; its URL has no credentials (see URL).
	Server *httptest.Server
	// Status, when not 0, is the answer to every request, with a
	// Proxy-Authenticate header. Set it before the first request.
	Status int
	// Require, when not empty, is the Proxy-Authorization a request must
	// carry, as an operator's proxy that authenticates its users asks:
	// one without it is answered 407 with a Basic challenge, and not
	// forwarded. Set it before the first request.
	Require string

	rewrite map[string]string

	mu    sync.Mutex
	asked []Ask
}

// Ask is one request the proxy got.
type Ask struct {
	Method string // GET, CONNECT, ...
	Target string // the absolute URI asked for, or host:port for CONNECT
	Auth   string // the Proxy-Authorization header
}

// Start starts a plain-HTTP proxy, stopped at cleanup, that dials the
// addresses of rewrite in place of its keys.
func Start(t testing.TB, rewrite map[string]string) *Proxy {
	t.Helper()
	return start(t, rewrite, false)
}

// StartTLS is Start for an https:// proxy, spoken to in TLS with the
// certificate of Server.
func StartTLS(t testing.TB, rewrite map[string]string) *Proxy {
	t.Helper()
	return start(t, rewrite, true)
}

func start(t testing.TB, rewrite map[string]string, secure bool) *Proxy {
	t.Helper()
	p := &Proxy{rewrite: rewrite}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, p.dest(addr))
	}
	tr := &http.Transport{Proxy: nil, DialContext: dial, DisableCompression: true}
	p.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := r.Host
		if r.Method != http.MethodConnect {
			target = r.URL.String()
		}
		p.mu.Lock()
		p.asked = append(p.asked, Ask{Method: r.Method, Target: target, Auth: r.Header.Get("Proxy-Authorization")})
		p.mu.Unlock()
		if p.Require != "" && r.Header.Get("Proxy-Authorization") != p.Require {
			w.Header().Set("Proxy-Authenticate", `Basic realm="corp"`)
			http.Error(w, "proxy authentication required", http.StatusProxyAuthRequired)
			return
		}
		if p.Status != 0 {
			w.Header().Set("Proxy-Authenticate", `Basic realm="corp"`)
			http.Error(w, "proxy says no", p.Status)
			return
		}
		if r.Method == http.MethodConnect {
			up, err := dial(r.Context(), "tcp", r.Host)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			client, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				up.Close()
				return
			}
			client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
			go func() { io.Copy(up, buf); up.Close() }()
			go func() { io.Copy(client, up); client.Close() }()
			return
		}
		if !r.URL.IsAbs() {
			http.Error(w, "not a proxy request", http.StatusBadRequest)
			return
		}
		out := r.Clone(r.Context())
		out.RequestURI = ""
		out.Header.Del("Proxy-Authorization")
		resp, err := tr.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, vs := range resp.Header {
			w.Header()[k] = vs
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	if secure {
		p.Server.StartTLS()
	} else {
		p.Server.Start()
	}
	t.Cleanup(func() {
		p.Server.CloseClientConnections()
		p.Server.Close()
		tr.CloseIdleConnections()
	})
	return p
}

// dest returns the address the proxy dials for addr.
func (p *Proxy) dest(addr string) string {
	if to, ok := p.rewrite[addr]; ok {
		return to
	}
	return addr
}

// Requests returns the requests the proxy got so far, in order.
func (p *Proxy) Requests() []Ask {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Ask(nil), p.asked...)
}

// URL returns the proxy's URL, with user and password when user is not
// empty.
func (p *Proxy) URL(user, password string) *url.URL {
	u, _ := url.Parse(p.Server.URL)
	if user != "" {
		u.User = url.UserPassword(user, password)
	}
	return u
}
