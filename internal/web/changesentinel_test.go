package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestChangePageNamesSentinel: a change's page names the sentinel that
// found it, linked to its page; it said "by sentinel #3", a number the
// dashboard shows nowhere else.
func TestChangePageNamesSentinel(t *testing.T) {
	e := newReadAsTextEnv(t)
	c := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: e.vs[0].ID, ToVersion: e.vs[2].ID,
		DetectedAt: time.Now().UTC(), Summary: "any change: 1 text changed", Records: []byte("[]")}
	if err := e.s.Store.CreateChange(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	page := e.get(fmt.Sprintf("/resources/%d/diff?from=%d&to=%d&view=inline&change=%d", e.res, c.FromVersion, c.ToVersion, c.ID))
	if want := fmt.Sprintf(`by sentinel <a href="/sentinels/%d">%s</a>`, e.sen.ID, e.sen.Name); !strings.Contains(page, want) {
		_, summary, _ := strings.Cut(page, `<p class="summary">`)
		summary, _, _ = strings.Cut(summary, "</p>")
		t.Errorf("the change's page says %q, want %q", summary, want)
	}
}
