package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
)

// testUserSetPassword: SetUserPassword replaces the password hash and
// moves the update time, and changes nothing else: a reset that wrote
// back the whole user it had read undid a rename made meanwhile.
func testUserSetPassword(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	other := newUser(t, s, "bob@example.com")
	// A rename, after a reset read the user.
	renamed := *u
	renamed.Name, renamed.Email = "Ada L.", "ada.l@example.com"
	must(t, s.UpdateUser(ctx, &renamed))
	before, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	must(t, s.SetUserPassword(ctx, u.ID, "$argon2id$reset"))
	got, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	if got.PasswordHash != "$argon2id$reset" || got.Name != "Ada L." || got.Email != "ada.l@example.com" || got.Admin != u.Admin {
		t.Errorf("reset: %+v; want the new hash with the rename kept", got)
	}
	if !got.UpdatedAt.After(before.UpdatedAt) {
		t.Errorf("reset: update time %v, was %v; want it moved on", got.UpdatedAt, before.UpdatedAt)
	}
	if !got.CreatedAt.Equal(u.CreatedAt) {
		t.Errorf("reset: created %v, was %v", got.CreatedAt, u.CreatedAt)
	}
	if o, err := s.FindUserByID(ctx, other.ID); err != nil || o.PasswordHash != other.PasswordHash || !o.UpdatedAt.Equal(other.UpdatedAt) {
		t.Errorf("another user: %+v, %v; want them unchanged", o, err)
	}
	wantCode(t, s.SetUserPassword(ctx, u.ID, ""), vigil.EINVALID)
	wantCode(t, s.SetUserPassword(ctx, 9999, "h"), vigil.ENOTFOUND)

	// A reset and a rename at once: both are kept.
	for i := range 10 {
		var wg sync.WaitGroup
		name, hash := fmt.Sprintf("Ada %d", i), fmt.Sprintf("$argon2id$%d", i)
		wg.Go(func() {
			r, err := s.FindUserByID(ctx, u.ID)
			if err == nil {
				r.Name = name
				err = s.UpdateUser(ctx, r)
			}
			if err != nil {
				t.Error(err)
			}
		})
		wg.Go(func() {
			if err := s.SetUserPassword(ctx, u.ID, hash); err != nil {
				t.Error(err)
			}
		})
		wg.Wait()
		got, err := s.FindUserByID(ctx, u.ID)
		must(t, err)
		// The rename read the user before or after the reset and
		// wrote back what it read, but for the hash, which UpdateUser
		// leaves alone: neither undoes the other.
		if got.Name != name || got.PasswordHash != hash {
			t.Fatalf("round %d: a rename and a reset at once left the name %q and hash %q; want %q and %q", i, got.Name, got.PasswordHash, name, hash)
		}
	}
}

// testUserUpdateKeepsPassword: UpdateUser leaves the password hash alone,
// SetUserPassword being the one way it changes: an update written with a
// User read before a reset does not undo the reset, nor can a hash set
// in the User (an old one, or none) replace the stored one. It sets the
// User's hash to the stored one, as it does its role.
func testUserUpdateKeepsPassword(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	stale, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	must(t, s.SetUserPassword(ctx, u.ID, "$argon2id$reset"))
	for _, hash := range []string{stale.PasswordHash, "$argon2id$other", ""} {
		write := *stale
		write.Name, write.PasswordHash = "Ada L.", hash
		must(t, s.UpdateUser(ctx, &write))
		got, err := s.FindUserByID(ctx, u.ID)
		must(t, err)
		if got.PasswordHash != "$argon2id$reset" || got.Name != "Ada L." {
			t.Errorf("UpdateUser with the hash %q: stored %+v; want the reset's hash and the new name", hash, got)
		}
		if write.PasswordHash != "$argon2id$reset" {
			t.Errorf("UpdateUser with the hash %q: the User's hash is %q; want the stored one", hash, write.PasswordHash)
		}
	}
	// A user without a password (disabled) is renamed and stays so.
	must(t, s.DisableUser(ctx, u.ID, true))
	write := *stale
	write.Name = "Ada"
	must(t, s.UpdateUser(ctx, &write))
	if got, err := s.FindUserByID(ctx, u.ID); err != nil || got.PasswordHash != "" || got.Name != "Ada" {
		t.Errorf("UpdateUser of a disabled user with an old hash: %+v, %v; want no password", got, err)
	}
}

// testUserSetNonAdminPassword: SetNonAdminPassword is SetUserPassword for
// a user who is not an administrator when it writes: one who is one by
// then (granted after the caller read the user) is refused with
// ECONFLICT, nothing changed, so that a caller allowed to reset only the
// passwords of the others (an API token) never resets an administrator's.
func testUserSetNonAdminPassword(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	ada := newUser(t, s, "ada@example.com")
	must(t, s.SetUserAdmin(ctx, ada.ID, true))
	bob := newUser(t, s, "bob@example.com")
	read, err := s.FindUserByID(ctx, bob.ID) // what a token's reset read: no administrator
	must(t, err)
	if read.Admin {
		t.Fatal("bob is an administrator")
	}
	must(t, s.SetNonAdminPassword(ctx, bob.ID, "$argon2id$reset"))
	got, err := s.FindUserByID(ctx, bob.ID)
	must(t, err)
	if got.PasswordHash != "$argon2id$reset" || got.Name != bob.Name || !got.UpdatedAt.After(read.UpdatedAt) {
		t.Errorf("reset of a user: %+v; want the new hash, the name kept and the update time moved on from %v", got, read.UpdatedAt)
	}

	// Granted the role after the read: refused, nothing changed.
	must(t, s.SetUserAdmin(ctx, bob.ID, true))
	before, err := s.FindUserByID(ctx, bob.ID)
	must(t, err)
	err = s.SetNonAdminPassword(ctx, bob.ID, "$argon2id$token")
	wantCode(t, err, vigil.ECONFLICT)
	if err != nil && !strings.Contains(err.Error(), "administrator") {
		t.Errorf("the refusal %q does not say the user is an administrator", err)
	}
	after, err := s.FindUserByID(ctx, bob.ID)
	must(t, err)
	if after.PasswordHash != before.PasswordHash || !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("a refused reset changed the user: %+v, was %+v", after, before)
	}
	wantCode(t, s.SetNonAdminPassword(ctx, ada.ID, "$argon2id$token"), vigil.ECONFLICT)
	wantCode(t, s.SetNonAdminPassword(ctx, 9999, "$argon2id$token"), vigil.ENOTFOUND)
	wantCode(t, s.SetNonAdminPassword(ctx, ada.ID, ""), vigil.EINVALID)

	// Revoked again: reset.
	must(t, s.SetUserAdmin(ctx, bob.ID, false))
	must(t, s.SetNonAdminPassword(ctx, bob.ID, "$argon2id$again"))
	if got, err := s.FindUserByID(ctx, bob.ID); err != nil || got.PasswordHash != "$argon2id$again" {
		t.Errorf("reset after the revocation: %+v, %v", got, err)
	}

	// A grant and a reset at once: the reset is refused, or the user
	// was no administrator when it was written, its hash the reset's and
	// the grant after it.
	for i := range 10 {
		carl := newUser(t, s, fmt.Sprintf("carl%d@example.com", i))
		hash := fmt.Sprintf("$argon2id$%d", i)
		var wg sync.WaitGroup
		var resetErr error
		wg.Go(func() {
			if err := s.SetUserAdmin(ctx, carl.ID, true); err != nil {
				t.Error(err)
			}
		})
		wg.Go(func() { resetErr = s.SetNonAdminPassword(ctx, carl.ID, hash) })
		wg.Wait()
		got, err := s.FindUserByID(ctx, carl.ID)
		must(t, err)
		switch {
		case !got.Admin:
			t.Fatalf("round %d: the grant was lost", i)
		case resetErr == nil && got.PasswordHash != hash:
			t.Fatalf("round %d: the reset succeeded, the hash is %q", i, got.PasswordHash)
		case resetErr != nil && (vigil.ErrorCode(resetErr) != vigil.ECONFLICT || got.PasswordHash != carl.PasswordHash):
			t.Fatalf("round %d: the reset failed (%v), the hash is %q; want ECONFLICT and %q", i, resetErr, got.PasswordHash, carl.PasswordHash)
		}
	}
}
