package fetch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// tlsSilentListener serves plain HTTP on its connections, and holds
// those that begin a TLS handshake (their first byte 0x16) unanswered,
// as a host whose port answers http and whose https hangs.
type tlsSilentListener struct {
	net.Listener
	conns chan net.Conn
	mu    sync.Mutex
	held  []net.Conn
}

func newTLSSilentListener(t *testing.T) *tlsSilentListener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &tlsSilentListener{Listener: ln, conns: make(chan net.Conn)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(l.conns)
				return
			}
			go func() {
				br := bufio.NewReader(c)
				first, err := br.Peek(1)
				switch {
				case err != nil:
					c.Close()
				case first[0] == 0x16:
					l.mu.Lock()
					l.held = append(l.held, c)
					l.mu.Unlock()
				default:
					l.conns <- &peekedConn{Conn: c, r: br}
				}
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, c := range l.held {
			c.Close()
		}
	})
	return l
}

func (l *tlsSilentListener) Accept() (net.Conn, error) {
	c, ok := <-l.conns
	if !ok {
		return nil, net.ErrClosed
	}
	return c, nil
}

type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// TestRenderChromiumTunnelOfOtherScheme: a page served over http whose
// https image of the same host and port timed out in its tunnel, and
// whose script then sends the tab to about:blank, fails as a page sent
// to about:blank does (ErrUnsupported, naming it), where the guard
// proxy's record of the image's tunnel, kept by host alone, was taken
// for the page's: "navigation to http://HOST/: TLS handshake timeout",
// a page the browser had loaded.
func TestRenderChromiumTunnelOfOtherScheme(t *testing.T) {
	needChromium(t)
	ln := newTLSSilentListener(t)
	host := ln.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!DOCTYPE html><html><body>page<img src="https://%s/pic.png">
<script>setTimeout(() => location.href = "about:blank", 2500);</script></body></html>`, host)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	// Settled long enough for the image's tunnel to time out and the
	// script to leave the page.
	chrome := &Chromium{Settle: 5 * time.Second}
	defer chrome.Close()
	testClient(Options{IgnoreRobots: true, Renderer: chrome, ConnectTimeout: time.Second, TotalTimeout: 60 * time.Second})
	_, err := chrome.Render(context.Background(), "http://"+host+"/")
	var te *tunnelTimeoutError
	if err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "about:blank") || errors.As(err, &te) {
		t.Errorf("render of an http page whose https image timed out, sent to about:blank: %v\nwant the failure naming about:blank (ErrUnsupported)", err)
	}
}
