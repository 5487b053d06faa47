package fetch

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumUnreachable: a render whose main document's server
// cannot be reached (nothing listens, it does not answer in time) fails
// as the plain fetch does, naming the URL and the cause (a refused
// connection, which it wraps), where the browser showed the guard proxy's
// 502 or 504 as the page and the render returned it, status 200, with a
// nil error, and the failed tunnel of an https page as the browser's
// net::ERR_TUNNEL_CONNECTION_FAILED alone.
func TestRenderChromiumUnreachable(t *testing.T) {
	needChromium(t)
	silent, _ := silentHost(t)
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second, HeaderTimeout: 500 * time.Millisecond})
	for _, tc := range []struct {
		url, cause string
		is         error
	}{
		{"http://" + closedPort(t) + "/", "connection refused", syscall.ECONNREFUSED},
		{"https://" + closedPort(t) + "/", "connection refused", syscall.ECONNREFUSED},
		{"http://" + silent + "/page", "timeout awaiting response headers", nil},
	} {
		for _, render := range []bool{false, true} {
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: tc.url, Render: render})
			if err == nil || !strings.HasPrefix(err.Error(), "fetch "+tc.url+": ") || !strings.Contains(err.Error(), tc.cause) ||
				tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("fetch %s (render %v): %v\nwant the fetch's error naming it and the cause, %s", tc.url, render, err, tc.cause)
			}
			if res != nil && len(res.Body) > 0 {
				t.Errorf("fetch %s (render %v) gave a body: %q", tc.url, render, res.Body)
			}
		}
	}
}
