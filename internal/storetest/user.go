package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testUserTouch: TouchUser moves a user's update time and nothing else. A
// sign-out read the user and saved them back to move it: a password
// changed between the read and the write (vigil user passwd) was undone.
// Here the change comes after the read, and the touch keeps it. Every
// touch moves the time on, even to a time at or before the stored one:
// the sessions signed with the stored time end.
func testUserTouch(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	other := newUser(t, s, "bob@example.com")
	// What a sign-out under way read, then the password change.
	read, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	changed := *read
	changed.Name = "Ada L."
	must(t, s.UpdateUser(ctx, &changed))
	must(t, s.SetUserPassword(ctx, u.ID, "$argon2id$new"))
	stored := func(id int64) *vigil.User {
		t.Helper()
		got, err := s.FindUserByID(ctx, id)
		must(t, err)
		return got
	}
	prev := stored(u.ID).UpdatedAt
	later := prev.Add(time.Hour).Truncate(time.Second)
	for _, tc := range []struct {
		name string
		at   time.Time
		want func(prev time.Time) bool // of the stored update time
	}{
		{"later", later, func(time.Time) bool { return stored(u.ID).UpdatedAt.Equal(later) }},
		{"the same", later, func(prev time.Time) bool { return stored(u.ID).UpdatedAt.After(prev) }},
		{"earlier", t0, func(prev time.Time) bool { return stored(u.ID).UpdatedAt.After(prev) }},
		{"zero", time.Time{}, func(prev time.Time) bool { return stored(u.ID).UpdatedAt.After(prev) }},
	} {
		must(t, s.TouchUser(ctx, u.ID, tc.at))
		got := stored(u.ID)
		if !tc.want(prev) {
			t.Errorf("%s: touched at %v, the update time went from %v to %v", tc.name, tc.at, prev, got.UpdatedAt)
		}
		if got.PasswordHash != "$argon2id$new" || got.Name != "Ada L." || got.Email != u.Email || !got.CreatedAt.Equal(u.CreatedAt) {
			t.Errorf("%s: touched, the user became %+v; want the password and name of the update kept", tc.name, got)
		}
		prev = got.UpdatedAt
	}
	if got := stored(other.ID); !got.UpdatedAt.Equal(other.UpdatedAt) || got.PasswordHash != other.PasswordHash {
		t.Errorf("another user was touched: %+v", got)
	}
	wantCode(t, s.TouchUser(ctx, 9999, later), vigil.ENOTFOUND)
}

// testUserDeleteWithoutSentinels: DeleteUserWithoutSentinels refuses a
// user who owns sentinels, naming how many, and keeps them all; it
// deletes one who owns none, with their tokens.
func testUserDeleteWithoutSentinels(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	other := newUser(t, s, "bob@example.com")
	must(t, s.CreateToken(ctx, &vigil.Token{UserID: u.ID, Name: "cli", Hash: vigil.HashToken("ada's")}))
	mustSentinel := func(owner int64, name string) *vigil.Sentinel {
		t.Helper()
		sn := &vigil.Sentinel{OwnerID: owner, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		return sn
	}
	owned := []*vigil.Sentinel{mustSentinel(u.ID, "a"), mustSentinel(u.ID, "b")}
	mustSentinel(other.ID, "c")
	for _, tc := range []struct {
		name string
		own  int    // how many of owned ada still owns
		want string // the refusal, or "" for the deletion
	}{
		{"two sentinels", 2, "user " + fmt.Sprint(u.ID) + " owns 2 sentinels"},
		{"one sentinel", 1, "user " + fmt.Sprint(u.ID) + " owns 1 sentinel"},
		{"none", 0, ""},
	} {
		for _, sn := range owned[tc.own:] {
			if err := s.DeleteSentinel(ctx, sn.ID); err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
				t.Fatal(err)
			}
		}
		err := s.DeleteUserWithoutSentinels(ctx, u.ID)
		if tc.want == "" {
			must(t, err)
			break
		}
		if vigil.ErrorCode(err) != vigil.ECONFLICT || vigil.ErrorMessage(err) != tc.want {
			t.Fatalf("%s: %v; want ECONFLICT %q", tc.name, err, tc.want)
		}
		_, n, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
		must(t, err)
		if n != tc.own {
			t.Fatalf("%s: refused, the user owns %d sentinels; want %d kept", tc.name, n, tc.own)
		}
		if tokens, err := s.FindTokens(ctx, u.ID); err != nil || len(tokens) != 1 {
			t.Fatalf("%s: refused, the user's tokens are %v, %v; want theirs kept", tc.name, tokens, err)
		}
	}
	_, err := s.FindUserByID(ctx, u.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.FindTokenByHash(ctx, vigil.HashToken("ada's"), t0)
	wantCode(t, err, vigil.EUNAUTHORIZED)
	wantCode(t, s.DeleteUserWithoutSentinels(ctx, u.ID), vigil.ENOTFOUND)
	// Another's sentinel does not count, and is kept.
	must(t, s.DeleteUserWithoutSentinels(ctx, newUser(t, s, "cy@example.com").ID))
	if _, n, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: other.ID}); err != nil || n != 1 {
		t.Errorf("bob's sentinels: %d, %v; want 1", n, err)
	}
}

// testUserDeleteWithoutSentinelsRace: a sentinel made for a user while
// DeleteUserWithoutSentinels deletes them is either refused (the user is
// gone) or keeps the user: never made, then removed with them.
func testUserDeleteWithoutSentinelsRace(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	for i := range 20 {
		u := newUser(t, s, fmt.Sprintf("u%d@example.com", i))
		var wg sync.WaitGroup
		var created, deleted error
		wg.Add(2)
		go func() {
			defer wg.Done()
			created = s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: u.ID, Name: "meanwhile", Source: "x", Status: vigil.SentinelActive, NextCheck: t0})
		}()
		go func() {
			defer wg.Done()
			deleted = s.DeleteUserWithoutSentinels(ctx, u.ID)
		}()
		wg.Wait()
		switch {
		case created == nil && deleted == nil:
			t.Fatalf("round %d: a sentinel was made for the user, then removed with them", i)
		case created == nil && vigil.ErrorCode(deleted) != vigil.ECONFLICT:
			t.Fatalf("round %d: the user's deletion: %v; want ECONFLICT", i, deleted)
		case deleted == nil && vigil.ErrorCode(created) != vigil.ENOTFOUND:
			t.Fatalf("round %d: the sentinel's creation: %v; want ENOTFOUND", i, created)
		}
	}
}

// testUserAdmin: CreateUser stores the administrator role, UpdateUser keeps
// it whatever the struct says, and SetUserAdmin changes it without moving
// the update time (sessions go on), refusing to revoke the only
// administrator.
func testUserAdmin(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	ada := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "h", Admin: true}
	must(t, s.CreateUser(ctx, ada))
	bob := newUser(t, s, "bob@example.com")
	role := func(id int64) bool {
		t.Helper()
		u, err := s.FindUserByID(ctx, id)
		must(t, err)
		return u.Admin
	}
	if !role(ada.ID) || role(bob.ID) {
		t.Fatalf("created: ada admin %v, bob admin %v; want true, false", role(ada.ID), role(bob.ID))
	}
	users, err := s.FindUsers(ctx)
	must(t, err)
	if len(users) != 2 || !users[0].Admin || users[1].Admin {
		t.Errorf("FindUsers: %+v %+v; want ada admin, bob not", users[0], users[1])
	}
	byEmail, err := s.FindUserByEmail(ctx, ada.Email)
	must(t, err)
	if !byEmail.Admin {
		t.Errorf("FindUserByEmail: ada is not admin")
	}

	// UpdateUser keeps the role and says which it is.
	changed := *bob
	changed.Admin, changed.Name = true, "Bob"
	must(t, s.UpdateUser(ctx, &changed))
	if role(bob.ID) || changed.Admin {
		t.Errorf("UpdateUser with Admin set: stored %v, struct %v; want false, false", role(bob.ID), changed.Admin)
	}

	wantCode(t, s.SetUserAdmin(ctx, ada.ID, false), vigil.ECONFLICT)
	if !role(ada.ID) {
		t.Fatal("the only administrator was revoked")
	}
	before, err := s.FindUserByID(ctx, bob.ID)
	must(t, err)
	must(t, s.SetUserAdmin(ctx, bob.ID, true))
	after, err := s.FindUserByID(ctx, bob.ID)
	must(t, err)
	if !after.Admin || !after.UpdatedAt.Equal(before.UpdatedAt) || after.PasswordHash != before.PasswordHash || after.Name != "Bob" {
		t.Errorf("granted: %+v, was %+v; want admin with the rest kept, the update time too", after, before)
	}
	must(t, s.SetUserAdmin(ctx, bob.ID, true)) // again: no change, no error
	must(t, s.SetUserAdmin(ctx, ada.ID, false))
	if role(ada.ID) || !role(bob.ID) {
		t.Errorf("ada revoked: ada %v, bob %v", role(ada.ID), role(bob.ID))
	}
	wantCode(t, s.SetUserAdmin(ctx, bob.ID, false), vigil.ECONFLICT)
	must(t, s.SetUserAdmin(ctx, ada.ID, false)) // not an admin: nothing to refuse
	wantCode(t, s.SetUserAdmin(ctx, 9999, true), vigil.ENOTFOUND)
	wantCode(t, s.SetUserAdmin(ctx, 9999, false), vigil.ENOTFOUND)

	// Two revocations at once, of the two administrators: one of them
	// stays.
	must(t, s.SetUserAdmin(ctx, ada.ID, true))
	for range 5 {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, id := range []int64{ada.ID, bob.ID} {
			wg.Go(func() { errs[i] = s.SetUserAdmin(ctx, id, false) })
		}
		wg.Wait()
		n := 0
		for _, id := range []int64{ada.ID, bob.ID} {
			if role(id) {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("two revocations at once (%v, %v) left %d administrators, want 1", errs[0], errs[1], n)
		}
		if (errs[0] == nil) == (errs[1] == nil) {
			t.Fatalf("two revocations at once: %v, %v; want one refused", errs[0], errs[1])
		}
		must(t, s.SetUserAdmin(ctx, ada.ID, true))
		must(t, s.SetUserAdmin(ctx, bob.ID, true))
	}
}
