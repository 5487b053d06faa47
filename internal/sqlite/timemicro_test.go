package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestMigrateTimesToMicroseconds migrates a database an older Vigil left,
// its times kept in nanoseconds: they read back truncated to the
// microsecond (toward the past), as PostgreSQL keeps them and as times
// are stored now, so that a version is found at the time read back; the
// zero time stays none and the epoch the epoch.
func TestMigrateTimesToMicroseconds(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const fetched = 1_790_000_000_123_456_789 // 2026-09-21T...123456789Z
	olderDatabase(t, dir, "0117_time_microseconds.sql",
		`INSERT INTO users (id, email, name, password_hash, admin, created_at, updated_at) VALUES (3, 'ann@example.org', 'Ann', 'h', 1, 1500, -1500)`,
		`INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check)
			VALUES (7, 3, 's', 'x', 'active', 500, -1, 1790000000123456789, 0)`,
		`INSERT INTO resources (id, url, host, created_at) VALUES (5, 'http://example.com/', 'example.com', 1)`,
		`INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size, content_hash, fetch_duration, error)
			VALUES (9, 5, 1, 1790000000123456789, 200, '', -9223372036854775808, '', '', 0, 'h', 0, '')`,
	)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := func(ns int64) time.Time { return time.Unix(0, ns).UTC() }
	u, err := db.FindUserByID(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.FindSentinelByID(ctx, 7)
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.FindVersionByID(ctx, 9)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what      string
		got, want time.Time
	}{
		{"user created", u.CreatedAt, at(1000)},
		{"user updated", u.UpdatedAt, at(-2000)},
		{"sentinel created (within the epoch's microsecond)", s.CreatedAt, at(0)},
		{"sentinel updated (the epoch)", s.UpdatedAt, at(0)},
		{"sentinel next check", s.NextCheck, at(fetched).Truncate(time.Microsecond)},
		{"sentinel last check (none)", s.LastCheck, time.Time{}},
		{"version fetched", v.FetchedAt, at(fetched).Truncate(time.Microsecond)},
		{"version last modified (the first microsecond kept)", v.LastModified, at(-9223372036854775000)},
	} {
		if !tc.got.Equal(tc.want) || tc.got.IsZero() != tc.want.IsZero() {
			t.Errorf("%s: %s, want %s", tc.what, tc.got.Format(time.RFC3339Nano), tc.want.Format(time.RFC3339Nano))
		}
	}
	if found, err := db.VersionAt(ctx, 5, v.FetchedAt); err != nil || found.ID != 9 {
		t.Errorf("version at the fetch time read back: %+v, %v; want version 9", found, err)
	}
}
