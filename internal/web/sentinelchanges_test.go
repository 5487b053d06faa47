package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestSentinelPageChangesPages: a sentinel's page lists its changes a page
// at a time, with links to the older ones; it showed the newest 50 and
// said nothing of the others.
func TestSentinelPageChangesPages(t *testing.T) {
	e := newReadAsTextEnv(t)
	const n = 55
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		c := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: e.vs[0].ID, ToVersion: e.vs[2].ID,
			DetectedAt: at.Add(time.Duration(i) * time.Hour), Summary: fmt.Sprintf("change number %d", i+1), Records: []byte("[]")}
		if err := e.s.Store.CreateChange(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	path := fmt.Sprintf("/sentinels/%d", e.sen.ID)
	first := e.get(path)
	for _, want := range []string{"Showing 1–50 of 55.", fmt.Sprintf(`<a href="%s?offset=50" rel="next">`, path), ">change number 55<", ">change number 6<"} {
		if !strings.Contains(first, want) {
			t.Errorf("first page: no %q", want)
		}
	}
	older := e.get(path + "?offset=50")
	for _, want := range []string{"Showing 51–55 of 55.", `<ol class="timeline" start="51">`, ">change number 1<", ">change number 5<"} {
		if !strings.Contains(older, want) {
			t.Errorf("older page: no %q", want)
		}
	}
	if strings.Contains(older, ">change number 6<") {
		t.Errorf("older page lists a change of the first")
	}
}

// TestSentinelPageNoChangesPastEnd: a sentinel without changes, opened at
// an offset (a link kept from when it had some), says it has none; its
// Changes section was left empty, neither a pager nor a sentence.
func TestSentinelPageNoChangesPastEnd(t *testing.T) {
	e := newReadAsTextEnv(t)
	page := e.get(fmt.Sprintf("/sentinels/%d?offset=50", e.sen.ID))
	if !strings.Contains(page, "No change found yet.") {
		t.Errorf("the page does not say there is no change:\n%s", page[strings.Index(page, "<h2>Changes</h2>"):])
	}
}

// TestEditorAgainListsChanges: the editor shown again, for a source with
// errors or a form opened on an older revision, lists the first page of
// the sentinel's changes, whatever offset the form's address has; it said
// "No change found yet." of a sentinel with changes.
func TestEditorAgainListsChanges(t *testing.T) {
	e := newReadAsTextEnv(t)
	c := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: e.vs[0].ID, ToVersion: e.vs[2].ID,
		DetectedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Summary: "the one change", Records: []byte("[]")}
	if err := e.s.Store.CreateChange(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	client := newSignedIn(t, e.s, e.u)
	path := fmt.Sprintf("/sentinels/%d", e.sen.ID)
	_, opened := client.do("GET", path, "")
	rev := formRevisionOf(opened)
	if rev == "" {
		t.Fatal("the editor has no revision field")
	}
	for _, tc := range []struct {
		name, query, src, rev string
		status                int
	}{
		{"errors", "", "Create Sentinel p Using", rev, http.StatusUnprocessableEntity},
		{"stale", "", "Create Sentinel p Using http://a.example/q", `W/"stale"`, http.StatusConflict},
		// An offset on the form's address is not the form's: the
		// editor is shown again with the first page, not a 400.
		{"stale, a bad offset", "?offset=x", "Create Sentinel p Using http://a.example/q", `W/"stale"`, http.StatusConflict},
		{"errors, an offset past the end", "?offset=50", "Create Sentinel p Using", rev, http.StatusUnprocessableEntity},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, page := client.do("POST", path+tc.query, editorForm(tc.src, tc.rev))
			if code != tc.status {
				t.Fatalf("POST: %d, want %d:\n%s", code, tc.status, page)
			}
			if !strings.Contains(page, ">the one change<") || strings.Contains(page, "No change found yet.") {
				t.Errorf("the editor shown again does not list the change:\n%s", page[strings.Index(page, "<h2>Changes</h2>"):])
			}
		})
	}
}
