package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
)

// seedSentinels gives the store at dsn n active sentinels of one new
// user, written by one statement (n calls of CreateSentinel take long):
// the i-th falls due at due(i) with importance (i mod 100)/100. If
// analyse, the table is then analysed, as autovacuum would have it on a
// server running for a while; if not, the planner has no statistics, as
// after a bulk import.
func seedSentinels(t testing.TB, db *postgres.DB, dsn string, n int, due func(i int) time.Time, analyse bool) {
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
	if !analyse {
		return
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
	seedSentinels(b, db, d, backlog, func(i int) time.Time { return now.Add(-time.Duration(i%5000) * time.Minute) }, true)
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

// TestClaimByIndex: due sentinels are claimed in the order of the index
// sentinels_claim, searched up to the priority now, not sorted: a claim
// of a batch among many due sentinels reads the batch (and the few not
// due that their importance puts before), not every due sentinel, nor
// every sentinel when few are due.
func TestClaimByIndex(t *testing.T) {
	const n, batch = 20000, 256
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name    string
		due     func(i int) time.Time
		analyse bool
	}{
		{"all due", func(i int) time.Time { return now.Add(-time.Duration(i) * time.Minute) }, true},
		{"all due, no statistics", func(i int) time.Time { return now.Add(-time.Duration(i) * time.Minute) }, false},
		{"a few due", func(i int) time.Time { return now.Add(time.Duration(i-100) * time.Minute) }, true},
		{"1000 due", func(i int) time.Time { return now.Add(time.Duration(i-1000) * time.Minute) }, true},
		{"none due", func(i int) time.Time { return now.Add(time.Duration(i+1) * time.Hour) }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			db, d := openDSN(t)
			seedSentinels(t, db, d, n, c.due, c.analyse)
			conn, err := pgx.Connect(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			if _, err := tx.Exec(ctx, postgres.ClaimSettings); err != nil {
				t.Fatal(err)
			}
			query, args := postgres.ClaimQuery(now, batch)
			p := explain(t, tx, query, args...)
			if !strings.Contains(p, "Index Scan using sentinels_claim") || !strings.Contains(p, "Index Cond") || strings.Contains(p, "Sort") {
				t.Errorf("plan\n%s\nwant a scan of the index sentinels_claim, searched up to the priority now, read in order, no sort", p)
			}
		})
	}
}

// explain returns the plan PostgreSQL makes of query, one line of it a
// line.
func explain(t *testing.T, q interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}, query string, args ...any) string {
	t.Helper()
	rows, err := q.Query(context.Background(), "EXPLAIN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}
