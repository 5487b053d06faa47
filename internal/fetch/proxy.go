package fetch

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigil-web/vigil"
)

// guardProxy is an HTTP proxy on the loopback interface through which a
// rendering browser sends every request it makes: the page, its redirects,
// its images, frames and scripts' requests, over plain HTTP or tunnelled
// (CONNECT). It dials as the client does, after the address guard, so that
// a page the guard let through cannot make the browser reach a private or
// loopback address, nor a name that resolves to one when the browser asks
// (DNS rebinding): the browser resolves nothing itself behind a proxy.
//
// It listens on 127.0.0.1, and answers only the requests that give the
// credentials of a render under way (renderLog: a user and a random
// password of 64 hex digits, made for each render) in
// Proxy-Authorization: it forwards to the operator's proxy
// (Options.Proxy) with that proxy's credentials, which another local
// process could otherwise use through it. Others are refused with a 407.
// The browser is given them over the DevTools protocol when it asks
// (navigationGate answers Fetch.authRequired), never on its command line,
// which any local user can read; and the proxy tells by them whose
// request it serves, recording its failures for that render only.
type guardProxy struct {
	ln   net.Listener
	srv  *http.Server
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
	tr   *http.Transport
	// total bounds each plain request forwarded, its answer's headers
	// and body: the client's TotalTimeout, as its own fetch's.
	total time.Duration
	// handshake bounds the wait of a tunnel for its server's first byte
	// once the browser sent its own (its TLS handshake): the client's
	// ConnectTimeout, its own TLS handshake timeout (tunnelTimeout).
	handshake time.Duration

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{} // both ends of the open tunnels
	wg     sync.WaitGroup        // the tunnels' copying goroutines
	// panics counts the panics of the proxy's goroutines (keepPanic),
	// and lastPanic is the latest of them: a render fails with it if the
	// count moved while it ran (panicSince), since the proxy cannot tell
	// whose tab a tunnel or a request served.
	panics    uint64
	lastPanic error
	// dead is set when the server's loop ended on a panic (serve).
	dead atomic.Bool
	// logs are the renders under way, by the user name of their
	// credentials (renderLog), and logged counts those ever opened.
	logs   map[string]*renderLog
	logged uint64
	// token marks the proxy's own answers to the plain requests it could
	// not forward, and failed keeps their errors (guardFailureHeader).
	token  string
	failed failures
}

// startGuardProxy starts a proxy dialling with dial. With up (the
// operator's proxy, Options.Proxy), its plain requests go to up as a
// client's do (the target checked first), and its tunnels are dialled
// with dial, which then opens them through up. A plain request waits for
// its answer as the client's fetch does: within total (its
// Options.TotalTimeout; a minute if not positive), the headers with no
// timer of their own unless headerTimeout (its Options.HeaderTimeout) is
// set, so that a page may take the whole --fetch-timeout to answer when
// rendered as when fetched. A request that runs out is answered 504.
// What its server logs itself (net/http's ErrorLog) goes to logger
// (slog.Default() if nil), redacted (serverErrorLog).
func startGuardProxy(dial func(ctx context.Context, network, addr string) (net.Conn, error), up *upstream, total, headerTimeout time.Duration, logger *slog.Logger) (*guardProxy, error) {
	return startGuardProxyHandshake(dial, up, total, headerTimeout, 0, logger)
}

// startGuardProxyHandshake is startGuardProxy whose tunnels wait at most
// handshake (the client's Options.ConnectTimeout, its TLS handshake
// timeout; 10s if not positive) for their server's first byte once the
// browser sent its own (tunnelTimeout).
func startGuardProxyHandshake(dial func(ctx context.Context, network, addr string) (net.Conn, error), up *upstream, total, headerTimeout, handshake time.Duration, logger *slog.Logger) (*guardProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	if total <= 0 {
		total = time.Minute
	}
	if handshake <= 0 {
		handshake = 10 * time.Second
	}
	token := make([]byte, 16)
	rand.Read(token)
	p := &guardProxy{ln: ln, dial: dial, conns: map[net.Conn]struct{}{}, total: total,
		handshake: handshake, token: hex.EncodeToString(token)}
	p.tr = &http.Transport{
		Proxy:                 nil,
		DialContext:           dial,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: headerTimeout,
		DisableCompression:    true, // the browser asked for what it accepts
	}
	if up != nil {
		p.tr.Proxy, p.tr.DialContext = up.proxy, up.dial
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, ErrorLog: serverErrorLog(logger)}
	go p.serve(ln)
	return p, nil
}

// serverErrorLog is the ErrorLog of the guard proxy's server: each line
// net/http writes itself (a connection's error, a panic's value and
// stack) is logged at Error level on logger (slog.Default() if nil) with
// its secrets hidden (vigil.RedactSecrets: the tokens of URLs, a
// Proxy-Authorization), where net/http's default, the standard logger,
// wrote it as it was.
func serverErrorLog(logger *slog.Logger) *log.Logger {
	if logger == nil {
		logger = slog.Default()
	}
	return log.New(errorLogWriter{logger}, "", 0)
}

type errorLogWriter struct{ logger *slog.Logger }

func (w errorLogWriter) Write(p []byte) (int, error) {
	w.logger.Error("the rendering browser's guard proxy", "error", vigil.RedactSecrets(strings.TrimRight(string(p), "\n")))
	return len(p), nil
}

// serve serves the proxy on ln until it is closed, on the proxy's own
// goroutine. A panic of the server's loop (a bug in the listener) stops
// the proxy rather than the process: it is kept (a *vigil.PanicError) for
// the renders in flight to fail with (panicSince), and the proxy is
// marked stopped (stopped), so that the browser, whose tabs are set to
// use its address, is started again with a new one before the next
// render: the freed port could otherwise be taken by any local process,
// which would see every request of the browser.
func (p *guardProxy) serve(ln net.Listener) {
	err := vigil.Protect(func() error { return p.srv.Serve(ln) })
	if vigil.PanicStack(err) != nil {
		p.keepPanic(fmt.Errorf("the guard proxy's server: %w", err))
		p.dead.Store(true)
	}
}

// stopped reports whether the proxy's server loop ended on a panic
// (serve): the browser using it must be started again.
func (p *guardProxy) stopped() bool { return p.dead.Load() }

// proxyUser begins the user name of each render's credentials
// (renderLog).
const proxyUser = "vigil"

// URL is the proxy's address, for the browser's --proxy-server.
func (p *guardProxy) URL() string { return "http://" + p.ln.Addr().String() }

// Close stops the proxy and its tunnels.
func (p *guardProxy) Close() error {
	err := p.srv.Close()
	p.tr.CloseIdleConnections()
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}

// open records a tunnel's two ends and its two goroutines, or reports that
// the proxy is closed.
func (p *guardProxy) open(client, upstream net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.conns[client], p.conns[upstream] = struct{}{}, struct{}{}
	p.wg.Add(2)
	return true
}

// shut closes a tunnel's two ends and forgets them.
func (p *guardProxy) shut(client, upstream net.Conn) {
	client.Close()
	upstream.Close()
	p.mu.Lock()
	delete(p.conns, client)
	delete(p.conns, upstream)
	p.mu.Unlock()
}

// hopHeaders are the headers of one connection, not forwarded.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// dropHopHeaders removes the headers of one connection: the standard ones
// and those the Connection header names.
func dropHopHeaders(h http.Header) {
	for _, v := range h.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, name := range hopHeaders {
		h.Del(name)
	}
}

// ServeHTTP answers a request of the browser (handle). A panic in it (a
// bug in a dial, the transport, or a tunnel's start before the hijack;
// tunnel keeps those after it) is kept (a *vigil.PanicError, its URLs
// redacted) for the renders in flight to fail with (panicSince), as a
// tunnel's is, and the request is aborted
// (http.ErrAbortHandler), which the browser sees fail: net/http would
// otherwise print the panic's value, and the URL in it, to stderr. A
// panic with http.ErrAbortHandler is passed on as it is.
func (p *guardProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		rec := recover()
		if rec == nil {
			return
		}
		if err, ok := rec.(error); ok && errors.Is(err, http.ErrAbortHandler) {
			panic(rec)
		}
		p.keepPanic(fmt.Errorf("the guard proxy's request: %w", vigil.Recovered(rec)))
		panic(http.ErrAbortHandler)
	}()
	p.handle(w, r)
}

// handle answers a request of the browser: a tunnel for a CONNECT, the
// request forwarded for another.
func (p *guardProxy) handle(w http.ResponseWriter, r *http.Request) {
	rl := p.authorized(r)
	if rl == nil {
		w.Header().Set("Proxy-Authenticate", `Basic realm="vigil rendering browser"`)
		http.Error(w, "vigil: proxy credentials required", http.StatusProxyAuthRequired)
		return
	}
	if r.Method == http.MethodConnect {
		p.tunnel(w, r, rl)
		return
	}
	if !r.URL.IsAbs() || (r.URL.Scheme != "http" && r.URL.Scheme != "https") {
		http.Error(w, "vigil: not a proxy request", http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), p.total)
	defer cancel()
	out := r.Clone(ctx)
	out.RequestURI = ""
	dropHopHeaders(out.Header)
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		p.refuse(w, r, rl, err)
		return
	}
	defer resp.Body.Close()
	dropHopHeaders(resp.Header)
	resp.Header.Del(guardFailureHeader) // the proxy's own mark, which no server gives
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// tunnel answers a CONNECT of the render whose log is rl: a guarded
// connection to the host, then bytes both ways until either side closes.
//
// A panic once the host is dialled closes that connection. Once the
// browser's connection is hijacked, net/http no longer closes it, nor
// hears of a panic: one between the hijack and the tunnel's start (a bug
// in the answer's write or the tunnel's record) closes it too, and is
// counted and kept (a *vigil.PanicError) for the renders in flight to fail
// with (panicSince), as a tunnel's is; before the hijack it is left to
// ServeHTTP, which aborts the request.
func (p *guardProxy) tunnel(w http.ResponseWriter, r *http.Request, rl *renderLog) {
	upstream, err := p.dial(r.Context(), "tcp", r.Host)
	if err != nil {
		p.refuse(w, r, rl, err)
		return
	}
	var client net.Conn // the browser's, once hijacked
	defer func() {
		rec := recover()
		if rec == nil {
			return
		}
		if client == nil {
			upstream.Close()
			panic(rec)
		}
		p.keepPanic(fmt.Errorf("the guard proxy's tunnel: %w", vigil.Recovered(rec)))
		client.Close()
		upstream.Close()
	}()
	hj, ok := w.(http.Hijacker)
	if !ok {
		upstream.Close()
		http.Error(w, "vigil: cannot tunnel", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	if _, err := client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		client.Close()
		upstream.Close()
		return
	}
	if !p.open(client, upstream) {
		client.Close()
		upstream.Close()
		return
	}
	// When either side ends, both are closed: a server that never closes
	// cannot keep a tunnel, and its goroutines, past the browser's end.
	var once sync.Once
	var ended atomic.Bool
	shut := func() { once.Do(func() { ended.Store(true); p.shut(client, upstream) }) }
	spoke, answered := p.tunnelTimeout(r, rl, &ended, shut)
	go func() {
		defer p.wg.Done()
		defer shut()
		// What the client sent that the server buffered, then the
		// client's connection itself, which io.Copy can splice.
		var from io.Reader = client
		if n := buf.Reader.Buffered(); n > 0 {
			sent, _ := buf.Reader.Peek(n)
			from = io.MultiReader(bytes.NewReader(sent), client)
		}
		p.pipe(upstream, from, spoke)
	}()
	go func() {
		defer p.wg.Done()
		defer shut()
		p.pipe(client, upstream, answered)
	}()
}

// tunnelTimeout returns the functions a tunnel of CONNECT r calls on the
// first byte the browser sends through it (spoke) and on its server's
// first (answered): a server silent for p.handshake after the browser's
// first byte (its TLS handshake's, the tunnel open) has its tunnel shut,
// unless it ended already, and its host recorded with a
// tunnelTimeoutError in rl (its render's tunnelFailed), for that render,
// if the document was its page's, to fail as the plain fetch does ("TLS handshake timeout"), naming
// the host, where the browser waited for it to the render's deadline.
func (p *guardProxy) tunnelTimeout(r *http.Request, rl *renderLog, ended *atomic.Bool, shut func()) (spoke, answered func()) {
	var heard atomic.Bool
	spoke = sync.OnceFunc(func() {
		time.AfterFunc(p.handshake, func() {
			if heard.Load() || ended.Load() {
				return
			}
			rl.tunnelFailed.keep(r, &tunnelTimeoutError{host: r.Host, after: p.handshake})
			shut()
		})
	})
	return spoke, func() { heard.Store(true) }
}

// tunnelTimeoutError is the error of a tunnel whose server sent nothing
// within after of the browser's first byte (tunnelTimeout): a timeout
// (net.Error), as the plain fetch's TLS handshake timeout is.
type tunnelTimeoutError struct {
	host  string
	after time.Duration
}

func (e *tunnelTimeoutError) Error() string {
	return fmt.Sprintf("TLS handshake timeout: %s sent nothing in %v", e.host, e.after)
}

// Timeout reports that the error is a timeout (net.Error).
func (e *tunnelTimeoutError) Timeout() bool { return true }

// Temporary is net.Error's: a timeout may pass.
func (e *tunnelTimeoutError) Temporary() bool { return true }

// pipe copies src to dst, one way of a tunnel, on the tunnel's own
// goroutine, and calls first once src has given its first bytes. That
// first read is pipe's own; the rest is io.Copy's, which can splice one
// TCP connection into the other. A panic there (a bug in a connection's
// Read or Write) ends the tunnel, which the browser sees fail, rather
// than the process, and is counted and kept (a *vigil.PanicError) for
// the renders in flight to fail with (panicSince).
func (p *guardProxy) pipe(dst io.Writer, src io.Reader, first func()) {
	err := vigil.Protect(func() error {
		b := make([]byte, 32<<10)
		for {
			n, err := src.Read(b)
			if n > 0 {
				first()
				if _, err := dst.Write(b[:n]); err != nil {
					return nil // the tunnel's end
				}
				break
			}
			if err != nil {
				return nil // the tunnel's end
			}
		}
		io.Copy(dst, src) // its error is the tunnel's end
		return nil
	})
	if err != nil {
		p.keepPanic(fmt.Errorf("the guard proxy's tunnel: %w", err))
	}
}

// keepPanic records err, a panic of one of the proxy's goroutines (a
// tunnel's, a request's, the server's), for the renders in flight to
// fail with (panicSince).
func (p *guardProxy) keepPanic(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.panics++
	p.lastPanic = err
}

// panicMark returns how many of the proxy's goroutines have panicked so
// far: a render notes it as it starts, and asks panicSince with it once
// its page is loaded.
func (p *guardProxy) panicMark() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.panics
}

// panicSince returns the latest panic of the proxy (keepPanic) if any
// happened since mark (panicMark), nil otherwise. Every render in flight
// when a tunnel or request panicked fails with it, the one whose tab it
// served among them; a render started after it does not.
func (p *guardProxy) panicSince(mark uint64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.panics == mark {
		return nil
	}
	return p.lastPanic
}

// refuse answers a failed dial or request r of the render whose log is
// rl: 403 for an address the guard refused, which is recorded in rl
// (refused), 504 for one that ran out of time, 502 otherwise. The answer
// to a plain request is marked as the proxy's, and its error kept
// (markFailure), for the render whose document it was to fail with it;
// the host of a tunnel that could not be opened is recorded in rl with
// its error (tunnelFailed), as a refused one is.
func (p *guardProxy) refuse(w http.ResponseWriter, r *http.Request, rl *renderLog, err error) {
	status := http.StatusBadGateway
	var ne net.Error
	switch {
	case errors.Is(err, ErrRefused):
		status = http.StatusForbidden
		rl.refused.keep(r, err)
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		status = http.StatusGatewayTimeout
	}
	switch {
	case r.Method != http.MethodConnect:
		p.markFailure(w.Header(), r, err)
	case status != http.StatusForbidden:
		rl.tunnelFailed.keep(r, err)
	}
	http.Error(w, "vigil: "+err.Error(), status)
}
