package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// BenchmarkDeleteSentinel deletes a sentinel with n changes, each with an
// outbox entry that refers to it (ON DELETE SET NULL): the cascade must
// find each change's notifications by index, so the time grows linearly
// with n.
func BenchmarkDeleteSentinel(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		b.Run(fmt.Sprintf("changes=%d", n), func(b *testing.B) {
			ctx := context.Background()
			db, err := sqlite.Open(ctx, b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			r, err := db.EnsureResource(ctx, "http://example.com/")
			if err != nil {
				b.Fatal(err)
			}
			u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
			if err := db.CreateUser(ctx, u); err != nil {
				b.Fatal(err)
			}
			t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				sn := &vigil.Sentinel{OwnerID: u.ID, Name: fmt.Sprint("s", i), Source: "x", Status: vigil.SentinelActive}
				if err := db.CreateSentinel(ctx, sn); err != nil {
					b.Fatal(err)
				}
				for j := range n {
					c := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: int64(j), ToVersion: int64(j + 1),
						DetectedAt: t0.Add(time.Duration(j) * time.Second), Summary: "change"}
					if err := db.CreateChange(ctx, c); err != nil {
						b.Fatal(err)
					}
					note := &vigil.Notification{UserID: u.ID, ChangeID: c.ID, Channel: "email", Target: "ada@example.com",
						Payload: json.RawMessage(`{}`)}
					if err := db.EnqueueNotification(ctx, note); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				if err := db.DeleteSentinel(ctx, sn.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkClaimHeldBack claims three entries to one address while held
// entries to another wait behind its first, failed and waiting for its
// retry: a claim reads the addresses' first entries, not those held
// back, so its time does not grow with held.
func BenchmarkClaimHeldBack(b *testing.B) {
	for _, held := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("held=%d", held), func(b *testing.B) {
			ctx := context.Background()
			db, err := sqlite.Open(ctx, b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
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
