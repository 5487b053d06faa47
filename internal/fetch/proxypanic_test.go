package fetch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// syncBuffer is the standard logger's output during a test, written by
// net/http's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestGuardProxyRequestPanic: a panic in answering a request of the
// browser (in the dial of a CONNECT: a bug in the address guard) aborts
// that request, which the browser sees fail, and is kept, its URL
// redacted and its stack with it, for the renders in flight to fail with (panicSince);
// net/http prints nothing of it (its value held the URL's password).
func TestGuardProxyRequestPanic(t *testing.T) {
	var stderr syncBuffer
	defer log.SetOutput(log.Writer())
	log.SetOutput(&stderr) // net/http's ErrorLog, the proxy's server having none
	p, err := startGuardProxy(func(ctx context.Context, network, addr string) (net.Conn, error) {
		panic("dial https://user:SECRET@" + addr + "/: nil resolver")
	}, nil, time.Minute, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	user, pass := p.credentials()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	fmt.Fprintf(c, "CONNECT up.example.test:443 HTTP/1.1\r\nHost: up.example.test:443\r\nProxy-Authorization: Basic %s\r\n\r\n", auth)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
		t.Fatalf("CONNECT answered %d; want the connection aborted", resp.StatusCode)
	}
	err = p.panicSince(0) // a mark taken before any panic
	var pe *vigil.PanicError
	if !errors.As(err, &pe) || err.Error() != "the guard proxy's request: panic: dial https://user:xxxxx@up.example.test:443: nil resolver" {
		t.Fatalf("panicSince = %v; want the request's panic", err)
	}
	if !strings.Contains(string(pe.Stack), "TestGuardProxyRequestPanic") {
		t.Errorf("the stack does not say where it panicked:\n%s", pe.Stack)
	}
	if got := stderr.String(); strings.Contains(got, "SECRET") || strings.Contains(got, "panic") {
		t.Errorf("net/http logged the panic: %q", got)
	}
}

// acceptPanicListener is a listener whose Accept panics, as a bug in a
// listener would.
type acceptPanicListener struct{ net.Listener }

func (acceptPanicListener) Accept() (net.Conn, error) {
	panic("accept on https://user:SECRET@proxy.example.test/: nil poller")
}

// TestGuardProxyServePanic: a panic of the proxy's server loop, on the
// proxy's goroutine, stops the proxy, not the process, and is kept for a
// render in flight to fail with (panicSince), its URL redacted.
func TestGuardProxyServePanic(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	p := &guardProxy{srv: &http.Server{}}
	p.serve(acceptPanicListener{ln})
	err = p.panicSince(0) // a mark taken before any panic
	var pe *vigil.PanicError
	if !errors.As(err, &pe) || err.Error() != "the guard proxy's server: panic: accept on https://user:xxxxx@proxy.example.test: nil poller" {
		t.Fatalf("panicSince = %v; want the server's panic", err)
	}
	if !p.stopped() {
		t.Error("the proxy whose server loop panicked is not marked stopped")
	}
}

// TestRenderAfterProxyServerPanic: once the guard proxy's server loop has
// ended on a panic (its port freed, for any local process to take), the
// next render starts the browser again with a new proxy, and reads the
// page, rather than sending its tabs to the old proxy's address.
func TestRenderAfterProxyServerPanic(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><p id="out"></p><script>document.getElementById("out").textContent = "by " + "script";</script></body></html>`)
	}))
	defer srv.Close()
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	render := func() {
		t.Helper()
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(res.Body), "by script") {
			t.Fatalf("rendered page lacks the script's text:\n%s", res.Body)
		}
	}
	render()
	chrome.mu.Lock()
	old := chrome.proxy
	chrome.mu.Unlock()
	// The server loop's end on a panic, as serve records it, its
	// listener closed as net/http's Serve leaves it.
	old.keepPanic(errors.New("the guard proxy's server: panic: test"))
	old.dead.Store(true)
	old.srv.Close()
	render()
	chrome.mu.Lock()
	now := chrome.proxy
	chrome.mu.Unlock()
	if now == old || now == nil {
		t.Errorf("the browser still uses the stopped proxy")
	}
}

// TestGuardProxyTunnelStartPanic: a panic between a CONNECT's hijack and
// its tunnel's start (here in recording the tunnel's ends: a bug in the
// proxy's bookkeeping) closes the browser's connection and the one dialled
// for it, which net/http leaves open once hijacked, and is kept for the
// renders in flight to fail with (panicSince), as a tunnel's is.
func TestGuardProxyTunnelStartPanic(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	upstreamEnded := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			upstreamEnded <- err
			return
		}
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err = c.Read(make([]byte, 1))
		upstreamEnded <- err
	}()
	var d net.Dialer
	p, err := startGuardProxy(d.DialContext, nil, time.Minute, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.mu.Lock()
	p.conns = nil // open's record of the tunnel's ends panics
	p.mu.Unlock()
	c, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	user, pass := p.credentials()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	target := ln.Addr().String()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n", target, target, auth)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(c)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT: %v, %v", resp, err)
	}
	if _, err := br.ReadByte(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the browser's connection: %v; want it closed", err)
	}
	if err := <-upstreamEnded; err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the connection dialled for the tunnel: %v; want it closed", err)
	}
	err = p.panicSince(0)
	var pe *vigil.PanicError
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "the guard proxy's tunnel: panic: ") {
		t.Fatalf("panicSince = %v; want the tunnel's panic", err)
	}
	if n := p.panicMark(); n != 1 {
		t.Errorf("%d panics counted, want 1", n)
	}
}

// TestGuardProxyErrorLog: what the guard proxy's server logs itself
// (net/http's ErrorLog: a panic no handler recovered, a connection's
// error) goes to the Chromium's Logger, with the token of a URL and the
// proxy's credentials hidden, not to the standard logger.
func TestGuardProxyErrorLog(t *testing.T) {
	var stderr, out syncBuffer
	defer log.SetOutput(log.Writer())
	log.SetOutput(&stderr)
	var d net.Dialer
	p, err := startGuardProxy(d.DialContext, nil, time.Minute, 0, slog.New(slog.NewTextHandler(&out, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.srv.ErrorLog == nil {
		t.Fatal("the guard proxy's server has no ErrorLog: net/http logs to the standard logger")
	}
	p.srv.ErrorLog.Printf("http: panic serving 127.0.0.1:4242: GET https://site.example/?token=URLSECRET with map[Proxy-Authorization:[Basic %s]]\ngoroutine 7 [running]:",
		base64.StdEncoding.EncodeToString([]byte("vigil:PROXYSECRET")))
	got := out.String()
	if !strings.Contains(got, "level=ERROR") || !strings.Contains(got, "panic serving") || !strings.Contains(got, "https://site.example/…") {
		t.Errorf("the logger lacks the line:\n%s", got)
	}
	if strings.Contains(got, "URLSECRET") || strings.Contains(got, base64.StdEncoding.EncodeToString([]byte("vigil:PROXYSECRET"))) {
		t.Errorf("the log shows a secret:\n%s", got)
	}
	if s := stderr.String(); s != "" {
		t.Errorf("the standard logger got %q", s)
	}
}

// TestBrowserLogf: what chromedp logs of the browser's connection (an
// event it cannot read, which may quote a page's URL) goes to the
// Chromium's Logger with its secrets hidden, not to the standard logger.
func TestBrowserLogf(t *testing.T) {
	var stderr, out syncBuffer
	defer log.SetOutput(log.Writer())
	log.SetOutput(&stderr)
	browserLogf(slog.New(slog.NewTextHandler(&out, nil)))("could not unmarshal event: %v",
		errors.New(`bad frame URL "https://site.example/reset?token=URLSECRET"`))
	got := out.String()
	if !strings.Contains(got, "level=ERROR") || !strings.Contains(got, "could not unmarshal event") || !strings.Contains(got, "https://site.example/…") {
		t.Errorf("the logger lacks the line:\n%s", got)
	}
	if strings.Contains(got, "URLSECRET") {
		t.Errorf("the log shows a secret:\n%s", got)
	}
	if s := stderr.String(); s != "" {
		t.Errorf("the standard logger got %q", s)
	}
}
