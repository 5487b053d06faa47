package sqlite_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestRetentionSiblingsReadOnce: the outbox retention reads the letters
// of no change not sent (which hold a sent letter of their payload back)
// once a statement, into a list each sent letter is looked up in, not
// once for each sent letter: the dead letters are kept as long as the
// sent ones, and tens of thousands of them (a broken target) made each
// batch hold the write lock for seconds (15s for a batch of 500 among
// 50,000 dead letters).
func TestRetentionSiblingsReadOnce(t *testing.T) {
	ctx := context.Background()
	c := migratedConn(t)
	b := time.Now().UnixNano()
	rows, err := c.QueryContext(ctx, "EXPLAIN QUERY PLAN "+sqlite.DeleteSentBeforeQuery, b, b, b,
		vigil.SentinelRemoved, vigil.SentinelRemoved, vigil.SentinelRemoved, 500)
	if err != nil {
		t.Fatal(err)
	}
	type step struct {
		parent int
		detail string
	}
	steps := map[int]step{}
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		steps[id] = step{parent, detail}
		plan = append(plan, detail)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	once := false
	for _, s := range steps {
		if strings.HasPrefix(s.detail, "SEARCH o USING INDEX notifications_due") && strings.HasPrefix(steps[s.parent].detail, "LIST SUBQUERY") {
			once = true
		}
	}
	if !once {
		t.Errorf("plan %s: want the letters not sent read once by notifications_due (a LIST SUBQUERY)", strings.Join(plan, "; "))
	}
}
