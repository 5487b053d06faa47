package monitor

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
)

// TestScopeMissNoted: a sentinel whose table, list or scope names what
// the page lacks is checked as ever (the check is no failure and the
// sentinel stays due), and its recorded state says what matches nothing
// on which page (ScopeNotes), from its first check on; an edit that
// names what the page has clears it at the next check, although the page
// has not changed, and the page losing the table brings it back.
func TestScopeMissNoted(t *testing.T) {
	db, wh, u := testStore(t)
	ctx := context.Background()
	const withTable = `<html><body><table id="prices"><tr><td>1</td></tr></table><p>x</p></body></html>`
	src := func(monitor string) string {
		return "Create Sentinel t Using " + pageA + " AND " + pageB + " Monitor " + monitor + " Fetch 1 hour\n"
	}
	s := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "t", src(`table {u} OR keywords {x} In css "div.side"`))
	f := &pagesFetcher{pages: map[string]string{pageA: withTable, pageB: withTable}}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}}
	notes := func() []string {
		t.Helper()
		states, err := db.SentinelStates(ctx, []int64{s.ID})
		if err != nil {
			t.Fatal(err)
		}
		return ScopeNotes(states[s.ID])
	}
	check := func() {
		t.Helper()
		makeDue(t, db, s, time.Now().UTC())
		runOnce(t, m, 1)
	}
	check()
	want := []string{
		"scope table#u matches nothing on " + pageA,
		`scope css "div.side" matches nothing on ` + pageA,
		"scope table#u matches nothing on " + pageB,
		`scope css "div.side" matches nothing on ` + pageB,
	}
	slices.Sort(want)
	if got := notes(); !slices.Equal(got, want) {
		t.Errorf("after the first check: %q, want %q", got, want)
	}
	// The state saved at every check keeps, per page, the version and a
	// short hash of the expression the notes are of, not the expression.
	states, err := db.SentinelStates(ctx, []int64{s.ID})
	if err != nil {
		t.Fatal(err)
	}
	if of := decodeState(states[s.ID]).Pages[pageA].MissesOf; len(of) > 30 || strings.Contains(of, "table") {
		t.Errorf("missesOf %q: the state holds the printed expression", of)
	}
	cur, err := db.FindSentinelByID(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !cur.NextCheck.After(time.Now().Add(30 * time.Minute)) {
		t.Errorf("next check %v: the check was taken for a failure", cur.NextCheck)
	}

	// The edit names the table the pages have: nothing to say, although
	// the pages are as they were.
	editSource(t, db, s, src(`table {prices}`))
	check()
	if got := notes(); len(got) != 0 {
		t.Errorf("after the edit: %q, want none", got)
	}

	// Page B drops its table.
	f.set(pageB, `<html><body><p>x</p></body></html>`)
	check()
	if got, want := notes(), []string{"scope table#prices matches nothing on " + pageB}; !slices.Equal(got, want) {
		t.Errorf("after the table went: %q, want %q", got, want)
	}

	// Page B fails: what its last version lacked is not said beside
	// its error, and is said again once it is read.
	f.set(pageB, "")
	check()
	if got := notes(); len(got) != 0 {
		t.Errorf("page B failing: %q, want none", got)
	}
	f.set(pageB, `<html><body><p>x</p></body></html>`)
	check()
	if got, want := notes(), []string{"scope table#prices matches nothing on " + pageB}; !slices.Equal(got, want) {
		t.Errorf("page B back: %q, want %q", got, want)
	}

	// An edit of the Monitor clause: the notes of the clause before are
	// not said, neither before the next check nor after one that could
	// not read page B.
	editSource(t, db, s, src(`list {news}`))
	edited, err := db.FindSentinelByID(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	summary := func() []string {
		t.Helper()
		states, err := db.SentinelStates(ctx, []int64{s.ID})
		if err != nil {
			t.Fatal(err)
		}
		return Summary(states[s.ID], edited).ScopeNotes
	}
	if got := summary(); len(got) != 0 {
		t.Errorf("after the edit, before a check: %q, want none", got)
	}
	f.set(pageB, "")
	check()
	if got, want := summary(), []string{"scope list#news matches nothing on " + pageA}; !slices.Equal(got, want) {
		t.Errorf("after the edit, page B failing: %q, want %q", got, want)
	}
}

// TestScopeMissNotedIgnoreAlone: an Ignore that selects nothing is noted
// on a change type that has no scope of its own, as on one that has: it
// leaves nothing out, so the changes it was written to keep out are
// reported.
func TestScopeMissNotedIgnoreAlone(t *testing.T) {
	for _, tc := range []struct {
		name, monitor string
		want          []string
	}{
		{"any change", `any change Ignore css "p.zz"`, []string{`ignore css "p.zz" matches nothing on ` + pageA}},
		{"keywords", `keywords {x} Ignore xpath "//aside"`, []string{`ignore xpath "//aside" matches nothing on ` + pageA}},
		{"ignore that selects", `any change Ignore css "p.ad"`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, wh, u := testStore(t)
			ctx := context.Background()
			src := "Create Sentinel t Using " + pageA + " Monitor " + tc.monitor + " Fetch 1 hour\n"
			s := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "t", src)
			f := &pagesFetcher{pages: map[string]string{pageA: `<html><body><p>x</p><p class="ad">buy</p></body></html>`}}
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}}
			makeDue(t, db, s, time.Now().UTC())
			runOnce(t, m, 1)
			states, err := db.SentinelStates(ctx, []int64{s.ID})
			if err != nil {
				t.Fatal(err)
			}
			if got := ScopeNotes(states[s.ID]); !slices.Equal(got, tc.want) {
				t.Errorf("notes %q, want %q", got, tc.want)
			}
		})
	}
}

// editSource gives s a new source, checked anew, as the dashboard's
// editor does.
func editSource(t *testing.T, db *sqlite.DB, s *vigil.Sentinel, src string) {
	t.Helper()
	ps, err := spec.ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := spec.NewChecker(time.Now().UTC()).CheckReplace(s.Name, ps)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := db.FindSentinelByID(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur.Source = src
	if cur.Spec, err = ch.MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	if err := db.UpdateSentinel(context.Background(), cur); err != nil {
		t.Fatal(err)
	}
}

// TestScopeMissesReadPageOnce: the sentinels of one page share its tree for
// their scope notes. At their first check, which compares nothing, the
// page is read into its tree once for the three of them, not once each;
// the two that ask the same are looked at once.
func TestScopeMissesReadPageOnce(t *testing.T) {
	db, wh, u := testStore(t)
	const page = `<html><body><table id="prices"><tr><td>1</td></tr></table></body></html>`
	var ss []*vigil.Sentinel
	for i, monitor := range []string{`table {u}`, `table {u}`, `list OR keywords {x} In css "div"`} {
		name := string(rune('a' + i))
		ss = append(ss, createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, name, "Create Sentinel "+name+" Using "+pageA+" Monitor "+monitor+" Fetch 1 hour\n"))
	}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: &pagesFetcher{pages: map[string]string{pageA: page}}, Policy: schedule.Policy{MinInterval: time.Minute}}
	for _, s := range ss {
		makeDue(t, db, s, time.Now().UTC())
	}
	runOnce(t, m, 3)
	if n := m.documentsRead.Load(); n != 1 {
		t.Errorf("the page was read into its tree %d times for its sentinels' scope notes, want once", n)
	}
	states, err := db.SentinelStates(context.Background(), []int64{ss[0].ID, ss[1].ID, ss[2].ID})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][]string{
		{"scope table#u matches nothing on " + pageA},
		{"scope table#u matches nothing on " + pageA},
		{`scope css "div" matches nothing on ` + pageA, "scope list matches nothing on " + pageA},
	} {
		if got := ScopeNotes(states[ss[i].ID]); !slices.Equal(got, want) {
			t.Errorf("sentinel %s: %q, want %q", ss[i].Name, got, want)
		}
	}
}
