package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/storetest"
)

// TestInTransactionWriteFails: a write PostgreSQL refuses inside
// InTransaction (a NUL byte in a text column, which no check before it
// caught) fails the transaction: the writes after it fail with its
// error, and InTransaction returns it and commits nothing, even when fn
// goes on and returns nil. Each write ran under a savepoint, which left
// the transaction usable and committed the others.
func TestInTransactionWriteFails(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	body := "<p>x</p>"
	err := db.InTransaction(ctx, func(tx vigil.TxStore) error {
		r, err := tx.EnsureResource(ctx, "http://example.com/")
		if err != nil {
			return err
		}
		v := &vigil.Version{ResourceID: r.ID, FetchedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Status: 200,
			Size: int64(len(body)), ContentHash: storetest.Hash([]byte(body))}
		err = tx.AppendVersion(ctx, &vigil.Append{Version: v, Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte(body)},
			Links: []*vigil.Link{{Source: "http://example.com/", Target: "http://example.com/a", Anchor: "a\x00b", Type: vigil.LinkLocal}}})
		if err == nil || vigil.ErrorCode(err) == vigil.ECONFLICT || vigil.ErrorCode(err) == vigil.EINVALID {
			t.Errorf("append of a link whose anchor holds a NUL: %v; want PostgreSQL's error", err)
		}
		if _, err := tx.EnsureResource(ctx, "http://other.example/"); err == nil || !strings.Contains(err.Error(), "0x00") {
			t.Errorf("a write after the failed one: %v; want the failed one's error", err)
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "0x00") || !strings.Contains(err.Error(), "nothing committed") {
		t.Errorf("InTransaction with a write that failed: %v; want its error, nothing committed", err)
	}
	for _, u := range []string{"http://example.com/", "http://other.example/"} {
		if _, err := db.FindResourceByURL(ctx, u); vigil.ErrorCode(err) != vigil.ENOTFOUND {
			t.Errorf("%s after the transaction failed: %v; want ENOTFOUND", u, err)
		}
	}
}
