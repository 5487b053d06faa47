package fetch

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestGuardProxyTunnelKeepsBufferedBytes: the bytes a browser sends right
// behind its CONNECT, in the same packet (its TLS ClientHello), which the
// proxy's server read into its buffer with the request, reach the host
// first, and what the browser sends later follows them, in order, through
// the tunnel's connection. A tunnel that read the browser's connection
// alone would lose the first, and one that read the buffer past them
// would not splice.
func TestGuardProxyTunnelKeepsBufferedBytes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.Copy(c, c) // an echo
	}()
	var d net.Dialer
	p, err := startGuardProxy(func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
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
	c.SetDeadline(time.Now().Add(30 * time.Second))
	user, pass := p.credentials()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	target := ln.Addr().String()
	// One write: the request and the first bytes of the tunnel.
	if _, err := fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\nhello, ", target, target, auth); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	if _, err := io.WriteString(c, "world"); err != nil {
		t.Fatal(err)
	}
	const want = "hello, world"
	got := make([]byte, len(want))
	if _, err := io.ReadFull(br, got); err != nil || string(got) != want {
		t.Errorf("through the tunnel: %q, %v; want %q", got, err, want)
	}
}
