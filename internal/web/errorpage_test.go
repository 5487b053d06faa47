package web

import (
	"strings"
	"testing"
)

// TestErrorPageTitles: a dashboard page that fails is titled by what
// went wrong, as a tab or the history lists it, not "Error" whatever
// happened.
func TestErrorPageTitles(t *testing.T) {
	s, u := newTestServer(t)
	c := newSignedIn(t, s, u)
	for _, tc := range []struct {
		path   string
		status int
		title  string
	}{
		{"/sentinels/9999", 404, "Not found"},
		{"/changes/9999", 404, "Not found"},
		{"/sentinels/abc", 400, "Invalid request"},
		{"/notifications?state=bogus", 400, "Invalid request"},
	} {
		status, body := c.do("GET", tc.path, "")
		if status != tc.status {
			t.Errorf("%s: %d, want %d", tc.path, status, tc.status)
		}
		if want := "<title>" + tc.title + " · Vigil</title>"; !strings.Contains(body, want) {
			t.Errorf("%s: no %q in\n%s", tc.path, want, body)
		}
		if want := "<h1>" + tc.title + "</h1>"; !strings.Contains(body, want) {
			t.Errorf("%s: no %q", tc.path, want)
		}
	}
}
