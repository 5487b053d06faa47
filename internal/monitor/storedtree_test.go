package monitor

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// TestStoredTreeErrors: the reads of a stored version as a tree outside
// its comparisons, for its links (versionTree, the importance's
// linkKeys), for a site's scope notes (pageScopeMisses) and for a page's
// (currentScopes.load), handle their errors alike. A version
// that cannot be read now (here: not stored) is an error, for the caller
// to try again at its next check; a body that does not read into a tree
// at all, not even as its source text (here: larger than the parsers
// take), never will, and is no error: a page without links, and without
// scopes to look for.
func TestStoredTreeErrors(t *testing.T) {
	ctx := context.Background()
	db, wh, _ := testStore(t)
	m := &Monitor{Store: db, Warehouse: wh}
	// The body is given through the cache of bodies: its pages, never
	// touched (the parser refuses it by its length), take no memory.
	const tooLarge = 7
	m.bodies.max = 1 << 40
	m.bodies.put(tooLarge, body{data: make([]byte, markup.DefaultMaxBytes+1), contentType: "text/html"})
	cases := map[string]struct {
		version int64
		wantErr bool
	}{
		"not stored": {version: 8, wantErr: true},
		"too large":  {version: tooLarge},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			grant := &memoryGrant{b: &m.budget}
			defer grant.done()
			doc, _, err := m.versionTree(ctx, c.version, nil, grant)
			if (err != nil) != c.wantErr || doc != nil {
				t.Errorf("versionTree: tree %v, error %v; want no tree, error %v", doc != nil, err, c.wantErr)
			}
			misses, ok, err := m.pageScopeMisses(ctx, c.version, nil, grant)
			if (err != nil) != c.wantErr || ok || misses != nil {
				t.Errorf("pageScopeMisses: misses %q, ok %v, error %v; want none, not ok, error %v", misses, ok, err, c.wantErr)
			}
			cur := &currentScopes{m: m, id: c.version, grant: grant}
			if pair, err := cur.load(ctx); (err != nil) != c.wantErr || pair != nil {
				t.Errorf("currentScopes.load: pair %v, error %v; want none, error %v", pair != nil, err, c.wantErr)
			}
		})
	}
}
