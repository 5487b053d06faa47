package vigil_test

import (
	"math"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestClaimPriority: a due sentinel's priority is how late it is plus its
// importance times ImportanceLead; an importance not from 0 to 1 (NaN, an
// infinity, a negative one, one above 1, a huge one) counts as 0, as both
// stores' claims count it. Before, NaN and a huge one overflowed the
// Duration, and a negative one held the sentinel back.
func TestClaimPriority(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name       string
		late       time.Duration
		importance float64
		want       time.Duration
	}{
		{"unimportant", 3 * time.Hour, 0, 3 * time.Hour},
		{"most important", 3 * time.Hour, 1, 27 * time.Hour},
		{"a quarter", 0, 0.25, 6 * time.Hour},
		{"not due", -time.Hour, 0.5, 11 * time.Hour},
		{"NaN", 3 * time.Hour, math.NaN(), 3 * time.Hour},
		{"+Inf", 3 * time.Hour, math.Inf(1), 3 * time.Hour},
		{"-Inf", 3 * time.Hour, math.Inf(-1), 3 * time.Hour},
		{"huge", 3 * time.Hour, 1e300, 3 * time.Hour},
		{"negative", 3 * time.Hour, -0.5, 3 * time.Hour},
		{"above 1", 3 * time.Hour, 1.5, 3 * time.Hour},
	} {
		s := &vigil.Sentinel{NextCheck: now.Add(-tt.late), Importance: tt.importance}
		if got := vigil.ClaimPriority(s, now); got != tt.want {
			t.Errorf("%s: ClaimPriority of a sentinel late by %v, of importance %v: %v, want %v", tt.name, tt.late, tt.importance, got, tt.want)
		}
	}
}

// TestClaimPriorityLongOverdue: a sentinel whose NextCheck is further back
// than a Duration can count (the zero time) is as late as can be, and its
// importance does not wrap the sum round to a large negative priority.
func TestClaimPriorityLongOverdue(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, importance := range []float64{0, 0.5, 1} {
		s := &vigil.Sentinel{NextCheck: time.Time{}, Importance: importance}
		if got := vigil.ClaimPriority(s, now); got != math.MaxInt64 {
			t.Errorf("importance %v, NextCheck the zero time: ClaimPriority %v, want the longest Duration", importance, got)
		}
	}
	far := &vigil.Sentinel{NextCheck: now.AddDate(500, 0, 0), Importance: 1}
	if got, want := vigil.ClaimPriority(far, now), time.Duration(math.MinInt64)+vigil.ImportanceLead; got != want {
		t.Errorf("NextCheck 500 years ahead, importance 1: ClaimPriority %v, want %v", got, want)
	}
}
