package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
)

// testUserDisable: DisableUser takes the password and the role away
// together, moving the update time, and refuses, changing nothing, the
// only user with a password and the only administrator unless force.
func testUserDisable(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	ada := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "h", Admin: true}
	must(t, s.CreateUser(ctx, ada))
	bob := newUser(t, s, "bob@example.com")
	cy := &vigil.User{Email: "cy@example.com", Name: "Cy", Admin: true} // no password
	must(t, s.CreateUser(ctx, cy))
	stored := func(id int64) *vigil.User {
		t.Helper()
		u, err := s.FindUserByID(ctx, id)
		must(t, err)
		return u
	}
	must(t, s.DisableUser(ctx, ada.ID, false))
	if got := stored(ada.ID); got.PasswordHash != "" || got.Admin || !got.UpdatedAt.After(ada.UpdatedAt) {
		t.Errorf("disabled: %+v, updated at %v before; want no password, no role, the update time moved on", got, ada.UpdatedAt)
	}
	if got := stored(bob.ID); got.PasswordHash != bob.PasswordHash {
		t.Errorf("another user: %+v", got)
	}
	// bob is now the only user with a password, cy the only administrator.
	for _, tc := range []struct {
		name string
		u    *vigil.User
	}{{"the only password", bob}, {"the only administrator", cy}} {
		before := stored(tc.u.ID)
		wantCode(t, s.DisableUser(ctx, tc.u.ID, false), vigil.ECONFLICT)
		if got := stored(tc.u.ID); got.PasswordHash != before.PasswordHash || got.Admin != before.Admin || !got.UpdatedAt.Equal(before.UpdatedAt) {
			t.Errorf("%s refused: %+v, was %+v; want nothing changed", tc.name, got, before)
		}
	}
	must(t, s.DisableUser(ctx, ada.ID, false)) // nothing left to take away
	must(t, s.DisableUser(ctx, bob.ID, true))
	must(t, s.DisableUser(ctx, cy.ID, true))
	if got := stored(bob.ID); got.PasswordHash != "" {
		t.Errorf("forced: %+v; want no password", got)
	}
	if got := stored(cy.ID); got.Admin {
		t.Errorf("forced: %+v; want no role", got)
	}
	wantCode(t, s.DisableUser(ctx, 9999, false), vigil.ENOTFOUND)
	wantCode(t, s.DisableUser(ctx, 9999, true), vigil.ENOTFOUND)
}

// testUserDisableRace: two DisableUser at once, of the last two users
// with a password (or the last two administrators), or a DisableUser and
// a SetUserAdmin revoking the other of the last two administrators, leave
// one of them with it, and refuse the other, unchanged. Each round, a
// barrier lets both go at once.
func testUserDisableRace(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	for i := range 30 {
		// Round by round: the last two with a password (an
		// administrator without one beside them), then the last two
		// administrators (a user with a password beside them), removed
		// both, then one removed and the other revoked.
		admins, revoke := i%3 != 0, i%3 == 2
		var users []*vigil.User
		for j := range 2 {
			u := &vigil.User{Email: fmt.Sprintf("u%d-%d@example.com", i, j), Name: "n", PasswordHash: "h", Admin: admins}
			must(t, s.CreateUser(ctx, u))
			users = append(users, u)
		}
		bystander := &vigil.User{Email: fmt.Sprintf("b%d@example.com", i), Name: "n", Admin: !admins}
		if admins {
			bystander.PasswordHash = "h"
		}
		must(t, s.CreateUser(ctx, bystander))
		var ready, wg sync.WaitGroup
		ready.Add(2)
		errs := make([]error, 2)
		for j, u := range users {
			wg.Go(func() {
				ready.Done()
				ready.Wait()
				if revoke && j == 1 {
					errs[j] = s.SetUserAdmin(ctx, u.ID, false)
				} else {
					errs[j] = s.DisableUser(ctx, u.ID, false)
				}
			})
		}
		wg.Wait()
		kept := 0
		for j, u := range users {
			got, err := s.FindUserByID(ctx, u.ID)
			must(t, err)
			if errs[j] == nil {
				continue
			}
			if vigil.ErrorCode(errs[j]) != vigil.ECONFLICT {
				t.Fatalf("round %d: %v; want ECONFLICT or nil", i, errs[j])
			}
			if got.PasswordHash != "h" || got.Admin != admins {
				t.Fatalf("round %d: refused, the user became %+v; want them unchanged", i, got)
			}
			kept++
		}
		if kept != 1 {
			what := "two DisableUser at once of the last two users with a password"
			switch {
			case revoke:
				what = "a DisableUser and a SetUserAdmin revoking the role at once of the last two administrators"
			case admins:
				what = "two DisableUser at once of the last two administrators"
			}
			t.Fatalf("round %d: %s: %v; want one refused", i, what, errs)
		}
		// Out of the way of the next round: the role and passwords go
		// (forced), the users stay.
		for _, u := range append(users, bystander) {
			must(t, s.DisableUser(ctx, u.ID, true))
		}
	}
}
