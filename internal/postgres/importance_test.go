package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/vigil-web/vigil"
)

// TestClaimBadImportance: a sentinel whose stored importance is not from 0
// to 1 (written by hand, or by an older bug) is claimed as one of
// importance 0, and the others as ever. Before, the claim's
// make_interval(secs => importance * 86400) failed with "interval out of
// range" for NaN or Infinity, and "timestamp out of range" for a huge
// value, on every claim: one bad row stopped every check.
func TestClaimBadImportance(t *testing.T) {
	ctx := context.Background()
	for _, bad := range []string{"NaN", "Infinity", "-Infinity", "1e300", "-1e300", "-0.5"} {
		t.Run(bad, func(t *testing.T) {
			db, d := openDSN(t)
			u := &vigil.User{Email: "ada@example.com", Name: "Ada"}
			if err := db.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			var ids []int64
			for i := range 3 { // due 3, 2 and 1 hours ago
				s := &vigil.Sentinel{OwnerID: u.ID, Name: fmt.Sprint("s", i), Source: "x", Status: vigil.SentinelActive, NextCheck: now.Add(-time.Duration(3-i) * time.Hour)}
				if err := db.CreateSentinel(ctx, s); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, s.ID)
			}
			r, err := db.EnsureResource(ctx, "http://example.com/")
			if err != nil {
				t.Fatal(err)
			}
			setImportance(t, d, "sentinels", ids[0], bad)
			setImportance(t, d, "resources", r.ID, bad)
			got, err := db.ClaimDueSentinels(ctx, now, time.Minute, 10)
			if err != nil {
				t.Fatalf("claim with a sentinel of importance %s: %v", bad, err)
			}
			var gotIDs []int64
			for _, s := range got {
				gotIDs = append(gotIDs, s.ID)
				if s.Importance != 0 {
					t.Errorf("claimed sentinel %d of importance %v, want 0", s.ID, s.Importance)
				}
			}
			// Read as 0 too, so that its JSON (the API's) can be written.
			s, err := db.FindSentinelByID(ctx, ids[0])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := json.Marshal(s); err != nil || s.Importance != 0 {
				t.Errorf("sentinel of importance %s read as %v (JSON error %v), want 0", bad, s.Importance, err)
			}
			if r, err = db.FindResourceByID(ctx, r.ID); err != nil {
				t.Fatal(err)
			}
			if r.Importance != 0 {
				t.Errorf("resource of importance %s read as %v, want 0", bad, r.Importance)
			}
			if len(gotIDs) != 3 || gotIDs[0] != ids[0] || gotIDs[1] != ids[1] || gotIDs[2] != ids[2] {
				t.Errorf("claimed %v, want %v (the bad importance read as 0)", gotIDs, ids)
			}
		})
	}
}

// setImportance writes the importance of a sentinel or resource as SQL text, past the store.
func setImportance(t *testing.T, d, table string, id int64, value string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "UPDATE "+table+" SET importance = $1::float8 WHERE id = $2", value, id); err != nil {
		t.Fatal(err)
	}
}
