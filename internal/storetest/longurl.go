package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/vigil-web/vigil"
)

// longURL returns an http URL of more than n bytes whose query does not
// compress (hex of a chain of SHA-256 sums), as a tracking or a signed
// link's often does.
func longURL(n int) string {
	u := "http://example.com/track?sig="
	sum := sha256.Sum256([]byte("seed"))
	for len(u) <= n {
		u += hex.EncodeToString(sum[:])
		sum = sha256.Sum256(sum[:])
	}
	return u
}

// testLongURLs: a page with a link whose target is kilobytes long is
// stored with it, and a resource at such a URL is made, found by it and
// ensured again as itself, on every backend: PostgreSQL bounds a B-tree
// index entry (2,704 bytes), and an index on the URL itself refused the
// page, each time it was fetched, and the resource.
func testLongURLs(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	long := longURL(8000)
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	links := []*vigil.Link{{Source: r.URL, Target: long, Anchor: "signed", Type: vigil.LinkLocal}}
	v := &vigil.Version{ResourceID: r.ID, FetchedAt: t0, ContentHash: Hash([]byte("x")), Size: 1}
	must(t, s.AppendVersion(ctx, &vigil.Append{Version: v, Blob: &vigil.Blob{Hash: v.ContentHash, Size: 1, Data: []byte("x")}, Links: links}))
	got, err := s.Links(ctx, v.ID)
	must(t, err)
	if len(got) != 1 || got[0].Target != long {
		t.Fatalf("links read back: %d, want the long one", len(got))
	}

	lr, err := s.EnsureResource(ctx, long)
	must(t, err)
	if lr.URL != long {
		t.Fatalf("resource of the long URL has URL of %d bytes, want %d", len(lr.URL), len(long))
	}
	again, err := s.EnsureResource(ctx, long)
	must(t, err)
	if again.ID != lr.ID {
		t.Fatalf("second ensure of the long URL: resource %d, want %d", again.ID, lr.ID)
	}
	found, err := s.FindResourceByURL(ctx, long)
	must(t, err)
	if found.ID != lr.ID {
		t.Fatalf("found resource %d by the long URL, want %d", found.ID, lr.ID)
	}
	other, err := s.EnsureResource(ctx, long+"0")
	must(t, err)
	if other.ID == lr.ID {
		t.Fatalf("a longer URL ensured as resource %d, the long one's", other.ID)
	}
	_, n, err := s.FindResources(ctx, vigil.ResourceFilter{URL: &long})
	must(t, err)
	if n != 1 {
		t.Fatalf("%d resources have the long URL, want 1", n)
	}
}
