package fetch

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestGuardProxyDialsChecked: without an operator's proxy, the rendering
// browser's guard proxy dials as the client does, the address checked
// being the one connected (the dialer's Control), with no lookup of its
// own that DNS could answer otherwise: a name that resolves to loopback
// (this host's name, in /etc/hosts) is refused, by CONNECT and by a plain
// request, as a page and a webhook are, and the loopback server gets
// nothing.
func TestGuardProxyDialsChecked(t *testing.T) {
	name, err := os.Hostname()
	if err != nil {
		t.Skip(err)
	}
	addrs, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip", name)
	if err != nil || len(addrs) == 0 || privateReason(addrs[0]) == "" {
		t.Skipf("this host's name %s resolves to %v (%v): no private address", name, addrs, err)
	}
	var reached atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached.Add(1) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	c := New(Options{IgnoreRobots: true, TotalTimeout: 5 * time.Second})
	gp, err := startGuardProxy(c.dialTarget, nil, 5*time.Second, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer gp.Close()
	user, pass := gp.credentials()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	target := net.JoinHostPort(name, port)
	for _, req := range []string{
		fmt.Sprintf("CONNECT %s HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n", target, target, auth),
		fmt.Sprintf("GET http://%s/ HTTP/1.1\r\nHost: %s\r\nProxy-Authorization: Basic %s\r\n\r\n", target, target, auth),
	} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(gp.URL(), "http://"))
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(conn, req)
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		conn.Close()
		if err != nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("%q: %v, %v; want 403", strings.Fields(req)[0], resp, err)
		}
	}
	// The client's own requests, a page's and a webhook's, as well.
	wantRefused(t, c, "http://"+target+"/")
	if n := reached.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
}
