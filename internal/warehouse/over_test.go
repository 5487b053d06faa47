package warehouse_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestOver: a warehouse over a transaction of its store (Over) stores
// versions that read back inside it, patches the previous head against
// them, and leaves the store as it was when the transaction rolls back:
// the head's body in full, readable, and no version added.
func TestOver(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{FullEvery: 64})
	old := []byte("<html><body><p>first</p></body></html>")
	head := put(t, w, "http://example.com/", 0, old)
	rollback := errors.New("rollback")
	err := db.InTransaction(ctx, func(tx vigil.TxStore) error {
		in := w.Over(tx)
		for i, body := range []string{"<p>second</p>", "<p>third</p>"} {
			v := put(t, in, "http://example.com/", i+1, []byte("<html><body>"+body+"</body></html>"))
			if b, err := in.Body(ctx, v.ID); err != nil || !bytes.Contains(b, []byte(body)) {
				t.Errorf("inside the transaction, version %d reads %q, %v", v.ID, b, err)
			}
		}
		if b, err := in.Body(ctx, head.ID); err != nil || !bytes.Equal(b, old) {
			t.Errorf("inside the transaction, the old head reads %q, %v", b, err)
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatal(err)
	}
	if v, err := db.LatestVersion(ctx, head.ResourceID); err != nil || v.ID != head.ID {
		t.Errorf("after the rollback the newest version is %v, %v; want %d", v, err, head.ID)
	}
	if sb, err := db.Body(ctx, head.ID); err != nil || sb.Encoding != vigil.BodyFull {
		t.Errorf("after the rollback the head is stored %+v, %v; want in full", sb, err)
	}
	if b, err := w.Body(ctx, head.ID); err != nil || !bytes.Equal(b, old) {
		t.Errorf("after the rollback the head reads %q, %v", b, err)
	}
}
