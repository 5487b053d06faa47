package monitor

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestSentinelHostDNSRefuses: a sentinel stored before its URL's host
// was held to DNS's rules (spec.CheckHostName), which loads as it was
// stored, watches a page no fetch can reach: its checks fail, naming the
// host and what is wrong with it, and its owner is told as of any page
// that fails; no resource is stored under the host (the store refuses
// it), and the other sentinels are checked as before. The page's
// resource was stored under "a..example", and each check failed on DNS.
func TestSentinelHostDNSRefuses(t *testing.T) {
	ctx := context.Background()
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		asked.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><body><p>good</p></body></html>")
	}))
	t.Cleanup(srv.Close)
	db, wh, u := testStore(t)
	start := time.Now().UTC().Truncate(time.Minute)
	clock := start
	checker := spec.NewChecker(clock)
	good := createSentinel(t, db, checker, u, "good", "Create Sentinel good Using "+srv.URL+"/p Monitor any change Fetch 1 hour\n")
	bad := createSentinel(t, db, checker, u, "bad",
		"Create Sentinel bad Using http://placeholder.example/p Monitor any change Fetch 1 hour Notify By email owner@example.test\n")
	// As stored before the rule: the URL a sentinel holds now is refused.
	bad.Spec = []byte(strings.ReplaceAll(string(bad.Spec), "placeholder.example", "a..example"))
	bad.Source = strings.ReplaceAll(bad.Source, "placeholder.example", "a..example")
	if err := db.UpdateSentinel(ctx, bad); err != nil {
		t.Fatal(err)
	}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 10 * time.Second}),
		Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return clock }, FailureNotice: 3 * time.Hour}
	for h := 0; h <= 4; h++ {
		clock = start.Add(time.Duration(h) * time.Hour)
		makeDue(t, db, good, clock)
		makeDue(t, db, bad, clock)
		runOnce(t, m, 2)
	}
	if n := asked.Load(); n < 1 {
		t.Errorf("the good page was asked %d times", n)
	}
	rs, n, err := db.FindResources(ctx, vigil.ResourceFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 || rs[0].URL != srv.URL+"/p" {
		t.Errorf("resources %d: %+v, want the good page's alone", n, rs)
	}
	msgs := messagesOf(t, db, u, bad)
	const want = `host "a..example" has an empty label`
	if len(msgs) != 1 || msgs[0].Failure == nil || !strings.Contains(msgs[0].Failure.Error, want) ||
		!strings.Contains(msgs[0].Subject, "http://a..example/p fails since") {
		for _, msg := range msgs {
			t.Logf("message %q: %+v", msg.Subject, msg.Failure)
		}
		t.Fatalf("%d messages to the owner of the page that cannot be read, want one failure notice with %q", len(msgs), want)
	}
}
