package fetch

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestRenderProxyWaitFollowsTotal: the guard proxy that a rendering
// browser's requests go through, started for a client's Chromium, waits
// for an answer's headers as the client's plain fetch does: within the
// fetch's TotalTimeout (vigil serve --fetch-timeout), with no timer of
// its own, unless Options.HeaderTimeout sets one. It waited a minute
// whatever the fetch's time: with a --fetch-timeout longer than that, a
// rendered page's document that took over a minute to answer was cut off
// all the same.
func TestRenderProxyWaitFollowsTotal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		delay, _ := time.ParseDuration(r.URL.Query().Get("delay"))
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "at last")
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name          string
		opt           Options
		delay         time.Duration
		status        int
		says          string
		noHeaderTimer bool
	}{
		{"headers within the total", Options{TotalTimeout: 3 * time.Second}, time.Second, http.StatusOK, "at last", true},
		{"headers past the total", Options{TotalTimeout: 300 * time.Millisecond}, 3 * time.Second, http.StatusGatewayTimeout, "", true},
		{"headers past a HeaderTimeout of their own", Options{TotalTimeout: 3 * time.Second, HeaderTimeout: 200 * time.Millisecond}, time.Second,
			http.StatusGatewayTimeout, "timeout awaiting response headers", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := &Chromium{}
			testClient(Options{TotalTimeout: tc.opt.TotalTimeout, HeaderTimeout: tc.opt.HeaderTimeout, Renderer: ch})
			p, err := ch.startProxy()
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if got := p.tr.ResponseHeaderTimeout; tc.noHeaderTimer && got != 0 {
				t.Errorf("the proxy waits %v for headers on a timer of its own; want the fetch's total alone", got)
			}
			pu, _ := url.Parse(p.URL())
			pu.User = url.UserPassword(p.credentials())
			client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}, Timeout: 10 * time.Second}
			start := time.Now()
			resp, err := client.Get(srv.URL + "/?delay=" + tc.delay.String())
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			took := time.Since(start)
			if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.says) {
				t.Errorf("headers after %v, TotalTimeout %v, HeaderTimeout %v: %d %q after %v; want %d saying %q",
					tc.delay, tc.opt.TotalTimeout, tc.opt.HeaderTimeout, resp.StatusCode, body, took, tc.status, tc.says)
			}
			if tc.status != http.StatusOK && took >= tc.delay {
				t.Errorf("the proxy answered after %v, when the headers came; want it to give up before", took)
			}
		})
	}
}
