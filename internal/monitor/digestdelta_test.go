package monitor

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestDigestWebhookDeltas: a digest to a webhook (Every 1 day) carries
// each change's tree delta, as a webhook of one change does: between the
// change's two versions, named as the API's diff names them
// (vigil.Version.DeltaName), holding the text the change added, whether
// the versions are in the monitor's cache of recent bodies or read from
// the store. Its items had none. A digest by email carries none, as an
// email of one change does not.
func TestDigestWebhookDeltas(t *testing.T) {
	for _, tc := range []struct {
		name    string
		contact string
		fresh   bool // a new monitor sends the digest: its cache is empty
		deltas  bool
	}{
		{"webhook", "webhook http://hooks.example/h", false, true},
		{"webhook, bodies from the store", "webhook http://hooks.example/h", true, true},
		{"email", "email owner@example.test", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, wh, u := testStore(t)
			p := &andPages{db: db, u: u, clock: time.Now().UTC().Truncate(time.Minute)}
			src := "Create Sentinel daily Using " + pageA + " Monitor any change Fetch 1 hour Notify By " + tc.contact + " Every 1 day\n"
			p.s = createSentinel(t, db, spec.NewChecker(p.clock), u, "daily", src)
			p.f = &pagesFetcher{pages: map[string]string{pageA: pageWith("a0")}}
			newMonitor := func() *Monitor {
				return &Monitor{Store: db, Warehouse: wh, Fetcher: p.f, Policy: schedule.Policy{MinInterval: time.Minute},
					Now: func() time.Time { return p.clock }}
			}
			p.m = newMonitor()
			d := &onePage{andPages: p, start: p.clock}
			d.run(t, 0) // first sighting; the period starts
			d.change("first addition")
			d.run(t, 2*time.Hour)
			d.change("second addition")
			d.run(t, 4*time.Hour)
			if tc.fresh {
				p.m = newMonitor()
			}
			d.run(t, 25*time.Hour) // the period ends
			msgs := messagesOf(t, db, u, p.s)
			if len(msgs) != 1 || !msgs[0].Digest || len(msgs[0].Changes) != 2 {
				t.Fatalf("%d messages (%+v), want one digest of 2 changes", len(msgs), msgs)
			}
			for i, it := range msgs[0].Changes {
				if !tc.deltas {
					if len(it.Delta) != 0 {
						t.Errorf("change %d carries a delta by email: %s", i, it.Delta)
					}
					continue
				}
				dl, err := delta.DecodeJSON(bytes.NewReader(it.Delta))
				if err != nil {
					t.Errorf("change %d: delta (%v): %s", i, err, it.Delta)
					continue
				}
				for _, v := range []struct {
					which, got string
					id         int64
				}{{"from", dl.From, it.Change.FromVersion}, {"to", dl.To, it.Change.ToVersion}} {
					ver, err := db.FindVersionByID(context.Background(), v.id)
					if err != nil {
						t.Fatal(err)
					}
					if want := ver.DeltaName(); v.got != want {
						t.Errorf("change %d: delta's %s %q, want %q", i, v.which, v.got, want)
					}
				}
				added := []string{"first addition", "second addition"}[i]
				if !bytes.Contains(it.Delta, []byte(added)) {
					t.Errorf("change %d: delta without %q: %s", i, added, it.Delta)
				}
			}
		})
	}
}

// TestDigestWebhookDeltaOfFile: in a digest to a webhook, the change of a
// page into a file carries no delta, as told alone it carries none (a
// file's version has no body to compare), while the page's change
// before it carries its own.
func TestDigestWebhookDeltaOfFile(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		p := newFilePagesSource(t, open, "URL/a", "Monitor any change Fetch 1 hour Notify By webhook http://hooks.example/h Every 1 day")
		p.srv.set("/a", []byte(pageWith("a0")), false)
		p.check(0)
		p.srv.set("/a", []byte(pageWith("a1")), false)
		p.check(2 * time.Hour)
		p.srv.set("/a", []byte("%PDF-1.4 not a page"), true)
		p.check(4 * time.Hour)
		p.check(25 * time.Hour) // the period ends
		msgs := p.messages()
		if len(msgs) != 1 || !msgs[0].Digest || len(msgs[0].Changes) != 2 {
			t.Fatalf("messages %+v, want one digest of 2 changes", msgs)
		}
		page, file := msgs[0].Changes[0], msgs[0].Changes[1]
		if _, err := delta.DecodeJSON(bytes.NewReader(page.Delta)); err != nil || !bytes.Contains(page.Delta, []byte("a1")) {
			t.Errorf("the page's change: delta (%v) %s, want one that adds a1", err, page.Delta)
		}
		if len(file.Delta) != 0 {
			t.Errorf("the change into a file (%s) carries a delta: %s", file.Change.Summary, file.Delta)
		}
	})
}

// TestDigestWebhookDeltaCount: a digest gives a delta to its first
// maxDigestDeltaCount changes only (each is two versions read and
// compared again, in the claim loop when the digest is due alone); the
// changes after them carry none.
func TestDigestWebhookDeltaCount(t *testing.T) {
	db, wh, u := testStore(t)
	p := &andPages{db: db, u: u, clock: time.Now().UTC().Truncate(time.Minute)}
	src := "Create Sentinel daily Using " + pageA + " Monitor any change Fetch 1 hour Notify By webhook http://hooks.example/h Every 1 day\n"
	p.s = createSentinel(t, db, spec.NewChecker(p.clock), u, "daily", src)
	p.f = &pagesFetcher{pages: map[string]string{pageA: pageWith("a0")}}
	p.m = &Monitor{Store: db, Warehouse: wh, Fetcher: p.f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return p.clock }}
	d := &onePage{andPages: p, start: p.clock}
	d.run(t, 0)
	n := maxDigestDeltaCount + 2
	for i := 1; i <= n; i++ {
		d.change(fmt.Sprintf("addition %d", i))
		d.run(t, time.Duration(i)*time.Hour)
	}
	d.run(t, 25*time.Hour) // the period ends
	msgs := messagesOf(t, db, u, p.s)
	if len(msgs) != 1 || !msgs[0].Digest || len(msgs[0].Changes) != n {
		t.Fatalf("%d messages, want one digest of %d changes", len(msgs), n)
	}
	for i, it := range msgs[0].Changes {
		if want := i < maxDigestDeltaCount; (len(it.Delta) != 0) != want {
			t.Errorf("change %d of %d carries a delta: %v, want %v", i+1, n, len(it.Delta) != 0, want)
		}
	}
}
