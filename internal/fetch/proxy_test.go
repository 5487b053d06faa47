package fetch

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// credentials opens a render's log on p (guardProxy.begin) and returns
// its credentials, for a test that asks p as a render's tab does.
func (p *guardProxy) credentials() (user, password string) {
	l := p.begin()
	return l.user, l.password
}

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
	}, nil, time.Minute, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	connect := func(target string) (net.Conn, int) {
		t.Helper()
		c, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://"))
		if err != nil {
			t.Fatal(err)
		}
		user, pass := p.credentials()
		auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
		fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n", target, target, auth)
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

// TestGuardProxyRequiresToken: the guard proxy forwards through the
// operator's proxy, with its credentials, so a local process without the
// random credentials of a render under way is refused with a 407, for a
// plain request and a tunnel alike, and wrong ones are refused too (another
// render's password, those of a render ended); the browser's, given them,
// goes through.
func TestGuardProxyRequiresToken(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "reached")
	}))
	defer srv.Close()
	var d net.Dialer
	p, err := startGuardProxy(d.DialContext, nil, time.Minute, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	user, pass := p.credentials()
	if len(pass) < 32 {
		t.Fatalf("the guard proxy's password %q is too short to be unguessable", pass)
	}
	other, ended := p.begin(), p.begin()
	p.end(ended)
	proxied := func(userinfo *url.Userinfo) int {
		t.Helper()
		pu, _ := url.Parse(p.URL())
		pu.User = userinfo
		client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
		resp, err := client.Get(srv.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusProxyAuthRequired && !strings.HasPrefix(resp.Header.Get("Proxy-Authenticate"), "Basic ") {
			t.Errorf("a 407 without a Basic challenge: %q", resp.Header.Get("Proxy-Authenticate"))
		}
		return resp.StatusCode
	}
	for _, tc := range []struct {
		name string
		who  *url.Userinfo
		want int
	}{
		{"no credentials", nil, http.StatusProxyAuthRequired},
		{"a wrong password", url.UserPassword(user, pass[:len(pass)-1]+"x"), http.StatusProxyAuthRequired},
		{"another user", url.UserPassword("someone", pass), http.StatusProxyAuthRequired},
		{"another render's password", url.UserPassword(user, other.password), http.StatusProxyAuthRequired},
		{"an ended render's credentials", url.UserPassword(ended.user, ended.password), http.StatusProxyAuthRequired},
		{"the proxy's credentials", url.UserPassword(user, pass), http.StatusOK},
	} {
		if got := proxied(tc.who); got != tc.want {
			t.Errorf("a GET with %s: status %d, want %d", tc.name, got, tc.want)
		}
	}
	c, err := net.Dial("tcp", strings.TrimPrefix(p.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	target := strings.TrimPrefix(srv.URL, "http://")
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusProxyAuthRequired {
		t.Errorf("a CONNECT without credentials: status %d, want 407", resp.StatusCode)
	}
}
