package monitor

import (
	"context"
	"sync"

	"github.com/vigil-web/vigil"
)

// maxUnrecorded bounds the versions an unrecordedSet keeps.
const maxUnrecorded = 4096

// unrecordedSet holds the versions this monitor stored without the
// warehouse knowing why each is read as its source text (Put reads no body
// only to learn it), until the monitor, or a site's crawl, reads the body
// and records it (Monitor.recordReadAsText). It is bounded: a version it
// drops, or one another process stored, is read when first asked for
// (warehouse.ReadAsText) or in the background (Monitor.fillReadAsText).
type unrecordedSet struct {
	mu sync.Mutex
	m  map[int64]struct{}
}

// add keeps version v's id if its reason is not known.
func (u *unrecordedSet) add(v *vigil.Version) {
	if v.TreeReading != 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.m == nil {
		u.m = map[int64]struct{}{}
	}
	if len(u.m) >= maxUnrecorded {
		for id := range u.m { // any one: a version dropped is read later
			delete(u.m, id)
			break
		}
	}
	u.m[v.ID] = struct{}{}
}

// take reports whether id is held, and forgets it.
func (u *unrecordedSet) take(id int64) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	_, ok := u.m[id]
	delete(u.m, id)
	return ok
}

// recordReadAsText records why version id is read as its source text
// (the parse error, in words; "" for a page), as the monitor or the crawl
// found it reading the body, if the warehouse did not know it when the
// version was stored. A failure is logged, but for a version no longer
// kept: the reason is read again when first asked for.
func (m *Monitor) recordReadAsText(ctx context.Context, id int64, reason string) {
	if !m.unrecorded.take(id) {
		return
	}
	// A version retention dropped meanwhile has nothing to record.
	if err := m.Warehouse.RecordReadAsText(ctx, id, reason); err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
		m.Logger.Warn("record why a version is read as text", LogVersion, id, LogError, err)
	}
}

// fillReadAsTextBudget is how many bytes of bodies one batch of the
// background fill parses (one body at least): 1 MiB, some 20 ms of
// parsing, so that a check that falls due waits little.
const fillReadAsTextBudget = 1 << 20

// fillReadAsText reads, when the monitor is idle, why a batch of versions
// not known yet is read as text (warehouse.FillReadAsText: the versions
// stored before reasons were recorded, or under an earlier reading, and
// those the monitor stored and never compared), so that no request pays
// for them. It reports whether it passed any, for Run to try the next
// batch without waiting. A failure is logged, and so is, once, each
// version whose body cannot be read.
func (m *Monitor) fillReadAsText(ctx context.Context) bool {
	if m.Warehouse == nil {
		return false
	}
	n, failed, err := m.Warehouse.FillReadAsText(ctx, fillReadAsTextBudget)
	if err != nil {
		if ctx.Err() == nil {
			m.Logger.Warn("read why versions are read as text", LogError, err)
		}
		return false
	}
	for id, err := range failed {
		m.Logger.Warn("a version's body cannot be read: why it is read as text stays unknown", LogVersion, id, LogError, err)
	}
	return n > 0
}
