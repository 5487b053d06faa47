package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// textFetcher serves its pages as text/plain.
type textFetcher struct{ pagesFetcher }

func (f *textFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	r, err := f.pagesFetcher.Fetch(ctx, req)
	if r != nil {
		r.ContentType = "text/plain"
	}
	return r, err
}

// TestTextPageChangedLine: a page served as text/plain (a changelog) whose
// one line changed is reported, and notified, as that line changed, not
// as the whole page replaced.
func TestTextPageChangedLine(t *testing.T) {
	db, wh, u := testStore(t)
	s := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "log", "Create Sentinel log Using "+pageA+
		" Monitor any change Fetch 1 hour Notify By email owner@example.test\n")
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "line %d of the changelog\n", i)
	}
	f := &textFetcher{pagesFetcher{pages: map[string]string{pageA: b.String()}}}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}}
	check := func() {
		t.Helper()
		makeDue(t, db, s, time.Now().UTC())
		runOnce(t, m, 1)
	}
	check()
	f.set(pageA, strings.Replace(b.String(), "line 12 of", "line twelve of", 1))
	check()
	cs := changesOf(t, db, s)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1", len(cs))
	}
	var records []struct{ Op, Old, New string }
	if err := json.Unmarshal([]byte(cs[0].Records), &records); err != nil {
		t.Fatal(err)
	}
	if len(records) != 1 || records[0].Op != "update" || records[0].Old != "line 12 of the changelog" || records[0].New != "line twelve of the changelog" {
		t.Errorf("changes %+v, want line 12 updated", records)
	}
	msgs := messagesOf(t, db, u, s)
	if len(msgs) != 1 {
		t.Fatalf("%d messages, want 1", len(msgs))
	}
	if strings.Contains(msgs[0].Text, "line 11") {
		t.Errorf("the message quotes the lines around the change:\n%s", msgs[0].Text)
	}
}
