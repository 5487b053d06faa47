package storetest

import (
	"context"
	"fmt"
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
