package schedule

import (
	"math"
	"testing"
	"time"
)

// TestNextLongInterval: an interval near the longest a time.Duration holds
// (Fetch 9000000000 seconds, 285 years, which the language takes) comes
// back after at least the interval less its jitter, whatever the draw and
// however often the check was deferred in a row. The jitter's tenth added
// overflowed, and the sum, negative, fell back to MinInterval: the daemon
// checked such a sentinel every minute; and a check deferred 28 times in
// a row doubled its delay past the largest Duration, to none.
func TestNextLongInterval(t *testing.T) {
	p := Policy{MinInterval: time.Minute, Jitter: 0.1}
	for _, tc := range []struct {
		name     string
		interval time.Duration
	}{
		{"Fetch 9000000000 seconds", 9_000_000_000 * time.Second},
		{"Fetch 9223372036 seconds", 9_223_372_036 * time.Second},
		{"the largest Duration", math.MaxInt64},
	} {
		low := tc.interval - time.Duration(float64(tc.interval)*0.1)
		for _, o := range []Outcome{Unchanged, Changed, Failed} {
			for _, draw := range []float64{-1, 0, 0.5, 1} {
				want := low
				if o == Failed {
					want = 24 * time.Hour // MaxBackoff, shorter than the interval: the interval's own jitter
				}
				h := History{}
				if got := p.Next(t0, Plan{Interval: tc.interval}, &h, o, draw); got.Sub(t0) < want {
					t.Errorf("%s, outcome %d, jitter %v: next in %v, want at least %v", tc.name, o, draw, got.Sub(t0), want)
				}
			}
		}
		h := History{}
		for i := range 70 {
			if got := p.Next(t0, Plan{Interval: tc.interval}, &h, Deferred, 0).Sub(t0); got < time.Minute {
				t.Fatalf("%s, deferred %d times in a row: next in %v, want at least BusyRetry 1m", tc.name, i+1, got)
			}
		}
	}
}
