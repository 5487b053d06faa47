package monitor

import (
	"log/slog"

	"github.com/vigil-web/vigil"
)

// Where a recovered panic struck, as Monitor.Panicked and
// Deliverer.Panicked name it: cmd/vigil counts them by it
// (vigil_panics_total{in}).
const (
	// PanicCheck is a check of a group of sentinels (checkGroup).
	PanicCheck = "check"
	// PanicFetch is a fetch that the fetcher recovered from a panic on a
	// goroutine of its own and returned as a *vigil.PanicError.
	PanicFetch = "fetch"
	// PanicStore is a version's write that the warehouse recovered from a
	// panic on a goroutine of its own (its compression) and returned.
	PanicStore = "store"
	// PanicClaim is Run's claim of due sentinels and the start of their
	// checks: the claims are given back and tried again at the next poll.
	PanicClaim = "claim"
	// PanicCommit is the committer's record of finished checks: the
	// records are lost, and their sentinels checked again when their
	// lease ends, as after a failed commit.
	PanicCommit = "commit"
	// PanicDelivery is a delivery of the outbox (deliverGuarded).
	PanicDelivery = "delivery"
	// PanicNotifier is a notifier's own goroutine (chat's send), which
	// the notifier recovered and returned as a *vigil.PanicError.
	PanicNotifier = "notifier"
)

// Panics lists every place a panic is counted by, for a metric to show
// each from the start.
var Panics = []string{PanicCheck, PanicFetch, PanicStore, PanicClaim, PanicCommit, PanicDelivery, PanicNotifier}

// reportPanic logs err at Error level, with its stack, and counts it as a
// panic in in (through count, if not nil), if its chain holds a
// *vigil.PanicError, a panic recovered and returned as an error; it
// reports whether it did. Other errors are left to the caller. why is
// err's text as the caller may show it (its secrets redacted).
func reportPanic(log *slog.Logger, count func(in string), in, msg string, err error, why string, attrs ...any) bool {
	stack := vigil.PanicStack(err)
	if stack == nil {
		return false
	}
	log.Error(msg, append(attrs, "in", in, "panic", why, "stack", string(stack))...)
	if count != nil {
		count(in)
	}
	return true
}
