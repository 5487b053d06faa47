package schedule

import (
	"math"
	"time"
)

// Plan is how a sentinel asks to be fetched.
type Plan struct {
	Interval time.Duration // Fetch <interval>; ignored when OnChange
	OnChange bool          // Fetch on change: adaptive
}

// Policy bounds the intervals. Zero fields take the defaults named.
type Policy struct {
	MinInterval     time.Duration // 1m: shortest interval, adaptive or fixed
	MaxInterval     time.Duration // 24h: longest adaptive interval
	InitialInterval time.Duration // 1h: first adaptive interval, held to [MinInterval, MaxInterval]
	TargetRatio     float64       // 0.5: adaptive interval = TargetRatio / λ̂ (two visits per expected change)
	GrowthLimit     float64       // 2: an adaptive interval grows at most this factor per check
	Decay           float64       // 0.95: weight kept by past visits at each new one
	Jitter          float64       // 0.1: ± fraction of the interval
	MaxBackoff      time.Duration // 24h: longest delay after failures
	BusyRetry       time.Duration // 1m: delay before a check deferred (its hosts busy) is tried again, doubled each time in a row up to the interval
}

func (p Policy) withDefaults() Policy {
	if p.MinInterval <= 0 {
		p.MinInterval = time.Minute
	}
	if p.MaxInterval <= 0 {
		p.MaxInterval = 24 * time.Hour
	}
	if p.MaxInterval < p.MinInterval {
		p.MaxInterval = p.MinInterval
	}
	if p.InitialInterval <= 0 {
		p.InitialInterval = time.Hour
	}
	// The first adaptive interval is an adaptive interval: within the
	// bounds, whatever the default or the caller set.
	p.InitialInterval = min(max(p.InitialInterval, p.MinInterval), p.MaxInterval)
	if p.TargetRatio <= 0 {
		p.TargetRatio = 0.5
	}
	if p.GrowthLimit <= 1 {
		p.GrowthLimit = 2
	}
	if p.Decay <= 0 || p.Decay > 1 {
		p.Decay = 0.95
	}
	if p.Jitter < 0 {
		p.Jitter = 0
	} else if p.Jitter == 0 {
		p.Jitter = 0.1
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = 24 * time.Hour
	}
	if p.BusyRetry <= 0 {
		p.BusyRetry = time.Minute
	}
	return p
}

// Outcome is the result of one check.
type Outcome int

// The outcomes.
const (
	Unchanged Outcome = iota // fetched (or 304): nothing the sentinel watches changed
	Changed                  // a change was found
	Failed                   // the fetch failed
	// Deferred says the check did not happen: the hosts of its pages were
	// busy with other requests for the whole wait, and no request was
	// sent. It is no failure and no visit (the change-rate estimate is
	// untouched); the check is tried again after BusyRetry, twice as long
	// each time in a row, but never later than the interval would have it.
	Deferred
)

// History is the part of a sentinel's persisted state the interval
// policy reads and writes.
type History struct {
	// Interval is the current adaptive interval (0 before the first check).
	Interval time.Duration `json:"interval,omitempty"`
	// Visits, Changes and Observed are the decayed counts of the estimator:
	// n, X and the total time between visits (seconds).
	Visits   float64 `json:"visits,omitempty"`
	Changes  float64 `json:"changes,omitempty"`
	Observed float64 `json:"observed,omitempty"`
	// Errors counts consecutive failed checks, Deferrals consecutive
	// deferred ones.
	Errors    int `json:"errors,omitempty"`
	Deferrals int `json:"deferrals,omitempty"`
	// Last is the time of the last successful check.
	Last time.Time `json:"last,omitzero"`
}

// EstimateRate returns Cho and Garcia-Molina's estimate of a Poisson change
// rate, in changes per second, from n visits of which x saw a change over
// observed seconds: −ln((n − x + 0.5)/(n + 0.5)) / (observed/n). It is 0
// when nothing was observed.
func EstimateRate(n, x, observed float64) float64 {
	if n <= 0 || observed <= 0 {
		return 0
	}
	x = math.Min(math.Max(x, 0), n)
	r := -math.Log((n - x + 0.5) / (n + 0.5)) // λ·I
	return r / (observed / n)
}

// Next records a check at now with its outcome and returns the time of the
// next one, at least MinInterval later. jitter is a draw in [-1, 1] (0 for
// none). A Deferred check records only that it was, and is tried again
// after BusyRetry.
func (p Policy) Next(now time.Time, plan Plan, h *History, o Outcome, jitter float64) time.Time {
	p = p.withDefaults()
	if o == Deferred {
		h.Deferrals++
		d, base := p.BusyRetry, p.base(plan, h)
		for i := 1; i < h.Deferrals && d < base; i++ {
			if d > base/2 {
				d = base // doubled, it would pass base, and perhaps the largest Duration
				break
			}
			d *= 2
		}
		return now.Add(p.jitter(min(d, max(base, p.BusyRetry)), jitter))
	}
	h.Deferrals = 0
	if o == Failed {
		h.Errors++
		base := p.base(plan, h)
		d := base
		for i := 0; i < h.Errors && d < p.MaxBackoff; i++ {
			d *= 2
		}
		d = min(d, max(p.MaxBackoff, base))
		// Nor after a failure: MaxBackoff may be shorter than MinInterval.
		return now.Add(max(p.jitter(d, jitter), p.MinInterval))
	}
	h.Errors = 0
	if plan.OnChange {
		if !h.Last.IsZero() && now.After(h.Last) {
			h.Visits = h.Visits*p.Decay + 1
			if o == Changed {
				h.Changes = h.Changes*p.Decay + 1
			} else {
				h.Changes *= p.Decay
			}
			h.Observed = h.Observed*p.Decay + now.Sub(h.Last).Seconds()
			h.Interval = p.adapt(h)
		} else if h.Interval <= 0 {
			h.Interval = p.InitialInterval
		}
	}
	h.Last = now
	// The jitter spreads the checks, but none comes sooner than
	// MinInterval after the one before.
	return now.Add(max(p.jitter(p.base(plan, h), jitter), p.MinInterval))
}

// base returns the interval before back-off and jitter.
func (p Policy) base(plan Plan, h *History) time.Duration {
	if !plan.OnChange {
		return max(plan.Interval, p.MinInterval)
	}
	if h.Interval <= 0 {
		return p.InitialInterval
	}
	return h.Interval
}

// adapt returns the new adaptive interval from the estimator.
func (p Policy) adapt(h *History) time.Duration {
	cur := h.Interval
	if cur <= 0 {
		cur = p.InitialInterval
	}
	rate := EstimateRate(h.Visits, h.Changes, h.Observed)
	target := p.MaxInterval
	if rate > 0 {
		secs := p.TargetRatio / rate
		if secs < p.MaxInterval.Seconds() {
			target = time.Duration(secs * float64(time.Second))
		}
	}
	if limit := time.Duration(float64(cur) * p.GrowthLimit); target > limit {
		target = limit
	}
	return min(max(target, p.MinInterval), p.MaxInterval)
}

// jitter returns d moved by draw times its Jitter fraction, at most the
// largest Duration: an interval near it (Fetch 9000000000 seconds) plus
// its tenth would overflow, to a negative sum.
func (p Policy) jitter(d time.Duration, draw float64) time.Duration {
	draw = math.Max(-1, math.Min(1, draw))
	off := time.Duration(float64(d) * p.Jitter * draw)
	if off > 0 && d > math.MaxInt64-off {
		return math.MaxInt64
	}
	return d + off
}
