package monitor

import (
	"cmp"
	"slices"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
)

// inFlight keeps Run from checking a sentinel twice at once. A check runs
// on the sentinel's state as last committed and commits its record
// asynchronously; a second check started before that commit (the sentinel
// claimed again because "check now", an edit or a resume set its next
// check to now while it was being checked) would compare against the same
// stale state: it would fetch the page again, store the same content as
// another version, and report the same change a second time, against a
// version the first check had already moved past. A sentinel claimed
// while its check is in flight therefore waits, still claimed, until that
// check's record is committed, and is then checked on the new state.
//
// It also keeps the leases of the claims Run holds, so that a clean stop
// gives back those it did not check (see Monitor.Run).
type inFlight struct {
	mu      sync.Mutex
	busy    map[int64]bool            // claimed and not yet committed
	waiting map[int64]*vigil.Sentinel // claimed again while busy
	ready   []*vigil.Sentinel         // waiting ones whose previous check is committed
	held    map[int64]time.Time       // leases of the claims not yet checked, by sentinel
	wake    chan struct{}
}

// admit returns the sentinels of claimed that can be checked now and
// marks them busy; the others wait for their check in flight.
func (f *inFlight) admit(claimed []*vigil.Sentinel) []*vigil.Sentinel {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.busy == nil {
		f.busy, f.waiting, f.held = map[int64]bool{}, map[int64]*vigil.Sentinel{}, map[int64]time.Time{}
	}
	out := claimed[:0:0]
	for _, s := range claimed {
		f.held[s.ID] = s.NextCheck // the lease of the newest claim
		if f.busy[s.ID] {
			f.waiting[s.ID] = s
			continue
		}
		f.busy[s.ID] = true
		out = append(out, s)
	}
	return out
}

// done marks the checks of ids as committed (or abandoned): a sentinel
// that was claimed meanwhile becomes ready to be checked. The claims stay
// held (to be released) if keep is set: checks abandoned because Run is
// stopping.
func (f *inFlight) done(ids []int64, keep bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	woke := false
	for _, id := range ids {
		if s := f.waiting[id]; s != nil {
			delete(f.waiting, id)
			f.ready = append(f.ready, s) // still busy: its check starts now
			woke = true
			continue
		}
		delete(f.busy, id)
		if !keep {
			delete(f.held, id)
		}
	}
	if woke {
		select {
		case f.wake <- struct{}{}:
		default:
		}
	}
}

// leases returns the leases of the claims held, in sentinel id order.
func (f *inFlight) leases() []vigil.SentinelLease {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]vigil.SentinelLease, 0, len(f.held))
	for id, until := range f.held {
		out = append(out, vigil.SentinelLease{SentinelID: id, Until: until})
	}
	slices.SortFunc(out, func(a, b vigil.SentinelLease) int { return cmp.Compare(a.SentinelID, b.SentinelID) })
	return out
}

// Checking reports whether a check of the sentinel id is in flight in this
// monitor, from its claim to the commit of its record: its stored
// NextCheck is then the claim's lease, not when it is due (another
// monitor on a shared store has claims of its own, not known here).
func (m *Monitor) Checking(id int64) bool {
	m.flight.mu.Lock()
	defer m.flight.mu.Unlock()
	return m.flight.busy[id]
}

// takeReady returns the sentinels whose wait is over.
func (f *inFlight) takeReady() []*vigil.Sentinel {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.ready
	f.ready = nil
	return r
}
