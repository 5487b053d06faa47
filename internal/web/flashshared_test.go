package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// newTwoDaemons returns two servers on one store, a SQLite file each
// opens on its own as two vigil serve would, sharing the server's
// secret (kept in the store), and the administrator of the store.
func newTwoDaemons(t *testing.T) (*Server, *Server, *vigil.User) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	var daemons [2]*Server
	for i := range daemons {
		st, err := sqlite.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		daemons[i] = &Server{Store: st, Secret: []byte(strings.Repeat("k", 32))}
	}
	if _, err := EnsureAdmin(ctx, daemons[0].Store, "admin@example.com", "pw"); err != nil {
		t.Fatal(err)
	}
	u, err := daemons[1].Store.FindUserByEmail(ctx, "admin@example.com")
	if err != nil {
		t.Fatal(err)
	}
	return daemons[0], daemons[1], u
}

// TestFlashAcrossServers: behind a balancer, the page a form of the
// Users or Tokens page redirects to may be answered by another daemon
// on the same store: it says what the form did all the same, and shows
// the generated password or the new token, to the user who sent the
// form alone, once. The other daemon said that the password could not
// be shown: the daemon that made it held it in its memory.
func TestFlashAcrossServers(t *testing.T) {
	s, other, admin := newTwoDaemons(t)
	a := newBrowserClient(t, s, admin)
	b := newBrowserClient(t, other, admin)
	b.client.Jar = a.client.Jar // one browser, the balancer sending it to either
	b.csrf = a.csrf             // of the session the browser sends
	a.sendChecked("/users", "email=dan%40example.com&name=Dan", "/users")
	_, page := b.send("GET", "/users", "")
	if !strings.Contains(page, `id="users-done">Added dan@example.com.<`) {
		t.Errorf("the other daemon's page does not say what the form did:\n%s", page)
	}
	m := shownPassword.FindStringSubmatch(page)
	if m == nil || strings.Contains(page, `id="flash-lost"`) {
		t.Fatalf("the other daemon's page does not show the password:\n%s", page)
	}
	dan, err := s.Store.FindUserByEmail(context.Background(), "dan@example.com")
	if err != nil || !CheckPassword(dan.PasswordHash, m[1]) {
		t.Fatalf("the password shown is not dan's: %v", err)
	}
	for _, c := range []*browserClient{a, b} {
		if _, again := c.send("GET", "/users", ""); strings.Contains(again, "users-done") || shownPassword.MatchString(again) || strings.Contains(again, "flash-lost") {
			t.Errorf("a reload says again what the form did:\n%s", again)
		}
	}

	// A token made on one daemon, shown by the other, once.
	b.sendChecked("/tokens", "name=deploy", "/tokens")
	_, page = a.send("GET", "/tokens", "")
	tok := shownToken.FindStringSubmatch(page)
	if tok == nil {
		t.Fatalf("the other daemon's page does not show the token:\n%s", page)
	}
	if got, err := s.Store.FindTokenByHash(context.Background(), vigil.HashToken(tok[1]), time.Now()); err != nil || got.UserID != admin.ID || got.Name != "deploy" {
		t.Errorf("the token shown is not the one made: %v", err)
	}

	// A form without a secret: its page, on the other daemon, says what it
	// did, and nothing is lost.
	a.sendChecked("/users/"+strconv.FormatInt(dan.ID, 10)+"/admin", "admin=on", "/users")
	_, page = b.send("GET", "/users", "")
	if !strings.Contains(page, `id="users-done">dan@example.com is now an administrator.<`) || strings.Contains(page, `id="flash-lost"`) {
		t.Errorf("the other daemon's page does not say the grant alone:\n%s", page)
	}

	// What the form did is signed: a cookie whose words were changed says
	// nothing of them, only that the form's flash cannot be shown.
	a.sendChecked("/users/"+strconv.FormatInt(dan.ID, 10)+"/admin", "admin=off", "/users")
	base, _ := url.Parse(a.srv.URL)
	for _, ck := range a.client.Jar.Cookies(base) {
		if f := strings.Split(ck.Value, ":"); strings.HasPrefix(ck.Name, flashCookie) && len(f) == 6 {
			f[4] = b64.EncodeToString([]byte("Your account is locked: see evil.example."))
			ck.Value = strings.Join(f, ":")
			a.client.Jar.SetCookies(base, []*http.Cookie{ck})
		}
	}
	if _, page = b.send("GET", "/users", ""); strings.Contains(page, "evil.example") || !strings.Contains(page, `id="flash-lost"`) {
		t.Errorf("a changed flash cookie was shown, or its page does not say it cannot be:\n%s", page)
	}
}

// TestFlashShownOnce: a flash's cookie sent again once its page showed
// it (kept by the browser against its Max-Age=-1, copied, replayed by a
// proxy) shows nothing, on the daemon that showed it and on another of
// the store: not what the form did, not the token; the page says it
// cannot. It was shown again for its whole minute.
func TestFlashShownOnce(t *testing.T) {
	s, other, admin := newTwoDaemons(t)
	a := newBrowserClient(t, s, admin)
	b := newBrowserClient(t, other, admin)
	base, _ := url.Parse(a.srv.URL)
	flashOf := func(path string) *http.Cookie {
		t.Helper()
		for _, ck := range a.client.Jar.Cookies(base) {
			if ck.Name == flashCookieFor(path) {
				return ck
			}
		}
		t.Fatalf("no flash cookie for %s", path)
		return nil
	}
	for _, tc := range []struct {
		path, form string
		shown      func(page string) bool
	}{
		{"/users", "email=erin%40example.com&name=Erin", func(page string) bool {
			return strings.Contains(page, "Added erin@example.com.") || shownPassword.MatchString(page)
		}},
		{"/tokens", "name=ci", func(page string) bool { return shownToken.MatchString(page) || strings.Contains(page, "vgl_") }},
	} {
		a.sendChecked(tc.path, tc.form, tc.path)
		replay := flashOf(tc.path)
		if _, page := a.send("GET", tc.path, ""); !tc.shown(page) {
			t.Fatalf("%s: the flash is not shown the first time:\n%s", tc.path, page)
		}
		for _, c := range []*browserClient{a, b} {
			c.client.Jar.SetCookies(base, []*http.Cookie{replay})
			if _, page := c.send("GET", tc.path, ""); tc.shown(page) || !strings.Contains(page, `id="flash-lost"`) {
				t.Errorf("%s: the flash's cookie sent again shows it, or the page does not say it cannot:\n%s", tc.path, page)
			}
		}
	}
}
