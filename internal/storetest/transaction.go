package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// errRollback is what the transactions of testTransaction fail with.
var errRollback = errors.New("rolled back on purpose")

// txAppend appends a version of resource r with body to tx, on prev.
func txAppend(ctx context.Context, tx vigil.TxStore, r *vigil.Resource, prev int64, at time.Time, body string) (*vigil.Version, error) {
	v := &vigil.Version{ResourceID: r.ID, FetchedAt: at, Status: 200, ContentType: "text/html",
		Size: int64(len(body)), ContentHash: Hash([]byte(body))}
	err := tx.AppendVersion(ctx, &vigil.Append{Version: v, PrevID: prev,
		Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte("z:" + body)}})
	return v, err
}

// testTransaction: a store's transaction (vigil.Transactor) reads its own
// writes, hides them from the store's other readers until it commits,
// keeps all of them when fn returns nil and none when it fails, panics
// or its context is cancelled, and survives one of its methods failing.
func testTransaction(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	tr, ok := s.(vigil.Transactor)
	if !ok {
		t.Fatalf("%T does not implement vigil.Transactor", s)
	}
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	old, err := s.EnsureResource(ctx, "http://old.example/")
	must(t, err)
	head := appendBody(t, s, old, 0, at, "old head")
	before, err := s.Stats(ctx)
	must(t, err)

	// Rolled back: nothing of it stays, the old head keeps its body.
	err = tr.InTransaction(ctx, func(tx vigil.TxStore) error {
		r, err := tx.EnsureResource(ctx, "http://new.example/")
		if err != nil {
			return err
		}
		if _, err := tx.FindResourceByURL(ctx, "http://new.example/"); err != nil {
			t.Errorf("transaction does not read its own resource: %v", err)
		}
		if _, err := s.FindResourceByURL(ctx, "http://new.example/"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
			t.Errorf("the store sees a resource not committed: %v", err)
		}
		if _, err := txAppend(ctx, tx, r, 0, at, "new"); err != nil {
			return err
		}
		// A method that fails leaves the transaction usable.
		if _, err := txAppend(ctx, tx, old, 0, at.Add(time.Hour), "conflict"); vigil.ErrorCode(err) != vigil.ECONFLICT {
			t.Errorf("append on a stale head in a transaction: %v, want ECONFLICT", err)
		}
		v, err := txAppend(ctx, tx, old, head.ID, at.Add(time.Hour), "old, newer")
		if err != nil {
			return err
		}
		if got, err := tx.LatestVersion(ctx, old.ID); err != nil || got.ID != v.ID {
			t.Errorf("transaction's newest version of %s: %v, %v; want %d", old.URL, got, err, v.ID)
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("InTransaction returned %v, want fn's error", err)
	}
	if _, err := s.FindResourceByURL(ctx, "http://new.example/"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("a resource of a transaction rolled back stays: %v", err)
	}
	if got, err := s.LatestVersion(ctx, old.ID); err != nil || got.ID != head.ID {
		t.Errorf("after a rollback the newest version is %v, %v; want %d", got, err, head.ID)
	}
	if b, err := s.Body(ctx, head.ID); err != nil || b.Encoding != vigil.BodyFull {
		t.Errorf("after a rollback the head's body is %+v, %v; want full", b, err)
	}
	after, err := s.Stats(ctx)
	must(t, err)
	if *after != *before {
		t.Errorf("stats after a rollback %+v, before %+v", after, before)
	}

	// Committed: all of it stays.
	var newID int64
	must(t, tr.InTransaction(ctx, func(tx vigil.TxStore) error {
		r, err := tx.EnsureResource(ctx, "http://new.example/")
		if err != nil {
			return err
		}
		v, err := txAppend(ctx, tx, r, 0, at, "new")
		newID = v.ID
		return err
	}))
	if v, err := s.FindVersionByID(ctx, newID); err != nil || v.Size != 3 {
		t.Errorf("a version committed: %v, %v", v, err)
	}

	// An append refused (EINVALID: its previous version's blob is of
	// another content) leaves nothing of it, and the transaction goes on
	// and commits.
	var kept *vigil.Version
	before, err = s.Stats(ctx)
	must(t, err)
	must(t, tr.InTransaction(ctx, func(tx vigil.TxStore) error {
		r, err := tx.EnsureResource(ctx, "http://refused.example/")
		if err != nil {
			return err
		}
		first, err := txAppend(ctx, tx, r, 0, at, "first")
		if err != nil {
			return err
		}
		body := "refused"
		v := &vigil.Version{ResourceID: r.ID, FetchedAt: at.Add(time.Hour), Status: 200, Size: int64(len(body)), ContentHash: Hash([]byte(body))}
		err = tx.AppendVersion(ctx, &vigil.Append{Version: v, PrevID: first.ID,
			Blob:     &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte("z:" + body)},
			PrevBlob: &vigil.Blob{Hash: Hash([]byte("not first")), Size: 9, Data: []byte("z:not first")}})
		if vigil.ErrorCode(err) != vigil.EINVALID {
			t.Errorf("append with a previous blob of another hash in a transaction: %v, want EINVALID", err)
		}
		kept, err = txAppend(ctx, tx, r, first.ID, at.Add(2*time.Hour), "second")
		return err
	}))
	r, err := s.FindResourceByURL(ctx, "http://refused.example/")
	must(t, err)
	if vs, n, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID}); err != nil || n != 2 || vs[1].ID != kept.ID || vs[1].Seq != 2 {
		t.Errorf("after an append refused in a transaction, the versions are %v (%d), %v; want 2, the second %d", vs, n, err, kept.ID)
	}
	after, err = s.Stats(ctx)
	must(t, err)
	if after.Blobs != before.Blobs+2 {
		t.Errorf("after an append refused in a transaction, %d blobs, %d before; want the 2 of the versions kept", after.Blobs, before.Blobs)
	}

	// A cancelled context rolls back.
	cctx, cancel := context.WithCancel(ctx)
	err = tr.InTransaction(cctx, func(tx vigil.TxStore) error {
		if _, err := tx.EnsureResource(cctx, "http://cancelled.example/"); err != nil {
			return err
		}
		cancel()
		return nil
	})
	if err == nil {
		t.Errorf("InTransaction with its context cancelled committed")
	}
	if _, err := s.FindResourceByURL(ctx, "http://cancelled.example/"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("a resource of a cancelled transaction stays: %v", err)
	}
	// A function that panics rolls back, and the panic goes on.
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("InTransaction with fn panicking returned")
			}
		}()
		tr.InTransaction(ctx, func(tx vigil.TxStore) error {
			if _, err := tx.EnsureResource(ctx, "http://panicked.example/"); err != nil {
				return err
			}
			panic("fn panics")
		})
	}()
	if _, err := s.FindResourceByURL(ctx, "http://panicked.example/"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("a resource of a transaction whose fn panicked stays: %v", err)
	}
	// The store writes after a transaction.
	_, err = s.EnsureResource(ctx, "http://after.example/")
	must(t, err)
}
