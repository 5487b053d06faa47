package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestWebNotFoundPage: a signed-in GET of a path the dashboard lacks (a
// typo: /sentinel/1 for /sentinels/1) answers 404 with the dashboard's
// Not found page, its navigation and its security headers, where it was
// Go's plain "404 page not found"; signed out, it is that page without
// the navigation, still a 404 and nothing more. An unknown API path keeps
// its JSON 404, and the mux's 405s and redirects are as they were.
func TestWebNotFoundPage(t *testing.T) {
	d := startWebDaemon(t)
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", status)
	}
	noFollow := func(c *http.Client) *http.Client {
		return &http.Client{Jar: c.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	for _, tc := range []struct {
		name, method, path string
		signedIn           bool
		status             int
		want, not          []string
	}{
		{"typo", "GET", "/sentinel/1", true, 404,
			[]string{"<title>Not found · Vigil</title>", `<nav aria-label="Main">`, "Sign out", "There is no page at this address."}, []string{"404 page not found", "/sentinel/1"}},
		{"head", "HEAD", "/sentinel/1", true, 404, nil, nil},
		{"signed out", "GET", "/sentinel/1", false, 404,
			[]string{"<title>Not found · Vigil</title>", `href="/login"`}, []string{`<nav aria-label="Main">`, "Sign out"}},
		{"API", "GET", "/api/v1/nothing", true, 404, []string{`"ENOTFOUND"`}, []string{"<title>"}},
		{"method", "GET", "/logout", true, 405, nil, []string{"<title>"}},
		{"redirect", "GET", "/static", true, 307, nil, nil},
		{"cleaned", "GET", "/nowhere/../sentinels", true, 307, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := noFollow(sess.client)
			if !tc.signedIn {
				c = noFollow(&http.Client{})
			}
			req, _ := http.NewRequest(tc.method, d.base+tc.path, nil)
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body := string(b)
			if resp.StatusCode != tc.status {
				t.Errorf("%d, want %d\n%s", resp.StatusCode, tc.status, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("no %q in\n%s", w, body)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(body, w) {
					t.Errorf("%q in\n%s", w, body)
				}
			}
			if h := resp.Header; h.Get("Content-Security-Policy") == "" || h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("security headers missing: %v", h)
			}
		})
	}
}
