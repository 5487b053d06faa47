package web

import (
	"context"
	"html"
	"strconv"
	"strings"
	"testing"
)

// TestDeleteOfUsedSentinelRefused: a sentinel that another of its owner's
// uses (Using it, or waiting for its start or end) is not removed, from
// the dashboard's Delete button as from the API: both answer 409 saying
// which sentinel uses it, and it is still there. The dashboard's Delete
// removed it, which left the one using it unable to be checked again, and
// gave it a later sentinel of that name unasked.
func TestDeleteOfUsedSentinelRefused(t *testing.T) {
	const (
		base = "Create Sentinel base Using http://a.example/ Fetch 1 hour"
		kid  = "Create Sentinel kid Using base Fetch 1 hour To end(base)"
	)
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				name, method, path string
			}{
				{"dashboard", "POST", "/sentinels/%d/delete"},
				{"API", "DELETE", "/api/v1/sentinels/%d"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					st := open(t)
					s, u := checkingServer(t, st)
					used := saveAll(t, s, u, base, kid)[0]
					c := newSignedIn(t, s, u)
					path := strings.Replace(tc.path, "%d", strconv.FormatInt(used.ID, 10), 1)
					got, page := c.do(tc.method, path, "")
					if got != 409 {
						t.Errorf("%s %s: %d, want 409:\n%s", tc.method, path, got, page)
					}
					if want := "sentinel base cannot be removed: it is used by kid; edit or remove it first"; !strings.Contains(html.UnescapeString(page), want) {
						t.Errorf("%s %s does not say %q:\n%s", tc.method, path, want, page)
					}
					if _, err := st.FindSentinelByID(context.Background(), used.ID); err != nil {
						t.Errorf("base after the refused removal: %v; want it kept", err)
					}
				})
			}
		})
	}
}
