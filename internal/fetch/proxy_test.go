package fetch

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestGuardProxyTunnels: a tunnel ends with its client even when the
// server never closes; a refused address is a 403; Close ends what is
// left and returns.
func TestGuardProxyTunnels(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	held := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held <- c // never read, never closed
		}
	}()
	var d net.Dialer
	p, err := startGuardProxy(func(ctx context.Context, network, addr string) (net.Conn, error) {
		if strings.HasPrefix(addr, "10.") {
			return nil, fmt.Errorf("%w: %s is private", ErrRefused, addr)
		}
		return d.DialContext(ctx, network, addr)
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	connect := func(target string) (net.Conn, int) {
		t.Helper()
		c, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c, resp.StatusCode
	}
	if c, status := connect("10.0.0.1:443"); status != http.StatusForbidden {
		t.Errorf("CONNECT to a refused address: %d, want 403", status)
	} else {
		c.Close()
	}
	for range 5 {
		c, status := connect(ln.Addr().String())
		if status != http.StatusOK {
			t.Fatalf("CONNECT: %d", status)
		}
		c.Close()
	}
	open := func() int {
		p.mu.Lock()
		defer p.mu.Unlock()
		return len(p.conns)
	}
	for deadline := time.Now().Add(5 * time.Second); open() > 0 && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
	}
	if n := open(); n != 0 {
		t.Errorf("%d tunnel ends still open after their clients left", n)
	}
	// One left open by its client: Close ends it.
	c, _ := connect(ln.Addr().String())
	defer c.Close()
	done := make(chan error, 1)
	go func() { done <- p.Close() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return with a tunnel open")
	}
}
