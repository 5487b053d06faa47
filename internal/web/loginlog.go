package web

import (
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// The log of refused sign-ins (a wrong email or password, or too many
// failed attempts): an attacker's flood of them must not fill the log,
// which one warning each did. In each interval the first refusalLines
// are logged one by one, with their client address (never the account
// tried nor the password); the rest are counted, and when the interval
// ends one summary line says how many were refused, how many of them
// rate-limited, from how many addresses. While a flood goes on, its
// next intervals get their summary only; the lines one by one come back
// after an interval without refusals not logged. The addresses are
// counted in a table of maxRefusalAddresses at most; past it the summary
// says "more than".
const (
	refusalLines        = 5
	maxRefusalAddresses = 1000
)

// refusalInterval is the period of the summaries; a variable, for the
// tests.
var refusalInterval = time.Minute

// refusalLog counts and logs refused sign-ins (the Server's, made by
// Register).
type refusalLog struct {
	logger *slog.Logger

	mu sync.Mutex
	// timer ends the interval in progress; nil when none is (no
	// refusal since the last quiet interval). gen numbers the intervals:
	// a timer that fired as flush ended its interval ends no other.
	timer *time.Timer
	gen   int
	// flood says that the interval before this one had refusals not
	// logged one by one: this one's are counted only.
	flood bool
	// The counts of the interval in progress.
	refusedN, limitedN, loggedN int
	addresses                   map[string]bool
	moreAddresses               bool
}

func newRefusalLog(logger *slog.Logger) *refusalLog {
	return &refusalLog{logger: logger, addresses: map[string]bool{}}
}

// refused counts a refused sign-in from address (clientAddress), rate
// limited or with a wrong email or password, and logs it if it is among
// the first of its interval.
func (r *refusalLog) refused(address string, limited bool) {
	if r == nil {
		return // a Server used without Register
	}
	r.mu.Lock()
	if r.timer == nil {
		r.start()
	}
	r.refusedN++
	if limited {
		r.limitedN++
	}
	if !r.addresses[address] {
		if len(r.addresses) < maxRefusalAddresses {
			r.addresses[address] = true
		} else {
			r.moreAddresses = true
		}
	}
	one := !r.flood && r.loggedN < refusalLines
	if one {
		r.loggedN++
	}
	r.mu.Unlock()
	if !one {
		return
	}
	if limited {
		r.logger.Warn("sign-in refused: too many failed attempts", "address", address)
	} else {
		r.logger.Warn("sign-in refused: wrong email or password", "address", address)
	}
}

// start starts an interval, with r.mu held.
func (r *refusalLog) start() {
	gen := r.gen
	r.timer = time.AfterFunc(refusalInterval, func() { r.end(gen) })
}

// flush ends the interval in progress now (end).
func (r *refusalLog) flush() { r.end(-1) }

// end ends the interval gen (any, if -1): it writes the summary of the
// refusals not logged one by one, if there were any, and starts the next
// interval of the flood; else the next refusal starts one afresh.
func (r *refusalLog) end(gen int) {
	r.mu.Lock()
	if gen >= 0 && gen != r.gen {
		r.mu.Unlock()
		return // ended already
	}
	r.gen++
	if r.timer != nil {
		r.timer.Stop() // when called before its time (the tests)
		r.timer = nil
	}
	refused, limited, logged, addresses, more := r.refusedN, r.limitedN, r.loggedN, len(r.addresses), r.moreAddresses
	r.refusedN, r.limitedN, r.loggedN, r.moreAddresses = 0, 0, 0, false
	clear(r.addresses)
	r.flood = refused > logged
	if r.flood {
		r.start()
	}
	r.mu.Unlock()
	if refused == logged {
		return // all logged one by one, or none
	}
	from := fmt.Sprintf("%d addresses", addresses)
	switch {
	case more:
		from = fmt.Sprintf("more than %d addresses", addresses)
	case addresses == 1:
		from = "1 address"
	}
	r.logger.Warn(fmt.Sprintf("%d sign-ins refused in the last %s, %d rate-limited, from %s", refused, intervalWords(refusalInterval), limited, from),
		"refused", refused, "rate_limited", limited, "wrong_password", refused-limited, "addresses", addresses, "logged_one_by_one", logged)
}

// quiet reports whether no interval is in progress.
func (r *refusalLog) quiet() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.timer == nil
}

// intervalWords says an interval as the summary does: "minute", "hour",
// or the duration.
func intervalWords(d time.Duration) string {
	switch d {
	case time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	}
	return d.String()
}
