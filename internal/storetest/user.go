package storetest

import (
	"context"
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
