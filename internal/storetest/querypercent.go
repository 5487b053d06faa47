package storetest

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil"
)

// QueryPercentResources are the resources, by id, that a store an older
// Vigil left holds before the migration that normalises the
// percent-encoding of queries (vigil.CanonicalURL): 5 a page under an
// encoding of "~" alone, 6 and 7 one page stored twice (the defect the
// migration follows), 8 a query whose encodings are reserved characters.
// The migrated store's test inserts them, with QueryPercentVersion, and
// then calls CheckQueryPercentRekeyed.
var QueryPercentResources = map[int64]string{
	5: "http://example.com/p?a=%7e",
	6: "http://example.com/q?a=%7E",
	7: "http://example.com/q?a=~",
	8: "http://example.com/r?a=%26&b=%2F",
}

// QueryPercentVersion is a version of resource 5, id 9, whose final URL
// (a redirect's target, vigil.Version.URL) spells "~" so.
const QueryPercentVersion = "http://example.com/final?b=%7e"

// CheckQueryPercentRekeyed checks s, QueryPercentResources and
// QueryPercentVersion migrated: resource 5 is found under every spelling
// of its URL, its version's final URL is canonical; the page stored twice
// is found as resource 7, which had the canonical form, and resource 6
// keeps its URL and history; resource 8, whose encodings are of reserved
// characters, is as it was.
func CheckQueryPercentRekeyed(t *testing.T, s vigil.Store) {
	t.Helper()
	ctx := context.Background()
	want := map[string]int64{
		"http://example.com/p?a=%7e":       5,
		"http://example.com/p?a=%7E":       5,
		"http://example.com/p?a=~":         5,
		"http://example.com/q?a=%7e":       7,
		"http://example.com/q?a=~":         7,
		"http://example.com/r?a=%26&b=%2f": 8,
	}
	for raw, id := range want {
		r, err := s.FindResourceByURL(ctx, raw)
		if err != nil || r.ID != id {
			t.Errorf("FindResourceByURL(%q) = %+v, %v; want resource %d", raw, r, err, id)
			continue
		}
		if err := r.Validate(); err != nil {
			t.Errorf("resource %d after the migration: %v", id, err)
		}
	}
	if r, err := s.EnsureResource(ctx, "http://example.com/p?a=%7E"); err != nil || r.ID != 5 {
		t.Errorf("EnsureResource of another spelling of resource 5: %+v, %v; want resource 5, not a new one", r, err)
	}
	if r, err := s.FindResourceByID(ctx, 6); err != nil || r.URL != QueryPercentResources[6] {
		t.Errorf("resource 6, stored twice: %+v, %v; want its URL %q kept", r, err, QueryPercentResources[6])
	}
	if r, err := s.FindResourceByID(ctx, 8); err != nil || r.URL != "http://example.com/r?a=%26&b=%2F" {
		t.Errorf("resource 8: %+v, %v; want its reserved encodings kept", r, err)
	}
	v, err := s.FindVersionByID(ctx, 9)
	if err != nil || v.URL != "http://example.com/final?b=~" {
		t.Errorf("version 9: %+v, %v; want final URL http://example.com/final?b=~", v, err)
	}
}
