package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// fakeWebhookKey stands for the daemon's derivation of a user's webhook
// key: a key of each user's own, with markup in it, which a page must show
// escaped.
func fakeWebhookKey(userID int64) string { return fmt.Sprintf("<b>key-%d&", userID) }

// TestWebhookKeyAPI: GET /api/v1/me/webhook-key answers the signed-in
// user, or the token's, their own key and the header it signs, another
// user another key, and nobody without credentials (401).
func TestWebhookKeyAPI(t *testing.T) {
	s, admin := newTestServer(t)
	s.UserWebhookKey = fakeWebhookKey
	ctx := context.Background()
	bob := &vigil.User{Email: "bob@example.com", Name: "Bob", PasswordHash: "h"}
	if err := s.Store.CreateUser(ctx, bob); err != nil {
		t.Fatal(err)
	}
	c := newSignedIn(t, s, admin)
	for _, tc := range []struct {
		name   string
		auth   func(*http.Request)
		status int
		key    string
	}{
		{"the admin's session", sessionOf(c), http.StatusOK, fakeWebhookKey(admin.ID)},
		{"the admin's token", bearer(t, s.Store, admin, "vgl_admin"), http.StatusOK, fakeWebhookKey(admin.ID)},
		{"bob's token", bearer(t, s.Store, bob, "vgl_bob"), http.StatusOK, fakeWebhookKey(bob.ID)},
		{"nobody", nil, http.StatusUnauthorized, ""},
		{"a token revoked or never made", func(r *http.Request) { r.Header.Set("Authorization", "Bearer vgl_none") }, http.StatusUnauthorized, ""},
	} {
		status, v := apiCall(t, c.srv.URL, tc.auth, "GET", "/api/v1/me/webhook-key", "")
		if status != tc.status {
			t.Errorf("%s: %d %v, want %d", tc.name, status, v, tc.status)
			continue
		}
		if tc.status != http.StatusOK {
			if _, shown := v["key"]; shown {
				t.Errorf("%s: %d with a key: %v", tc.name, status, v)
			}
			continue
		}
		if v["key"] != tc.key || v["header"] != "X-Vigil-User-Signature-256" || len(v) != 2 {
			t.Errorf("%s: %v, want key %q and header X-Vigil-User-Signature-256", tc.name, v, tc.key)
		}
	}
	if fakeWebhookKey(admin.ID) == fakeWebhookKey(bob.ID) {
		t.Fatal("the test's users share a key")
	}
}

// TestWebhookKeyAPIWithoutWebhooks: a server that signs no webhooks
// (UserWebhookKey nil) says so, 404, rather than answer a key nothing
// signs with.
func TestWebhookKeyAPIWithoutWebhooks(t *testing.T) {
	s, admin := newTestServer(t)
	c := newSignedIn(t, s, admin)
	status, v := apiCall(t, c.srv.URL, sessionOf(c), "GET", "/api/v1/me/webhook-key", "")
	e, _ := v["error"].(map[string]any)
	if msg, _ := e["message"].(string); status != http.StatusNotFound || !strings.Contains(msg, "signs no webhooks") {
		t.Errorf("%d %v, want 404 saying the server signs no webhooks", status, v)
	}
}

// TestTokensPageWebhookKey: the API tokens page shows the user their own
// webhook key, escaped, and the header it signs, in a collapsed details
// element, on a page no cache keeps; without webhooks it leaves it out.
func TestTokensPageWebhookKey(t *testing.T) {
	s, admin := newTestServer(t)
	s.UserWebhookKey = fakeWebhookKey
	bob := &vigil.User{Email: "bob@example.com", Name: "Bob", PasswordHash: "h"}
	if err := s.Store.CreateUser(context.Background(), bob); err != nil {
		t.Fatal(err)
	}
	for _, u := range []*vigil.User{admin, bob} {
		c := newSignedIn(t, s, u)
		status, body := c.do("GET", "/tokens", "")
		if status != http.StatusOK {
			t.Fatalf("%s: GET /tokens: %d", u.Email, status)
		}
		escaped := fmt.Sprintf("&lt;b&gt;key-%d&amp;", u.ID)
		if !strings.Contains(body, `<code id="webhook-key" class="secret">`+escaped+`</code>`) {
			t.Errorf("%s: the page does not show the key %q escaped:\n%s", u.Email, escaped, body)
		}
		if strings.Contains(body, "<b>key-") {
			t.Errorf("%s: the page shows the key's markup unescaped", u.Email)
		}
		for _, other := range []*vigil.User{admin, bob} {
			if other != u && strings.Contains(body, fmt.Sprintf("key-%d&", other.ID)) {
				t.Errorf("%s: the page shows %s's key", u.Email, other.Email)
			}
		}
		if !strings.Contains(body, "<details id=\"webhook-signing\"><summary>Webhook signing key</summary>") ||
			!strings.Contains(body, "<code>X-Vigil-User-Signature-256</code>") {
			t.Errorf("%s: no collapsed details with the header's name:\n%s", u.Email, body)
		}
	}
	c := newSignedIn(t, s, admin)
	req, err := http.NewRequest("GET", c.srv.URL+"/tokens", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: c.cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("the page with the key: Cache-Control %q, want no-store", got)
	}

	s.UserWebhookKey = nil
	c = newSignedIn(t, s, admin)
	if _, body := c.do("GET", "/tokens", ""); strings.Contains(body, "webhook-signing") || strings.Contains(body, "key-") {
		t.Errorf("without webhooks, the page shows a key:\n%s", body)
	}
}
