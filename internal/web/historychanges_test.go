package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestHistoryChangesSaysMore: a page's history lists the newest changes
// its user's sentinels reported on it, and says how many there are when
// it lists only some of them; it stopped at 100 without a word.
func TestHistoryChangesSaysMore(t *testing.T) {
	e := newReadAsTextEnv(t)
	path := fmt.Sprintf("/resources/%d", e.res)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(n int) {
		for range n {
			at = at.Add(time.Hour)
			c := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: e.vs[0].ID, ToVersion: e.vs[2].ID,
				DetectedAt: at, Summary: "any change: 1 text changed", Records: []byte("[]")}
			if err := e.s.Store.CreateChange(context.Background(), c); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(historyChanges)
	if page := e.get(path); strings.Contains(page, "changes of") {
		t.Errorf("a history listing all %d of its changes says it lists only some", historyChanges)
	}
	add(5)
	page := e.get(path)
	if want := fmt.Sprintf("The newest %d changes of %d", historyChanges, historyChanges+5); !strings.Contains(page, want) {
		t.Errorf("a history of %d changes does not say %q", historyChanges+5, want)
	}
	if want := fmt.Sprintf(`<a href="/sentinels/%d">%s</a>`, e.sen.ID, e.sen.Name); !strings.Contains(page, want) {
		t.Errorf("a history listing some of its changes does not link %q, whose page lists them all", want)
	}
}

// TestHistoryChangesLinksEverySentinel: when a page's history lists only
// the newest of its changes, it links every sentinel of the user that
// reported one, not only those of the changes listed: a sentinel whose
// changes are all older is where the rest of them are.
func TestHistoryChangesLinksEverySentinel(t *testing.T) {
	e := newReadAsTextEnv(t)
	older := createChecked(t, e.s, &vigil.User{ID: e.sen.OwnerID}, "Create Sentinel q Using http://a.example/p")
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(sen *vigil.Sentinel, n int) {
		for range n {
			at = at.Add(time.Hour)
			c := &vigil.Change{SentinelID: sen.ID, ResourceID: e.res, FromVersion: e.vs[0].ID, ToVersion: e.vs[2].ID,
				DetectedAt: at, Summary: "any change: 1 text changed", Records: []byte("[]")}
			if err := e.s.Store.CreateChange(context.Background(), c); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(older, 3)
	add(e.sen, historyChanges)
	page := e.get(fmt.Sprintf("/resources/%d", e.res))
	for _, sen := range []*vigil.Sentinel{e.sen, older} {
		if want := fmt.Sprintf(`<a href="/sentinels/%d">%s</a>`, sen.ID, sen.Name); !strings.Contains(page, want) {
			t.Errorf("a history listing the newest %d of %d changes does not link %q, whose page lists some of the rest", historyChanges, historyChanges+3, want)
		}
	}
}
