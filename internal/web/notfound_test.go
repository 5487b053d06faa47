package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestNotFoundPages: behind NotFoundPages, a GET or HEAD of a path no
// route has answers the dashboard's Not found page (404): with the
// navigation to a user signed in by session or API token, without it to
// anyone else. Other methods, the API, the routes' own 404s and mux's
// 405s keep their answers.
func TestNotFoundPages(t *testing.T) {
	s, u := newTestServer(t)
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(Secure(s.NotFoundPages(mux))) // as cmd/vigil wires it
	t.Cleanup(srv.Close)
	cookie, err := s.newSessionCookie(u)
	if err != nil {
		t.Fatal(err)
	}
	const token = "vgl_notfound_test_token_secret"
	if err := s.Store.CreateToken(context.Background(), &vigil.Token{UserID: u.ID, Name: "t", Hash: vigil.HashToken(token)}); err != nil {
		t.Fatal(err)
	}
	const nav, page, plain = `<nav aria-label="Main">`, "<title>Not found · Vigil</title>", "404 page not found"
	for _, tc := range []struct {
		name, method, path, auth string
		status                   int
		want, not                []string
	}{
		{"session", "GET", "/sentinel/1?x=1", "session", 404, []string{page, nav, "There is no page at this address."}, []string{plain}},
		{"token", "GET", "/sentinel/1", "token", 404, []string{page, nav}, []string{plain}},
		{"signed out", "GET", "/sentinel/1", "", 404, []string{page, `<a href="/login">Sign in</a>`}, []string{nav}},
		{"forged session", "GET", "/sentinel/1", "forged", 404, []string{page}, []string{nav}},
		{"head", "HEAD", "/sentinel/1", "session", 404, nil, nil},
		{"post", "POST", "/sentinel/1", "session", 404, []string{plain}, []string{page}},
		{"route's own 404", "GET", "/sentinels/9999", "session", 404, []string{"sentinel 9999 not found"}, nil},
		{"api", "GET", "/api/v1/nothing", "session", 404, []string{"ENOTFOUND"}, []string{page}},
		{"405", "GET", "/logout", "session", 405, nil, []string{page}},
		{"route", "GET", "/sentinels", "session", 200, []string{nav}, []string{page}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
			switch tc.auth {
			case "session":
				req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
			case "forged":
				req.AddCookie(&http.Cookie{Name: sessionCookie, Value: "AAAA.BBBB"})
			case "token":
				req.Header.Set("Authorization", "Bearer "+token)
			}
			resp, err := http.DefaultClient.Do(req)
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
			if h := resp.Header; h.Get("Content-Security-Policy") == "" || h.Get("X-Frame-Options") != "DENY" {
				t.Errorf("security headers missing: %v", h)
			}
		})
	}
}
