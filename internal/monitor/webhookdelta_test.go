package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/notify/webhook"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestWebhookDeltaNamesVersions: the tree delta a webhook delivers, to a
// receiver on loopback, for a change of a page served on loopback and
// fetched by the real fetcher, names its two versions in its from and to
// as the API's diff names them (vigil.Version.DeltaName: "version 2,
// fetched ..."), the change's FromVersion and ToVersion, whether the
// versions compared were read from the store or from the cache of recent
// bodies. Its from and to were "", where README says the webhook's delta
// is the form of vigil diff --format json, which names its inputs.
func TestWebhookDeltaNamesVersions(t *testing.T) {
	for _, cached := range []bool{true, false} {
		name := "cached bodies"
		if !cached {
			name = "stored bodies"
		}
		t.Run(name, func(t *testing.T) {
			srv, set := versionServer(t, servedVersion{htmlType, textStartPage("Opening hours", "https://x.example/a")})
			var mu sync.Mutex
			var received [][]byte
			hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				received = append(received, body)
				mu.Unlock()
			}))
			t.Cleanup(hook.Close)
			now := time.Now().UTC().Truncate(time.Minute)
			db, wh, u := testStore(t)
			s := createSentinel(t, db, spec.NewChecker(now), u, "page", "Create Sentinel page Using "+srv.URL+"/page"+
				" Monitor all links Fetch 1 hour Notify By webhook "+hook.URL+"/hook\n")
			newMonitor := func() *Monitor {
				return &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
					Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return now }}
			}
			m := newMonitor()
			runOnce(t, m, 1)
			set(servedVersion{htmlType, textStartPage("Opening hours", "https://x.example/b")})
			now = now.Add(2 * time.Hour)
			makeDue(t, db, s, now)
			if !cached {
				m = newMonitor() // nothing in its cache: the older version is read from the store
			}
			runOnce(t, m, 1)
			d := &Deliverer{Store: db, Channels: map[string]vigil.Notifier{"webhook": &webhook.Notifier{Secret: bytes.Repeat([]byte("k"), 32)}},
				Workers: 1, Now: func() time.Time { return now.Add(time.Hour) }} // past the entry's next attempt
			if n, err := d.RunOnce(context.Background()); n != 1 || err != nil {
				t.Fatalf("delivered %d, %v; want 1", n, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(received) != 1 {
				t.Fatalf("%d webhook requests, want 1", len(received))
			}
			var msg vigil.Message
			if err := json.Unmarshal(received[0], &msg); err != nil || len(msg.Changes) != 1 {
				t.Fatalf("webhook body (%v): %s", err, received[0])
			}
			item := msg.Changes[0]
			dl, err := delta.DecodeJSON(bytes.NewReader(item.Delta))
			if err != nil {
				t.Fatalf("delta (%v): %s", err, item.Delta)
			}
			for _, v := range []struct {
				which, got string
				id         int64
			}{{"from", dl.From, item.Change.FromVersion}, {"to", dl.To, item.Change.ToVersion}} {
				ver, err := db.FindVersionByID(context.Background(), v.id)
				if err != nil {
					t.Fatal(err)
				}
				if want := ver.DeltaName(); v.got != want {
					t.Errorf("delta's %s %q, want %q", v.which, v.got, want)
				}
			}
		})
	}
}
