package storetest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testChangeReading: a change keeps how its versions were read
// (vigil.Change.Reading: which one as text and why, the selectors that
// could not be applied to the texts and why), written by CreateChange and
// by RecordChecks, and read back by FindChangeByID and FindChanges; a
// change without one reads back without one, as do those stored before
// it was kept. A reading that is not valid is refused, nothing stored.
func testChangeReading(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	checks, ok := s.(vigil.CheckStore)
	if !ok {
		t.Fatalf("%T is no vigil.CheckStore", s)
	}
	u := newUser(t, s, "ada@example.com")
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "s", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, sn))
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	reading := &vigil.ChangeReading{AsText: "old", Why: "parse HTML: elements nested more than 512 deep",
		NotApplied: []string{vigil.SelectorScope, vigil.SelectorIgnore}, ScopeNotApplied: []string{"the old version's text cannot be read as HTML"}}
	created := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: 1, ToVersion: 2, DetectedAt: t0, Summary: "created", Reading: reading}
	must(t, s.CreateChange(ctx, created))
	plain := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: 2, ToVersion: 3, DetectedAt: t0.Add(time.Hour), Summary: "plain"}
	must(t, s.CreateChange(ctx, plain))
	recorded := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: 3, ToVersion: 4, DetectedAt: t0.Add(2 * time.Hour), Summary: "recorded",
		Reading: &vigil.ChangeReading{AsText: "new", Why: "served as text/plain"}}
	must(t, checks.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sn.ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour), Changes: []*vigil.Change{recorded}}}))
	want := map[int64]*vigil.ChangeReading{created.ID: created.Reading, plain.ID: nil, recorded.ID: recorded.Reading}
	for id, w := range want {
		c, err := s.FindChangeByID(ctx, id)
		must(t, err)
		if !reflect.DeepEqual(c.Reading, w) {
			t.Errorf("change %d (%s): reading %+v, want %+v", id, c.Summary, c.Reading, w)
		}
	}
	cs, n, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sn.ID})
	must(t, err)
	if n != 3 || len(cs) != 3 {
		t.Fatalf("%d changes, want 3", n)
	}
	for _, c := range cs {
		if !reflect.DeepEqual(c.Reading, want[c.ID]) {
			t.Errorf("FindChanges: change %d (%s): reading %+v, want %+v", c.ID, c.Summary, c.Reading, want[c.ID])
		}
	}
	bad := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: 4, ToVersion: 5, DetectedAt: t0, Summary: "bad",
		Reading: &vigil.ChangeReading{AsText: "both", Why: "x"}}
	wantCode(t, s.CreateChange(ctx, bad), vigil.EINVALID)
	wantCode(t, checks.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sn.ID, CheckedAt: t0, NextCheck: t0, Changes: []*vigil.Change{bad}}}), vigil.EINVALID)
	if _, n, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sn.ID}); err != nil || n != 3 {
		t.Errorf("after refusing a bad reading: %d changes (%v), want 3", n, err)
	}
}
