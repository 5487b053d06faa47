package fetch

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/vigil-web/vigil"
)

// readPanicConn is a connection whose Read panics, as a bug in a
// connection (a TLS or proxy layer's) would.
type readPanicConn struct{ net.Conn }

func (readPanicConn) Read([]byte) (int, error) {
	panic("read from https://user:SECRET@up.example.test/: nil buffer")
}

// TestGuardProxyTunnelPanic: a panic on a tunnel's goroutine (copying
// from the server's connection) ends the tunnel, which the browser sees
// closed, not the process; the panic is kept, its URL redacted and its
// stack with it, for the renders in flight to fail with (panicSince), not
// one started after it.
func TestGuardProxyTunnelPanic(t *testing.T) {
	p, err := startGuardProxy(func(ctx context.Context, network, addr string) (net.Conn, error) {
		a, b := net.Pipe()
		t.Cleanup(func() { b.Close() })
		return readPanicConn{a}, nil
	}, nil, time.Minute, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	mark := p.panicMark()
	c, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	user, pass := p.credentials()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	fmt.Fprintf(c, "CONNECT up.example.test:443 HTTP/1.1\r\nHost: up.example.test:443\r\nProxy-Authorization: Basic %s\r\n\r\n", auth)
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT: %v, %v", resp, err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadAll(r); err != nil {
		t.Fatalf("the tunnel was not closed after its panic: %v", err)
	}
	err = p.panicSince(mark)
	var pe *vigil.PanicError
	if !errors.As(err, &pe) || err.Error() != "the guard proxy's tunnel: panic: read from https://user:xxxxx@up.example.test: nil buffer" {
		t.Fatalf("panicSince(the mark before) = %v; want the tunnel's panic", err)
	}
	if !strings.Contains(string(pe.Stack), "readPanicConn") {
		t.Errorf("the stack does not say where it panicked:\n%s", pe.Stack)
	}
	if err := p.panicSince(mark); err == nil {
		t.Error("a second render in flight when the tunnel panicked is not told")
	}
	if err := p.panicSince(p.panicMark()); err != nil {
		t.Errorf("a render started after the panic is failed with it: %v", err)
	}
}

// signalPanicConn is a connection whose Read panics, and which, once
// closed after that panic (the tunnel shut, the panic recorded), closes
// recorded.
type signalPanicConn struct {
	net.Conn
	read     atomic.Bool
	once     sync.Once
	recorded chan struct{}
}

func (c *signalPanicConn) Read([]byte) (int, error) {
	c.read.Store(true)
	panic("read from panic.test: nil buffer")
}

func (c *signalPanicConn) Close() error {
	if c.read.Load() {
		c.once.Do(func() { close(c.recorded) })
	}
	return c.Conn.Close()
}

// TestRenderTunnelPanicFailsItsRender: a tunnel of the guard proxy that
// panics fails the render in flight whose tab it served (page A, whose
// image on https://panic.test/ it tunnels), not a render started after the
// panic (page B) that finishes loading first: B is read, A fails with the
// panic. (The tunnel panics once: the browser's retry is refused, lest a
// second panic strike while B is in flight, which would fail B too.)
func TestRenderTunnelPanicFailsItsRender(t *testing.T) {
	needChromium(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow.gif": // holds A's load until B is read
			select {
			case <-release:
			case <-r.Context().Done():
			}
			w.Header().Set("Content-Type", "image/gif")
		case "/a":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body><p>page A</p><img src="https://panic.test/a.gif"><img src="/slow.gif"></body></html>`)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body><p>page B</p></body></html>`)
		}
	}))
	defer srv.Close()
	var releaseOnce sync.Once
	free := func() { releaseOnce.Do(func() { close(release) }) }
	defer free()
	conn := &signalPanicConn{recorded: make(chan struct{})}
	var dialled atomic.Bool
	dialer := &net.Dialer{}
	chrome := &Chromium{Settle: 50 * time.Millisecond, Allow: func(context.Context, string) error { return nil },
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addr == "panic.test:443" {
				if dialled.Swap(true) { // the browser's retry: refused, not another panic
					return nil, fmt.Errorf("dial %s: %w", addr, ErrRefused)
				}
				a, b := net.Pipe()
				t.Cleanup(func() { b.Close() })
				conn.Conn = a
				return conn, nil
			}
			return dialer.DialContext(ctx, network, addr)
		}}
	defer chrome.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	type result struct {
		html string
		err  error
	}
	a := make(chan result, 1)
	go func() {
		html, err := chrome.Render(ctx, srv.URL+"/a")
		a <- result{html, err}
	}()
	select {
	case <-conn.recorded:
	case <-ctx.Done():
		t.Fatal("A's tunnel to panic.test did not panic")
	}
	html, err := chrome.Render(ctx, srv.URL+"/b")
	if err != nil || !strings.Contains(html, "page B") {
		t.Errorf("B, started after the panic, = %q, %v; want the page", html, err)
	}
	free()
	got := <-a
	var pe *vigil.PanicError
	if !errors.As(got.err, &pe) || !strings.Contains(got.err.Error(), "the guard proxy's tunnel: panic: read from panic.test") {
		t.Errorf("A, whose tunnel panicked, = %.80q, %v; want the tunnel's panic", got.html, got.err)
	}
}

// TestNavigationGateDecisionPanics: a panic in deciding on a paused
// document (in allow: a bug in reading a robots.txt), on the goroutine
// the gate decides it on, fails the render with it, as a refusal does,
// not the process.
func TestNavigationGateDecisionPanics(t *testing.T) {
	g := &navigationGate{
		allow: func(ctx context.Context, url string) error { panic("robots.txt of " + url + ": index out of range") },
		ctx:   context.Background(), frame: "main", answered: map[fetch.RequestID]bool{}}
	g.paused(&fetch.EventRequestPaused{RequestID: "r1", ResourceType: network.ResourceTypeDocument, FrameID: "main",
		Request: &network.Request{URL: "https://user:SECRET@example.test/page"}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := g.settled(ctx)
	var pe *vigil.PanicError
	if !errors.As(err, &pe) || err.Error() != "decide on a navigation: panic: robots.txt of https://user:xxxxx@example.test/…: index out of range" {
		t.Fatalf("settled = %v; want the decision's panic", err)
	}
	if len(pe.Stack) == 0 {
		t.Error("no stack")
	}
}

// TestRenderNavigationPanicFailsRequest: in the real browser, a panic in
// deciding on the tab's document fails that request as a refusal does
// (the browser's navigation ends with net::ERR_BLOCKED_BY_CLIENT, the
// page never requested), and the render returns the panic at once rather
// than at its deadline, which is ten minutes off: a render left to wait
// for it would hit the test's own deadline first.
func TestRenderNavigationPanicFailsRequest(t *testing.T) {
	needChromium(t)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panics" {
			hits.Add(1)
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body>page</body></html>`)
	}))
	defer srv.Close()
	allow := func(ctx context.Context, url string) error {
		if strings.HasSuffix(url, "/panics") {
			panic("robots.txt of " + url + ": index out of range")
		}
		return nil
	}
	chrome := &Chromium{Dial: (&net.Dialer{}).DialContext, Allow: allow}
	defer chrome.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	want := "decide on a navigation: panic: robots.txt of " + strings.TrimSuffix(vigil.RedactURLs(srv.URL+"/panics"), "/…") + "/…: index out of range"
	_, err := chrome.Render(ctx, srv.URL+"/panics")
	var pe *vigil.PanicError
	if !errors.As(err, &pe) || err.Error() != want {
		t.Fatalf("Render = %v; want %q", err, want)
	}

	// The tab's navigation itself: the request is failed, not left
	// paused.
	b, err := chrome.start()
	if err != nil {
		t.Fatal(err)
	}
	tab, closeTab, err := b.newTab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer closeTab()
	gate, err := openNavigationGate(tab, allow, b.proxy)
	if err != nil {
		t.Fatal(err)
	}
	defer gate.close()
	if _, err := chromedp.RunResponse(tab, chromedp.Navigate(srv.URL+"/panics")); err == nil || !strings.Contains(err.Error(), "ERR_BLOCKED_BY_CLIENT") {
		t.Errorf("the navigation ended with %v; want its request failed (net::ERR_BLOCKED_BY_CLIENT)", err)
	}
	if err := gate.settled(tab); !errors.As(err, &pe) {
		t.Errorf("the gate settled with %v; want the panic", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the page was requested %d times; want never (its request failed unsent)", n)
	}
}
