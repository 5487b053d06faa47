package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRenderChromiumOwnFailures: two renders of one host at once each
// fail with their own tunnel's or request's error, or succeed, whatever
// the other's met: the guard proxy recorded refusals and failed tunnels
// by host, for every render, and a render whose page loaded (or failed
// for a reason of its own, a certificate the browser refuses) while
// another's request to its host was refused, or its tunnel timed out,
// failed with that other's error.
func TestRenderChromiumOwnFailures(t *testing.T) {
	needChromium(t)
	plain := httptest.NewUnstartedServer(nil)
	tls := httptest.NewUnstartedServer(nil)
	tls.Config.ErrorLog = log.New(io.Discard, "", 0) // the browser refuses its certificate
	silent, _ := silentHost(t)
	for _, tc := range []struct {
		name   string
		srv    *httptest.Server
		scheme string
		// other is the error the other render's dial meets (nil: it
		// dials the silent host instead, its tunnel timing out), and
		// want what the held render's error says ("" for none).
		other error
		want  string
	}{
		{"a refusal of the other's", plain, "http", fmt.Errorf("dial tcp: %w: the test's", ErrRefused), ""},
		{"a tunnel timeout of the other's", tls, "https", nil, "ERR_CERT_AUTHORITY_INVALID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arrived, release := make(chan struct{}), make(chan struct{})
			arrive := sync.OnceFunc(func() { close(arrived) })
			var once atomic.Bool
			tc.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/held" && once.CompareAndSwap(false, true) {
					arrive()
					<-release
				}
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte(`<!DOCTYPE html><html><body>page</body></html>`))
			})
			if tc.scheme == "https" {
				tc.srv.StartTLS()
			} else {
				tc.srv.Start()
			}
			defer tc.srv.Close()
			host := tc.srv.Listener.Addr().String()
			var other atomic.Bool // the other render's dials
			var d net.Dialer
			chrome := &Chromium{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
				switch {
				case !other.Load():
				case tc.other != nil:
					return nil, tc.other
				default:
					addr = silent
				}
				conn, err := d.DialContext(ctx, network, addr)
				if err == nil && tc.scheme == "https" && !other.Load() {
					// The held render's tunnel: held until the
					// other's render failed.
					arrive()
					<-release
				}
				return conn, err
			}}
			defer chrome.Close()
			testClient(Options{IgnoreRobots: true, Renderer: chrome, ConnectTimeout: time.Second, TotalTimeout: 60 * time.Second})
			if tc.scheme == "https" {
				once.Store(true) // the tunnel is held, not the request
			}
			held := make(chan error, 1)
			go func() {
				_, err := chrome.Render(context.Background(), tc.scheme+"://"+host+"/held")
				held <- err
			}()
			<-arrived
			other.Store(true)
			_, otherErr := chrome.Render(context.Background(), tc.scheme+"://"+host+"/other")
			if otherErr == nil {
				t.Fatalf("the other render succeeded")
			}
			other.Store(false)
			close(release)
			err := <-held
			var te *tunnelTimeoutError
			switch {
			case tc.want == "" && err != nil, tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)),
				errors.Is(err, ErrRefused), errors.As(err, &te):
				t.Errorf("the held render: %v; want %q (the other's: %v)", err, tc.want, otherErr)
			}
		})
	}
}
