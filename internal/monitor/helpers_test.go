package monitor

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/spec"
)

// testStore opens a fresh SQLite store with a warehouse over it and one
// user, the owner of the sentinels a test creates.
func testStore(t *testing.T) (*sqlite.DB, *warehouse.Warehouse, *vigil.User) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	wh, err := warehouse.New(CachedResources(db), warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	u := &vigil.User{Email: "owner@example.test", Name: "owner"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	return db, wh, u
}

// createSentinel checks the source of one sentinel and stores it for
// owner, due now.
func createSentinel(t *testing.T, db vigil.Store, checker *spec.Checker, owner *vigil.User, name, src string) *vigil.Sentinel {
	t.Helper()
	ps, err := spec.ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := checker.Check(ps)
	if err != nil {
		t.Fatal(err)
	}
	js, err := ch.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	s := &vigil.Sentinel{OwnerID: owner.ID, Name: name, Source: src, Spec: js, Status: vigil.SentinelActive, NextCheck: checker.Now}
	if err := db.CreateSentinel(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return s
}

// makeDue sets sentinel s due at (just before) at.
func makeDue(t *testing.T, db vigil.Store, s *vigil.Sentinel, at time.Time) {
	t.Helper()
	ctx := context.Background()
	cur, err := db.FindSentinelByID(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur.NextCheck = at.Add(-time.Second)
	if err := db.UpdateSentinel(ctx, cur); err != nil {
		t.Fatal(err)
	}
}

// runOnce runs one round of m and fails unless it checked want sentinels.
func runOnce(t *testing.T, m *Monitor, want int) {
	t.Helper()
	if n, err := m.RunOnce(context.Background()); err != nil || n != want {
		t.Fatalf("RunOnce = %d, %v; want %d sentinels checked", n, err, want)
	}
}

// changesOf returns the changes recorded for sentinel s.
func changesOf(t *testing.T, db vigil.Store, s *vigil.Sentinel) []*vigil.Change {
	t.Helper()
	cs, _, err := db.FindChanges(context.Background(), vigil.ChangeFilter{SentinelID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// messagesOf returns the messages queued for user u about sentinel s.
func messagesOf(t *testing.T, db vigil.Store, u *vigil.User, s *vigil.Sentinel) []*vigil.Message {
	t.Helper()
	ns, _, err := db.FindNotifications(context.Background(), vigil.NotificationFilter{UserID: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	var out []*vigil.Message
	for _, n := range ns {
		var msg vigil.Message
		if err := json.Unmarshal(n.Payload, &msg); err != nil {
			t.Fatal(err)
		}
		if msg.SentinelID == s.ID {
			out = append(out, &msg)
		}
	}
	return out
}
