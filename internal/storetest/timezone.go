package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// testUserTimeZone: a user's time zone is stored by CreateUser and
// SetUserTimeZone, read back by every find, kept by UpdateUser, and set
// without moving the update time (which would end the user's sessions).
// A name time.LoadLocation does not know is refused, naming the field.
func testUserTimeZone(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	if u.TimeZone != "" {
		t.Fatalf("a new user's zone is %q, want none", u.TimeZone)
	}
	tokyo := &vigil.User{Email: "ken@example.com", Name: "Ken", TimeZone: "Asia/Tokyo"}
	must(t, s.CreateUser(ctx, tokyo))
	if got, err := s.FindUserByEmail(ctx, tokyo.Email); err != nil || got.TimeZone != "Asia/Tokyo" {
		t.Fatalf("created in Asia/Tokyo, read %+v, %v", got, err)
	}

	must(t, s.SetUserTimeZone(ctx, u.ID, "Europe/Paris"))
	got, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	if got.TimeZone != "Europe/Paris" {
		t.Errorf("zone set to Europe/Paris, read %q", got.TimeZone)
	}
	if !got.UpdatedAt.Equal(u.UpdatedAt) || got.Name != u.Name || got.PasswordHash != u.PasswordHash {
		t.Errorf("setting the zone changed the user: %+v, was %+v", got, u)
	}
	users, err := s.FindUsers(ctx)
	must(t, err)
	if len(users) != 2 || users[0].TimeZone != "Europe/Paris" || users[1].TimeZone != "Asia/Tokyo" {
		t.Errorf("FindUsers: %+v; want the zones set", users)
	}

	// An update made from a copy read before keeps the zone, and says so.
	stale := *u
	stale.Name = "Ada L."
	must(t, s.UpdateUser(ctx, &stale))
	if stale.TimeZone != "Europe/Paris" {
		t.Errorf("UpdateUser set the zone %q in the user, want the stored Europe/Paris", stale.TimeZone)
	}
	if got, _ := s.FindUserByID(ctx, u.ID); got.TimeZone != "Europe/Paris" || got.Name != "Ada L." {
		t.Errorf("after UpdateUser: %+v; want the rename and the zone kept", got)
	}

	// Back to the deployment's.
	must(t, s.SetUserTimeZone(ctx, u.ID, ""))
	if got, _ := s.FindUserByID(ctx, u.ID); got.TimeZone != "" {
		t.Errorf("zone cleared, read %q", got.TimeZone)
	}

	for _, bad := range []string{"Mars/Olympus_Mons", "Local", "../etc/passwd"} {
		err := s.SetUserTimeZone(ctx, u.ID, bad)
		wantCode(t, err, vigil.EINVALID)
		if msg := vigil.ErrorMessage(err); !strings.Contains(msg, "timeZone") || !strings.Contains(msg, bad) {
			t.Errorf("zone %q: message %q; want the field and the name", bad, msg)
		}
		wantCode(t, s.CreateUser(ctx, &vigil.User{Email: "x@example.com", TimeZone: bad}), vigil.EINVALID)
	}
	wantCode(t, s.SetUserTimeZone(ctx, 9999, "UTC"), vigil.ENOTFOUND)
}

// testSentinelTimeZone: the zone a sentinel's dates were read in is
// stored by CreateSentinel, replaced by UpdateSentinel(s), read back by
// every find and claim, and empty (the deployment's) unless given.
func testSentinelTimeZone(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	src := `sentinel "prices" { watch "http://example.com/" }`
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "prices", Source: src, Status: vigil.SentinelActive, NextCheck: t0, TimeZone: "Asia/Tokyo"}
	must(t, s.CreateSentinel(ctx, sn))
	plain := &vigil.Sentinel{OwnerID: u.ID, Name: "plain", Source: src, Status: vigil.SentinelActive, NextCheck: t0.Add(1)}
	must(t, s.CreateSentinel(ctx, plain))
	read := func(id int64) string {
		t.Helper()
		got, err := s.FindSentinelByID(ctx, id)
		must(t, err)
		return got.TimeZone
	}
	if z := read(sn.ID); z != "Asia/Tokyo" {
		t.Errorf("created in Asia/Tokyo, read %q", z)
	}
	if z := read(plain.ID); z != "" {
		t.Errorf("created with no zone, read %q", z)
	}
	list, _, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	must(t, err)
	if len(list) != 2 || list[0].TimeZone != "Asia/Tokyo" || list[1].TimeZone != "" {
		t.Errorf("FindSentinels: %+v", list)
	}
	claimed, err := s.ClaimDueSentinels(ctx, t0.Add(1), 0, 10)
	must(t, err)
	if len(claimed) != 2 || claimed[0].TimeZone != "Asia/Tokyo" {
		t.Errorf("ClaimDueSentinels: %+v; want the zone with the sentinel", claimed)
	}

	sn.TimeZone = "Europe/Paris"
	must(t, s.UpdateSentinel(ctx, sn))
	if z := read(sn.ID); z != "Europe/Paris" {
		t.Errorf("updated to Europe/Paris, read %q", z)
	}
	plain.TimeZone, sn.TimeZone = "America/New_York", ""
	must(t, s.UpdateSentinels(ctx, []*vigil.Sentinel{sn, plain}))
	if a, b := read(sn.ID), read(plain.ID); a != "" || b != "America/New_York" {
		t.Errorf("updated together: %q and %q; want none and America/New_York", a, b)
	}

	sn.TimeZone = "Mars/Olympus_Mons"
	wantCode(t, s.UpdateSentinel(ctx, sn), vigil.EINVALID)
	bad := &vigil.Sentinel{OwnerID: u.ID, Name: "bad", Source: src, Status: vigil.SentinelActive, TimeZone: "Nowhere"}
	wantCode(t, s.CreateSentinel(ctx, bad), vigil.EINVALID)
}
