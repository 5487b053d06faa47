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
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"

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
// stack with it, for a render to fail with (takePanic, once).
func TestGuardProxyTunnelPanic(t *testing.T) {
	p, err := startGuardProxy(func(ctx context.Context, network, addr string) (net.Conn, error) {
		a, b := net.Pipe()
		t.Cleanup(func() { b.Close() })
		return readPanicConn{a}, nil
	}, nil, time.Minute, 0)
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
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT: %v, %v", resp, err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadAll(r); err != nil {
		t.Fatalf("the tunnel was not closed after its panic: %v", err)
	}
	err = p.takePanic()
	var pe *vigil.PanicError
	if !errors.As(err, &pe) || err.Error() != "the guard proxy's tunnel: panic: read from https://up.example.test/…: nil buffer" {
		t.Fatalf("takePanic = %v; want the tunnel's panic", err)
	}
	if !strings.Contains(string(pe.Stack), "readPanicConn") {
		t.Errorf("the stack does not say where it panicked:\n%s", pe.Stack)
	}
	if err := p.takePanic(); err != nil {
		t.Errorf("the panic is reported twice: %v", err)
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
	if !errors.As(err, &pe) || err.Error() != "decide on a navigation: panic: robots.txt of https://example.test/…: index out of range" {
		t.Fatalf("settled = %v; want the decision's panic", err)
	}
	if len(pe.Stack) == 0 {
		t.Error("no stack")
	}
}
