package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestHostTurnEndsWithTheNetwork: with one request at a time to a host
// (HostConcurrency 1), a page's turn ends once its answer is read: the
// work on the body after it (decoding, a binary document's digest, which
// a large PDF makes long) no longer holds the host, whose other pages
// were refused as busy (ErrHostBusy, HostWait run out) while a PDF was
// digested. A page whose server stalls still holds it, and the host is
// never asked two things at once.
func TestHostTurnEndsWithTheNetwork(t *testing.T) {
	var inFlight, most atomic.Int32
	stall := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		switch r.URL.Path {
		case "/doc.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"))
		case "/stalls.html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>the start"))
			w.(http.Flusher).Flush()
			<-stall
			w.Write([]byte(", the end</p>"))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>text</p>"))
		}
	}))
	t.Cleanup(srv.Close)
	c := testClient(Options{IgnoreRobots: true, HostConcurrency: 1, HostDelay: 0, HostWait: 2 * time.Second, TotalTimeout: 30 * time.Second})

	// A PDF digested slowly: the host's other page is read meanwhile.
	digesting, resume := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	var slow *vigil.FetchResult
	wg.Add(1)
	go func() {
		defer wg.Done()
		slow, _ = c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/doc.pdf", DigestBinary: func(string, []byte) string {
			close(digesting)
			<-resume
			return "digest"
		}})
	}()
	<-digesting
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/other.html"})
	close(resume)
	wg.Wait()
	if err != nil || string(res.Body) != "<p>text</p>" {
		t.Errorf("the host's other page, read while a PDF was digested: %v", err)
	}
	if slow == nil || slow.BinaryDigest != "digest" {
		t.Errorf("the PDF's result %+v, want its digest", slow)
	}

	// A page whose server stalls holds the host: the other waits, and
	// is refused as busy when its wait runs out.
	c = testClient(Options{IgnoreRobots: true, HostConcurrency: 1, HostDelay: 0, HostWait: 200 * time.Millisecond, TotalTimeout: 30 * time.Second})
	started := make(chan struct{})
	var stalled *vigil.FetchResult
	wg.Add(1)
	go func() {
		defer wg.Done()
		stalled, _ = c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/stalls.html"})
	}()
	go func() {
		for inFlight.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		close(started)
	}()
	<-started
	_, err = c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/other.html"})
	close(stall)
	wg.Wait()
	if !errors.Is(err, vigil.ErrHostBusy) {
		t.Errorf("the host's other page, asked while a page stalls: %v, want ErrHostBusy", err)
	}
	if stalled == nil || string(stalled.Body) != "<p>the start, the end</p>" {
		t.Errorf("the stalled page: %+v", stalled)
	}
	if m := most.Load(); m != 1 {
		t.Errorf("the host was asked %d requests at once, want 1", m)
	}
}
