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
	changed.PasswordHash, changed.Name = "$argon2id$new", "Ada L."
	must(t, s.UpdateUser(ctx, &changed))
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
