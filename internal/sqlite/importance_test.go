package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestClaimBadImportance: a sentinel whose stored importance is not from 0
// to 1 (written by hand, or by an older bug) is claimed as one of
// importance 0, and the others as ever. Before, a negative importance put
// its sentinel's priority after now, past the bound of the claim's search
// of the index: it was claimed only once late by more than its importance
// times a day, never for a large one.
func TestClaimBadImportance(t *testing.T) {
	ctx := context.Background()
	for _, bad := range []string{"-0.5", "-1e300", "1e300", "9e999", "-9e999"} {
		t.Run(bad, func(t *testing.T) {
			dir := t.TempDir()
			db, err := sqlite.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
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
			c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			r, err := db.EnsureResource(ctx, "http://example.com/")
			if err != nil {
				t.Fatal(err)
			}
			for _, table := range []struct {
				name string
				id   int64
			}{{"sentinels", ids[0]}, {"resources", r.ID}} {
				if _, err := c.ExecContext(ctx, "UPDATE "+table.name+" SET importance = "+bad+" WHERE id = ?", table.id); err != nil {
					t.Fatal(err)
				}
			}
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
