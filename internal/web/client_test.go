package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// signedIn calls a Server's routes as u signed in to the dashboard: with
// u's session cookie and, on a POST, its CSRF token.
type signedIn struct {
	t      *testing.T
	srv    *httptest.Server
	cookie string
	csrf   string
	// location is the Location header of the last answer do read.
	location string
}

func newSignedIn(t *testing.T, s *Server, u *vigil.User) *signedIn {
	t.Helper()
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	cookie, err := s.newSessionCookie(u)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
	sess, err := s.readSession(r)
	if err != nil {
		t.Fatal(err)
	}
	return &signedIn{t: t, srv: srv, cookie: cookie, csrf: sess.csrf}
}

// do sends a request (a JSON body for /api/ paths, a form otherwise) and
// returns the status and body of the answer; it does not follow redirects.
func (c *signedIn) do(method, path, body string) (int, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.srv.URL+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: c.cookie})
	if method != http.MethodGet {
		req.Header.Set(csrfHeader, c.csrf)
		if strings.HasPrefix(path, "/api/") {
			req.Header.Set("Content-Type", "application/json")
		} else {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	c.location = resp.Header.Get("Location")
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}
