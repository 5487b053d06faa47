package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestFlashAcrossServers: behind a balancer, the page a form of the
// Users page redirects to may be answered by another daemon on the same
// store: it says what the form did all the same, from the signed cookie,
// to the user who sent it alone; a generated password, which the cookie
// never carries, is said to be lost there, not shown. Another daemon
// said only that what the form did could not be shown.
func TestFlashAcrossServers(t *testing.T) {
	s, admin := newTestServer(t)
	other := &Server{Store: s.Store, Secret: s.Secret} // a second daemon
	a := newBrowserClient(t, s, admin)
	b := newBrowserClient(t, other, admin)
	b.client.Jar = a.client.Jar // one browser, the balancer sending it to either
	a.sendChecked("/users", "email=dan%40example.com&name=Dan", "/users")
	_, page := b.send("GET", "/users", "")
	if !strings.Contains(page, `id="users-done">Added dan@example.com.<`) {
		t.Errorf("the other daemon's page does not say what the form did:\n%s", page)
	}
	if shownPassword.MatchString(page) || !strings.Contains(page, `id="flash-lost"`) {
		t.Errorf("the other daemon's page shows the password, or does not say it cannot:\n%s", page)
	}
	if _, again := b.send("GET", "/users", ""); strings.Contains(again, "users-done") || strings.Contains(again, "flash-lost") {
		t.Errorf("a reload says again what the form did:\n%s", again)
	}

	// A form without a secret: its page, on the other daemon, says what it
	// did, and nothing is lost.
	dan, err := s.Store.FindUserByEmail(context.Background(), "dan@example.com")
	if err != nil {
		t.Fatal(err)
	}
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
