package main

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/web"
)

// shownPassword finds a password the Users page shows once.
var shownPassword = regexp.MustCompile(`id="new-password" class="secret">([^<]+)<`)

// TestWebUserAdmin: the Users page of the running daemon, on loopback.
// The admin account manages the users there; a user who is no
// administrator is refused it (403) and has no link to it; a form without
// its CSRF token is refused; each form's effect is in the store; a
// generated password is shown once, by the page its form redirects to,
// works, and is never logged; the refusals of vigil user remove hold, and so does
// the last administrator.
func TestWebUserAdmin(t *testing.T) {
	d := startWebDaemon(t)
	ctx := context.Background()
	st := userStore(t, d.dir)
	stored := func(email string) *vigil.User {
		t.Helper()
		u, err := st.FindUserByEmail(ctx, email)
		if err != nil {
			t.Fatalf("%s: %v", email, err)
		}
		return u
	}
	gone := func(email string) bool {
		_, err := st.FindUserByEmail(ctx, email)
		return vigil.ErrorCode(err) == vigil.ENOTFOUND
	}
	signInOK := func(email, password string) *browserSession {
		t.Helper()
		s, status := signInAs(t, d.base, email, password)
		if status != http.StatusSeeOther {
			t.Fatalf("%s signs in: status %d, want 303", email, status)
		}
		return s
	}
	admin := signInOK("admin@localhost", testAdminPassword)
	self := stored("admin@localhost")
	if !self.Admin {
		t.Fatal("the admin account vigil serve made is no administrator")
	}
	if page := admin.get("/sentinels"); !strings.Contains(page, `href="/users"`) {
		t.Error("no link to /users on the administrator's dashboard")
	}
	if page := admin.get("/users"); !strings.Contains(page, "admin@localhost (you)") || !strings.Contains(page, "administrator") {
		t.Errorf("the Users page does not list the administrator:\n%s", page)
	}
	// post sends a form of the Users page with the administrator's CSRF
	// token and returns the status and the page.
	post := func(s *browserSession, path string, form url.Values) (int, string) {
		t.Helper()
		form.Set("csrf", s.csrf())
		return s.post(path, form)
	}
	userPath := func(email, action string) string {
		return "/users/" + strconv.FormatInt(stored(email).ID, 10) + "/" + action
	}

	// A user who is no administrator: no link, 403 on every route.
	if code, _, errOut := runVigil(t, "bob's long password\n", "user", "add", "--data", d.dir, "--password-stdin", "bob@example.com"); code != exitOK {
		t.Fatal(errOut)
	}
	bob := signInOK("bob@example.com", "bob's long password")
	if page := bob.get("/sentinels"); strings.Contains(page, `href="/users"`) {
		t.Error("a link to /users on the dashboard of a user who is no administrator")
	}
	if st := bob.status("/users"); st != http.StatusForbidden {
		t.Errorf("GET /users as a user: %d, want 403", st)
	}
	for path, form := range map[string]url.Values{
		"/users":                                {"email": {"mallory@example.com"}},
		userPath("admin@localhost", "password"): {"password": {"mallory's password"}},
		userPath("bob@example.com", "admin"):    {"admin": {"on"}},
		userPath("admin@localhost", "admin"):    {"admin": {"off"}},
		userPath("admin@localhost", "remove"):   {"with_sentinels": {"on"}},
	} {
		if st, _ := post(bob, path, form); st != http.StatusForbidden {
			t.Errorf("POST %s as a user: %d, want 403", path, st)
		}
	}
	if !gone("mallory@example.com") || stored("bob@example.com").Admin || !stored("admin@localhost").Admin ||
		stored("admin@localhost").PasswordHash != self.PasswordHash {
		t.Fatal("a user who is no administrator changed the users")
	}
	// Signed out: the sign-in form, no list.
	if st := (&browserSession{t: t, base: d.base, client: &http.Client{}}).status("/users"); st != http.StatusUnauthorized {
		t.Errorf("GET /users signed out: %d, want 401", st)
	}

	// Not the page with an API token, even the administrator's; the
	// JSON API (/api/v1/users) with the administrator's only.
	adminAPI := &apiClient{t: t, base: d.base, token: admin.newToken("admin's")}
	if a := adminAPI.do("GET", "/users", nil); a.status != http.StatusForbidden {
		t.Errorf("GET /users with the administrator's API token: %d, want 403", a.status)
	}
	var listed struct{ Total int }
	if adminAPI.want(200, "GET", "/api/v1/users", nil).json(t, &listed); listed.Total != 2 {
		t.Errorf("GET /api/v1/users with the administrator's API token: %d users, want 2", listed.Total)
	}
	bobAPI := &apiClient{t: t, base: d.base, token: bob.newToken("bob's")}
	bobAPI.want(http.StatusForbidden, "GET", "/api/v1/users", nil)
	var me struct{ Admin bool }
	if adminAPI.want(200, "GET", "/api/v1/me", nil).json(t, &me); !me.Admin {
		t.Error("/api/v1/me does not say the administrator is one")
	}

	// Without the CSRF token, refused.
	if st, _ := admin.post("/users", url.Values{"email": {"carol@example.com"}}); st != http.StatusForbidden || !gone("carol@example.com") {
		t.Errorf("POST /users without a CSRF token: %d, carol made: %v", st, !gone("carol@example.com"))
	}
	if st, _ := admin.post(userPath("bob@example.com", "remove"), url.Values{"csrf": {"forged"}}); st != http.StatusForbidden || gone("bob@example.com") {
		t.Errorf("remove with a forged CSRF token: %d", st)
	}

	// Add with a generated password: shown once, it works.
	status, page := post(admin, "/users", url.Values{"email": {" Carol@Example.com "}, "name": {"Carol C."}})
	m := shownPassword.FindStringSubmatch(page)
	if status != http.StatusOK || m == nil {
		t.Fatalf("add carol: status %d\n%s", status, page)
	}
	carolPassword := m[1]
	carol := stored("carol@example.com")
	if carol.Name != "Carol C." || carol.Admin || !web.CheckPassword(carol.PasswordHash, carolPassword) || len(carolPassword) != 24 {
		t.Errorf("carol stored as %+v, password %d characters", carol, len(carolPassword))
	}
	if page := admin.get("/users"); strings.Contains(page, carolPassword) || !strings.Contains(page, "carol@example.com") {
		t.Error("the Users page shows carol's password again, or not carol")
	}
	carolSess := signInOK("carol@example.com", carolPassword)

	// Add with a typed password, as an administrator; refusals.
	status, page = post(admin, "/users", url.Values{"email": {"dave@example.com"}, "password": {"dave's long password"}, "admin": {"on"}})
	if status != http.StatusOK || shownPassword.MatchString(page) || !stored("dave@example.com").Admin {
		t.Errorf("add dave, an administrator, with a typed password: status %d, admin %v", status, stored("dave@example.com").Admin)
	}
	signInOK("dave@example.com", "dave's long password")
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		want   string
	}{
		{"short password", url.Values{"email": {"eve@example.com"}, "password": {"elevenchars"}}, 400, "too short: 11 characters, want at least 12"},
		{"bad email", url.Values{"email": {"eve"}}, 400, `email must be an address whose domain has a dot or is localhost`},
		{"taken", url.Values{"email": {"CAROL@example.com"}}, 409, "carol@example.com is already a user"},
	} {
		status, page := post(admin, "/users", tc.form)
		if status != tc.status || !strings.Contains(page, tc.want) || shownPassword.MatchString(page) {
			t.Errorf("%s: status %d, want %d with %q\n%s", tc.name, status, tc.status, tc.want, page)
		}
	}
	if !gone("eve@example.com") {
		t.Error("eve was made")
	}

	// Reset carol's password: shown once, her session ends, the new one works.
	status, page = post(admin, userPath("carol@example.com", "password"), url.Values{})
	m = shownPassword.FindStringSubmatch(page)
	if status != http.StatusOK || m == nil || m[1] == carolPassword {
		t.Fatalf("reset carol's password: status %d\n%s", status, page)
	}
	if st := carolSess.status("/sentinels"); st != http.StatusUnauthorized {
		t.Errorf("carol's session after the reset: %d, want 401", st)
	}
	if _, st := signInAs(t, d.base, "carol@example.com", carolPassword); st == http.StatusSeeOther {
		t.Error("carol's old password still works")
	}
	carolPassword = m[1]
	carolSess = signInOK("carol@example.com", carolPassword)

	// Grant and revoke: the sessions go on, the administrator's and carol's.
	if status, _ := post(admin, userPath("carol@example.com", "admin"), url.Values{"admin": {"on"}}); status != http.StatusOK || !stored("carol@example.com").Admin {
		t.Errorf("grant carol: status %d", status)
	}
	if st := carolSess.status("/users"); st != http.StatusOK {
		t.Errorf("carol, an administrator now, on /users: %d", st)
	}
	if status, _ := post(admin, userPath("carol@example.com", "admin"), url.Values{"admin": {"off"}}); status != http.StatusOK || stored("carol@example.com").Admin {
		t.Errorf("revoke carol: status %d", status)
	}
	if st := carolSess.status("/users"); st != http.StatusForbidden {
		t.Errorf("carol, no longer an administrator, on /users: %d, want 403", st)
	}
	if st := carolSess.status("/sentinels"); st != http.StatusOK {
		t.Errorf("carol's session after the role changed: %d, want 200", st)
	}
	if status, _ := post(admin, userPath("dave@example.com", "admin"), url.Values{"admin": {"off"}}); status != http.StatusOK || stored("dave@example.com").Admin {
		t.Errorf("revoke dave: status %d", status)
	}
	// The only administrator now: neither revoked nor removed.
	status, page = post(admin, userPath("admin@localhost", "admin"), url.Values{"admin": {"off"}})
	if status != http.StatusConflict || !strings.Contains(page, "admin@localhost is the only administrator") || !stored("admin@localhost").Admin {
		t.Errorf("revoke the only administrator: status %d\n%s", status, page)
	}
	status, page = post(admin, userPath("admin@localhost", "remove"), url.Values{"with_sentinels": {"on"}})
	if status != http.StatusConflict || !strings.Contains(page, "admin@localhost is the only administrator") || gone("admin@localhost") {
		t.Errorf("remove the only administrator: status %d\n%s", status, page)
	}
	if st := admin.status("/users"); st != http.StatusOK || !stored("admin@localhost").UpdatedAt.Equal(self.UpdatedAt) {
		t.Errorf("the administrator's session after the role changes: %d", st)
	}

	// Remove: a user who owns a sentinel only with the box ticked.
	addOwned(t, d.dir, "bob@example.com", "Create Sentinel b1 Using https://a.example/ Fetch 1 day\n")
	status, page = post(admin, userPath("bob@example.com", "remove"), url.Values{})
	if status != http.StatusConflict || !strings.Contains(page, "bob@example.com owns 1 sentinel") || gone("bob@example.com") {
		t.Errorf("remove bob without his sentinels: status %d\n%s", status, page)
	}
	bobID := stored("bob@example.com").ID
	// His API token, made for the JSON API's refusal, goes with him.
	status, page = post(admin, userPath("bob@example.com", "remove"), url.Values{"with_sentinels": {"on"}})
	if status != http.StatusOK || !strings.Contains(page, "Removed bob@example.com with 1 sentinel and 1 API token.") || !gone("bob@example.com") {
		t.Errorf("remove bob with his sentinels: status %d\n%s", status, page)
	}
	if _, n, err := st.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: bobID}); err != nil || n != 0 {
		t.Errorf("bob's sentinels after his removal: %d, %v", n, err)
	}
	if st := bob.status("/sentinels"); st != http.StatusUnauthorized {
		t.Errorf("bob's session after his removal: %d, want 401", st)
	}
	status, _ = post(admin, userPath("dave@example.com", "remove"), url.Values{})
	if status != http.StatusOK || !gone("dave@example.com") {
		t.Errorf("remove dave: status %d", status)
	}

	// No password shown reached the log.
	if log := d.stderr.String(); strings.Contains(log, carolPassword) || strings.Contains(log, "dave's long password") {
		t.Error("the daemon logged a password")
	}
}
