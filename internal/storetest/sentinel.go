package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

func newUser(t *testing.T, s vigil.Store, email string) *vigil.User {
	t.Helper()
	u := &vigil.User{Email: email, Name: "Ada", PasswordHash: "$argon2id$x"}
	must(t, s.CreateUser(context.Background(), u))
	return u
}

func testSentinels(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "prices", Source: `sentinel "prices" { watch "http://example.com/" }`,
		Spec: json.RawMessage(`{"url":"http://example.com/"}`), Status: vigil.SentinelActive, NextCheck: t0}
	must(t, s.CreateSentinel(ctx, sn))
	if sn.ID == 0 || sn.CreatedAt.IsZero() {
		t.Fatalf("created %+v", sn)
	}
	got, err := s.FindSentinelByID(ctx, sn.ID)
	must(t, err)
	if got.Name != "prices" || string(got.Spec) != string(sn.Spec) || !got.NextCheck.Equal(t0) || got.Status != vigil.SentinelActive {
		t.Fatalf("read back %+v", got)
	}
	got.Status = vigil.SentinelPaused
	got.Name = "prices 2"
	must(t, s.UpdateSentinel(ctx, got))
	again, err := s.FindSentinelByID(ctx, sn.ID)
	must(t, err)
	if again.Status != vigil.SentinelPaused || again.Name != "prices 2" {
		t.Fatalf("after update %+v", again)
	}
	wantCode(t, s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: u.ID, Source: "x", Status: vigil.SentinelActive}), vigil.EINVALID)
	wantCode(t, s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: 9999, Name: "n", Source: "x", Status: vigil.SentinelActive}), vigil.ENOTFOUND)
	wantCode(t, s.UpdateSentinel(ctx, &vigil.Sentinel{ID: 9999, OwnerID: u.ID, Name: "n", Source: "x", Status: vigil.SentinelActive}), vigil.ENOTFOUND)
	u2 := newUser(t, s, "bob@example.com")
	must(t, s.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: u2.ID, Name: "b", Source: "x", Status: vigil.SentinelActive}))
	list, n, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	must(t, err)
	if n != 1 || len(list) != 1 || list[0].ID != sn.ID {
		t.Fatalf("by owner: %d %v", n, list)
	}
	_, n, err = s.FindSentinels(ctx, vigil.SentinelFilter{Status: vigil.SentinelActive})
	must(t, err)
	if n != 1 {
		t.Fatalf("active: %d, want 1", n)
	}
	must(t, s.DeleteSentinel(ctx, sn.ID))
	_, err = s.FindSentinelByID(ctx, sn.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	wantCode(t, s.DeleteSentinel(ctx, sn.ID), vigil.ENOTFOUND)
}

func testSentinelClaim(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var ids []int64
	for i := range 4 {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: fmt.Sprint("s", i), Source: "x", Status: vigil.SentinelActive,
			NextCheck: t0.Add(time.Duration(3-i) * time.Minute)}
		if i == 3 {
			sn.Status = vigil.SentinelPaused
		}
		must(t, s.CreateSentinel(ctx, sn))
		ids = append(ids, sn.ID)
	}
	now := t0.Add(10 * time.Minute)
	got, err := s.ClaimDueSentinels(ctx, now, time.Minute, 2)
	must(t, err)
	if len(got) != 2 || got[0].ID != ids[2] || got[1].ID != ids[1] || !got[0].NextCheck.Equal(now.Add(time.Minute)) {
		t.Fatalf("first claim %v", got)
	}
	got, err = s.ClaimDueSentinels(ctx, now, time.Minute, 10)
	must(t, err)
	if len(got) != 1 || got[0].ID != ids[0] {
		t.Fatalf("second claim %v (leased ones must not come back, paused never)", got)
	}
	got, err = s.ClaimDueSentinels(ctx, now, time.Minute, 10)
	must(t, err)
	if len(got) != 0 {
		t.Fatalf("third claim %v", got)
	}
	// After the lease, they are due again; a check moves them on.
	must(t, s.CheckedSentinel(ctx, ids[0], now, now.Add(time.Hour)))
	got, err = s.ClaimDueSentinels(ctx, now.Add(2*time.Minute), time.Minute, 10)
	must(t, err)
	if len(got) != 2 {
		t.Fatalf("after lease: %v", got)
	}
	sn, err := s.FindSentinelByID(ctx, ids[0])
	must(t, err)
	if !sn.LastCheck.Equal(now) || !sn.NextCheck.Equal(now.Add(time.Hour)) {
		t.Fatalf("checked: %+v", sn)
	}
	wantCode(t, s.CheckedSentinel(ctx, 9999, now, now), vigil.ENOTFOUND)
}

// testSentinelRelease: a scheduler stopping cleanly gives back the claims
// it did not check, and only those: a sentinel checked meanwhile, or
// claimed by another scheduler after the lease ended, keeps its NextCheck.
func testSentinelRelease(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var ids []int64
	for i := range 4 {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: fmt.Sprint("s", i), Source: "x", Status: vigil.SentinelActive,
			NextCheck: t0.Add(time.Duration(i) * time.Minute)}
		must(t, s.CreateSentinel(ctx, sn))
		ids = append(ids, sn.ID)
	}
	n, err := s.ReleaseSentinels(ctx, nil, t0)
	if err != nil || n != 0 {
		t.Fatalf("release of nothing: %d, %v", n, err)
	}
	// Scheduler A claims all four.
	now := t0.Add(10 * time.Minute)
	claimed, err := s.ClaimDueSentinels(ctx, now, 5*time.Minute, 10)
	must(t, err)
	if len(claimed) != 4 {
		t.Fatalf("claim: %v", claimed)
	}
	var leases []vigil.SentinelLease
	for _, c := range claimed {
		leases = append(leases, vigil.SentinelLease{SentinelID: c.ID, Until: c.NextCheck})
	}
	leases = append(leases, vigil.SentinelLease{SentinelID: 9999, Until: now.Add(5 * time.Minute)}) // gone
	// A checks s2; its lease ends and scheduler B claims s0.
	must(t, s.CheckedSentinel(ctx, ids[2], now, now.Add(time.Hour)))
	otherAt := now.Add(6 * time.Minute)
	other, err := s.ClaimDueSentinels(ctx, otherAt, 5*time.Minute, 1)
	must(t, err)
	if len(other) != 1 || other[0].ID != ids[0] {
		t.Fatalf("other scheduler's claim: %v", other)
	}
	// A stops and releases what it holds: s1 and s3 only.
	at := now.Add(7 * time.Minute)
	n, err = s.ReleaseSentinels(ctx, leases, at)
	must(t, err)
	if n != 2 {
		t.Fatalf("released %d, want 2 (s1, s3)", n)
	}
	want := map[int64]time.Time{ids[0]: otherAt.Add(5 * time.Minute), ids[1]: at, ids[2]: now.Add(time.Hour), ids[3]: at}
	for i, id := range ids {
		sn, err := s.FindSentinelByID(ctx, id)
		must(t, err)
		if !sn.NextCheck.Equal(want[id]) {
			t.Errorf("s%d: next check %v, want %v", i, sn.NextCheck, want[id])
		}
	}
	// The released ones are due at once; releasing again changes nothing.
	got, err := s.ClaimDueSentinels(ctx, at, 5*time.Minute, 10)
	must(t, err)
	if len(got) != 2 || got[0].ID != ids[1] || got[1].ID != ids[3] {
		t.Fatalf("claim after release: %v", got)
	}
	n, err = s.ReleaseSentinels(ctx, leases, at)
	if err != nil || n != 0 {
		t.Fatalf("second release: %d, %v; want 0", n, err)
	}
}

func testUsers(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	err := s.CreateUser(ctx, &vigil.User{Email: "ada@example.com"})
	wantCode(t, err, vigil.ECONFLICT)
	wantCode(t, s.CreateUser(ctx, &vigil.User{Email: "nope"}), vigil.EINVALID)
	got, err := s.FindUserByEmail(ctx, "ada@example.com")
	must(t, err)
	if got.ID != u.ID || got.PasswordHash != u.PasswordHash {
		t.Fatalf("by email %+v", got)
	}
	got.Name = "Ada L."
	must(t, s.UpdateUser(ctx, got))
	byID, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	if byID.Name != "Ada L." {
		t.Fatalf("after update %+v", byID)
	}
	b := newUser(t, s, "bob@example.com")
	b.Email = "ada@example.com"
	wantCode(t, s.UpdateUser(ctx, b), vigil.ECONFLICT)
	// Every user, in id order, with what FindUserByID returns.
	all, err := s.FindUsers(ctx)
	must(t, err)
	if len(all) != 2 || all[0].ID != u.ID || all[1].ID != b.ID || all[0].Name != "Ada L." ||
		all[1].Email != "bob@example.com" || all[0].PasswordHash != u.PasswordHash || all[0].CreatedAt.IsZero() {
		t.Fatalf("FindUsers: %+v", all)
	}
	must(t, s.DeleteUser(ctx, u.ID))
	if all, err = s.FindUsers(ctx); err != nil || len(all) != 1 || all[0].ID != b.ID {
		t.Fatalf("FindUsers after a deletion: %+v, %v", all, err)
	}
	_, err = s.FindUserByID(ctx, u.ID)
	wantCode(t, err, vigil.ENOTFOUND)
	_, err = s.FindUserByEmail(ctx, "ada@example.com")
	wantCode(t, err, vigil.ENOTFOUND)
	wantCode(t, s.DeleteUser(ctx, u.ID), vigil.ENOTFOUND)
}

func testTokens(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	tok := &vigil.Token{UserID: u.ID, Name: "cli", Hash: vigil.HashToken("secret"), ExpiresAt: t0.Add(time.Hour)}
	must(t, s.CreateToken(ctx, tok))
	wantCode(t, s.CreateToken(ctx, &vigil.Token{UserID: u.ID, Hash: vigil.HashToken("secret")}), vigil.ECONFLICT)
	wantCode(t, s.CreateToken(ctx, &vigil.Token{UserID: 9999, Hash: vigil.HashToken("x")}), vigil.ENOTFOUND)
	got, err := s.FindTokenByHash(ctx, vigil.HashToken("secret"), t0)
	must(t, err)
	if got.ID != tok.ID || got.UserID != u.ID || !got.LastUsedAt.Equal(t0) {
		t.Fatalf("token %+v", got)
	}
	_, err = s.FindTokenByHash(ctx, vigil.HashToken("secret"), t0.Add(time.Hour))
	wantCode(t, err, vigil.EUNAUTHORIZED)
	_, err = s.FindTokenByHash(ctx, vigil.HashToken("other"), t0)
	wantCode(t, err, vigil.EUNAUTHORIZED)
	list, err := s.FindTokens(ctx, u.ID)
	must(t, err)
	if len(list) != 1 || !list[0].LastUsedAt.Equal(t0) {
		t.Fatalf("tokens %v", list)
	}
	must(t, s.DeleteToken(ctx, tok.ID))
	wantCode(t, s.DeleteToken(ctx, tok.ID), vigil.ENOTFOUND)
}
