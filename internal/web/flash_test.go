package web

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// The secrets the Users and Tokens pages show once.
var (
	shownToken    = regexp.MustCompile(`id="new-token" class="secret">([^<]+)<`)
	shownPassword = regexp.MustCompile(`id="new-password" class="secret">([^<]+)<`)
)

// sendChecked is send, for a form that must redirect to its page: it
// fails the test unless the answer is 303 to want, and returns every
// header value of the answer (its Location and Set-Cookie among them), in
// which no secret may be.
func (c *browserClient) sendChecked(path, form, want string) string {
	c.t.Helper()
	resp, body := c.send("POST", path, form)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
		c.t.Fatalf("POST %s: %d to %q, want 303 to %q\n%s", path, resp.StatusCode, resp.Header.Get("Location"), want, body)
	}
	var flash *http.Cookie
	for _, ck := range resp.Cookies() {
		if strings.HasPrefix(ck.Name, flashCookie) {
			flash = ck
		}
	}
	if flash == nil || !flash.HttpOnly || flash.SameSite != http.SameSiteStrictMode || flash.MaxAge <= 0 || flash.MaxAge > 60 {
		c.t.Fatalf("POST %s: the flash cookie %+v, want HttpOnly, SameSite=Strict, a minute at most", path, flash)
	}
	var all []string
	for k, vs := range resp.Header {
		all = append(all, k+": "+strings.Join(vs, "; "))
	}
	return strings.Join(all, "\n") + "\n" + body
}

// TestSecretFormsRedirect: the Users and Tokens pages' forms answer 303
// to their page (Post/Redirect/Get), as the sentinels' forms do, and a
// secret one makes (an API token, a generated password) is shown once,
// by the GET that follows: not by a second GET (a reload), not in the
// redirect's address nor in any cookie, and the reload makes no second
// token or password. They answered the page itself, which a reload sent
// again: a password reset again, a second token made.
func TestSecretFormsRedirect(t *testing.T) {
	ctx := context.Background()
	s, admin := newTestServer(t)
	c := newBrowserClient(t, s, admin)
	bobID := func() int64 {
		t.Helper()
		bob, err := s.Store.FindUserByEmail(ctx, "bob@example.com")
		if err != nil {
			t.Fatal(err)
		}
		return bob.ID
	}
	bobHash := func() string {
		t.Helper()
		bob, err := s.Store.FindUserByID(ctx, bobID())
		if err != nil {
			t.Fatal(err)
		}
		return bob.PasswordHash
	}
	tokens := func() int {
		t.Helper()
		list, err := s.Store.FindTokens(ctx, admin.ID)
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	for _, tc := range []struct {
		name       string
		action     func() string // the form's path
		form, page string
		secret     *regexp.Regexp // nil: the form makes none
		done       string         // what the page says the form did
		// check checks the secret shown (or "") against the store.
		check func(t *testing.T, secret string)
	}{
		{"token", func() string { return "/tokens" }, "name=ci&days=30", "/tokens", shownToken, "New token <strong>ci</strong>",
			func(t *testing.T, secret string) {
				if tokens() != 1 {
					t.Errorf("%d tokens, want 1", tokens())
				}
				if _, err := s.Store.FindTokenByHash(ctx, vigil.HashToken(secret), time.Now()); err != nil {
					t.Errorf("the token shown is not the one stored: %v", err)
				}
			}},
		{"add user", func() string { return "/users" }, "email=bob@example.com&name=Bob", "/users", shownPassword, "Added bob@example.com.",
			func(t *testing.T, secret string) {
				if !CheckPassword(bobHash(), secret) {
					t.Error("the password shown is not bob's")
				}
			}},
		{"reset password", func() string { return "/users/" + strconv.FormatInt(bobID(), 10) + "/password" }, "", "/users", shownPassword,
			"Set the password of bob@example.com; their sessions are signed out.",
			func(t *testing.T, secret string) {
				if !CheckPassword(bobHash(), secret) {
					t.Error("the password shown is not bob's")
				}
			}},
		{"typed password", func() string { return "/users/" + strconv.FormatInt(bobID(), 10) + "/password" }, "password=a+typed+password+for+bob", "/users", nil,
			"Set the password of bob@example.com", nil},
		{"grant", func() string { return "/users/" + strconv.FormatInt(bobID(), 10) + "/admin" }, "admin=on", "/users", nil,
			"bob@example.com is now an administrator.", nil},
		{"revoke", func() string { return "/users/" + strconv.FormatInt(bobID(), 10) + "/admin" }, "admin=off", "/users", nil,
			"bob@example.com is no longer an administrator.", nil},
		{"remove", func() string { return "/users/" + strconv.FormatInt(bobID(), 10) + "/remove" }, "", "/users", nil,
			"Removed bob@example.com.", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			hashBefore := ""
			if tc.name == "reset password" {
				hashBefore = bobHash()
			}
			answer := c.sendChecked(tc.action(), tc.form, tc.page)
			resp, body := c.send("GET", tc.page, "")
			if resp.StatusCode != http.StatusOK || !strings.Contains(body, tc.done) {
				t.Fatalf("GET %s after the form: %d, without %q:\n%s", tc.page, resp.StatusCode, tc.done, body)
			}
			secret := ""
			if tc.secret != nil {
				m := tc.secret.FindStringSubmatch(body)
				if m == nil {
					t.Fatalf("GET %s after the form shows no secret:\n%s", tc.page, body)
				}
				secret = m[1]
				if strings.Contains(answer, secret) {
					t.Errorf("the redirect holds the secret:\n%s", answer)
				}
				for _, v := range resp.Header.Values("Set-Cookie") {
					if strings.Contains(v, secret) {
						t.Errorf("the page's cookie %q holds the secret", v)
					}
				}
				if hashBefore != "" && hashBefore == bobHash() {
					t.Error("the reset did not change the password")
				}
			}
			hashShown := ""
			if tc.name == "reset password" {
				hashShown = bobHash()
			}
			// A reload: nothing said again, nothing made again.
			resp, body = c.send("GET", tc.page, "")
			if resp.StatusCode != http.StatusOK || strings.Contains(body, tc.done) || tc.secret != nil && tc.secret.MatchString(body) ||
				secret != "" && strings.Contains(body, secret) || strings.Contains(body, `id="flash-lost"`) {
				t.Errorf("GET %s again (a reload): %d, says again what was done:\n%s", tc.page, resp.StatusCode, body)
			}
			if hashShown != "" && hashShown != bobHash() {
				t.Error("the reload set another password")
			}
			if tc.check != nil {
				tc.check(t, secret)
			}
		})
	}
}

// TestSecretFlashOnlyForItsPageAndUser: the flash of a secret is taken by
// the page its redirect names, in the session of the user who made it,
// within a minute: another page opened first leaves it for its own;
// another user sending the same cookie (another account signed in in
// the browser) is shown nothing, and it is gone; a minute later, it is
// gone too, and the page says that it cannot show it, as it does for a
// flash shown already. The cookie's value is a random id, the page and
// what the form did, signed, not the secret.
func TestSecretFlashOnlyForItsPageAndUser(t *testing.T) {
	ctx := context.Background()
	s, admin := newTestServer(t)
	now := time.Now()
	s.Now = func() time.Time { return now }
	carol := &vigil.User{Email: "carol@example.com", Name: "Carol", PasswordHash: "h", Admin: true}
	if err := s.Store.CreateUser(ctx, carol); err != nil {
		t.Fatal(err)
	}
	c := newBrowserClient(t, s, admin)
	other := newBrowserClient(t, s, carol)
	base, _ := url.Parse(c.srv.URL)
	flashOf := func(bc *browserClient) *http.Cookie {
		for _, ck := range bc.client.Jar.Cookies(base) {
			if strings.HasPrefix(ck.Name, flashCookie) {
				return ck
			}
		}
		return nil
	}

	c.sendChecked("/tokens", "name=a", "/tokens")
	if _, body := c.send("GET", "/users", ""); shownToken.MatchString(body) || strings.Contains(body, "vgl_") {
		t.Errorf("GET /users shows the token made on /tokens:\n%s", body)
	}
	if flashOf(c) == nil {
		t.Fatal("another page cleared the flash of /tokens")
	}
	// Carol's browser sends admin's flash cookie.
	otherBase, _ := url.Parse(other.srv.URL)
	other.client.Jar.SetCookies(otherBase, []*http.Cookie{flashOf(c)})
	if _, body := other.send("GET", "/tokens", ""); shownToken.MatchString(body) || strings.Contains(body, "vgl_") || !strings.Contains(body, `id="flash-lost"`) {
		t.Errorf("another user was shown the token, or not that it cannot be:\n%s", body)
	}
	if _, body := c.send("GET", "/tokens", ""); shownToken.MatchString(body) {
		t.Error("the token was shown after another user presented its flash")
	}

	// A minute later, the token is not shown.
	c.sendChecked("/tokens", "name=b", "/tokens")
	if f := strings.Split(flashOf(c).Value, ":"); len(f) != 6 || strings.HasPrefix(f[0], "vgl_") || len(f[0]) < 40 || f[1] != "/tokens" || strings.Contains(flashOf(c).Value, "vgl_") {
		t.Errorf("the flash cookie's value %q is not a random id, the page and the signed rest, without the token", flashOf(c).Value)
	}
	now = now.Add(flashTTL + time.Second)
	if _, body := c.send("GET", "/tokens", ""); shownToken.MatchString(body) || !strings.Contains(body, "more than a minute passed") {
		t.Errorf("the token was shown after the flash expired, or the page did not say it cannot be:\n%s", body)
	}
	if _, body := c.send("GET", "/tokens", ""); strings.Contains(body, `id="flash-lost"`) {
		t.Error("a reload says again that the token cannot be shown")
	}
}

// TestOwnPasswordReset: an administrator who resets their own password
// is shown the new one at once, in the answer to the form: the
// redirect's page would find their session signed out by the new
// password, the password never shown; and a reload, which sends the form
// again with that session, is refused (401) without setting another.
func TestOwnPasswordReset(t *testing.T) {
	ctx := context.Background()
	s, admin := newTestServer(t)
	c := newBrowserClient(t, s, admin)
	resp, body := c.send("POST", "/users/"+strconv.FormatInt(admin.ID, 10)+"/password", "")
	m := shownPassword.FindStringSubmatch(body)
	if resp.StatusCode != http.StatusOK || m == nil || !strings.Contains(body, "That is you") {
		t.Fatalf("own reset: %d\n%s", resp.StatusCode, body)
	}
	u, err := s.Store.FindUserByID(ctx, admin.ID)
	if err != nil || !CheckPassword(u.PasswordHash, m[1]) {
		t.Fatalf("the password shown is not the admin's: %v", err)
	}
	resp, body = c.send("POST", "/users/"+strconv.FormatInt(admin.ID, 10)+"/password", "")
	if resp.StatusCode != http.StatusUnauthorized || shownPassword.MatchString(body) {
		t.Errorf("own reset sent again: %d, want 401", resp.StatusCode)
	}
	if again, err := s.Store.FindUserByID(ctx, admin.ID); err != nil || again.PasswordHash != u.PasswordHash {
		t.Errorf("own reset sent again set another password: %v", err)
	}
}

// TestSecretFlashTabsAndHead: a form of the Users page sent (in another
// tab) before a token's redirect is followed leaves the token's flash
// alone, each page having its own cookie; a HEAD of the page (a link
// checker's) does not take the flash, which the next GET shows.
func TestSecretFlashTabsAndHead(t *testing.T) {
	s, admin := newTestServer(t)
	c := newBrowserClient(t, s, admin)
	c.sendChecked("/tokens", "name=a", "/tokens")
	c.sendChecked("/users", "email=dan%40example.com&name=Dan", "/users")
	if resp, _ := c.send("HEAD", "/tokens", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("HEAD /tokens: %d", resp.StatusCode)
	}
	if _, body := c.send("GET", "/tokens", ""); !shownToken.MatchString(body) {
		t.Errorf("the token made before a form of the Users page, and a HEAD, is not shown:\n%s", body)
	}
	if _, body := c.send("GET", "/users", ""); !strings.Contains(body, "dan@example.com") || strings.Contains(body, `id="flash-lost"`) {
		t.Errorf("the Users page does not say what its form did:\n%s", body)
	}
}
