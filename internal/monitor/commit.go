package monitor

import (
	"context"
	"errors"

	"github.com/vigil-web/vigil"
)

// committer writes check records in groups: whatever arrived while the
// previous write ran, up to a few hundred at a time.
type committer struct {
	m    *Monitor
	in   chan *vigil.CheckRecord
	done chan struct{}
}

func (c *committer) run() {
	defer close(c.done)
	for r := range c.in {
		recs := []*vigil.CheckRecord{r}
	more:
		for len(recs) < 512 {
			select {
			case r, ok := <-c.in:
				if !ok {
					break more
				}
				recs = append(recs, r)
			default:
				break more
			}
		}
		// A panic in the commit (a bug in the store's write, or in what
		// follows it) is logged and counted (PanicCommit): the records
		// are lost (unless the store wrote them first), as after a
		// failed commit, not the committer, which would leave every later
		// check waiting on it.
		err := vigil.Protect(func() error { return c.m.commit(context.Background(), recs) })
		if err != nil && !reportPanic(c.m.Logger, c.m.Panicked, PanicCommit, "record checks: panicked", err, err.Error()) {
			c.m.Logger.Error("record checks", LogError, err)
		}
		// Committed or not (a lost record is checked again when its lease
		// ends), these checks are over.
		ids := make([]int64, len(recs))
		for i, r := range recs {
			ids[i] = r.SentinelID
		}
		c.m.flight.done(ids, false)
	}
}

// commit records checks; if the batch is refused as invalid, each record
// is tried alone so that one bad record does not hold back the others.
func (m *Monitor) commit(ctx context.Context, recs []*vigil.CheckRecord) error {
	if len(recs) == 0 {
		return nil
	}
	for _, r := range recs {
		// A next check past the times the stores keep (an interval of
		// centuries) is never in practice: the last they keep, which
		// they take, where they refused the record.
		r.NextCheck = vigil.ClampStorableTime(r.NextCheck)
	}
	err := m.Store.RecordChecks(ctx, recs)
	if err == nil {
		m.logTold(recs, true)
		m.notified(recs)
		if m.Committed != nil {
			m.Committed(len(recs))
		}
		return nil
	}
	if vigil.ErrorCode(err) != vigil.EINVALID || len(recs) == 1 {
		m.logTold(recs, false)
		return err
	}
	var errs []error
	for _, r := range recs {
		if err := m.Store.RecordChecks(ctx, []*vigil.CheckRecord{r}); err != nil {
			errs = append(errs, err)
			m.Logger.Error("record check", LogSentinel, r.SentinelID, LogError, err)
			m.logTold([]*vigil.CheckRecord{r}, false)
			continue
		}
		m.logTold([]*vigil.CheckRecord{r}, true)
		m.notified([]*vigil.CheckRecord{r})
		if m.Committed != nil {
			m.Committed(1)
		}
	}
	return errors.Join(errs...)
}

// notified calls m.Delivered, once, when one of recs queued a notification.
func (m *Monitor) notified(recs []*vigil.CheckRecord) {
	if m.Delivered == nil {
		return
	}
	for _, r := range recs {
		if len(r.Notifications) > 0 {
			m.Delivered()
			return
		}
	}
}
