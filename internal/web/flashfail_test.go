package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// failUsersStore fails FindUsers while fail is set: a store that cannot
// be read for a moment (a restart, a lock held too long).
type failUsersStore struct {
	vigil.Store
	fail bool
}

func (f *failUsersStore) FindUsers(ctx context.Context) ([]*vigil.User, error) {
	if f.fail {
		return nil, vigil.Errorf(vigil.EINTERNAL, "the store cannot be read")
	}
	return f.Store.FindUsers(ctx)
}

// TestFlashKeptWhenPageFails: the Users page a form redirects to, which
// cannot read the users, answers an error and leaves the flash, which
// the page shows once the store reads again: the generated password is
// not lost. It was taken before the users were read, and the reload
// said it could not be shown.
func TestFlashKeptWhenPageFails(t *testing.T) {
	s, admin := newTestServer(t)
	st := &failUsersStore{Store: s.Store}
	s.Store = st
	c := newBrowserClient(t, s, admin)
	c.sendChecked("/users", "email=dan%40example.com&name=Dan", "/users")
	st.fail = true
	if resp, body := c.send("GET", "/users", ""); resp.StatusCode != http.StatusInternalServerError || shownPassword.MatchString(body) {
		t.Fatalf("GET /users, the store failing: %d, want 500 showing no password\n%s", resp.StatusCode, body)
	}
	st.fail = false
	_, body := c.send("GET", "/users", "")
	if !shownPassword.MatchString(body) || !strings.Contains(body, "Added dan@example.com.") || strings.Contains(body, `id="flash-lost"`) {
		t.Errorf("the page, once the store reads again, does not show the flash:\n%s", body)
	}
}
