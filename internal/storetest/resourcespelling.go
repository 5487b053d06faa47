package storetest

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil"
)

// testResourceSpellingsShared: the spellings of one page a user may type
// in two sentinels (a fragment, dot segments, the scheme and host in
// upper case, the default port) are one resource: EnsureResource of each
// gives the one resource, stored under vigil.CanonicalURL's form, and
// each finds it by URL, by FindResourceByURL and FindResources alike. As
// every resource was stored in that form, a resource stored before finds
// its page by any spelling, without a migration.
func testResourceSpellingsShared(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	spellings := []string{
		"http://h.example/a/./b#x",
		"http://h.example/a/b",
		"HTTP://H.Example:80/a/x/../b",
		"http://h.example/a/%2e/b#",
	}
	first, err := s.EnsureResource(ctx, spellings[0])
	if err != nil {
		t.Fatal(err)
	}
	if first.URL != "http://h.example/a/b" {
		t.Errorf("EnsureResource(%s) stored %s, want http://h.example/a/b", spellings[0], first.URL)
	}
	for _, u := range spellings {
		r, err := s.EnsureResource(ctx, u)
		if err != nil || r.ID != first.ID {
			t.Errorf("EnsureResource(%s) = %+v, %v; want resource %d", u, r, err, first.ID)
		}
		if r, err := s.FindResourceByURL(ctx, u); err != nil || r.ID != first.ID {
			t.Errorf("FindResourceByURL(%s) = %+v, %v; want resource %d", u, r, err, first.ID)
		}
		u := u
		if rs, n, err := s.FindResources(ctx, vigil.ResourceFilter{URL: &u}); err != nil || n != 1 || len(rs) != 1 || rs[0].ID != first.ID {
			t.Errorf("FindResources(URL %s) = %d resources, %v; want resource %d", u, n, err, first.ID)
		}
	}
	if _, n, err := s.FindResources(ctx, vigil.ResourceFilter{}); err != nil || n != 1 {
		t.Errorf("FindResources: %d resources, %v; want 1", n, err)
	}
}
