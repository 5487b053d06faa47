package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// apiCall sends a JSON request to srv as whoever auth makes it (a bearer
// token, a session cookie with its CSRF token, or nobody) and returns the
// status and the decoded body.
func apiCall(t *testing.T, base string, auth func(*http.Request), method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != nil {
		auth(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if len(b) > 0 {
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s %s: %d %q is no JSON object: %v", method, path, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode, v
}

// bearer returns a token of u's, for apiCall.
func bearer(t *testing.T, st vigil.Store, u *vigil.User, secret string) func(*http.Request) {
	t.Helper()
	if err := st.CreateToken(context.Background(), &vigil.Token{UserID: u.ID, Name: "t", Hash: vigil.HashToken(secret)}); err != nil {
		t.Fatal(err)
	}
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+secret) }
}

// sessionOf authenticates apiCall's requests with c's session cookie and,
// but for a GET, its CSRF token.
func sessionOf(c *signedIn) func(*http.Request) {
	return func(r *http.Request) {
		r.AddCookie(&http.Cookie{Name: sessionCookie, Value: c.cookie})
		if r.Method != http.MethodGet {
			r.Header.Set(csrfHeader, c.csrf)
		}
	}
}

// TestUsersAPI: the JSON API of user management, on a real server over a
// real SQLite store: an administrator lists, adds, grants and revokes the
// role, resets a password (the generated one answered once) and removes
// users, with a session (and its CSRF token) or an API token, by the rules
// of the Users page; anybody else is refused, 401 without credentials,
// 403 for a user who is no administrator.
func TestUsersAPI(t *testing.T) {
	s, admin := newTestServer(t)
	ctx := context.Background()
	c := newSignedIn(t, s, admin)
	base := c.srv.URL
	adminToken := bearer(t, s.Store, admin, "admin-secret")
	session := sessionOf(c)
	stored := func(id int64) *vigil.User {
		t.Helper()
		u, err := s.Store.FindUserByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	id := func(v map[string]any) int64 {
		t.Helper()
		f, ok := v["id"].(float64)
		if !ok {
			t.Fatalf("no id in %v", v)
		}
		return int64(f)
	}

	// Add, with a generated password (answered once), and with a typed one.
	status, v := apiCall(t, base, adminToken, "POST", "/api/v1/users", `{"email": " Carol@Example.com ", "name": "Carol C."}`)
	if status != http.StatusCreated {
		t.Fatalf("add carol: %d %v", status, v)
	}
	carol := id(v)
	pw, _ := v["generatedPassword"].(string)
	if got := stored(carol); got.Email != "carol@example.com" || got.Name != "Carol C." || got.Admin || len(pw) != 24 || !CheckPassword(got.PasswordHash, pw) {
		t.Errorf("carol stored as %+v, answered %v", got, v)
	}
	if _, hash := v["passwordHash"]; hash {
		t.Errorf("the answer shows the password hash: %v", v)
	}
	status, v = apiCall(t, base, session, "POST", "/api/v1/users", `{"email": "dave@example.com", "password": "dave's long password", "admin": true}`)
	if status != http.StatusCreated || v["generatedPassword"] != nil || v["password"] != true || v["admin"] != true {
		t.Fatalf("add dave with a session: %d %v", status, v)
	}
	dave := id(v)
	if !CheckPassword(stored(dave).PasswordHash, "dave's long password") {
		t.Error("dave's typed password was not set")
	}
	daveToken := bearer(t, s.Store, stored(dave), "dave-secret")

	// List: no hash, whether each has a password, their sentinels.
	if err := s.Store.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: carol, Name: "c", Source: "x", Status: vigil.SentinelActive}); err != nil {
		t.Fatal(err)
	}
	status, v = apiCall(t, base, adminToken, "GET", "/api/v1/users", "")
	items, _ := v["items"].([]any)
	if status != http.StatusOK || len(items) != 3 || v["total"] != 3.0 {
		t.Fatalf("list: %d %v", status, v)
	}
	row := items[1].(map[string]any)
	if row["email"] != "carol@example.com" || row["password"] != true || row["sentinels"] != 1.0 || row["admin"] != false {
		t.Errorf("carol listed as %v", row)
	}
	if b, _ := json.Marshal(v); strings.Contains(string(b), "pbkdf2") {
		t.Errorf("the list shows a password hash: %s", b)
	}
	if status, v = apiCall(t, base, adminToken, "GET", fmt.Sprintf("/api/v1/users/%d", carol), ""); status != http.StatusOK || v["email"] != "carol@example.com" {
		t.Errorf("get carol: %d %v", status, v)
	}

	// Grant (with a session: TestUsersAPITokenMakesNoAdministrator) and
	// revoke; the only administrator keeps the role.
	path := func(id int64, rest string) string { return fmt.Sprintf("/api/v1/users/%d%s", id, rest) }
	if status, v = apiCall(t, base, session, "PUT", path(carol, "/admin"), `{"admin": true}`); status != http.StatusOK || v["admin"] != true || !stored(carol).Admin {
		t.Errorf("grant carol: %d %v", status, v)
	}
	if status, v = apiCall(t, base, adminToken, "PUT", path(carol, "/admin"), `{"admin": false}`); status != http.StatusOK || stored(carol).Admin {
		t.Errorf("revoke carol: %d %v", status, v)
	}
	if status, v = apiCall(t, base, adminToken, "PUT", path(carol, "/admin"), `{}`); status != http.StatusBadRequest {
		t.Errorf("no role given: %d %v", status, v)
	}

	// Reset: generated, answered once; typed; revoking the tokens.
	before := stored(carol)
	status, v = apiCall(t, base, adminToken, "POST", path(carol, "/password"), `{}`)
	pw, _ = v["generatedPassword"].(string)
	if status != http.StatusOK || len(pw) != 24 || !CheckPassword(stored(carol).PasswordHash, pw) || stored(carol).Name != before.Name {
		t.Errorf("reset carol's password: %d %v", status, v)
	}
	if status, v = apiCall(t, base, adminToken, "POST", path(carol, "/password"), `{"password": "short"}`); status != http.StatusBadRequest ||
		!strings.Contains(fmt.Sprint(v["error"]), "too short") {
		t.Errorf("a short password: %d %v", status, v)
	}
	if status, v = apiCall(t, base, session, "POST", path(dave, "/password"), `{"password": "dave's new long password", "revokeTokens": true}`); status != http.StatusOK ||
		v["generatedPassword"] != nil || v["tokensRevoked"] != 1.0 {
		t.Errorf("reset dave's password, revoking his tokens: %d %v", status, v)
	}
	if status, _ := apiCall(t, base, daveToken, "GET", "/api/v1/me", ""); status != http.StatusUnauthorized {
		t.Errorf("dave's revoked token: %d, want 401", status)
	}

	// Remove: refused while carol owns a sentinel, then with it.
	if status, v = apiCall(t, base, adminToken, "DELETE", path(carol, ""), ""); status != http.StatusConflict ||
		!strings.Contains(fmt.Sprint(v["error"]), "withSentinels=true") {
		t.Errorf("remove carol, who owns a sentinel: %d %v", status, v)
	}
	if status, v = apiCall(t, base, adminToken, "DELETE", path(carol, "?withSentinels=true"), ""); status != http.StatusOK || v["sentinels"] != 1.0 {
		t.Errorf("remove carol with her sentinels: %d %v", status, v)
	}
	if _, err := s.Store.FindUserByID(ctx, carol); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("carol after her removal: %v", err)
	}
	if status, _ = apiCall(t, base, adminToken, "DELETE", path(carol, ""), ""); status != http.StatusNotFound {
		t.Errorf("remove carol again: %d, want 404", status)
	}
	// The only administrator: dave's role revoked, the admin is refused
	// both.
	if status, _ = apiCall(t, base, adminToken, "PUT", path(dave, "/admin"), `{"admin": false}`); status != http.StatusOK {
		t.Fatalf("revoke dave: %d", status)
	}
	if status, v = apiCall(t, base, adminToken, "PUT", path(admin.ID, "/admin"), `{"admin": false}`); status != http.StatusConflict {
		t.Errorf("revoke the only administrator: %d %v", status, v)
	}
	if status, v = apiCall(t, base, adminToken, "DELETE", path(admin.ID, ""), ""); status != http.StatusConflict ||
		!strings.Contains(fmt.Sprint(v["error"]), "only administrator") {
		t.Errorf("remove the only administrator: %d %v", status, v)
	}

	// Refusals: nobody (401), a user who is no administrator (403), a
	// session without its CSRF token (403); nothing changes.
	daveToken = bearer(t, s.Store, stored(dave), "dave-secret-2")
	noCSRF := func(r *http.Request) { r.AddCookie(&http.Cookie{Name: sessionCookie, Value: c.cookie}) }
	for _, tc := range []struct {
		name   string
		auth   func(*http.Request)
		status int
	}{
		{"nobody", nil, http.StatusUnauthorized},
		{"a user", daveToken, http.StatusForbidden},
	} {
		for _, call := range []struct{ method, path, body string }{
			{"GET", "/api/v1/users", ""},
			{"GET", path(admin.ID, ""), ""},
			{"POST", "/api/v1/users", `{"email": "mallory@example.com", "admin": true}`},
			{"PUT", path(dave, "/admin"), `{"admin": true}`},
			{"POST", path(admin.ID, "/password"), `{"password": "mallory's password"}`},
			{"DELETE", path(admin.ID, ""), ""},
		} {
			if status, v := apiCall(t, base, tc.auth, call.method, call.path, call.body); status != tc.status {
				t.Errorf("%s: %s %s: %d %v, want %d", tc.name, call.method, call.path, status, v, tc.status)
			}
		}
	}
	if status, _ := apiCall(t, base, noCSRF, "POST", "/api/v1/users", `{"email": "mallory@example.com"}`); status != http.StatusForbidden {
		t.Errorf("a session without its CSRF token: %d, want 403", status)
	}
	if _, err := s.Store.FindUserByEmail(ctx, "mallory@example.com"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("mallory was made: %v", err)
	}
	if u := stored(dave); u.Admin {
		t.Error("a user made himself an administrator")
	}
	if u := stored(admin.ID); !u.Admin || u.PasswordHash != admin.PasswordHash {
		t.Error("a user changed the administrator")
	}
}

// TestUsersAPIAnswersShowAUser: the answer that adds a user shows them as
// the list does, "password" the boolean whether they have one, and a
// generated password apart, as "generatedPassword", as a reset answers
// it. The generated password shadowed the boolean under the same key: a
// string in one answer, a boolean in the others, and no key at all for a
// password given.
func TestUsersAPIAnswersShowAUser(t *testing.T) {
	s, admin := newTestServer(t)
	c := newSignedIn(t, s, admin)
	token := bearer(t, s.Store, admin, "admin-secret")
	for _, tc := range []struct {
		name, body string
		generated  bool
	}{
		{"generated", `{"email": "carol@example.com"}`, true},
		{"given", `{"email": "dave@example.com", "password": "dave's long password"}`, false},
	} {
		status, v := apiCall(t, c.srv.URL, token, "POST", "/api/v1/users", tc.body)
		if status != http.StatusCreated {
			t.Fatalf("%s: add: %d %v", tc.name, status, v)
		}
		if v["password"] != true {
			t.Errorf("%s: add answered password %#v; want true, as the list shows a user who has one", tc.name, v["password"])
		}
		if pw, _ := v["generatedPassword"].(string); tc.generated != (len(pw) == 24) {
			t.Errorf("%s: add answered generatedPassword %#v", tc.name, v["generatedPassword"])
		}
		reset := fmt.Sprintf("/api/v1/users/%d/password", int64(v["id"].(float64)))
		status, v = apiCall(t, c.srv.URL, token, "POST", reset, `{}`)
		if pw, _ := v["generatedPassword"].(string); status != http.StatusOK || len(pw) != 24 || v["password"] != nil {
			t.Errorf("%s: reset: %d %v; want the generated password as generatedPassword", tc.name, status, v)
		}
	}
}

// TestUsersAPITokenMakesNoAdministrator: an administrator's API token
// manages the users who are no administrators, and only a signed-in
// session makes one (adds one, grants the role) or sets an
// administrator's password, the token's own included, as only a session
// makes API tokens (TestTokenCreateNeedsSession): a token that expires in
// an hour made an administrator with a password it chose, or chose its
// administrator's, and signed in for good, whatever its expiry and
// revocation. An expired token is refused outright.
func TestUsersAPITokenMakesNoAdministrator(t *testing.T) {
	s, admin := newTestServer(t)
	ctx := context.Background()
	c := newSignedIn(t, s, admin)
	base := c.srv.URL
	token := bearer(t, s.Store, admin, "admin-secret")
	session := sessionOf(c)
	bob := &vigil.User{Email: "bob@example.com", Name: "Bob", PasswordHash: "h"}
	if err := s.Store.CreateUser(ctx, bob); err != nil {
		t.Fatal(err)
	}
	path := func(id int64, rest string) string { return fmt.Sprintf("/api/v1/users/%d%s", id, rest) }
	for _, call := range []struct{ name, method, path, body string }{
		{"add an administrator", "POST", "/api/v1/users", `{"email": "mallory@example.com", "admin": true}`},
		{"grant the role", "PUT", path(bob.ID, "/admin"), `{"admin": true}`},
		{"set an administrator's password", "POST", path(admin.ID, "/password"), `{"password": "mallory's password"}`},
		{"generate an administrator's password", "POST", path(admin.ID, "/password"), `{}`},
	} {
		status, v := apiCall(t, base, token, call.method, call.path, call.body)
		if msg := fmt.Sprint(v["error"]); status != http.StatusForbidden || !strings.Contains(msg, "signed-in session") {
			t.Errorf("%s with an API token: %d %v; want 403 saying a session is needed", call.name, status, v)
		}
	}
	if _, err := s.Store.FindUserByEmail(ctx, "mallory@example.com"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("an administrator made with a token: %v", err)
	}
	if u, err := s.Store.FindUserByID(ctx, bob.ID); err != nil || u.Admin {
		t.Errorf("bob after a grant with a token: %+v %v; want no administrator", u, err)
	}
	if u, err := s.Store.FindUserByID(ctx, admin.ID); err != nil || u.PasswordHash != admin.PasswordHash {
		t.Errorf("the administrator's password after a reset with a token: %v; want it unchanged", err)
	}

	// The token manages the others; a session does all of it.
	if status, v := apiCall(t, base, token, "POST", "/api/v1/users", `{"email": "carol@example.com"}`); status != http.StatusCreated {
		t.Errorf("add a user with a token: %d %v", status, v)
	}
	if status, v := apiCall(t, base, token, "POST", path(bob.ID, "/password"), `{}`); status != http.StatusOK {
		t.Errorf("reset bob's password with a token: %d %v", status, v)
	}
	if status, v := apiCall(t, base, session, "PUT", path(bob.ID, "/admin"), `{"admin": true}`); status != http.StatusOK {
		t.Errorf("grant bob the role with a session: %d %v", status, v)
	}
	if status, v := apiCall(t, base, token, "PUT", path(bob.ID, "/admin"), `{"admin": false}`); status != http.StatusOK {
		t.Errorf("revoke bob's role with a token: %d %v", status, v)
	}
	if status, v := apiCall(t, base, session, "POST", "/api/v1/users", `{"email": "dave@example.com", "admin": true}`); status != http.StatusCreated {
		t.Errorf("add an administrator with a session: %d %v", status, v)
	}

	// An expired token of the administrator's.
	if err := s.Store.CreateToken(ctx, &vigil.Token{UserID: admin.ID, Name: "old", Hash: vigil.HashToken("expired-secret"), ExpiresAt: time.Now().Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	expired := func(r *http.Request) { r.Header.Set("Authorization", "Bearer expired-secret") }
	if status, v := apiCall(t, base, expired, "GET", "/api/v1/users", ""); status != http.StatusUnauthorized {
		t.Errorf("an expired token: %d %v; want 401", status, v)
	}
}

// grantedMeanwhile is a store that makes the user with id an
// administrator just after a request reads them: a session granting the
// role between an API token's check of the user and its write.
type grantedMeanwhile struct {
	vigil.Store
	id int64
}

func (s *grantedMeanwhile) FindUserByID(ctx context.Context, id int64) (*vigil.User, error) {
	u, err := s.Store.FindUserByID(ctx, id)
	if err == nil && id == s.id {
		s.id = 0
		if err := s.Store.SetUserAdmin(ctx, id, true); err != nil {
			return nil, err
		}
	}
	return u, err
}

// TestUsersAPITokenResetGrantedMeanwhile: a token's reset of a user made
// an administrator after the API read them (no administrator then) is
// refused as a token's reset of an administrator is, their password
// unchanged: the store checks the role in the statement that writes. A
// session's reset of such a user goes on.
func TestUsersAPITokenResetGrantedMeanwhile(t *testing.T) {
	s, admin := newTestServer(t)
	ctx := context.Background()
	c := newSignedIn(t, s, admin)
	token := bearer(t, s.Store, admin, "admin-secret")
	st := s.Store
	for i, tc := range []struct {
		name string
		auth func(*http.Request)
		want int
	}{
		{"with an API token", token, http.StatusForbidden},
		{"with a session", sessionOf(c), http.StatusOK},
	} {
		bob := &vigil.User{Email: fmt.Sprintf("bob%d@example.com", i), Name: "Bob", PasswordHash: "h"}
		if err := st.CreateUser(ctx, bob); err != nil {
			t.Fatal(err)
		}
		s.Store = &grantedMeanwhile{Store: st, id: bob.ID}
		status, v := apiCall(t, c.srv.URL, tc.auth, "POST", fmt.Sprintf("/api/v1/users/%d/password", bob.ID), `{"password": "a long new password"}`)
		s.Store = st
		got, err := st.FindUserByID(ctx, bob.ID)
		if err != nil || !got.Admin {
			t.Fatalf("%s: bob %+v, %v; want the grant made meanwhile", tc.name, got, err)
		}
		switch {
		case status != tc.want:
			t.Errorf("%s: %d %v; want %d", tc.name, status, v, tc.want)
		case status == http.StatusForbidden && (got.PasswordHash != "h" || !strings.Contains(fmt.Sprint(v["error"]), "signed-in session")):
			t.Errorf("%s: %v, the hash %q; want a refusal saying a session is needed, the password unchanged", tc.name, v, got.PasswordHash)
		case status == http.StatusOK && got.PasswordHash == "h":
			t.Errorf("%s: the password was not reset", tc.name)
		}
	}
}

// TestUsersAPIEmailTaken: adding a user of an e-mail address another
// user has (in any case) is 409 with a diagnostic on email, as a
// sentinel's name another sentinel has is 409 on name, so that a client
// marks the field without reading the message.
func TestUsersAPIEmailTaken(t *testing.T) {
	s, admin := newTestServer(t)
	c := newSignedIn(t, s, admin)
	status, v := apiCall(t, c.srv.URL, bearer(t, s.Store, admin, "admin-secret"), "POST", "/api/v1/users", `{"email": "ADMIN@example.com"}`)
	if status != http.StatusConflict {
		t.Fatalf("%d %v, want 409", status, v)
	}
	e, _ := v["error"].(map[string]any)
	diags, _ := e["diagnostics"].([]any)
	if e["code"] != vigil.ECONFLICT || e["message"] != "admin@example.com is already a user" || len(diags) != 1 {
		t.Fatalf("error %v", e)
	}
	if d, _ := diags[0].(map[string]any); d["field"] != "email" || d["message"] != e["message"] {
		t.Errorf("diagnostic %v, want field email", d)
	}
}
