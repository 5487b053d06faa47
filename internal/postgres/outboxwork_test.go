package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/storetest"
)

// TestOutboxClaimWorkConformance counts a claim's work in the rows and
// index entries of notifications its transaction reads
// (postgres.XactRowsRead), the claim run in a transaction of the test's.
func TestOutboxClaimWorkConformance(t *testing.T) {
	storetest.RunOutboxClaimWork(t, func(t *testing.T) (vigil.Store, storetest.ClaimWork) {
		return open(t), rowsOfClaim
	})
}

// TestOutboxClaimLimitWorkConformance counts the rows of a claim
// (rowsOfClaim) among many entries to many addresses.
func TestOutboxClaimLimitWorkConformance(t *testing.T) {
	storetest.RunOutboxClaimLimitWork(t, func(t *testing.T) (vigil.Store, storetest.ClaimWork) {
		return open(t), rowsOfClaim
	})
}

// rowsOfClaim runs claim in a transaction of s and returns the rows it
// read.
func rowsOfClaim(t *testing.T, s vigil.Store, claim func(vigil.OutboxStore)) int64 {
	t.Helper()
	ctx := context.Background()
	var n int64
	err := s.(*postgres.DB).InTransaction(ctx, func(tx vigil.TxStore) error {
		db := tx.(*postgres.DB)
		before, err := postgres.XactRowsRead(ctx, db)
		if err != nil {
			return err
		}
		claim(db)
		after, err := postgres.XactRowsRead(ctx, db)
		n = after - before
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// BenchmarkClaimHeldBack claims three entries to one address while held
// entries to another wait behind its first, failed and waiting for its
// retry: a claim reads the addresses' first entries, not those held
// back, so its time does not grow with held.
func BenchmarkClaimHeldBack(b *testing.B) {
	for _, held := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("held=%d", held), func(b *testing.B) {
			db, _ := openDSN(b)
			benchClaimHeldBack(b, db, held)
		})
	}
}

// benchClaimHeldBack fills db's outbox with held entries held back and
// three free ones, and claims the free ones b.N times, each after the
// last claim's lease ended.
func benchClaimHeldBack(b *testing.B, db interface {
	vigil.Store
	vigil.Transactor
}, held int) {
	ctx := context.Background()
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
	if err := db.CreateUser(ctx, u); err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	enqueue := func(o vigil.OutboxStore, target string) int64 {
		n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: target, Payload: json.RawMessage(`{}`), NextAttempt: now}
		if err := o.EnqueueNotification(ctx, n); err != nil {
			b.Fatal(err)
		}
		return n.ID
	}
	first := enqueue(db, "held@example.com")
	if _, err := db.ClaimNotifications(ctx, now, time.Minute, 1); err != nil {
		b.Fatal(err)
	}
	if err := db.MarkNotificationFailed(ctx, first, "451 try again later", now.AddDate(10, 0, 0)); err != nil {
		b.Fatal(err)
	}
	err := db.InTransaction(ctx, func(tx vigil.TxStore) error {
		for range held {
			enqueue(tx.(vigil.OutboxStore), "held@example.com")
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for range 3 {
		enqueue(db, "free@example.com")
	}
	b.ResetTimer()
	for i := range b.N {
		got, err := db.ClaimNotifications(ctx, now.Add(time.Duration(i+1)*time.Millisecond), time.Microsecond, 10)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != 3 {
			b.Fatalf("claim %d took %d entries, want the 3 free ones", i, len(got))
		}
	}
}
