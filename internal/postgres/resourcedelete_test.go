package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/storetest"
)

// TestDeleteResourceRacesAppend: a resource deleted while an append to
// it is under way (it holds the resource's row, as AppendVersion does,
// FOR UPDATE) goes with the version appended and that version's blob,
// which no other body uses. The deletion read the blobs to drop before
// it waited for the append, and the appended version, deleted by the
// cascade, left its blob behind, never dropped.
func TestDeleteResourceRacesAppend(t *testing.T) {
	ctx := context.Background()
	db, d := openDSN(t)
	r, err := db.EnsureResource(ctx, "http://example.com/")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	v := &vigil.Version{ResourceID: r.ID, FetchedAt: at, Status: 200, ContentHash: storetest.Hash([]byte("one")), Size: 3}
	if err := db.AppendVersion(ctx, &vigil.Append{Version: v, Blob: &vigil.Blob{Hash: v.ContentHash, Size: 3, Data: []byte("one")}}); err != nil {
		t.Fatal(err)
	}
	late := storetest.Hash([]byte("two"))
	err = whileHeld(t, d, func(tx pgx.Tx) error {
		// An append of a second version, as AppendVersion writes it.
		for _, stmt := range []struct {
			sql  string
			args []any
		}{
			{"SELECT id FROM resources WHERE id = $1 FOR UPDATE", []any{r.ID}},
			{"INSERT INTO blobs (hash, size, data) VALUES ($1, 3, 'two')", []any{late}},
			{`INSERT INTO versions (resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size, content_hash, fetch_duration, error)
				VALUES ($1, 2, $2, 200, '', $2, '', '', 3, $3, 0, '')`, []any{r.ID, at.Add(time.Hour), late}},
			{"INSERT INTO bodies (version_id, encoding, hash) SELECT id, 'full', $2 FROM versions WHERE resource_id = $1 AND seq = 2", []any{r.ID, late}},
		} {
			if _, err := tx.Exec(ctx, stmt.sql, stmt.args...); err != nil {
				return err
			}
		}
		return nil
	}, func() error { return db.DeleteResource(ctx, r.ID) })
	if err != nil {
		t.Fatalf("delete the resource: %v", err)
	}
	if _, err := db.FindResourceByID(ctx, r.ID); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("the resource after its deletion: %v; want ENOTFOUND", err)
	}
	if _, err := db.FindBlob(ctx, late); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("the blob of the version appended during the deletion: %v; want ENOTFOUND (dropped with it)", err)
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Versions != 0 || st.Blobs != 0 {
		t.Errorf("after the deletion: %d versions, %d blobs; want none", st.Versions, st.Blobs)
	}
}
