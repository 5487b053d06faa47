package monitor

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// syncBuffer is a bytes.Buffer a logger may write from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestFailureNoticeLoggedWhenStored: the log says a failing page's owner
// was told only when the notice was stored: a sentinel deleted while its
// page's check that found the failure long enough ran has no notice, and
// no such line. Before, the line was written as the notice was built.
func TestFailureNoticeLoggedWhenStored(t *testing.T) {
	for _, deleted := range []bool{false, true} {
		s := &slowServer{body: "<html><body><p>A</p></body></html>", arrived: make(chan struct{}), release: make(chan struct{})}
		srv := httptest.NewServer(s)
		w := watchPageWith(t, srv.URL+"/page", "Notify By email owner@example.test")
		var log syncBuffer
		w.m.Logger = slog.New(slog.NewTextHandler(&log, nil))
		w.m.FailureNotice = time.Hour
		w.check()
		s.fail(500)
		w.check() // failing since now
		s.set("", true)
		go func() {
			<-s.arrived // the check that finds the page failing for 2 hours
			if deleted {
				if err := w.db.DeleteSentinel(context.Background(), w.s.ID); err != nil {
					t.Error(err)
				}
			}
			s.release <- struct{}{}
		}()
		w.check()
		srv.Close()
		logged := strings.Contains(log.String(), `msg="page failing, owner told"`)
		n := len(messagesOf(t, w.db, w.u, w.s))
		if logged != !deleted || n != 0 == deleted {
			t.Errorf("deleted during the check %v: %d notices, logged that the owner was told %v; want the line exactly when a notice was stored",
				deleted, n, logged)
		}
	}
}

// TestToldLogDropsOldest: a toldLog that holds lines for maxToldRecords
// records forgets the oldest record's lines only, to hold a new one's:
// the lines of the records added since are kept, and the first drop says
// so (once). Before, every held line was forgotten at once, those of
// checks still in flight too, and nothing said so.
func TestToldLogDropsOldest(t *testing.T) {
	var tl toldLog
	recs := make([]*vigil.CheckRecord, maxToldRecords+2)
	for i := range recs {
		recs[i] = &vigil.CheckRecord{SentinelID: int64(i + 1)}
	}
	for i, r := range recs[:maxToldRecords] {
		if tl.add(r, "told", "n", i) {
			t.Fatalf("adding record %d of %d says lines were dropped", i+1, maxToldRecords)
		}
	}
	tl.take(recs[1]) // written: its place is free again
	if tl.add(recs[maxToldRecords], "told") {
		t.Fatalf("a record added where one was taken says lines were dropped")
	}
	if !tl.add(recs[maxToldRecords+1], "told") {
		t.Fatalf("a record added past %d held says no lines were dropped", maxToldRecords)
	}
	if l := tl.take(recs[0]); l != nil {
		t.Errorf("the oldest record's lines %v are held past the bound; want them dropped", l)
	}
	tl.take(recs[2]) // another place freed, then two more records
	tl.add(recs[maxToldRecords+1], "told again")
	if tl.add(recs[0], "told") {
		t.Errorf("a record added where one was taken says lines were dropped")
	}
	if !tl.add(&vigil.CheckRecord{}, "told") {
		t.Errorf("a record added past the bound says no lines were dropped")
	}
	if l := tl.take(recs[3]); l != nil {
		t.Errorf("the oldest record's lines %v are held past the bound; want them dropped", l)
	}
	if l := tl.take(recs[maxToldRecords+1]); len(l) != 2 {
		t.Errorf("a record given two lines holds %v", l)
	}
	if l := tl.take(recs[0]); len(l) != 1 {
		t.Errorf("a record added again after its lines were dropped holds %v; want its new line", l)
	}
	for i, r := range recs[4 : maxToldRecords+1] {
		if l := tl.take(r); len(l) != 1 {
			t.Errorf("record %d holds %v; want its line, only the oldest records' dropped", i+4, l)
		}
	}
}

// TestToldLogWarnsOnce: the monitor warns, once, that it forgot the
// lines of a check record held past maxToldRecords.
func TestToldLogWarnsOnce(t *testing.T) {
	var log syncBuffer
	m := &Monitor{Logger: slog.New(slog.NewTextHandler(&log, nil))}
	for i := range maxToldRecords + 3 {
		m.holdTold(&vigil.CheckRecord{SentinelID: int64(i)}, "page failing, owner told")
	}
	if n := strings.Count(log.String(), "level=WARN"); n != 1 || !strings.Contains(log.String(), "maxToldRecords=4096") {
		t.Errorf("log %q; want one warning that held lines were dropped, naming the bound", log.String())
	}
}
