package fetch

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumSilentTLS: a render of an https page whose server
// takes the connection (the guard proxy's tunnel opens) and never answers
// fails as the plain fetch does, within the client's ConnectTimeout (its
// TLS handshake timeout), naming the page and the host, with a timeout
// (net.Error): the browser waited for it to the fetch's deadline, and the
// render said only "context deadline exceeded", naming nothing.
func TestRenderChromiumSilentTLS(t *testing.T) {
	needChromium(t)
	silent, _ := silentHost(t)
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, ConnectTimeout: time.Second, TotalTimeout: 60 * time.Second})
	url := "https://" + silent + "/page"
	for _, render := range []bool{false, true} {
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: url, Render: render})
		var ne net.Error
		if err == nil || !strings.HasPrefix(err.Error(), "fetch "+url+": ") || !strings.Contains(err.Error(), "TLS handshake timeout") ||
			!errors.As(err, &ne) || !ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("fetch %s (render %v): %v\nwant the fetch's TLS handshake timeout, naming it", url, render, err)
		}
		if render && (err == nil || !strings.Contains(err.Error(), silent+" sent nothing")) {
			t.Errorf("render of %s: %v; want the host named", url, err)
		}
		if res != nil && len(res.Body) > 0 {
			t.Errorf("fetch %s (render %v) gave a body: %q", url, render, res.Body)
		}
	}
}
