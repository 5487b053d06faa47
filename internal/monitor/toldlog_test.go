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
