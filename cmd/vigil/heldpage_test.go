package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// heldPage is a watched page on loopback whose first fetch is held until
// the test releases it (or the fetch is given up), for the tests of what
// the daemon does with a check in flight: a stop, a pause. Every later
// fetch answers a small page at once.
type heldPage struct {
	url     string        // the page's URL
	held    chan struct{} // receives when the first fetch is held
	release chan struct{} // closed by Release
	once    sync.Once
}

// newHeldPage starts the server. When answerHeld is true the held fetch
// answers the page once released, as a slow server would; otherwise it
// ends with no answer, as one the daemon gave up on.
func newHeldPage(t *testing.T, answerHeld bool) *heldPage {
	t.Helper()
	p := &heldPage{held: make(chan struct{}, 1), release: make(chan struct{})}
	var (
		mu   sync.Mutex
		hits int
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		hits++
		first := hits == 1
		mu.Unlock()
		if first {
			p.held <- struct{}{}
			select {
			case <-r.Context().Done():
				return
			case <-p.release:
			}
			if !answerHeld {
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!DOCTYPE html><html><body><h1>Status</h1><p>All good.</p></body></html>")
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(p.Release) // runs before srv.Close
	p.url = srv.URL + "/page"
	return p
}

// Release lets the held fetch go on; later calls do nothing.
func (p *heldPage) Release() { p.once.Do(func() { close(p.release) }) }

// waitHeld fails the test unless the daemon fetches the page within 30
// seconds.
func (p *heldPage) waitHeld(t *testing.T) {
	t.Helper()
	select {
	case <-p.held:
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon did not fetch the page")
	}
}
