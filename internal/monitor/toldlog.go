package monitor

import (
	"container/list"
	"sync"
	"sync/atomic"

	"github.com/vigil-web/vigil"
)

// toldLog holds the log lines that say a sentinel's owner was told
// something (its page fails, works again), by the check record whose
// notices tell it, until the record is written: the store skips the
// record of a sentinel deleted or paused meanwhile
// (vigil.CheckRecord.Skipped), its notices with it, and the log says only
// what was stored. A record never written (a check abandoned as the
// monitor stops, or one whose commit failed before logTold) would leave
// its lines for ever: past maxToldRecords records, the lines of the one
// held longest are forgotten to hold a new one's, those of checks still
// in flight, newer, kept.
type toldLog struct {
	mu    sync.Mutex
	lines map[*vigil.CheckRecord]*list.Element // of order, a *toldRecord
	// order is the records held, the oldest first.
	order list.List
	// warned says the monitor warned that lines were forgotten.
	warned atomic.Bool
}

// toldRecord is a record's lines in a toldLog.
type toldRecord struct {
	rec   *vigil.CheckRecord
	lines []toldLine
}

// toldLine is one line of a toldLog: its message and attributes.
type toldLine struct {
	msg  string
	args []any
}

// maxToldRecords bounds the records a toldLog holds lines for.
const maxToldRecords = 1 << 12

// add holds a line for rec, and reports whether the lines of the record
// held longest were forgotten to make room for rec's.
func (t *toldLog) add(rec *vigil.CheckRecord, msg string, args ...any) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.lines[rec]; e != nil {
		r := e.Value.(*toldRecord)
		r.lines = append(r.lines, toldLine{msg, args})
		return false
	}
	if t.lines == nil {
		t.lines = map[*vigil.CheckRecord]*list.Element{}
	}
	dropped := false
	for len(t.lines) >= maxToldRecords {
		oldest := t.order.Front()
		delete(t.lines, t.order.Remove(oldest).(*toldRecord).rec)
		dropped = true
	}
	t.lines[rec] = t.order.PushBack(&toldRecord{rec: rec, lines: []toldLine{{msg, args}}})
	return dropped
}

// holdTold holds a line for rec (toldLog.add), and warns, the first time
// only, that the lines of a record held too long were forgotten.
func (m *Monitor) holdTold(rec *vigil.CheckRecord, msg string, args ...any) {
	if m.told.add(rec, msg, args...) && m.told.warned.CompareAndSwap(false, true) {
		m.Logger.Warn("lines saying owners were told forgotten: more check records than maxToldRecords held theirs unwritten, the oldest forgotten (said once)",
			"maxToldRecords", maxToldRecords)
	}
}

// take returns rec's lines and forgets them.
func (t *toldLog) take(rec *vigil.CheckRecord) []toldLine {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.lines[rec]
	if e == nil {
		return nil
	}
	delete(t.lines, rec)
	return t.order.Remove(e).(*toldRecord).lines
}

// logTold writes the lines held for recs if the store wrote them
// (written, and not Skipped), and forgets them either way.
func (m *Monitor) logTold(recs []*vigil.CheckRecord, written bool) {
	for _, r := range recs {
		lines := m.told.take(r)
		if !written {
			continue
		}
		if r.Skipped {
			m.Logger.Info("check not recorded: the sentinel was deleted or paused meanwhile", LogSentinel, r.SentinelID)
			continue
		}
		for _, l := range lines {
			m.Logger.Info(l.msg, l.args...)
		}
	}
}
