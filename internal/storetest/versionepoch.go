package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testVersionTimeEpoch holds that a version fetched or last modified at
// the Unix epoch (1970-01-01T00:00:00Z, a Last-Modified date servers send
// for "unknown") reads back as that time, not as no time: SQLite stored
// both the epoch and the zero time as 0 Unix nanoseconds and read 0 as
// the zero time, so a version fetched then had no fetch time.
func testVersionTimeEpoch(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	epoch := time.Unix(0, 0).UTC()
	before := epoch.Add(-time.Second)
	v1 := &vigil.Version{ResourceID: r.ID, FetchedAt: before, LastModified: epoch, Status: 200, ContentHash: Hash([]byte("a")), Size: 1}
	must(t, s.AppendVersion(ctx, &vigil.Append{Version: v1, Blob: &vigil.Blob{Hash: v1.ContentHash, Size: 1, Data: []byte("z:a")}}))
	v2 := &vigil.Version{ResourceID: r.ID, FetchedAt: epoch, Status: 200, ContentHash: Hash([]byte("b")), Size: 1}
	must(t, s.AppendVersion(ctx, &vigil.Append{Version: v2, PrevID: v1.ID, Blob: &vigil.Blob{Hash: v2.ContentHash, Size: 1, Data: []byte("z:b")}}))
	for _, v := range []*vigil.Version{v1, v2} {
		got, err := s.FindVersionByID(ctx, v.ID)
		must(t, err)
		if !got.FetchedAt.Equal(v.FetchedAt) || got.FetchedAt.IsZero() != v.FetchedAt.IsZero() ||
			!got.LastModified.Equal(v.LastModified) || got.LastModified.IsZero() != v.LastModified.IsZero() {
			t.Errorf("version %d read back fetched %s, modified %s; want %s, %s", v.Seq, got.FetchedAt, got.LastModified, v.FetchedAt, v.LastModified)
		}
	}
	// The epoch orders and filters as itself.
	at, err := s.VersionAt(ctx, r.ID, epoch)
	must(t, err)
	if at.ID != v2.ID {
		t.Errorf("version at the epoch: %d, want %d", at.Seq, v2.Seq)
	}
	at, err = s.VersionAt(ctx, r.ID, epoch.Add(-time.Microsecond))
	must(t, err)
	if at.ID != v1.ID {
		t.Errorf("version a microsecond before the epoch: %d, want %d", at.Seq, v1.Seq)
	}
	vs, n, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID, Since: epoch})
	must(t, err)
	if n != 1 || len(vs) != 1 || vs[0].ID != v2.ID {
		t.Errorf("versions since the epoch: %d, want version 2 only", n)
	}
}
