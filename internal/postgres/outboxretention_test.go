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

// TestRetentionSiblingsReadOnce: the outbox retention reads the letters
// of no change not sent (which hold a sent letter of their payload back)
// once a statement, into a hashed list each sent letter is looked up in,
// not once for each sent letter: the dead letters are kept as long as
// the sent ones, and tens of thousands of them (a broken target) made a
// batch take seconds (2.6s for 500 among 50,000 dead letters).
func TestRetentionSiblingsReadOnce(t *testing.T) {
	ctx := context.Background()
	_, d := openDSN(t)
	conn, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	b := time.Now()
	p := explain(t, conn, postgres.DeleteSentBeforeQuery(), b, b, b,
		vigil.SentinelRemoved, vigil.SentinelRemoved, vigil.SentinelRemoved, 500)
	if !strings.Contains(p, "hashed SubPlan") {
		t.Errorf("plan\n%s\nwant the letters not sent read once, into a hashed SubPlan", p)
	}
}
