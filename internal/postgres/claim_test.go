package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
)

// seedSentinels gives the store at dsn n active sentinels of one new
// user, written by one statement (n calls of CreateSentinel take long):
// the i-th falls due at due(i) with importance (i mod 100)/100. The table
// is then analysed, as autovacuum would have it on a server running for
// a while.
func seedSentinels(t testing.TB, db *postgres.DB, dsn string, n int, due func(i int) time.Time) {
	t.Helper()
	ctx := context.Background()
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	nexts := make([]time.Time, n)
	for i := range nexts {
		nexts[i] = due(i).UTC()
	}
	if _, err := c.Exec(ctx, `INSERT INTO sentinels (owner_id, name, source, status, created_at, updated_at, next_check, last_check, importance)
		SELECT $1, 'sentinel ' || i, 'x', 'active', now(), now(), next, '0001-01-01 00:00:00Z', (i % 100) / 100.0
		FROM unnest($2::timestamptz[]) WITH ORDINALITY AS t(next, i)`, u.ID, nexts); err != nil {
		t.Fatalf("seed %d sentinels: %v", n, err)
	}
	if _, err := c.Exec(ctx, "ANALYZE sentinels"); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkClaimBacklog claims a batch of 256 (the monitor's) among
// 50,000 due sentinels; each claim is released after it (not timed), so
// that every claim meets the same backlog.
//
//	VIGIL_TEST_POSTGRES_DSN=... go test -run '^$' -bench ClaimBacklog -benchtime 50x ./internal/postgres
func BenchmarkClaimBacklog(b *testing.B) {
	const backlog, batch = 50000, 256
	db, d := openDSN(b)
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	seedSentinels(b, db, d, backlog, func(i int) time.Time { return now.Add(-time.Duration(i%5000) * time.Minute) })
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		claimed, err := db.ClaimDueSentinels(ctx, now, time.Hour, batch)
		if err != nil {
			b.Fatal(err)
		}
		if len(claimed) != batch {
			b.Fatalf("claimed %d, want %d", len(claimed), batch)
		}
		b.StopTimer()
		leases := make([]vigil.SentinelLease, len(claimed))
		for i, s := range claimed {
			leases[i] = vigil.SentinelLease{SentinelID: s.ID, Until: s.NextCheck}
		}
		if _, err := db.ReleaseSentinels(ctx, leases, now); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
