package monitor

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestSamePageOneFetch: two sentinels on one page spelt with a fragment
// and dot segments (/a/./b#x) and without (/a/b) share its fetch and its
// resource: the page is asked for once a round, by its path without the
// dot segments. The monitor fetched each spelling on its own (the
// fragment is not sent, "/a/./b" was), two fetches of one page whose
// versions went into the one resource the store keys by vigil.CanonicalURL.
func TestSamePageOneFetch(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.RequestURI())
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<p>one page</p>")
	}))
	t.Cleanup(srv.Close)
	now := time.Now().UTC().Truncate(time.Minute)
	db, wh, u := testStore(t)
	checker := spec.NewChecker(now)
	dotted := createSentinel(t, db, checker, u, "dotted", "Create Sentinel dotted Using "+srv.URL+"/a/./b#x Monitor any change Fetch 1 hour\n")
	plain := createSentinel(t, db, checker, u, "plain", "Create Sentinel plain Using "+srv.URL+"/a/b Monitor any change Fetch 1 hour\n")
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, IgnoreRobots: true, TotalTimeout: 5 * time.Second}),
		Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return now }}
	runOnce(t, m, 2)
	now = now.Add(2 * time.Hour)
	makeDue(t, db, dotted, now)
	makeDue(t, db, plain, now)
	runOnce(t, m, 2)
	mu.Lock()
	got := append([]string(nil), asked...)
	mu.Unlock()
	if len(got) != 2 || got[0] != "/a/b" || got[1] != "/a/b" {
		t.Errorf("asked for %q in two rounds, want /a/b once a round", got)
	}
	rs, n, err := db.FindResources(context.Background(), vigil.ResourceFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 || rs[0].URL != srv.URL+"/a/b" {
		t.Errorf("resources %d: %+v, want the one page's", n, rs)
	}
}

// TestSummaryFailingSinceWritten: a page's failure, kept in the state by
// its canonical URL, is found by the URL as the sentinel writes it (the
// dashboard and the API look the page's failure up by it) and by the
// canonical one.
func TestSummaryFailingSinceWritten(t *testing.T) {
	db, _, u := testStore(t)
	now := time.Now().UTC().Truncate(time.Second)
	s := createSentinel(t, db, spec.NewChecker(now), u, "dotted", "Create Sentinel dotted Using http://h.example/a/./b#x Monitor any change Fetch 1 hour\n")
	raw := []byte(`{"pages":{"http://h.example/a/b":{"failingSince":"` + now.Format(time.RFC3339) + `"}}}`)
	sum := Summary(raw, s)
	for _, u := range []string{"http://h.example/a/b#x", "http://h.example/a/b"} {
		if !sum.FailingSince[u].Equal(now) {
			t.Errorf("FailingSince[%s] = %v, want %v (all: %v)", u, sum.FailingSince[u], now, sum.FailingSince)
		}
	}
}
