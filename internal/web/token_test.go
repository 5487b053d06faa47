package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestTokenCreateNeedsSession: API tokens are made from a signed-in
// session only. A token that made another would outlive its own expiry
// and its revocation: one that expires in an hour made one that never
// did.
func TestTokenCreateNeedsSession(t *testing.T) {
	s, u := newTestServer(t)
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	secret := "vgl_short"
	tok := &vigil.Token{UserID: u.ID, Name: "short", Hash: vigil.HashToken(secret), ExpiresAt: time.Now().Add(time.Hour)}
	if err := s.Store.CreateToken(context.Background(), tok); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, ctype, body string }{
		{"/api/v1/tokens", "application/json", `{"name":"forever"}`},
		{"/tokens", "application/x-www-form-urlencoded", url.Values{"name": {"forever"}}.Encode()},
	} {
		req, _ := http.NewRequest("POST", srv.URL+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Content-Type", tc.ctype)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST %s with a token: %d, want 403", tc.path, resp.StatusCode)
		}
	}
	list, err := s.Store.FindTokens(context.Background(), u.ID)
	if err != nil || len(list) != 1 {
		t.Errorf("tokens after: %d, %v; want the one", len(list), err)
	}

	// From a session it is made.
	value, _ := s.newSessionCookie(u)
	r := httptest.NewRequest("GET", "/", nil)
	r.AddCookie(&http.Cookie{Name: sessionCookie, Value: value})
	sess, err := s.readSession(r)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", srv.URL+"/api/v1/tokens", strings.NewReader(`{"name":"made"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(csrfHeader, sess.csrf)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: value})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("POST /api/v1/tokens from a session: %d, want 201", resp.StatusCode)
	}
}

// TestTokenName: a token is made with a name to tell it from the others on
// the Tokens page, printable and trimmed; an empty name (which the form
// asks for, but a request need not send) and control characters were
// taken, listing a token without a name and offering to "Revoke token ?".
func TestTokenName(t *testing.T) {
	s, u := newTestServer(t)
	value, _ := s.newSessionCookie(u)
	for name, tc := range map[string]struct{ body, want, stored string }{
		"absent":  {`{}`, "name: a token needs a name, to tell it from the others", ""},
		"blank":   {`{"name":"  "}`, "name: a token needs a name, to tell it from the others", ""},
		"control": {`{"name":"ci\u0000\nbot"}`, `name must have no control character`, ""},
		"trimmed": {`{"name":"  ci bot "}`, "", "ci bot"},
	} {
		t.Run(name, func(t *testing.T) {
			req := jsonRequest("POST", "/api/v1/tokens", tc.body)
			req.AddCookie(&http.Cookie{Name: sessionCookie, Value: value})
			rec := httptest.NewRecorder()
			err := s.handleTokenCreate(rec, req, u)
			if tc.want != "" {
				if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != tc.want {
					t.Errorf("%v, want EINVALID %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(rec.Body.String(), `"name": "`+tc.stored+`"`) {
				t.Errorf("made %s, want the name %q", rec.Body, tc.stored)
			}
		})
	}
}

// TestTokenExpiresIn: a token's expiresIn is from a minute to ten years
// (the dashboard's most, 3650 days): "1ns" made a token that had expired
// before it was shown, and "1000000h" one that outlived the dashboard's
// longest. The refusal names the field and the bounds, not the value.
func TestTokenExpiresIn(t *testing.T) {
	s, u := newTestServer(t)
	c := newSignedIn(t, s, u)
	for name, tc := range map[string]struct {
		expiresIn string
		status    int
	}{
		"nanosecond":   {"1ns", 400},
		"59 seconds":   {"59s", 400},
		"one minute":   {"1m", 201},
		"30 days":      {"720h", 201},
		"ten years":    {"87600h", 201},
		"over ten":     {"87601h", 400},
		"far":          {"1000000h", 400},
		"negative":     {"-1h", 400},
		"not a length": {"soon", 400},
		"absent":       {"", 201},
	} {
		t.Run(name, func(t *testing.T) {
			body := `{"name":"t"}`
			if tc.expiresIn != "" {
				body = `{"name":"t","expiresIn":"` + tc.expiresIn + `"}`
			}
			status, answer := c.do("POST", "/api/v1/tokens", body)
			if status != tc.status {
				t.Fatalf("expiresIn %q: %d %s, want %d", tc.expiresIn, status, answer, tc.status)
			}
			if status == 400 && !strings.Contains(answer, `expiresIn must be a duration from 1m to 87600h`) {
				t.Errorf("expiresIn %q: %s, want it named with the bounds", tc.expiresIn, answer)
			}
		})
	}
}
