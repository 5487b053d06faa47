package monitor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
	_ "time/tzdata" // the zones below where the system has no zoneinfo

	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
)

// TestMessagesFollowOwnerZone: a message says its times in its owner's
// zone as it is when the message is written, not in the one the
// sentinel was saved in: a sentinel saved in New York, whose owner then
// sets Asia/Tokyo, says its next failure in JST without being edited,
// and in the deployment's zone (Europe/Paris) once the owner clears
// theirs. The language gives a sentinel no zone of its own. The messages
// kept the zone of the sentinel's save until it was edited.
func TestMessagesFollowOwnerZone(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	fs := &flakyServer{pages: map[string]string{"/page": pageWith("a0")}}
	srv := httptest.NewServer(fs)
	t.Cleanup(srv.Close)
	db, wh, u := testStore(t)
	if err := db.SetUserTimeZone(ctx, u.ID, "America/New_York"); err != nil {
		t.Fatal(err)
	}
	src := "Create Sentinel zoned Using " + srv.URL + "/page Monitor any change Fetch 1 hour Notify By email owner@example.test\n"
	s := saveIn(t, db, u, nil, src, t0)
	now := t0
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
		Policy: schedule.Policy{MinInterval: time.Minute}, Location: paris, FailureNotice: 3 * time.Hour,
		Now: func() time.Time { return now }}
	run := func(h int) {
		t.Helper()
		now = t0.Add(time.Duration(h) * time.Hour)
		makeDue(t, db, s, now)
		runOnce(t, m, 1)
	}
	page := srv.URL + "/page"
	run(0)
	for i, tc := range []struct {
		zone string // the owner's, set before the page fails
		want string // since when it fails, said in it
	}{
		{"America/New_York", "2026-12-01 09:00 EST"},
		{"Asia/Tokyo", "2026-12-02 11:00 JST"},
		{"", "2026-12-02 15:00 CET"},
	} {
		if err := db.SetUserTimeZone(ctx, u.ID, tc.zone); err != nil {
			t.Fatal(err)
		}
		base := 2 + 12*i
		fs.setStatus("/page", http.StatusInternalServerError)
		run(base)
		run(base + 3) // failing for 3 hours: told
		fs.setStatus("/page", 0)
		run(base + 4) // works again
		msgs := messagesOf(t, db, u, s)
		if len(msgs) != 2*(i+1) {
			t.Fatalf("owner's zone %q: %d messages, want %d", tc.zone, len(msgs), 2*(i+1))
		}
		if want := "[Vigil] zoned: " + page + " fails since " + tc.want; msgs[2*i].Subject != want {
			t.Errorf("owner's zone %q: failure notice %q, want %q", tc.zone, msgs[2*i].Subject, want)
		}
	}
	if cur, err := db.FindSentinelByID(ctx, s.ID); err != nil || cur.TimeZone != "America/New_York" {
		t.Errorf("the sentinel's zone: %v, %v; want America/New_York kept, its lifespan's", cur, err)
	}
}
