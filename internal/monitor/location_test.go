package monitor

import (
	"encoding/json"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Paris where the system has no zoneinfo

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestPlanLifespanLocation: the lifespan the monitor runs a sentinel by
// is in the deployment's zone (Monitor.Location, vigil serve --tz), the
// one its dates were checked in: start(base) + 1 day, base started at
// 09:00 in Paris on Saturday 28 March 2026, starts at 09:00 on Sunday
// (07:00 UTC, summer time having begun), not 10:00. The monitor built
// lifespans in UTC whatever zone the sentinel was checked in.
func TestPlanLifespanLocation(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	created := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	c := spec.NewChecker(created)
	c.Location = paris
	base, err := spec.ParseSentinel("", []byte("Create Sentinel base Using http://a.example/"))
	if err != nil {
		t.Fatal(err)
	}
	bc, err := c.Check(base)
	if err != nil {
		t.Fatal(err)
	}
	c.Add(&spec.Stored{Checked: bc})
	dep, err := spec.ParseSentinel("", []byte("Create Sentinel later Using http://a.example/ From start(base) + 1 day To 12/01/2026"))
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
	s := &vigil.Sentinel{ID: 2, Name: "later", Spec: js, CreatedAt: created, UpdatedAt: created}
	lookup := func(name string) (schedule.Status, bool) {
		return schedule.Status{Started: time.Date(2026, 3, 28, 8, 0, 0, 0, time.UTC)}, name == "base"
	}
	for _, tc := range []struct {
		loc  *time.Location
		want time.Time
	}{
		{paris, time.Date(2026, 3, 29, 7, 0, 0, 0, time.UTC)},
		{nil, time.Date(2026, 3, 29, 8, 0, 0, 0, time.UTC)},
	} {
		m := &Monitor{Location: tc.loc}
		m.init()
		p, err := m.plans.get(s)
		if err != nil {
			t.Fatal(err)
		}
		tr := p.lifespan.Evaluate(created, schedule.Status{}, lookup)
		if !tr.Wake.Equal(tc.want) {
			t.Errorf("Location %v: wakes at %s, want %s", tc.loc, tr.Wake.UTC(), tc.want)
		}
	}
}
