package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// idCase makes rows of one table whose ids leave the store: create makes
// the i-th and returns its id, remove deletes the row of id as a user
// would and checks that it is gone.
type idCase struct {
	create func(t *testing.T, i int) int64
	remove func(t *testing.T, id int64)
}

// testUserIDsNeverReused deletes the newest user, token and notification
// and creates another: its id must be a new one, as
// testIDsNeverReused asks of sentinels, changes, resources and versions. A
// notification's id is the webhook's X-Vigil-Delivery header, which a
// receiver shared by several users may drop when it has seen it; users'
// and tokens' ids key audit logs and caches.
func testUserIDsNeverReused(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	keep := newUser(t, s, "keep@example.com")
	cases := map[string]idCase{
		"users": {
			create: func(t *testing.T, i int) int64 {
				return newUser(t, s, fmt.Sprintf("user%d@example.com", i)).ID
			},
			remove: func(t *testing.T, id int64) {
				must(t, s.DeleteUser(ctx, id))
				_, err := s.FindUserByID(ctx, id)
				wantCode(t, err, vigil.ENOTFOUND)
			},
		},
		"tokens": {
			create: func(t *testing.T, i int) int64 {
				tok := &vigil.Token{UserID: keep.ID, Name: fmt.Sprintf("token %d", i), Hash: vigil.HashToken(fmt.Sprintf("secret %d", i))}
				must(t, s.CreateToken(ctx, tok))
				return tok.ID
			},
			remove: func(t *testing.T, id int64) {
				must(t, s.DeleteToken(ctx, id))
				toks, err := s.FindTokens(ctx, keep.ID)
				must(t, err)
				if slices.ContainsFunc(toks, func(tok *vigil.Token) bool { return tok.ID == id }) {
					t.Fatalf("token %d kept after its deletion", id)
				}
			},
		},
		// A notification goes with its user: each is of a user of its own.
		"notifications": {
			create: func(t *testing.T, i int) int64 {
				u := newUser(t, s, fmt.Sprintf("notified%d@example.com", i))
				n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/shared",
					Payload: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), NextAttempt: t0}
				must(t, s.EnqueueNotification(ctx, n))
				return n.ID
			},
			remove: removeNotificationWithUser(ctx, s),
		},
	}
	for _, name := range sortedKeys(cases) {
		t.Run(name, func(t *testing.T) { checkIDsNeverReused(t, cases[name]) })
	}
}

// checkIDsNeverReused makes two rows of c, deletes the newest, makes a
// third and checks that its id is above the deleted one's.
func checkIDsNeverReused(t *testing.T, c idCase) {
	t.Helper()
	first := c.create(t, 1)
	newest := c.create(t, 2)
	if newest <= first {
		t.Fatalf("id %d made after %d", newest, first)
	}
	c.remove(t, newest)
	if next := c.create(t, 3); next <= newest {
		t.Fatalf("id %d made after %d, the newest, was deleted", next, newest)
	}
}

// testCheckNotificationIDsNeverReused: a notification a check records
// (RecordChecks) is not given the id of the newest one, deleted with its
// user, either.
func testCheckNotificationIDsNeverReused(t *testing.T, s interface {
	vigil.Store
	vigil.CheckStore
}) {
	ctx := context.Background()
	checkIDsNeverReused(t, idCase{
		create: func(t *testing.T, i int) int64 {
			u := newUser(t, s, fmt.Sprintf("notified%d@example.com", i))
			sn := &vigil.Sentinel{OwnerID: u.ID, Name: "s", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
			must(t, s.CreateSentinel(ctx, sn))
			at := t0.Add(time.Duration(i) * time.Minute)
			n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/shared",
				Payload: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))}
			must(t, s.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sn.ID, CheckedAt: at, NextCheck: at.Add(time.Hour),
				Notifications: []*vigil.Notification{n}}}))
			return n.ID
		},
		remove: removeNotificationWithUser(ctx, s),
	})
}

// removeNotificationWithUser returns an idCase's remove for notifications,
// which go with their user: it deletes the notification's user and checks
// the notification is gone.
func removeNotificationWithUser(ctx context.Context, s vigil.Store) func(t *testing.T, id int64) {
	return func(t *testing.T, id int64) {
		n, err := s.FindNotificationByID(ctx, id)
		must(t, err)
		must(t, s.DeleteUser(ctx, n.UserID))
		_, err = s.FindNotificationByID(ctx, id)
		wantCode(t, err, vigil.ENOTFOUND)
	}
}
