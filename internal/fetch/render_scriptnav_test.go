package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumScriptNavigationFails: a page whose script sends the
// tab to another (location.href = ...) whose server cannot be reached
// fails as a render of that page does, naming it and the cause (a refused
// connection, a silent server's TLS handshake timeout), where an https
// page's tunnel the guard proxy could not open was said to be "a document
// with no HTTP answer", the browser's error page, naming neither.
func TestRenderChromiumScriptNavigationFails(t *testing.T) {
	needChromium(t)
	silent, _ := silentHost(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!DOCTYPE html><html><body>leaving<script>location.href = %q;</script></body></html>`, r.URL.Query().Get("to"))
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: 500 * time.Millisecond}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, ConnectTimeout: time.Second, TotalTimeout: 60 * time.Second})
	for _, tc := range []struct {
		to, cause string
		is        error
		timeout   bool
	}{
		{"http://" + closedPort(t) + "/", "connection refused", syscall.ECONNREFUSED, false},
		{"https://" + closedPort(t) + "/", "connection refused", syscall.ECONNREFUSED, false},
		{"https://" + silent + "/page", "TLS handshake timeout", nil, true},
	} {
		url := srv.URL + "/?to=" + tc.to
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: url, Render: true})
		var ne net.Error
		if err == nil || !strings.Contains(err.Error(), "navigation to "+tc.to+": ") || !strings.Contains(err.Error(), tc.cause) ||
			tc.is != nil && !errors.Is(err, tc.is) || tc.timeout && !(errors.As(err, &ne) && ne.Timeout()) {
			t.Errorf("render of a page whose script goes to %s: %v\nwant the failure naming it and the cause, %s", tc.to, err, tc.cause)
		}
		if res != nil && len(res.Body) > 0 {
			t.Errorf("render of a page whose script goes to %s gave a body: %q", tc.to, res.Body)
		}
	}
}
