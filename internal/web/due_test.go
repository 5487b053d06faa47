package web

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestDue: a next check is said as when it falls due; one whose time has
// come says it is due, not that it was some seconds "ago", which read as
// a check that had happened.
func TestDue(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for name, c := range map[string]struct {
		at   time.Time
		want string
	}{
		"in two hours":    {now.Add(2 * time.Hour), "in 2h"},
		"in ten seconds":  {now.Add(10 * time.Second), "in 10s"},
		"now":             {now, "due now"},
		"seconds ago":     {now.Add(-30 * time.Second), "due now"},
		"minutes overdue": {now.Add(-5 * time.Minute), "due for 5m"},
		"days overdue":    {now.Add(-72 * time.Hour), "due for 3d"},
		"never":           {time.Time{}, "never"},
	} {
		if got := dueAt(c.at, now); got != c.want {
			t.Errorf("%s: dueAt = %q, want %q", name, got, c.want)
		}
	}
}

// TestSentinelListNextCheckDue: the sentinel list says a next check whose
// time has passed is due; it said "5m ago".
func TestSentinelListNextCheckDue(t *testing.T) {
	s, u := newTestServer(t)
	sen := createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	sen.NextCheck = time.Now().UTC().Add(-5*time.Minute - 10*time.Second)
	if err := s.Store.UpdateSentinel(context.Background(), sen); err != nil {
		t.Fatal(err)
	}
	code, page := newSignedIn(t, s, u).do("GET", "/sentinels", "")
	if code != 200 || !strings.Contains(page, ">due for 5m</time>") || strings.Contains(page, ">5m ago</time>") {
		t.Errorf("the list does not say the next check is due for 5m: %d\n%s", code, page)
	}
}
