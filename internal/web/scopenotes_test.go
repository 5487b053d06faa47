package web

import (
	"context"
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestScopeNotesShown: what the monitor found a sentinel's scopes select
// nothing of (Server.SentinelStates) is in its API view, and on the dashboard's
// list and its own page, where a sentinel that never fires says why; a
// sentinel without one says nothing.
func TestScopeNotesShown(t *testing.T) {
	s, u := newTestServer(t)
	lost := createChecked(t, s, u, "Create Sentinel lost Using http://a.example/ Monitor table {u} Fetch 1 hour")
	fine := createChecked(t, s, u, "Create Sentinel fine Using http://b.example/ Fetch 1 hour")
	const note = "scope table#u matches nothing on http://a.example/"
	s.SentinelStates = func(_ context.Context, _ []*vigil.Sentinel) (map[int64]SentinelState, error) {
		return map[int64]SentinelState{lost.ID: {ScopeNotes: []string{note}}}, nil
	}
	c := newSignedIn(t, s, u)
	for _, tc := range []struct {
		id   int64
		want []string
	}{{lost.ID, []string{note}}, {fine.ID, nil}} {
		path := "/api/v1/sentinels/" + strconv.FormatInt(tc.id, 10)
		status, body := c.do("GET", path, "")
		var v struct{ ScopeNotes []string }
		if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
			t.Fatalf("GET %s: %d %v %s", path, status, err, body)
		}
		if strings.Join(v.ScopeNotes, "|") != strings.Join(tc.want, "|") {
			t.Errorf("GET %s: scopeNotes %q, want %q", path, v.ScopeNotes, tc.want)
		}
	}
	if status, body := c.do("GET", "/api/v1/sentinels", ""); status != 200 || strings.Count(body, `"scopeNotes"`) != 1 {
		t.Errorf("GET /api/v1/sentinels: %d, want one sentinel with scopeNotes: %s", status, body)
	}
	for _, path := range []string{"/sentinels", "/sentinels/" + strconv.FormatInt(lost.ID, 10)} {
		if status, body := c.do("GET", path, ""); status != 200 || !strings.Contains(html.UnescapeString(body), note) {
			t.Errorf("GET %s: %d, does not say %q", path, status, note)
		}
	}
	if status, body := c.do("GET", "/sentinels/"+strconv.FormatInt(fine.ID, 10), ""); status != 200 || strings.Contains(body, "matches nothing") {
		t.Errorf("GET the fine sentinel's page: %d, says a scope matches nothing", status)
	}
}
