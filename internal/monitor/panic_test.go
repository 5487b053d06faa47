package monitor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// panickingFetcher is a pagesFetcher that panics for the URL bad while
// bad is set, as a bug in fetching or parsing one page would.
type panickingFetcher struct {
	pagesFetcher
	bad string
}

func (f *panickingFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	f.mu.Lock()
	bad := f.bad
	f.mu.Unlock()
	if bad != "" && req.URL == bad {
		var parts []int
		_ = parts[len(req.URL)] // a slice past its end, as the message bug was
	}
	return f.pagesFetcher.Fetch(ctx, req)
}

// TestCheckPanicRecovered: a check that panics (in the fetcher of one
// page, or in building one sentinel's message) does not take the monitor
// down. The sentinels of other pages checked in the same round are
// checked and told; the one whose check panicked is recorded as a failed
// check: its page's last fetch says "internal error" (what the dashboard
// shows), its next check is the policy's after a failure (not at once),
// nothing the check did before the panic is kept (no change, no
// message, its state as before), so that the next check, once the bug
// is gone, reports the change. The panic is logged at Error level with
// the sentinel, its URL (logURL: its password hidden), the panic and its
// stack, and counted (Monitor.Panicked). It runs on both stores.
func TestCheckPanicRecovered(t *testing.T) {
	for _, where := range []string{"fetcher", "message", "site"} {
		t.Run(where, func(t *testing.T) {
			onEachStore(t, func(t *testing.T, open storeOpener) {
				ctx := context.Background()
				db := open(t)
				u := &vigil.User{Email: "owner@example.test", Name: "owner"}
				if err := db.CreateUser(ctx, u); err != nil {
					t.Fatal(err)
				}
				const (
					goodURL = "https://good.example.test/news"
					badURL  = "https://bad.example.test/news/"
					badPage = "https://bad.example.test/news/page.html"
				)
				clock := time.Now().UTC().Truncate(time.Minute)
				checker := spec.NewChecker(clock)
				create := func(name, url string) *vigil.Sentinel {
					return createSentinel(t, db, checker, u, name,
						"Create Sentinel "+name+" Using "+url+" Monitor any change Notify By email owner@example.test\n")
				}
				using := badURL
				if where == "site" {
					using = "site " + badURL + " depth 1 pages 10"
				}
				good, bad := create("good", goodURL), create("bad", using)
				f := &panickingFetcher{pagesFetcher: pagesFetcher{pages: map[string]string{
					goodURL: "<html><body><p>first news</p></body></html>",
					badURL:  `<html><body><p>first news</p><a href="page.html">more</a></body></html>`,
					badPage: "<html><body><p>first page</p></body></html>",
				}}}
				var logs syncBuffer
				var panicked sync.Mutex
				panics := 0
				var panicLinks bool
				m := &Monitor{Store: db, Warehouse: newWarehouse(t, db), Fetcher: f,
					Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return clock },
					Logger:   slogJSON(&logs),
					Panicked: func(string) { panicked.Lock(); panics++; panicked.Unlock() },
					MessageLink: func(s *vigil.Sentinel) string {
						if panicLinks && s.ID == bad.ID {
							var parts []string
							return parts[s.ID] // a slice past its end, as the message bug was
						}
						return ""
					}}
				round := func() {
					t.Helper()
					makeDue(t, db, good, clock)
					makeDue(t, db, bad, clock)
					runOnce(t, m, 2)
				}
				round() // the first reads
				clock = clock.Add(2 * time.Hour)
				f.set(goodURL, "<html><body><p>second news</p></body></html>")
				f.set(badURL, `<html><body><p>second news</p><a href="page.html">more</a></body></html>`)
				switch where {
				case "fetcher":
					f.mu.Lock()
					f.bad = badURL
					f.mu.Unlock()
				case "site":
					// Fetched by a worker of the crawl (crawl.WorkerPanic).
					f.mu.Lock()
					f.bad = badPage
					f.mu.Unlock()
				default:
					panicLinks = true
				}
				round()
				if n := len(changesOf(t, db, good)); n != 1 {
					t.Errorf("the good sentinel has %d changes; want 1, checked beside the panic", n)
				}
				if n := len(messagesOf(t, db, u, good)); n != 1 {
					t.Errorf("the good sentinel has %d messages; want 1, told beside the panic", n)
				}
				if n := len(changesOf(t, db, bad)); n != 0 {
					t.Errorf("the panicking sentinel has %d changes; want none", n)
				}
				if n := len(messagesOf(t, db, u, bad)); n != 0 {
					t.Errorf("the panicking sentinel has %d messages; want none", n)
				}
				_, v, err := db.LatestVersionByURL(ctx, badURL)
				if err != nil {
					t.Fatal(err)
				}
				if v.Error != internalError {
					t.Errorf("the last fetch of the panicking page says %q; want %q", v.Error, internalError)
				}
				cur, err := db.FindSentinelByID(ctx, bad.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !cur.LastCheck.Equal(clock) {
					t.Errorf("the panicking sentinel was last checked %v; want %v, the check recorded", cur.LastCheck, clock)
				}
				if cur.NextCheck.Before(clock.Add(time.Minute)) {
					t.Errorf("the panicking sentinel is next due %v; want the policy's time after a failure, not at once (%v)", cur.NextCheck, clock)
				}
				states, err := db.SentinelStates(ctx, []int64{bad.ID})
				if err != nil {
					t.Fatal(err)
				}
				var st state
				if err := json.Unmarshal(states[bad.ID], &st); err != nil {
					t.Fatal(err)
				}
				if ps := st.Pages[badURL]; ps == nil || where != "site" && ps.Count != 1 || ps.FailingSince.IsZero() {
					t.Errorf("the panicking sentinel's page state %+v; want the first read alone, failing since this check", ps)
				}
				panicked.Lock()
				if panics != 1 {
					t.Errorf("%d panics counted; want 1", panics)
				}
				panicked.Unlock()
				log := logs.String()
				var line map[string]any
				for _, l := range strings.Split(log, "\n") {
					if strings.Contains(l, "check panicked") {
						if err := json.Unmarshal([]byte(l), &line); err != nil {
							t.Fatal(err)
						}
					}
				}
				if line == nil {
					t.Fatalf("no panic logged in:\n%s", log)
				}
				if line["level"] != "ERROR" || !strings.Contains(line["panic"].(string), "index out of range") ||
					!strings.Contains(line["stack"].(string), "monitor.") || fmt.Sprint(line["urls"]) != "["+badURL+"]" {
					t.Errorf("panic logged as %v; want an error with the panic, its stack and the URL", line)
				}
				if where == "site" && !strings.Contains(line["panic"].(string), "crawl worker panicked") {
					t.Errorf("panic logged as %v; want the crawl's worker's panic", line["panic"])
				}
				if ids, ok := line["sentinels"].([]any); !ok || len(ids) != 1 || ids[0] != float64(bad.ID) {
					t.Errorf("panic logged for sentinels %v; want [%d]", line["sentinels"], bad.ID)
				}

				// The bug gone, the next check reports the change the
				// panicking one found but did not keep.
				f.mu.Lock()
				f.bad = ""
				f.mu.Unlock()
				panicLinks = false
				clock = clock.Add(24 * time.Hour)
				round()
				if n := len(changesOf(t, db, bad)); n != 1 && where != "site" {
					t.Errorf("after the panic, the sentinel has %d changes; want 1", n)
				}
			})
		})
	}
}

// slogJSON returns a logger writing JSON lines, every level, to w.
func slogJSON(w *syncBuffer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// TestRunCheckPanicRecovered: in the daemon's loop (Run), a check whose
// fetch panics, at every check, is recorded failed through the committer
// like any check, beside another sentinel's, and Run goes on: the
// sentinel is not checked again before the policy's time after a failure
// (no tight loop of panics), and Run stops cleanly when asked.
func TestRunCheckPanicRecovered(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	const goodURL, badURL = "https://good.example.test/", "https://bad.example.test/"
	clock := time.Now().UTC().Truncate(time.Minute)
	checker := spec.NewChecker(clock)
	good := createSentinel(t, db, checker, u, "good", "Create Sentinel good Using "+goodURL+" Monitor any change\n")
	bad := createSentinel(t, db, checker, u, "bad", "Create Sentinel bad Using "+badURL+" Monitor any change\n")
	f := &panickingFetcher{pagesFetcher: pagesFetcher{pages: map[string]string{goodURL: "<p>good</p>", badURL: "<p>bad</p>"}}, bad: badURL}
	var panics, committed atomic.Int64
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return clock }, Panicked: func(string) { panics.Add(1) },
		Committed: func(n int) { committed.Add(int64(n)) }}
	rctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- m.Run(rctx, 5*time.Millisecond, nil) }()
	deadline := time.Now().Add(10 * time.Second)
	for committed.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // some polls more: none checks the failed one again
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v; want it stopped by its context", err)
	}
	if n := committed.Load(); n != 2 {
		t.Errorf("%d checks committed; want 2, once each", n)
	}
	if n := panics.Load(); n != 1 {
		t.Errorf("%d panics; want 1", n)
	}
	for _, s := range []*vigil.Sentinel{good, bad} {
		cur, err := db.FindSentinelByID(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !cur.LastCheck.Equal(clock) || !cur.NextCheck.After(clock) {
			t.Errorf("sentinel %s last checked %v, next %v; want checked at %v and due later", s.Name, cur.LastCheck, cur.NextCheck, clock)
		}
	}
	_, v, err := db.LatestVersionByURL(ctx, badURL)
	if err != nil || v.Error != internalError {
		t.Errorf("the last fetch of the panicking page: %+v, %v; want %q", v, err, internalError)
	}
}
