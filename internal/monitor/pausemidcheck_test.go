package monitor

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
)

// slowServer serves one page, whose body a test sets; while held, a
// request waits until it is let go, and says it came first.
type slowServer struct {
	mu      sync.Mutex
	body    string
	status  int // answered instead of the page when not 0
	held    bool
	arrived chan struct{}
	release chan struct{}
}

func (s *slowServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	held, body, status := s.held, s.body, s.status
	s.mu.Unlock()
	if held {
		s.arrived <- struct{}{}
		<-s.release
	}
	if status != 0 {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, body)
}

// fail makes the page answer status (0: its body again).
func (s *slowServer) fail(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status = status
}

// set makes the page answer body, held until let go or not.
func (s *slowServer) set(body string, held bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.body, s.held = body, held
}

// TestPauseDuringCheck: a sentinel paused while its page is being
// fetched reports nothing of that check, its change neither stored nor
// notified, as one deleted then; resumed, its next check finds the change
// and reports it. Before, the change was notified after the pause.
func TestPauseDuringCheck(t *testing.T) {
	ctx := context.Background()
	s := &slowServer{body: "<html><body><p>A</p></body></html>", arrived: make(chan struct{}), release: make(chan struct{})}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	w := watchPageWith(t, srv.URL+"/page", "Notify By email owner@example.test")
	w.check()
	s.set("<html><body><p>B</p></body></html>", true)
	setStatus := func(status vigil.SentinelStatus) {
		t.Helper()
		cur, err := w.db.FindSentinelByID(ctx, w.s.ID)
		if err != nil {
			t.Fatal(err)
		}
		cur.Status = status
		if err := w.db.UpdateSentinel(ctx, cur); err != nil {
			t.Fatal(err)
		}
	}
	go func() {
		<-s.arrived // the check is fetching the page
		setStatus(vigil.SentinelPaused)
		s.release <- struct{}{}
	}()
	w.check()
	if n, m := len(changesOf(t, w.db, w.s)), len(messagesOf(t, w.db, w.u, w.s)); n != 0 || m != 0 {
		t.Fatalf("paused during its check: %d changes, %d messages; want none", n, m)
	}
	s.set("<html><body><p>B</p></body></html>", false)
	setStatus(vigil.SentinelActive)
	w.check()
	if n, m := len(changesOf(t, w.db, w.s)), len(messagesOf(t, w.db, w.u, w.s)); n != 1 || m != 1 {
		t.Errorf("resumed: %d changes, %d messages; want the change found during the pause, 1 and 1", n, m)
	}
}
