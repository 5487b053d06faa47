package warehouse_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// patchCycle is a store whose bodies of versions a and b are patches
// against each other (a cycle the stores refuse, written by hand or by
// an older Vigil), counting the bodies read.
type patchCycle struct {
	warehouse.Store
	a, b  int64
	reads atomic.Int64
}

func (s *patchCycle) Body(ctx context.Context, versionID int64) (*vigil.StoredBody, error) {
	s.reads.Add(1)
	switch versionID {
	case s.a:
		return &vigil.StoredBody{VersionID: s.a, Encoding: vigil.BodyPatch, BaseID: s.b, Data: []byte("p")}, nil
	case s.b:
		return &vigil.StoredBody{VersionID: s.b, Encoding: vigil.BodyPatch, BaseID: s.a, Data: []byte("p")}, nil
	}
	return s.Store.Body(ctx, versionID)
}

// TestBodyOfPatchCycle holds that reading a version whose chain of patches
// comes back on itself fails as soon as a version repeats, naming the
// cycle, rather than walking round it.
func TestBodyOfPatchCycle(t *testing.T) {
	ctx := context.Background()
	// Stored: 1 a patch against 2, 2 against 3, 3 in full.
	w0, db := newWarehouse(t, warehouse.Options{})
	var vs []*vigil.Version
	for i, body := range []string{"<p>one</p>", "<p>two</p>", "<p>three</p>"} {
		vs = append(vs, put(t, w0, "http://example.com/", i, []byte(body)))
	}
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct{ read, a, b int64 }{
		"in the cycle":  {vs[0].ID, vs[0].ID, vs[1].ID},
		"down to it":    {vs[0].ID, vs[1].ID, vs[2].ID}, // 1 -> 2 -> 3 -> 2
		"the other one": {vs[1].ID, vs[0].ID, vs[1].ID},
	} {
		t.Run(name, func(t *testing.T) {
			s := &patchCycle{Store: db, a: tc.a, b: tc.b}
			w, err := warehouse.New(s, warehouse.Options{Codec: codec})
			if err != nil {
				t.Fatal(err)
			}
			body, err := w.Body(ctx, tc.read)
			if err == nil {
				t.Fatalf("read %q through a cycle of patches", body)
			}
			if !strings.Contains(err.Error(), "cycle") {
				t.Errorf("error %q does not say the patches make a cycle", err)
			}
			// Each of the walk's 4 tries (in case the chain moved under
			// it) ends where the cycle first repeats: 4 reads at most.
			if n := s.reads.Load(); n > 4*4 {
				t.Errorf("read %d stored bodies before failing, want at most 16", n)
			}
		})
	}
}
