package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testPatchCycle holds that ReplaceBody refuses to store a version's body
// as a patch against a version whose body is read through it (directly or
// down a chain): both would be unreadable, each waiting for the other.
func testPatchCycle(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	v1 := appendBody(t, s, r, 0, t0, "one")
	v2 := appendBody(t, s, r, v1.ID, t0.Add(time.Hour), "two")
	v3 := appendBody(t, s, r, v2.ID, t0.Add(2*time.Hour), "three")
	patch := func(id, base int64) error {
		return s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: id, Encoding: vigil.BodyPatch, BaseID: base, Data: []byte("p")}, nil)
	}
	// A chain v1 -> v2 -> v3 (full) is no cycle.
	must(t, patch(v1.ID, v2.ID))
	must(t, patch(v2.ID, v3.ID))
	for _, tc := range []struct {
		name     string
		id, base int64
	}{
		{"two versions", v2.ID, v1.ID},
		{"down a chain", v3.ID, v1.ID},
		{"one step down a chain", v3.ID, v2.ID},
	} {
		err := patch(tc.id, tc.base)
		wantCode(t, err, vigil.EINVALID)
		if !strings.Contains(err.Error(), "cycle") {
			t.Errorf("%s: error %q does not say the patches would make a cycle", tc.name, err)
		}
	}
	// Nothing refused was stored: the chain reads down to v3's blob.
	for id, want := range map[int64]int64{v1.ID: v2.ID, v2.ID: v3.ID} {
		b, err := s.Body(ctx, id)
		must(t, err)
		if b.Encoding != vigil.BodyPatch || b.BaseID != want {
			t.Errorf("version %d after refused patches: %+v, want a patch against %d", id, b, want)
		}
	}
	b3, err := s.Body(ctx, v3.ID)
	must(t, err)
	if b3.Encoding != vigil.BodyFull {
		t.Fatalf("version 3 after refused patches: %+v, want full", b3)
	}
	if _, err := s.FindBlob(ctx, v3.ContentHash); err != nil {
		t.Fatalf("version 3's blob after refused patches: %v", err)
	}
	// A base beside the chain is no cycle.
	must(t, patch(v1.ID, v3.ID))
}

// testPatchCycleConcurrent holds that two re-encodings that would each be
// no cycle alone, but close one together (version 1 as a patch against 2
// in a transaction, 2 against 1 beside it), do not both store: the second
// waits for the first's transaction, then is refused. On PostgreSQL it
// did not wait (ReplaceBody took no lock on the resource, as
// AppendVersion does), read the chain from before the first, and both
// were stored: neither version could be read again.
func testPatchCycleConcurrent(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	tr, ok := s.(vigil.Transactor)
	if !ok {
		t.Fatalf("%T does not implement vigil.Transactor", s)
	}
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	v1 := appendBody(t, s, r, 0, t0, "one")
	v2 := appendBody(t, s, r, v1.ID, t0.Add(time.Hour), "two")
	patch := func(st vigil.VersionStore, id, base int64) error {
		return st.ReplaceBody(ctx, &vigil.StoredBody{VersionID: id, Encoding: vigil.BodyPatch, BaseID: base, Data: []byte("p")}, nil)
	}
	other := make(chan error, 1)
	must(t, tr.InTransaction(ctx, func(tx vigil.TxStore) error {
		if err := patch(tx, v1.ID, v2.ID); err != nil {
			return err
		}
		go func() { other <- patch(s, v2.ID, v1.ID) }()
		// Give the other a moment to run beside this transaction: one
		// that waits for it, as it should, has not returned by then.
		select {
		case err := <-other:
			other <- err
		case <-time.After(500 * time.Millisecond):
		}
		return nil
	}))
	err = <-other
	wantCode(t, err, vigil.EINVALID)
	b1, err := s.Body(ctx, v1.ID)
	must(t, err)
	b2, err := s.Body(ctx, v2.ID)
	must(t, err)
	if b1.Encoding != vigil.BodyPatch || b1.BaseID != v2.ID || b2.Encoding != vigil.BodyFull {
		t.Errorf("version 1 stored %s against %d, version 2 %s; want 1 a patch against 2, 2 in full", b1.Encoding, b1.BaseID, b2.Encoding)
	}
}
