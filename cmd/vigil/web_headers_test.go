package main

import (
	"net/http"
	"testing"
)

// TestWebSecurityHeadersEverywhere: every answer of vigil serve carries the
// dashboard's security headers, Go's own 404, 405 and redirects too, and
// /static/ lists no directory.
func TestWebSecurityHeadersEverywhere(t *testing.T) {
	d := startWebDaemon(t)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/nowhere", 404},
		{"GET", "/static/", 404},
		{"GET", "/static/nothing.css", 404},
		{"GET", "/static", 307}, // the mux's own redirect to /static/
		{"GET", "/static/app.css", 200},
		{"GET", "/favicon.ico", 200},
		{"DELETE", "/login", 405},
		{"DELETE", "/sentinels", 405},
		{"POST", "/healthz", 405},
		{"GET", "/healthz", 200},
		{"GET", "/feeds/1/x/atom.xml", 404},
		{"GET", "/login", 200},
	} {
		req, _ := http.NewRequest(tc.method, d.base+tc.path, nil)
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, resp.StatusCode, tc.status)
		}
		h := resp.Header
		if h.Get("Content-Security-Policy") == "" || h.Get("X-Frame-Options") != "DENY" ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
			t.Errorf("%s %s: security headers missing: CSP %q, X-Frame-Options %q, nosniff %q, Referrer-Policy %q",
				tc.method, tc.path, h.Get("Content-Security-Policy"), h.Get("X-Frame-Options"),
				h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
		}
	}
}
