package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/postgres"
)

// TestMigrateTimeZones migrates a database an older Vigil left, with a
// user and a sentinel in it: both are kept, with no zone of their own
// (the deployment's), and take one once set.
func TestMigrateTimeZones(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0113_time_zones.sql")
	at := time.Unix(1000, 0).UTC()
	if _, err := c.Exec(ctx, `INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (3, 'ann@example.org', 'Ann', 'h', $1, $1)`, at); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check)
		VALUES (7, 3, 's', 'x', 'active', $1, $1, $1, $1)`, at); err != nil {
		t.Fatal(err)
	}
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u, err := db.FindUserByID(ctx, 3)
	if err != nil || u.TimeZone != "" || u.Email != "ann@example.org" {
		t.Fatalf("the user after the migration: %+v, %v; want Ann kept, with no zone", u, err)
	}
	s, err := db.FindSentinelByID(ctx, 7)
	if err != nil || s.TimeZone != "" || s.Name != "s" {
		t.Fatalf("the sentinel after the migration: %+v, %v; want it kept, with no zone", s, err)
	}
	if err := db.SetUserTimeZone(ctx, 3, "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	s.TimeZone = "Asia/Tokyo"
	if err := db.UpdateSentinel(ctx, s); err != nil {
		t.Fatal(err)
	}
	u, _ = db.FindUserByID(ctx, 3)
	s, _ = db.FindSentinelByID(ctx, 7)
	if u.TimeZone != "Asia/Tokyo" || s.TimeZone != "Asia/Tokyo" {
		t.Errorf("zones set after the migration: user %q, sentinel %q", u.TimeZone, s.TimeZone)
	}
}
