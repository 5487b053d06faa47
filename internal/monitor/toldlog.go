package monitor

import (
	"sync"

	"github.com/vigil-web/vigil"
)

// toldLog holds the log lines that say a sentinel's owner was told
// something (its page fails, works again), by the check record whose
// notices tell it, until the record is written: the store skips the
// record of a sentinel deleted or paused meanwhile
// (vigil.CheckRecord.Skipped), its notices with it, and the log says only
// what was stored. A record never written (a check abandoned as the
// monitor stops) leaves its lines, forgotten with the rest past
// maxToldRecords.
type toldLog struct {
	mu    sync.Mutex
	lines map[*vigil.CheckRecord][]toldLine
}

// toldLine is one line of a toldLog: its message and attributes.
type toldLine struct {
	msg  string
	args []any
}

// maxToldRecords bounds the records a toldLog holds lines for.
const maxToldRecords = 1 << 12

// add holds a line for rec.
func (t *toldLog) add(rec *vigil.CheckRecord, msg string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.lines == nil || len(t.lines) >= maxToldRecords {
		t.lines = map[*vigil.CheckRecord][]toldLine{}
	}
	t.lines[rec] = append(t.lines[rec], toldLine{msg, args})
}

// take returns rec's lines and forgets them.
func (t *toldLog) take(rec *vigil.CheckRecord) []toldLine {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.lines[rec]
	delete(t.lines, rec)
	return l
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
