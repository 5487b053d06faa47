package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestDigestEveryDayKeepsTheClock: a digest of Every 1 day (or 1 week)
// whose first period began at 09:00 in Paris ends at 09:00 in Paris each
// day, across the change to summer time (29 March 2026) and back (25
// October), as a day added to a time keeps its clock (spec.Duration). Its
// periods were 24 hours, and the daily digest came at 10:00 all summer.
func TestDigestEveryDayKeepsTheClock(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	at := func(mo time.Month, d int) time.Time { return time.Date(2026, mo, d, 9, 0, 0, 0, paris) }
	for _, tc := range []struct {
		every string
		steps []struct{ check, want time.Time }
	}{
		{"1 day", []struct{ check, want time.Time }{
			{at(3, 28), at(3, 29)},
			{at(3, 29), at(3, 30)},
			{at(3, 30), at(3, 31)},
			{at(4, 2).Add(3 * time.Hour), at(4, 3)}, // days passed unchecked
			{at(10, 24), at(10, 25)},
			{at(10, 25), at(10, 26)},
		}},
		{"1 week", []struct{ check, want time.Time }{
			{at(3, 25), at(4, 1)},
			{at(4, 1), at(4, 8)},
			{at(10, 21), at(10, 28)},
		}},
	} {
		t.Run(tc.every, func(t *testing.T) {
			db, wh, u := testStore(t)
			start := tc.steps[0].check
			p := &andPages{db: db, u: u, clock: start}
			c := spec.NewChecker(start)
			c.Location = paris
			p.s = createSentinel(t, db, c, u, "daily", digestSource(tc.every, ""))
			p.f = &pagesFetcher{pages: map[string]string{pageA: pageWith("a0")}}
			p.m = &Monitor{Store: db, Warehouse: wh, Fetcher: p.f, Policy: schedule.Policy{MinInterval: time.Minute},
				Location: paris, Now: func() time.Time { return p.clock }}
			for _, st := range tc.steps {
				p.clock = st.check
				makeDue(t, db, p.s, p.clock)
				runOnce(t, p.m, 1)
				states, err := db.SentinelStates(context.Background(), []int64{p.s.ID})
				if err != nil {
					t.Fatal(err)
				}
				if got := Summary(states[p.s.ID], p.s).DigestDue; !got.Equal(st.want) {
					t.Errorf("after the check of %s: next digest %s, want %s", st.check.In(paris), got.In(paris), st.want)
				}
			}
		})
	}
}
