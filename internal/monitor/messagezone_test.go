package monitor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the zones below where the system has no zoneinfo

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestMessagesInSentinelZone: the times a message says to a person (a
// digest's subject, a change's time in its body, a failure notice's
// "fails since", a works-again notice's "after failing since") are in the
// owner's zone, the one the sentinel's dates were read in here
// (TestMessagesFollowOwnerZone changes it), named by the abbreviation the
// zone has that day, on a deployment in another zone (Europe/Paris): in
// New York, a failure that began on 31 October 2026, before daylight
// saving time ended (06:00 UTC on 1 November), is said in EDT, and the
// digest period and failure that began after it in EST. An owner without
// a zone, of a sentinel saved before sentinels kept one, reads the
// deployment's. The digest's period (Message.Since) stays the instant, in
// UTC, for programs. The messages said every time in UTC.
func TestMessagesInSentinelZone(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 10, 31, 12, 0, 0, 0, time.UTC) // 08:00 EDT, 21:00 JST
	for _, tc := range []struct {
		zone       string         // the sentinel's (its owner's when saved)
		deployment *time.Location // Monitor.Location
		// The first digest's period began at t0; the page failed from
		// t0+2h to t0+20h, changed at t0+20h, and failed again from
		// t0+26h.
		digest, failing, changed, again string
	}{
		{"America/New_York", paris, "2026-10-31 08:00 EDT", "2026-10-31 10:00 EDT", "2026-11-01 03:00 EST", "2026-11-01 09:00 EST"},
		{"Asia/Tokyo", paris, "2026-10-31 21:00 JST", "2026-10-31 23:00 JST", "2026-11-01 17:00 JST", "2026-11-01 23:00 JST"},
		{"", paris, "2026-10-31 13:00 CET", "2026-10-31 15:00 CET", "2026-11-01 09:00 CET", "2026-11-01 15:00 CET"},
		{"", nil, "2026-10-31 12:00 UTC", "2026-10-31 14:00 UTC", "2026-11-01 08:00 UTC", "2026-11-01 14:00 UTC"},
	} {
		name := tc.zone
		if name == "" {
			name = "none, deployment " + tc.deployment.String()
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			fs := &flakyServer{pages: map[string]string{"/page": pageWith("a0")}}
			srv := httptest.NewServer(fs)
			t.Cleanup(srv.Close)
			db, wh, u := testStore(t)
			src := "Create Sentinel daily Using " + srv.URL + "/page Monitor any change Fetch 1 hour Notify By email owner@example.test Every 1 day\n"
			var s *vigil.Sentinel
			if tc.zone == "" {
				// Saved before sentinels kept their zone.
				s = createSentinel(t, db, spec.NewChecker(t0), u, "daily", src)
			} else {
				if err := db.SetUserTimeZone(ctx, u.ID, tc.zone); err != nil {
					t.Fatal(err)
				}
				s = saveIn(t, db, u, nil, src, t0)
			}
			now := t0
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
				Policy: schedule.Policy{MinInterval: time.Minute}, Location: tc.deployment, FailureNotice: 3 * time.Hour,
				Now: func() time.Time { return now }}
			run := func(h int) {
				t.Helper()
				now = t0.Add(time.Duration(h) * time.Hour)
				makeDue(t, db, s, now)
				runOnce(t, m, 1)
			}
			run(0) // the first version; the digest's period begins
			fs.setStatus("/page", http.StatusInternalServerError)
			run(2)
			run(5) // failing for 3 hours: told
			fs.setStatus("/page", 0)
			fs.mu.Lock()
			fs.pages["/page"] = pageWith("a1")
			fs.mu.Unlock()
			run(20) // works again, changed
			run(24) // the digest of the day
			fs.setStatus("/page", http.StatusInternalServerError)
			run(26)
			run(29) // told

			msgs := messagesOf(t, db, u, s)
			if len(msgs) != 4 {
				var subjects []string
				for _, msg := range msgs {
					subjects = append(subjects, msg.Subject)
				}
				t.Fatalf("messages %q, want a failure notice, works again, a digest and a failure notice", subjects)
			}
			fails, works, digest, failsAgain := msgs[0], msgs[1], msgs[2], msgs[3]
			page := srv.URL + "/page"
			if want := "[Vigil] daily: " + page + " fails since " + tc.failing; fails.Subject != want {
				t.Errorf("failure notice %q, want %q", fails.Subject, want)
			}
			if want := "every check since " + tc.failing + " failed"; !strings.Contains(fails.Text, want) || !strings.Contains(fails.HTML, want) {
				t.Errorf("failure notice's bodies do not say %q:\n%s\n%s", want, fails.Text, fails.HTML)
			}
			if want := "after failing since " + tc.failing + "."; !strings.HasSuffix(works.Subject, " works again") ||
				!strings.Contains(works.Text, want) || !strings.Contains(works.HTML, want) {
				t.Errorf("works-again notice %q does not say %q:\n%s\n%s", works.Subject, want, works.Text, works.HTML)
			}
			if want := "[Vigil] daily: 1 change since " + tc.digest; digest.Subject != want {
				t.Errorf("digest %q, want %q", digest.Subject, want)
			}
			if !digest.Since.Equal(t0) || digest.Since.Location() != time.UTC {
				t.Errorf("digest's period since %v, want %v in UTC", digest.Since, t0)
			}
			if want := "(" + tc.changed + ")"; !strings.Contains(digest.Text, want) {
				t.Errorf("digest's text does not say the change's time %q:\n%s", want, digest.Text)
			}
			if want := "<small>" + tc.changed + "</small>"; !strings.Contains(digest.HTML, want) {
				t.Errorf("digest's HTML does not say the change's time %q:\n%s", want, digest.HTML)
			}
			if want := "[Vigil] daily: " + page + " fails since " + tc.again; failsAgain.Subject != want {
				t.Errorf("second failure notice %q, want %q", failsAgain.Subject, want)
			}
			if f := failsAgain.Failure; f == nil || !f.Since.Equal(t0.Add(26*time.Hour)) || f.Since.Location() != time.UTC {
				t.Errorf("second failure %+v: want since %v in UTC", f, t0.Add(26*time.Hour))
			}
		})
	}
}
