package sqlite_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestReadAsTextUnknownByIndex: the search for versions whose reason is
// not known (FindVersionsReadAsTextUnknown) looks them up by the index on
// tree_reading, without statistics (Vigil runs no ANALYZE), and never
// scans the versions table: a store whose versions are all known answers
// it at the cost of a few index probes, each poll of an idle monitor.
func TestReadAsTextUnknownByIndex(t *testing.T) {
	ctx := context.Background()
	c := migratedConn(t)
	for _, before := range []int64{0, 1000} {
		query, args := sqlite.ReadAsTextUnknownQuery(5, before, 32)
		rows, err := c.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		p := strings.Join(plan, "; ")
		if !strings.Contains(p, "versions_tree_reading") || strings.Contains(p, "SCAN versions") {
			t.Errorf("before %d: plan %s, want a search by versions_tree_reading and no scan of versions", before, p)
		}
	}
}

// TestClaimByIndex: due sentinels are claimed in the order of the index
// sentinels_claim, without statistics, searched up to the priority now
// and not sorted: a claim of a batch among many due sentinels reads the
// batch (and the few not due that their importance puts before), not
// every due sentinel, nor every sentinel when few are due.
func TestClaimByIndex(t *testing.T) {
	ctx := context.Background()
	c := migratedConn(t)
	query, args := sqlite.ClaimQuery(time.Now(), 256)
	rows, err := c.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	p := strings.Join(plan, "; ")
	if !strings.Contains(p, "SEARCH sentinels USING INDEX sentinels_claim") || strings.Contains(p, "TEMP B-TREE") {
		t.Errorf("plan %s, want a search of the index sentinels_claim (up to the priority now), read in order, no sort", p)
	}
}
