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

// TestSentinelListUsesServerClock: the list's next and last checks are
// said against the server's clock (Server.Now), as the rest of the
// dashboard is; the due and ago helpers read the wall clock, so a server
// whose clock is not the wall's (a test's) said a check due for 5m was
// due in years.
func TestSentinelListUsesServerClock(t *testing.T) {
	s, u := newTestServer(t)
	now := time.Date(2031, 3, 1, 12, 0, 0, 0, time.UTC) // years from the wall clock
	s.Now = func() time.Time { return now }
	sen := createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	if err := s.Store.CheckedSentinel(context.Background(), sen.ID, now.Add(-2*time.Hour), now.Add(-5*time.Minute-10*time.Second)); err != nil {
		t.Fatal(err)
	}
	code, page := newSignedIn(t, s, u).do("GET", "/sentinels", "")
	for _, want := range []string{">due for 5m</time>", ">2h ago</time>"} {
		if code != 200 || !strings.Contains(page, want) {
			t.Errorf("the list does not say %q by the server's clock: %d\n%s", want, code, page)
		}
	}
}
