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
