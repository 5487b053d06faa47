package fetch

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// ParseProxy reads the URL of an outbound proxy (Options.Proxy):
// http://[user:password@]host[:port] or https://..., without path, query
// or fragment. Its errors show the URL without its password.
func ParseProxy(raw string) (*url.URL, error) {
	shown := vigil.RedactURL(raw)
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("proxy %s: the URL does not parse", shown)
	}
	shown = vigil.RedactURL(u.String())
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("proxy %s: the scheme must be http or https", shown)
	case u.Hostname() == "":
		return nil, fmt.Errorf("proxy %s: no host", shown)
	case u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return nil, fmt.Errorf("proxy %s: a proxy's URL has no path, query or fragment", shown)
	}
	if p := u.Port(); p != "" {
		if n, err := netip.ParseAddrPort("0.0.0.0:" + p); err != nil || n.Port() == 0 {
			return nil, fmt.Errorf("proxy %s: bad port %q", shown, p)
		}
	}
	u.Path = ""
	return u, nil
}

// upstream is the operator's proxy (Options.Proxy), through which the
// client's requests go unless their host is one of NoProxy.
//
// With a proxy the client dials the proxy, not the target: the address
// guard at dial time sees the proxy's address, which the operator chose
// and which is let through (it is usually private). The target is checked
// before the request is handed to the proxy, for the first request and
// each redirect: its name is resolved here and refused if any address is
// one the guard refuses. The proxy resolves the name again: a name whose
// answers change between the two (DNS rebinding) can still lead the proxy
// to a private address. Only the proxy's own policy closes that.
type upstream struct {
	url     *url.URL
	addr    string // host:port net/http dials for the proxy
	noProxy []noProxyRule
	// check refuses a target host (Client.checkHost); nil when private
	// networks are allowed.
	check func(ctx context.Context, host string) error
	// direct dials the proxy: no address guard. guarded dials targets
	// reached without the proxy (NoProxy).
	direct, guarded func(ctx context.Context, network, addr string) (net.Conn, error)
}

// proxyAddr is the host:port dialled for proxy u, its scheme's default
// port if it names none, as net/http dials it.
func proxyAddr(u *url.URL) string {
	return net.JoinHostPort(u.Hostname(), portOf(u))
}

// bypass reports whether host, on port, is reached directly: an entry of
// NoProxy matches it (ParseNoProxy says which). A host in Unicode is
// matched by its ASCII (IDNA) form, a number the URL standard reads as an
// IPv4 address ("127.1") as that address, a port with leading zeros
// ("08080", which net/http dials as 8080) as its number.
func (p *upstream) bypass(host, port string) bool {
	if n, err := strconv.ParseUint(port, 10, 16); err == nil {
		port = strconv.FormatUint(n, 10)
	}
	name := strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	a, err := netip.ParseAddr(name)
	isAddr := err == nil
	if !isAddr {
		u := &url.URL{Host: name}
		if spec.ASCIIHost(u) == nil {
			name = u.Host
		}
		if n, numeric, err := numericIPv4(name); numeric && err == nil {
			a, isAddr = n, true
		}
	}
	a = a.Unmap()
	for _, r := range p.noProxy {
		if r.matches(name, a, isAddr, port) {
			return true
		}
	}
	return false
}

// proxy is the transport's Proxy: the proxy's URL for a request it
// carries, after the target's check, or none for a host of NoProxy, whose
// connection the guard checks when dialled.
func (p *upstream) proxy(req *http.Request) (*url.URL, error) {
	host := req.URL.Hostname()
	if p.bypass(host, portOf(req.URL)) {
		if ascii, same := p.isProxy(req.URL); same && p.check != nil {
			// Dialled directly, it would pass as the proxy does.
			if err := p.check(req.Context(), ascii); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	if p.check != nil {
		if err := p.check(req.Context(), host); err != nil {
			return nil, err
		}
	}
	return p.url, nil
}

// portOf is the port of u, its scheme's default if it names none.
func portOf(u *url.URL) string {
	if port := u.Port(); port != "" {
		return port
	}
	return map[string]string{"http": "80", "https": "443"}[u.Scheme]
}

// isProxy reports whether u is on the proxy's host and port, as net/http
// dials it: a host in Unicode by its ASCII (IDNA) form, which it returns,
// where full-width letters, digits and dots are ASCII ones (net/http
// would dial "１２７．０．０．１" as 127.0.0.1). A host with no ASCII form
// counts as the proxy's, so that it is checked.
func (p *upstream) isProxy(u *url.URL) (string, bool) {
	a := *u
	if err := spec.ASCIIHost(&a); err != nil {
		return u.Hostname(), true
	}
	return a.Hostname(), strings.EqualFold(net.JoinHostPort(a.Hostname(), portOf(&a)), p.addr)
}

// dial is the transport's dialler: the proxy's address unguarded, any
// other (a host of NoProxy) guarded.
func (p *upstream) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if addr == p.addr {
		return p.direct(ctx, network, addr)
	}
	return p.guarded(ctx, network, addr)
}

// tunnel returns a connection to addr through the proxy (CONNECT), after
// the target's check, or a guarded one of its own for a host of NoProxy.
// The rendering browser's guard proxy dials with it: its requests, plain
// or TLS, go through the operator's proxy as tunnels.
func (p *upstream) tunnel(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if p.bypass(host, port) {
		return p.guarded(ctx, network, addr)
	}
	if p.check != nil {
		if err := p.check(ctx, host); err != nil {
			return nil, err
		}
	}
	shown := vigil.RedactURL(p.url.String())
	conn, err := p.direct(ctx, "tcp", p.addr)
	if err != nil {
		return nil, fmt.Errorf("proxy %s: %w", shown, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	} else {
		conn.SetDeadline(time.Now().Add(time.Minute))
	}
	// A context canceled (a fetch stopped, the daemon shutting down)
	// ends the exchange with the proxy at once, as net/http's own
	// CONNECT does, not at the deadline.
	raw := conn
	stop := context.AfterFunc(ctx, func() { raw.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	// fail closes the connection and returns err, the context's error
	// with it when the context ended the exchange.
	fail := func(format string, args ...any) (net.Conn, error) {
		conn.Close()
		err := fmt.Errorf(format, args...)
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%w)", err, ctx.Err())
		}
		return nil, err
	}
	if p.url.Scheme == "https" {
		tc := tls.Client(conn, &tls.Config{ServerName: p.url.Hostname()})
		if err := tc.HandshakeContext(ctx); err != nil {
			return fail("proxy %s: %w", shown, err)
		}
		conn = tc
	}
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: addr}, Host: addr, Header: http.Header{}}
	if auth := p.auth(); auth != "" {
		req.Header.Set("Proxy-Authorization", auth)
	}
	br := bufio.NewReader(conn)
	if err := req.Write(conn); err != nil {
		return fail("proxy %s: CONNECT %s: %w", shown, addr, err)
	}
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		return fail("proxy %s: CONNECT %s: %w", shown, addr, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fail("proxy %s: CONNECT %s: %s", shown, addr, resp.Status)
	}
	if !stop() {
		// Canceled as the proxy answered: the deadline is past.
		conn.Close()
		return nil, fmt.Errorf("proxy %s: CONNECT %s: %w", shown, addr, ctx.Err())
	}
	conn.SetDeadline(time.Time{})
	if br.Buffered() > 0 {
		return &bufferedConn{Conn: conn, r: br}, nil
	}
	return conn, nil
}

// auth is the Proxy-Authorization of the proxy's credentials, or "".
func (p *upstream) auth() string {
	if p.url.User == nil {
		return ""
	}
	pw, _ := p.url.User.Password()
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(p.url.User.Username()+":"+pw))
}

// bufferedConn is a connection whose first bytes a reader already took.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// dialTarget dials addr as the rendering browser's guard proxy does:
// through the operator's proxy when there is one, else guarded.
func (c *Client) dialTarget(ctx context.Context, network, addr string) (net.Conn, error) {
	if c.up != nil {
		return c.up.tunnel(ctx, network, addr)
	}
	return c.guarded(ctx, network, addr)
}
