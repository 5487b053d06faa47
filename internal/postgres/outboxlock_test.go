package postgres_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
)

// TestSentinelRemovalTakesTurnWithClaim: a sentinel's removal, which
// gives up its letters in one statement, waits for a claim under way,
// which leases the entries it took one by one in queue order (here the
// later id first, as a retried letter's place has it). The removal locked
// the letters in the order it read them and waited for the one the claim
// held, while the claim waited for one the removal held: a deadlock, one
// of them failed.
func TestSentinelRemovalTakesTurnWithClaim(t *testing.T) {
	ctx := context.Background()
	db, d := openDSN(t)
	u, sn, c := sentinelWithChange(t, db)
	var err error
	var ids []int64
	for i := 0; err == nil && i < 2; i++ {
		n := &vigil.Notification{UserID: u.ID, ChangeID: c.ID, Channel: "webhook", Target: "https://hooks.example/x",
			Payload: json.RawMessage(`{}`), NextAttempt: c.DetectedAt}
		err = db.EnqueueNotification(ctx, n)
		ids = append(ids, n.ID)
	}
	if err != nil {
		t.Fatal(err)
	}
	lease := func(tx pgx.Tx, id int64) error {
		_, err := tx.Exec(ctx, "UPDATE notifications SET attempts = attempts + 1 WHERE id = $1", id)
		return err
	}
	err = whileHeldThen(t, d, func(tx pgx.Tx) error {
		// A claim: its lock, then the entries it took, the later first.
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(7423193)"); err != nil {
			return err
		}
		return lease(tx, ids[1])
	}, func() error {
		return db.DeleteSentinel(ctx, sn.ID)
	}, func(tx pgx.Tx) error {
		return lease(tx, ids[0])
	})
	if err != nil {
		t.Fatalf("DeleteSentinel: %v", err)
	}
	if _, err := db.FindSentinelByID(ctx, sn.ID); err == nil {
		t.Error("the sentinel is still there")
	}
}
