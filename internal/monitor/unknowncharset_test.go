package monitor

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestUnknownCharsetHeader: a page served as `text/html; charset=foo-bar`
// (a charset no one knows) through the real fetcher is monitored: each
// check reads it, its change is recorded and notified, and its owner is
// sent no failure notice. Every check failed with "unsupported charset".
func TestUnknownCharsetHeader(t *testing.T) {
	const contentType = "text/html; charset=foo-bar"
	srv, set := versionServer(t, servedVersion{contentType, "<html><body><p>Opening hours: 9 to 5, caf\u00e9</p></body></html>"})
	start := time.Now().UTC().Truncate(time.Minute)
	clock := start
	db, wh, u := testStore(t)
	s := createSentinel(t, db, spec.NewChecker(clock), u, "page", "Create Sentinel page Using "+srv.URL+"/page"+
		" Monitor any change Fetch 1 hour Notify By email owner@example.test Every immediate\n")
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
		Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return clock }, FailureNotice: time.Hour}
	runOnce(t, m, 1)
	set(servedVersion{contentType, "<html><body><p>Opening hours: 10 to 6, caf\u00e9</p></body></html>"})
	for h := 1; h <= 3; h++ {
		clock = start.Add(time.Duration(h) * time.Hour)
		makeDue(t, db, s, clock)
		runOnce(t, m, 1)
	}
	ctx := context.Background()
	rs, _, err := db.FindResources(ctx, vigil.ResourceFilter{})
	if err != nil || len(rs) != 1 {
		t.Fatalf("resources %+v, %v; want the page's", rs, err)
	}
	vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: rs[0].ID})
	if err != nil || len(vs) < 2 {
		t.Fatalf("versions %d, %v; want the page's", len(vs), err)
	}
	for _, v := range vs {
		if v.Error != "" {
			t.Errorf("version #%d failed: %s", v.Seq, v.Error)
		}
	}
	cs := changesOf(t, db, s)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1 (9 to 5 became 10 to 6)", len(cs))
	}
	msgs := messagesOf(t, db, u, s)
	if len(msgs) != 1 || msgs[0].Failure != nil || !strings.Contains(msgs[0].Text, "10 to 6") {
		for _, msg := range msgs {
			t.Logf("message %q: %+v", msg.Subject, msg.Failure)
		}
		t.Fatalf("%d messages, want one change notice that reads the new text", len(msgs))
	}
}
