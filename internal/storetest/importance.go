package storetest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testImportance: a check record's page importances are stored on their
// resources, and the largest on the sentinel; a record without any keeps
// the sentinel's; a new sentinel has none, whatever it is given; a
// resource deleted meanwhile is skipped (its importance
// still counts for the sentinel, whose check read it); an importance
// out of 0 to 1 is refused, writing nothing.
func testImportance(t *testing.T, s interface {
	vigil.Store
	vigil.CheckStore
}) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	// A new sentinel's importance is 0, whatever it is given: only
	// RecordChecks sets it.
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "s", Source: "x", Status: vigil.SentinelActive, NextCheck: t0, Importance: 0.75}
	must(t, s.CreateSentinel(ctx, sn))
	a, err := s.EnsureResource(ctx, "http://example.com/a")
	must(t, err)
	b, err := s.EnsureResource(ctx, "http://example.com/b")
	must(t, err)
	gone, err := s.EnsureResource(ctx, "http://example.com/gone")
	must(t, err)
	must(t, s.DeleteResource(ctx, gone.ID))
	if a.Importance != 0 || sn.Importance != 0 {
		t.Fatalf("new resource importance %v, new sentinel's (created with 0.75) %v; want 0", a.Importance, sn.Importance)
	}
	wantImportance := func(step string, ra, rb, sen float64) {
		t.Helper()
		for _, w := range []struct {
			id   int64
			want float64
		}{{a.ID, ra}, {b.ID, rb}} {
			r, err := s.FindResourceByID(ctx, w.id)
			must(t, err)
			if r.Importance != w.want {
				t.Errorf("%s: resource %s importance %v, want %v", step, r.URL, r.Importance, w.want)
			}
			list, _, err := s.FindResources(ctx, vigil.ResourceFilter{ID: &w.id})
			must(t, err)
			if len(list) != 1 || list[0].Importance != w.want {
				t.Errorf("%s: FindResources of %s: %+v, want importance %v", step, r.URL, list, w.want)
			}
		}
		got, err := s.FindSentinelByID(ctx, sn.ID)
		must(t, err)
		if got.Importance != sen {
			t.Errorf("%s: sentinel importance %v, want %v", step, got.Importance, sen)
		}
	}
	record := func(imp ...vigil.PageImportance) error {
		return s.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sn.ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour), Importance: imp}})
	}
	must(t, record(vigil.PageImportance{ResourceID: a.ID, Importance: 0.25}, vigil.PageImportance{ResourceID: b.ID, Importance: 0.125},
		vigil.PageImportance{ResourceID: gone.ID, Importance: 0.5}))
	wantImportance("first check", 0.25, 0.125, 0.5) // the deleted page's counts: the check read it
	must(t, record(vigil.PageImportance{ResourceID: b.ID, Importance: 0.0625}))
	wantImportance("second check, one page", 0.25, 0.0625, 0.0625)
	must(t, record())
	wantImportance("check that read no page", 0.25, 0.0625, 0.0625)
	for _, bad := range []float64{-0.5, 1.5, math.NaN(), math.Inf(1)} {
		wantCode(t, record(vigil.PageImportance{ResourceID: a.ID, Importance: 0.5}, vigil.PageImportance{ResourceID: b.ID, Importance: bad}), vigil.EINVALID)
	}
	wantCode(t, record(vigil.PageImportance{Importance: 0.5}), vigil.EINVALID)
	wantImportance("refused records", 0.25, 0.0625, 0.0625)

	// Many pages in one batch of records (a store may write them in
	// chunks): each resource gets its own, exactly as given.
	const many = 1100
	var recs []*vigil.CheckRecord
	want := map[int64]float64{}
	for i := range many {
		r, err := s.EnsureResource(ctx, fmt.Sprintf("http://example.com/many/%d", i))
		must(t, err)
		imp := 1 / float64(3+i) // not a short binary fraction
		want[r.ID] = imp
		if i%100 == 0 {
			recs = append(recs, &vigil.CheckRecord{SentinelID: sn.ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour)})
		}
		rec := recs[len(recs)-1]
		rec.Importance = append(rec.Importance, vigil.PageImportance{ResourceID: r.ID, Importance: imp})
	}
	must(t, s.RecordChecks(ctx, recs))
	for id, imp := range want {
		r, err := s.FindResourceByID(ctx, id)
		must(t, err)
		if r.Importance != imp {
			t.Fatalf("resource %s of %d written at once: importance %v, want %v", r.URL, many, r.Importance, imp)
		}
	}
}

// testClaimPriority: due sentinels are claimed by vigil.ClaimPriority,
// how late each is plus its importance times vigil.ImportanceLead, ties to
// the lowest id, so that under a claim limit the important ones go first
// unless an unimportant one waited longer than the lead: one overdue by
// 30 hours comes before one of importance 1 just due (a lead of 24
// hours), and one overdue by 23 hours after it.
func testClaimPriority(t *testing.T, s interface {
	vigil.Store
	vigil.CheckStore
}) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	now := t0.Add(72 * time.Hour)
	cases := []struct {
		name       string
		importance float64
		late       time.Duration // now − NextCheck; negative: not due
	}{
		{"long overdue unimportant", 0, 30 * time.Hour},      // 30h
		{"just due important", 1, 0},                         // 24h
		{"overdue unimportant", 0, 23 * time.Hour},           // 23h
		{"a little late, rather important", 0.5, time.Hour},  // 13h
		{"late, of some importance", 0.25, 2 * time.Hour},    // 8h
		{"just due, of some importance", 0.25, 0},            // 6h
		{"late, less important, tied", 0.125, 3 * time.Hour}, // 6h, after the one before (id)
		{"late unimportant", 0, 2 * time.Hour},               // 2h
		{"not due, important", 1, -time.Minute},              // never
		{"just due unimportant", 0, 0},                       // 0
		{"due in a second, most important", 1, -time.Second}, // never
	}
	want := []string{"long overdue unimportant", "just due important", "overdue unimportant", "a little late, rather important",
		"late, of some importance", "just due, of some importance", "late, less important, tied", "late unimportant", "just due unimportant"}
	// Created in an order unlike the claim's, so that the id order and
	// the creation order do not give it.
	byID := map[int64]string{}
	var recs []*vigil.CheckRecord
	var sens []*vigil.Sentinel
	for _, i := range []int{7, 3, 0, 9, 5, 1, 6, 10, 2, 8, 4} {
		c := cases[i]
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: c.name, Source: "x", Status: vigil.SentinelActive, NextCheck: now.Add(time.Hour)}
		must(t, s.CreateSentinel(ctx, sn))
		byID[sn.ID] = c.name
		r, err := s.EnsureResource(ctx, fmt.Sprintf("http://example.com/%d", i))
		must(t, err)
		recs = append(recs, &vigil.CheckRecord{SentinelID: sn.ID, CheckedAt: now.Add(-72 * time.Hour), NextCheck: now.Add(-c.late),
			Importance: []vigil.PageImportance{{ResourceID: r.ID, Importance: c.importance}}})
		sn.NextCheck, sn.Importance = now.Add(-c.late), c.importance
		sens = append(sens, sn)
	}
	must(t, s.RecordChecks(ctx, recs))

	// The order the suite wants is the one vigil.ClaimPriority gives.
	var byPriority []string
	for _, id := range claimOrder(sens, now) {
		byPriority = append(byPriority, byID[id])
	}
	if !slices.Equal(byPriority, want) {
		t.Fatalf("vigil.ClaimPriority orders\n%q\nwant\n%q", byPriority, want)
	}

	var got []string
	for _, limit := range []int{3, 4, 10} { // the monitor's batch limit
		claimed, err := s.ClaimDueSentinels(ctx, now, time.Hour, limit)
		must(t, err)
		if len(claimed) > limit {
			t.Fatalf("claimed %d, limit %d", len(claimed), limit)
		}
		for _, sn := range claimed {
			got = append(got, byID[sn.ID])
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("claimed in the order\n%q\nwant\n%q", got, want)
	}
}

// claimOrder returns the ids of the sentinels of sens due at now (NextCheck
// at or before it) in the order vigil.ClaimPriority gives, highest first,
// ties to the lowest id: the order ClaimDueSentinels hands them out in.
func claimOrder(sens []*vigil.Sentinel, now time.Time) []int64 {
	due := slices.DeleteFunc(slices.Clone(sens), func(sn *vigil.Sentinel) bool { return sn.NextCheck.After(now) })
	slices.SortStableFunc(due, func(a, b *vigil.Sentinel) int {
		if c := cmp.Compare(vigil.ClaimPriority(b, now), vigil.ClaimPriority(a, now)); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	ids := make([]int64, len(due))
	for i, sn := range due {
		ids[i] = sn.ID
	}
	return ids
}

// ImportanceWriter writes value, SQL text ("NaN", "-0.5", "1e300"), to the
// importance column of the sentinel id of the store it was opened with,
// past the store: a value RecordChecks refuses, as one written by hand or
// by an older bug.
type ImportanceWriter func(t *testing.T, id int64, value string)

// RunClaimBadImportance: a sentinel whose stored importance is not from 0
// to 1 (each of values, those the backend can store) is claimed in the
// order vigil.ClaimPriority gives it, which counts such an importance as
// 0, among sentinels of good ones: the clamping of each store's claim
// query is ClaimPriority's. open returns a fresh, empty store and the
// writer of its importance column.
func RunClaimBadImportance(t *testing.T, values []string, open func(t *testing.T) (interface {
	vigil.Store
	vigil.CheckStore
}, ImportanceWriter)) {
	for _, value := range values {
		t.Run(value, func(t *testing.T) {
			s, write := open(t)
			testClaimBadImportance(t, s, write, value)
		})
	}
}

func testClaimBadImportance(t *testing.T, s interface {
	vigil.Store
	vigil.CheckStore
}, write ImportanceWriter, value string) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	now := t0.Add(72 * time.Hour)
	bad, err := strconv.ParseFloat(value, 64) // "9e999" is +Inf, out of range
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		t.Fatalf("importance %q: %v", value, err)
	}
	cases := []struct {
		name       string
		late       time.Duration
		importance float64
	}{
		// Priorities with the bad importance counted as 0: 6h, 3h, 2h30,
		// 2h. Taken as it is, -0.5 would put "bad" after now, never
		// claimed, 1.5 first, and NaN or 1e300 overflowed the Duration.
		{"late 3h", 3 * time.Hour, 0},
		{"bad, late 2h30", 150 * time.Minute, bad},
		{"late 2h", 2 * time.Hour, 0},
		{"just due, of importance 0.25", 0, 0.25},
	}
	byID := map[int64]string{}
	var sens []*vigil.Sentinel
	var recs []*vigil.CheckRecord
	for i, c := range cases {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: c.name, Source: "x", Status: vigil.SentinelActive, NextCheck: now}
		must(t, s.CreateSentinel(ctx, sn))
		byID[sn.ID] = c.name
		rec := &vigil.CheckRecord{SentinelID: sn.ID, CheckedAt: t0, NextCheck: now.Add(-c.late)}
		if c.importance == 0.25 {
			r, err := s.EnsureResource(ctx, fmt.Sprintf("http://example.com/%d", i))
			must(t, err)
			rec.Importance = []vigil.PageImportance{{ResourceID: r.ID, Importance: c.importance}}
		}
		recs = append(recs, rec)
		sn.NextCheck, sn.Importance = rec.NextCheck, c.importance
		sens = append(sens, sn)
	}
	must(t, s.RecordChecks(ctx, recs))
	write(t, sens[1].ID, value)

	var want, got []string
	for _, id := range claimOrder(sens, now) {
		want = append(want, byID[id])
	}
	claimed, err := s.ClaimDueSentinels(ctx, now, time.Hour, 10)
	if err != nil {
		t.Fatalf("claim with a sentinel of importance %s: %v", value, err)
	}
	for _, sn := range claimed {
		got = append(got, byID[sn.ID])
	}
	if !slices.Equal(got, want) {
		t.Errorf("importance %s: claimed in the order\n%q\nwant vigil.ClaimPriority's\n%q", value, got, want)
	}
	if wantFixed := []string{"just due, of importance 0.25", "late 3h", "bad, late 2h30", "late 2h"}; !slices.Equal(want, wantFixed) {
		t.Errorf("importance %s: vigil.ClaimPriority orders\n%q\nwant\n%q", value, want, wantFixed)
	}
}
