package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/vigil-web/vigil"
)

// renamedMeanwhile renames a user as FindUserByID reads them, once
// armed: what another request does between a password reset's read of
// the user and its write.
type renamedMeanwhile struct {
	vigil.Store
	id     int64 // the user to rename
	rename string
}

func (s *renamedMeanwhile) FindUserByID(ctx context.Context, id int64) (*vigil.User, error) {
	u, err := s.Store.FindUserByID(ctx, id)
	if err == nil && id == s.id && s.rename != "" {
		other := *u
		other.Name, s.rename = s.rename, ""
		if err := s.Store.UpdateUser(ctx, &other); err != nil {
			return nil, err
		}
	}
	return u, err
}

// TestUserPasswordResetKeepsRename: a password reset on the Users page
// changes the password only: a rename made after it read the user is
// kept. It wrote back the whole user it had read, the old name with it.
func TestUserPasswordResetKeepsRename(t *testing.T) {
	s, admin := newTestServer(t)
	ctx := context.Background()
	bob := &vigil.User{Email: "bob@example.com", Name: "Bob", PasswordHash: "h"}
	if err := s.Store.CreateUser(ctx, bob); err != nil {
		t.Fatal(err)
	}
	st := &renamedMeanwhile{Store: s.Store}
	s.Store = st
	c := newSignedIn(t, s, admin)
	st.id, st.rename = bob.ID, "Robert"
	form := url.Values{"password": {"a new password for bob"}}
	if status, body := c.do("POST", fmt.Sprintf("/users/%d/password", bob.ID), form.Encode()); status != http.StatusSeeOther {
		t.Fatalf("reset: %d\n%s", status, body)
	}
	got, err := st.Store.FindUserByID(ctx, bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Robert" || !CheckPassword(got.PasswordHash, "a new password for bob") {
		t.Errorf("reset while renamed: name %q, new password set %v; want Robert, true", got.Name, CheckPassword(got.PasswordHash, "a new password for bob"))
	}
}
