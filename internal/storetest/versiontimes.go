package storetest

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testVersionTimesOutOfRange holds that a version's times are stored as
// given within the range every backend keeps (Unix nanoseconds in an
// int64: 1677-09-21 to 2262-04-11), and refused outside it with an error
// naming the field, where SQLite stored them wrapped round to other years.
func testVersionTimesOutOfRange(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	first := time.Unix(0, math.MinInt64).UTC()
	last := time.Unix(0, math.MaxInt64).UTC()
	version := func(fetched, modified time.Time) *vigil.Version {
		return &vigil.Version{ResourceID: r.ID, FetchedAt: fetched, LastModified: modified, Status: 200,
			ContentHash: Hash([]byte("body")), Size: 4}
	}
	appendVersion := func(v *vigil.Version, prev int64) error {
		return s.AppendVersion(ctx, &vigil.Append{Version: v, PrevID: prev,
			Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte("z:body")}})
	}
	for _, tc := range []struct {
		name, field       string
		fetched, modified time.Time
	}{
		{"fetched after 2262", "fetchedAt", time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}},
		{"fetched a nanosecond too late", "fetchedAt", last.Add(time.Nanosecond), time.Time{}},
		{"fetched before 1677", "fetchedAt", time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}},
		{"fetched in year 10000", "fetchedAt", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Time{}},
		{"modified after 2262", "lastModified", t0, time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)},
		{"modified before 1677", "lastModified", t0, first.Add(-time.Nanosecond)},
	} {
		err := appendVersion(version(tc.fetched, tc.modified), 0)
		wantCode(t, err, vigil.EINVALID)
		if !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: error %q does not name %s", tc.name, err, tc.field)
		}
	}
	if vs, n, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID}); err != nil || n != 0 {
		t.Fatalf("after refused appends: %d versions %v, %v", n, vs, err)
	}
	// The first and last whole seconds of the range are kept as they are
	// (PostgreSQL keeps microseconds only).
	lo, hi := first.Truncate(time.Second).Add(time.Second), last.Truncate(time.Second)
	v1 := version(lo, hi)
	must(t, appendVersion(v1, 0))
	v2 := version(hi, lo)
	must(t, appendVersion(v2, v1.ID))
	for _, v := range []*vigil.Version{v1, v2} {
		got, err := s.FindVersionByID(ctx, v.ID)
		must(t, err)
		if !got.FetchedAt.Equal(v.FetchedAt) || !got.LastModified.Equal(v.LastModified) {
			t.Errorf("version %d read back fetched %s, modified %s; want %s, %s", v.ID, got.FetchedAt, got.LastModified, v.FetchedAt, v.LastModified)
		}
	}
	// Filters beyond the range take every version.
	vs, n, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID,
		Since: time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)})
	must(t, err)
	if n != 2 || len(vs) != 2 {
		t.Errorf("versions from year 1000 until 3000: %d, want both", n)
	}
	at, err := s.VersionAt(ctx, r.ID, time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC))
	must(t, err)
	if at.ID != v2.ID {
		t.Errorf("version at year 3000: %d, want %d", at.ID, v2.ID)
	}
}
