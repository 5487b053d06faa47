package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// The texts an attacker puts in a link: a tag, and a line a page that
// repeated it would seem to say. Their markers, pwned and SCAM, must be
// nowhere in an answer, escaped or not.
const (
	attackTag  = "<b>pwned</b>"
	attackLine = "Call 0800-SCAM"
)

// TestErrorsDoNotRepeatInput: an error page or an API error about a query
// value, a path segment or a form field names the field and what it
// must be, and does not repeat the value: the value was escaped, but a
// link could make Vigil's own pages and answers say anything
// ("view \"Call 0800-SCAM\" must be inline, side, changes or records").
func TestErrorsDoNotRepeatInput(t *testing.T) {
	ctx := context.Background()
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	sen := createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	res, err := s.Store.EnsureResource(ctx, "http://a.example/p")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(Secure(s.NotFoundPages(mux))) // as cmd/vigil wires it
	t.Cleanup(srv.Close)
	cookie, err := s.newSessionCookie(u)
	if err != nil {
		t.Fatal(err)
	}
	csrf := b64.EncodeToString(s.mac("csrf", strings.Split(cookie, ".")[0]))
	const token = "vgl_echo_test_token_secret"
	if err := s.Store.CreateToken(ctx, &vigil.Token{UserID: u.ID, Name: "t", Hash: vigil.HashToken(token)}); err != nil {
		t.Fatal(err)
	}
	tag, line := url.QueryEscape(attackTag), url.QueryEscape(attackLine)
	pathLine := url.PathEscape(attackLine)
	senPath := sentinelPath(sen.ID)
	resPath := idPath("/resources/", res.ID)
	userPath := idPath("/api/v1/users/", u.ID)
	for _, tc := range []struct {
		name         string
		method, path string
		auth         string // session (with its CSRF token) or token
		body         string // a form, or JSON for /api/ paths
		status       int
		want         string // names the field and what it must be
	}{
		// The dashboard's pages.
		{"offset", "GET", "/sentinels?offset=" + tag, "session", "", 400, "offset must be a number from 0 to"},
		{"limit", "GET", "/sentinels?limit=" + line, "session", "", 400, "limit must be a number from 1 to 500"},
		{"changes offset", "GET", senPath + "?offset=" + line, "session", "", 400, "offset must be a number"},
		{"resources limit", "GET", "/resources?limit=" + tag, "session", "", 400, "limit must be a number"},
		{"history offset", "GET", resPath + "?offset=" + line, "session", "", 400, "offset must be a number"},
		{"diff view", "GET", resPath + "/diff?view=" + line, "session", "", 400, "view must be inline, side, changes or records"},
		{"diff view tag", "GET", resPath + "/diff?view=" + tag, "session", "", 400, "view must be inline, side, changes or records"},
		{"diff from", "GET", resPath + "/diff?from=" + line + "&to=1", "session", "", 400, "from must be a positive number"},
		{"diff change", "GET", resPath + "/diff?change=" + tag, "session", "", 400, "change id must be a positive number"},
		{"frame view", "GET", resPath + "/diff/frame?view=" + line, "session", "", 400, "view must be inline, side or changes"},
		{"notifications state", "GET", "/notifications?state=" + line, "session", "", 400, "state must be pending, failed, sent or dead"},
		{"sentinel id", "GET", "/sentinels/" + pathLine, "session", "", 400, "sentinel id must be a positive number"},
		{"change id", "GET", "/changes/" + pathLine, "session", "", 400, "change id must be a positive number"},
		{"resource id", "GET", "/resources/" + pathLine, "session", "", 400, "resource id must be a positive number"},
		{"sentinel action", "POST", senPath + "/" + pathLine, "session", "", 404, "no sentinel action: the actions are"},
		{"token id", "POST", "/tokens/" + pathLine + "/delete", "session", "", 400, "token id must be a positive number"},
		{"token name", "POST", "/tokens", "session", "name=" + tag + "%00", 400, "name must have no control character"},
		{"retry id", "POST", "/notifications/" + pathLine + "/retry", "session", "", 400, "notification id must be a positive number"},
		{"user id", "POST", "/users/" + pathLine + "/password", "session", "", 400, "user id must be a positive number"},
		{"form", "POST", senPath + "/pause?SCAM=%zz", "session", "", 400, "invalid form"},
		{"no page", "GET", "/" + pathLine + "/" + url.PathEscape(attackTag), "session", "", 404, "There is no page at this address."},
		// The API.
		{"api offset", "GET", "/api/v1/sentinels?offset=" + tag, "token", "", 400, "offset must be a number from 0 to"},
		{"api limit", "GET", "/api/v1/changes?limit=" + line, "token", "", 400, "limit must be a number from 1 to 500"},
		{"api status", "GET", "/api/v1/sentinels?status=" + line, "token", "", 400, "status must be active or paused"},
		{"api since", "GET", "/api/v1/changes?since=" + line, "token", "", 400, "since must be an RFC 3339 time"},
		{"api since plus", "GET", "/api/v1/changes?since=2026-11-29T10:25:00+02:00" + tag, "token", "", 400, "since must be an RFC 3339 time"},
		{"api sentinel", "GET", "/api/v1/changes?sentinel=" + line, "token", "", 400, "sentinel must be a positive number"},
		{"api order", "GET", "/api/v1/notifications?order=" + line, "token", "", 400, "order must be asc or desc"},
		{"api state", "GET", "/api/v1/notifications?state=" + tag, "token", "", 400, "state must be pending, failed, sent or dead"},
		{"api format", "GET", "/api/v1" + resPath + "/diff?from=1&to=1&format=" + line, "token", "", 400, "format must be one of xydelta, json"},
		{"api url", "GET", "/api/v1/resources?url=" + url.QueryEscape("http://SCAM..example/"), "token", "", 400, "url: its host is not a name DNS takes"},
		{"api url idna", "GET", "/api/v1/resources?url=" + url.QueryEscape("http://-pwned-ü.example/"), "token", "", 400, "url: its host is not a name IDNA takes"},
		{"api host", "GET", "/api/v1/resources?host=" + url.QueryEscape("SCAM."+strings.Repeat("a", 64)+".example"), "token", "", 400, "host is not a name DNS takes"},
		{"api resource id", "GET", "/api/v1/resources/" + pathLine, "token", "", 400, "resource id must be a positive number"},
		{"api version id", "GET", "/api/v1/versions/" + pathLine, "token", "", 400, "version id must be a positive number"},
		{"api user id", "GET", "/api/v1/users/" + pathLine, "token", "", 400, "user id must be a positive number"},
		{"api with sentinels", "DELETE", userPath + "?withSentinels=" + line, "token", "", 400, "withSentinels must be true or false"},
		{"api unknown parameter", "GET", "/api/v1/me?" + line + "=1", "token", "", 400, "unknown query parameter: GET /api/v1/me takes none"},
		{"api route", "GET", "/api/v1/" + pathLine, "token", "", 404, "no API route has this path"},
		{"api method", "PATCH", "/api/v1/sentinels/" + pathLine, "token", "", 405, "this path's methods are GET, PUT, DELETE"},
		{"api method of /me", "DELETE", "/api/v1/me", "token", "", 405, "this path's methods are GET, PATCH"},
		{"api expires", "POST", "/api/v1/tokens", "session", `{"name":"a","expiresIn":"` + attackLine + `"}`, 400, "expiresIn must be a duration from 1m to 87600h"},
		{"api token name", "POST", "/api/v1/tokens", "session", `{"name":"` + attackLine + `\u0000x"}`, 400, "name must have no control character"},
		{"api user email", "POST", "/api/v1/users", "token", `{"email":"` + attackTag + `"}`, 400, "email must be an address"},
		{"api unknown field", "POST", "/api/v1/tokens", "session", `{"name":"a","` + attackLine + `":1}`, 400, "a field this endpoint does not take: its fields are name, expiresIn"},
		{"api misspelt field", "POST", "/api/v1/sentinels", "token", `{"sourc":"x"}`, 400, `unknown field \"sourc\": its fields are source, sentinel`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			switch tc.auth {
			case "session":
				req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
				if tc.method != http.MethodGet {
					req.Header.Set(csrfHeader, csrf)
				}
			case "token":
				req.Header.Set("Authorization", "Bearer "+token)
			}
			if strings.HasPrefix(tc.path, "/api/") {
				req.Header.Set("Content-Type", "application/json")
			} else if tc.method == http.MethodPost {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body := string(b)
			if resp.StatusCode != tc.status {
				t.Errorf("%s %s: %d, want %d", tc.method, tc.path, resp.StatusCode, tc.status)
			}
			if !strings.Contains(body, tc.want) {
				t.Errorf("%s %s: no %q in\n%s", tc.method, tc.path, tc.want, body)
			}
			for _, marker := range []string{"pwned", "SCAM", "%zz"} {
				if strings.Contains(body, marker) {
					t.Errorf("%s %s: the answer repeats the request's %s:\n%s", tc.method, tc.path, marker, body)
				}
			}
		})
	}
}
