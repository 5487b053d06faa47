package monitor

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestBinaryPageTurnsBack: a watched page that answers a file for one
// check, then a page again, through the real fetcher on loopback. Its
// texts are compared with each other across the file (the file, whose
// body is not kept, is no base of comparison): a keywords and list
// sentinel is told nothing when the page comes back as it was, and only
// what changed since before the file when it comes back otherwise; a
// sentinel monitoring any change, told that the page turned into a file,
// is told that it turned back, and what changed since before the file if
// anything did. Before, the file's version was the sentinel's last one
// and the page that came back was compared with it, with no body: all
// its keywords and list items added.
func TestBinaryPageTurnsBack(t *testing.T) {
	const (
		before  = `<html><body><p>Report</p><ul><li>one</li><li>two</li></ul></body></html>`
		after   = `<html><body><p>Report</p><ul><li>one</li><li>two</li><li>three</li></ul></body></html>`
		toFile  = "the page turned into a file Vigil does not read (application/octet-stream, 4096 bytes)"
		toPage  = "the file turned back into a page"
		anyText = "any change: 1 text added"
		listAdd = "keywords {Report} OR list: 1 list item added"
	)
	for _, tc := range []struct {
		name, monitor, back string
		want                []string // the changes' summaries, oldest first
	}{
		{"any change, same page", "any change", before, []string{toFile, toPage}},
		{"any change, another page", "any change", after, []string{toFile, toPage, anyText}},
		{"keywords, same page", "keywords {Report} OR list", before, nil},
		{"keywords, another page", "keywords {Report} OR list", after, []string{listAdd}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			body, binary := []byte(before), false
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				b, bin := body, binary
				mu.Unlock()
				if bin {
					w.Header().Set("Content-Type", "application/octet-stream")
				} else {
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
				}
				io.Copy(w, bytes.NewReader(b))
			}))
			t.Cleanup(srv.Close)
			serve := func(b []byte, bin bool) {
				mu.Lock()
				body, binary = b, bin
				mu.Unlock()
			}
			w := watchPageMonitoring(t, srv.URL+"/report", tc.monitor)
			w.check()
			first := w.latest().ID
			serve(bytes.Repeat([]byte{0, 1, 2, 3}, 1<<10), true)
			w.check()
			serve([]byte(tc.back), false)
			w.check()
			last := w.latest().ID
			cs := changesOf(t, w.db, w.s)
			slices.SortFunc(cs, func(a, b *vigil.Change) int { return int(a.ID - b.ID) })
			var got []string
			for _, c := range cs {
				got = append(got, c.Summary)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("changes %q; want %q", got, tc.want)
			}
			for _, c := range cs {
				if c.Summary == anyText || c.Summary == listAdd {
					if c.FromVersion != first || c.ToVersion != last {
						t.Errorf("change %q from version %d to %d; want from %d, the page before the file, to %d", c.Summary, c.FromVersion, c.ToVersion, first, last)
					}
				}
				if c.Summary == toPage && c.ToVersion != last {
					t.Errorf("change %q to version %d; want %d", c.Summary, c.ToVersion, last)
				}
			}
			var subjects []string
			for _, msg := range messagesOf(t, w.db, w.u, w.s) {
				subjects = append(subjects, msg.Subject)
			}
			var want []string
			for _, s := range tc.want {
				want = append(want, "[Vigil] page: "+s)
			}
			if !slices.Equal(subjects, want) {
				t.Errorf("messages %q; want %q", subjects, want)
			}
			for _, msg := range messagesOf(t, w.db, w.u, w.s) {
				if strings.HasSuffix(msg.Subject, toPage) && !strings.Contains(msg.Text, "\n"+toPage+" (") {
					t.Errorf("message %q says %q; want that the file turned back into a page", msg.Subject, msg.Text)
				}
			}
		})
	}
}

// watchPageMonitoring returns the page at url, watched hourly by a
// sentinel that monitors expr and notifies its owner by email at once.
func watchPageMonitoring(t *testing.T, url, expr string) *watchedPage {
	t.Helper()
	w := &watchedPage{t: t, url: url, now: time.Now().UTC().Truncate(time.Minute)}
	w.db, w.wh, w.u = testStore(t)
	w.s = createSentinel(t, w.db, spec.NewChecker(w.now), w.u, "page",
		"Create Sentinel page Using "+url+" Monitor "+expr+" Fetch 1 hour Notify By email owner@example.test\n")
	f := fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second})
	w.m = &Monitor{Store: w.db, Warehouse: w.wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return w.now }}
	return w
}
