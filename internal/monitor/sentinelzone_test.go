package monitor

import (
	"context"
	"encoding/json"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Tokyo and Europe/Paris where the system has no zoneinfo

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// zones returns Asia/Tokyo and Europe/Paris.
func zones(t *testing.T) (tokyo, paris *time.Location) {
	t.Helper()
	var err error
	if tokyo, err = time.LoadLocation("Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	if paris, err = time.LoadLocation("Europe/Paris"); err != nil {
		t.Fatal(err)
	}
	return tokyo, paris
}

// saveIn checks src for owner in the owner's zone, as the dashboard and
// the API do (vigil.User.TimeZone), and stores it with the zone, due at
// now. replacing is the stored sentinel an edit replaces, nil for a new
// one.
func saveIn(t *testing.T, db vigil.Store, owner *vigil.User, replacing *vigil.Sentinel, src string, now time.Time) *vigil.Sentinel {
	t.Helper()
	ctx := context.Background()
	owner, err := db.FindUserByID(ctx, owner.ID)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := vigil.LoadTimeZone(owner.TimeZone)
	if err != nil {
		t.Fatal(err)
	}
	c := spec.NewChecker(now)
	c.Location = loc
	ps, err := spec.ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var ch *spec.Checked
	if replacing != nil {
		var prev spec.Checked
		if err := json.Unmarshal(replacing.Spec, &prev); err != nil {
			t.Fatal(err)
		}
		was, err := vigil.LoadTimeZone(replacing.TimeZone)
		if err != nil {
			t.Fatal(err)
		}
		c.Add(&spec.Stored{Checked: &prev, Location: was})
		ch, err = c.CheckReplace(replacing.Name, ps)
		if err != nil {
			t.Fatal(err)
		}
	} else if ch, err = c.Check(ps); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(ch)
	if err != nil {
		t.Fatal(err)
	}
	s := &vigil.Sentinel{OwnerID: owner.ID, Name: ps.Name.Name, Source: src, Spec: js, Status: vigil.SentinelActive, NextCheck: now, TimeZone: loc.String()}
	if replacing != nil {
		s.ID = replacing.ID
		err = db.UpdateSentinel(ctx, s)
	} else {
		err = db.CreateSentinel(ctx, s)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSentinelStartsInItsZone: on a deployment in UTC, a sentinel its
// owner saved in Asia/Tokyo From 12/24/2026 09:00 starts at midnight UTC
// that day: the monitor, which checks it the evening before, next checks
// it then, and finds it started then. The owner's move to Europe/Paris
// moves nothing until the sentinel is edited: the edit, read in Paris,
// starts it at 08:00 UTC.
func TestSentinelStartsInItsZone(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	if err := db.SetUserTimeZone(ctx, u.ID, "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	const src = "Create Sentinel xmas Using " + pageA + " From 12/24/2026 09:00 Fetch 1 hour\n"
	eve := time.Date(2026, 12, 23, 12, 0, 0, 0, time.UTC)
	midnight := time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)
	s := saveIn(t, db, u, nil, src, eve)
	clock := eve
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: &pagesFetcher{pages: map[string]string{pageA: pageWith("a")}},
		Location: time.UTC, PendingPoll: 72 * time.Hour, Now: func() time.Time { return clock }}
	stored := func() (*vigil.Sentinel, schedule.Status) {
		t.Helper()
		got, err := db.FindSentinelByID(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		states, err := db.SentinelStates(ctx, []int64{s.ID})
		if err != nil {
			t.Fatal(err)
		}
		return got, Lifespan(states[s.ID])
	}
	round := func(at time.Time) {
		t.Helper()
		clock = at
		makeDue(t, db, s, at)
		if _, err := m.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}

	round(eve)
	if got, st := stored(); !got.NextCheck.Equal(midnight) || !st.Started.IsZero() {
		t.Errorf("the evening before: next check %s, started %s; want the start, %s, and not started", got.NextCheck, st.Started, midnight)
	}

	// The owner moves to Paris: the saved sentinel keeps Tokyo.
	if err := db.SetUserTimeZone(ctx, u.ID, "Europe/Paris"); err != nil {
		t.Fatal(err)
	}
	round(eve.Add(time.Hour))
	if got, _ := stored(); !got.NextCheck.Equal(midnight) || got.TimeZone != "Asia/Tokyo" {
		t.Errorf("after the owner moved: next check %s in %q; want %s in Asia/Tokyo", got.NextCheck, got.TimeZone, midnight)
	}

	// Edited, it is read in Paris: 09:00 there is 08:00 UTC.
	cur, _ := stored()
	s = saveIn(t, db, u, cur, src, eve.Add(2*time.Hour))
	round(eve.Add(2 * time.Hour))
	if got, st := stored(); !got.NextCheck.Equal(midnight.Add(8*time.Hour)) || got.TimeZone != "Europe/Paris" || !st.Started.IsZero() {
		t.Errorf("edited in Paris: next check %s in %q, started %s; want %s in Europe/Paris", got.NextCheck, got.TimeZone, st.Started, midnight.Add(8*time.Hour))
	}
	round(midnight.Add(8 * time.Hour))
	if _, st := stored(); !st.Started.Equal(midnight.Add(8 * time.Hour)) {
		t.Errorf("at 08:00 UTC: started %s, want then", st.Started)
	}
}

// TestPlanLifespanSentinelZone: the monitor runs a sentinel's lifespan in
// the zone it was saved in (Sentinel.TimeZone), not the deployment's
// (Monitor.Location), which is only for one saved without: start(base) +
// 1 month, base started at 08:00 on 1 March 2027 in Tokyo (23:00 UTC the
// day before), is 08:00 on 1 April in Tokyo, 23:00 UTC on 31 March; in
// UTC it would be 28 March. A zone the zone database does not know fails
// the plan. The monitor ran every lifespan in Monitor.Location.
func TestPlanLifespanSentinelZone(t *testing.T) {
	tokyo, _ := zones(t)
	created := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	c := spec.NewChecker(created)
	c.Location = tokyo
	base, err := spec.ParseSentinel("", []byte("Create Sentinel base Using http://a.example/"))
	if err != nil {
		t.Fatal(err)
	}
	bc, err := c.Check(base)
	if err != nil {
		t.Fatal(err)
	}
	c.Add(&spec.Stored{Checked: bc})
	dep, err := spec.ParseSentinel("", []byte("Create Sentinel later Using http://a.example/ From start(base) + 1 month"))
	if err != nil {
		t.Fatal(err)
	}
	dc, err := c.Check(dep)
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(dc)
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(name string) (schedule.Status, bool) {
		return schedule.Status{Started: time.Date(2027, 2, 28, 23, 0, 0, 0, time.UTC)}, name == "base"
	}
	for _, tc := range []struct {
		zone string
		loc  *time.Location // Monitor.Location
		want time.Time
	}{
		{"Asia/Tokyo", time.UTC, time.Date(2027, 3, 31, 23, 0, 0, 0, time.UTC)},
		{"Asia/Tokyo", nil, time.Date(2027, 3, 31, 23, 0, 0, 0, time.UTC)},
		{"", tokyo, time.Date(2027, 3, 31, 23, 0, 0, 0, time.UTC)},
		{"", nil, time.Date(2027, 3, 28, 23, 0, 0, 0, time.UTC)},
		{"UTC", tokyo, time.Date(2027, 3, 28, 23, 0, 0, 0, time.UTC)},
	} {
		s := &vigil.Sentinel{ID: 2, Name: "later", Spec: js, CreatedAt: created, UpdatedAt: created, TimeZone: tc.zone}
		m := &Monitor{Location: tc.loc}
		m.init()
		p, err := m.plans.get(s)
		if err != nil {
			t.Fatal(err)
		}
		tr := p.lifespan.Evaluate(created, schedule.Status{}, lookup)
		if !tr.Wake.Equal(tc.want) {
			t.Errorf("saved in %q, deployment %v: wakes at %s, want %s", tc.zone, tc.loc, tr.Wake.UTC(), tc.want)
		}
	}
	m := &Monitor{}
	m.init()
	if _, err := m.plans.get(&vigil.Sentinel{ID: 3, Name: "later", Spec: js, TimeZone: "Mars/Olympus_Mons"}); err == nil {
		t.Error("a plan in an unknown zone: no error")
	}
}
