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
