package monitor

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// scopeSite is a site of three HTML pages and a text file (read as text,
// so not looked at for scopes); table, if not empty, is the id of a table
// on the guide alone, and side puts a div.side on the start page.
func scopeSite(table string, side bool) crawltest.Release {
	guide := `<html><head><title>Guide</title></head><body><p>Install.</p></body></html>`
	if table != "" {
		guide = `<html><head><title>Guide</title></head><body><table id="` + table + `"><tr><td>1</td></tr></table></body></html>`
	}
	start := `<html><head><title>Docs</title></head><body><a href="guide.html">Guide</a> <a href="faq.html">FAQ</a> <a href="notes.txt">Notes</a>`
	if side {
		start += `<div class="side">x</div>`
	}
	return crawltest.Release{
		"/docs/index.html": []byte(start + `</body></html>`),
		"/docs/guide.html": []byte(guide),
		"/docs/faq.html":   []byte(`<html><head><title>FAQ</title></head><body><p>Free.</p></body></html>`),
		"/docs/notes.txt":  []byte("notes"),
	}
}

// TestSiteScopeMissNoted: a site sentinel whose table or scope matches
// nothing on any page of the site gets one note for it, naming the site
// and how many pages were looked at, from its first check (the
// reference) on; a scope that matches on one page only gets none; the
// note goes once a page has what it names, comes back when no page has,
// is not said while the start page fails, nor after an edit of the
// Monitor clause. Site sentinels got no scope notes at all.
func TestSiteScopeMissNoted(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, scopeSite("", false))
	now := time.Now().UTC()
	start := site.URL("/docs/")
	src := func(monitor string) string {
		return "Create Sentinel docs Using site " + start + " Monitor " + monitor + " Every interactive"
	}
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src(`table {u} OR keywords {x} In css "div.side" OR table {2}`))
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	summary := func() []string {
		t.Helper()
		states, err := db.SentinelStates(ctx, []int64{sen.ID})
		if err != nil {
			t.Fatal(err)
		}
		cur, err := db.FindSentinelByID(ctx, sen.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got, all := Summary(states[sen.ID], cur).ScopeNotes, ScopeNotes(states[sen.ID]); len(got) > 0 && !slices.Equal(got, all) {
			t.Errorf("Summary %q, ScopeNotes %q", got, all)
		}
		return Summary(states[sen.ID], cur).ScopeNotes
	}
	on := " on site " + start + " (3 pages looked at)"

	runOnce(t, m, 1)
	want := []string{
		`scope css "div.side" matches nothing` + on,
		"scope table 2 matches nothing" + on,
		"scope table#u matches nothing" + on,
	}
	if got := summary(); !slices.Equal(got, want) {
		t.Errorf("after the first check:\n%q\nwant\n%q", got, want)
	}
	// The site unchanged, its pages are not read again for the notes.
	read := m.documentsRead.Load()
	checkAnHourLater(t, m, db, sen, &now)
	if got := summary(); !slices.Equal(got, want) {
		t.Errorf("after a check of the site unchanged:\n%q\nwant\n%q", got, want)
	}
	if n := m.documentsRead.Load() - read; n != 0 {
		t.Errorf("the site unchanged, %d pages read again", n)
	}

	// The start page has a div.side, the guide a table#u: only table 2
	// matches nothing on any page, although each page lacks the others.
	site.Set(scopeSite("u", true), nil)
	checkAnHourLater(t, m, db, sen, &now)
	if got, want := summary(), []string{"scope table 2 matches nothing" + on}; !slices.Equal(got, want) {
		t.Errorf("with the table and the div on a page each:\n%q\nwant\n%q", got, want)
	}

	// The table goes: its note comes back.
	site.Set(scopeSite("", true), nil)
	checkAnHourLater(t, m, db, sen, &now)
	want = []string{"scope table 2 matches nothing" + on, "scope table#u matches nothing" + on}
	if got := summary(); !slices.Equal(got, want) {
		t.Errorf("the table gone:\n%q\nwant\n%q", got, want)
	}

	// The start page fails: the site's notes are not said beside its
	// failure, and are said again once it is read.
	site.Set(crawltest.Release{}, nil)
	checkAnHourLater(t, m, db, sen, &now)
	if got := summary(); len(got) != 0 {
		t.Errorf("start page failing: %q, want none", got)
	}
	site.Set(scopeSite("", true), nil)
	checkAnHourLater(t, m, db, sen, &now)
	if got := summary(); !slices.Equal(got, want) {
		t.Errorf("start page back:\n%q\nwant\n%q", got, want)
	}

	// An edit of the Monitor clause: the notes of the clause before are
	// not said before the next check, which says those of the new one.
	editSpec(t, db, u, sen, src(`list {news}`), now)
	if got := summary(); len(got) != 0 {
		t.Errorf("after the edit, before a check: %q, want none", got)
	}
	checkAnHourLater(t, m, db, sen, &now)
	if got, want := summary(), []string{"scope list#news matches nothing" + on}; !slices.Equal(got, want) {
		t.Errorf("after the edit:\n%q\nwant\n%q", got, want)
	}

	// A clause that can select nothing has no notes.
	editSpec(t, db, u, sen, src(`any change`), now)
	checkAnHourLater(t, m, db, sen, &now)
	if got := summary(); len(got) != 0 {
		t.Errorf("any change: %q, want none", got)
	}
}

// TestSiteScopeMissNotesBounded: a Monitor clause with many scopes that
// match nothing gets at most maxSiteScopeNotes notes, the last saying
// how many more, each of a bounded length.
func TestSiteScopeMissNotesBounded(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, scopeSite("", false))
	now := time.Now().UTC()
	var terms []string
	for i := range 15 {
		terms = append(terms, `keywords {x} In css "div.n`+strings.Repeat("z", 300)+string(rune('a'+i))+`"`)
	}
	src := "Create Sentinel docs Using site " + site.URL("/docs/") + " Monitor " + strings.Join(terms, " OR ") + " Every interactive"
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
	runOnce(t, siteMonitor(db, wh, fetch.Options{}, &now), 1)
	states, err := db.SentinelStates(ctx, []int64{sen.ID})
	if err != nil {
		t.Fatal(err)
	}
	notes := ScopeNotes(states[sen.ID])
	if len(notes) != maxSiteScopeNotes {
		t.Fatalf("%d notes, want %d: %q", len(notes), maxSiteScopeNotes, notes)
	}
	more := "and 6 more scopes that match nothing on site " + site.URL("/docs/") + " (3 pages looked at)"
	if !slices.Contains(notes, more) {
		t.Errorf("notes %q: none says %q", notes, more)
	}
	for _, n := range notes {
		if len(n) > maxSiteMissLen+100 {
			t.Errorf("note of %d bytes: %.80q...", len(n), n)
		}
	}
}

// TestSiteScopeMissUnderScope: a table named under a scope that some
// pages have and others lack, and that none of the pages with the scope
// has, matches nothing on the site: a page without the scope has nothing
// under it either. The site's note names the table in its scope, where
// the pages' misses differed ("scope css ... matches nothing" on one,
// "scope table#u in css ... matches nothing" on another) and no note was
// said. A scope on no page is one note alone, as on a page.
func TestSiteScopeMissUnderScope(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, scopeSite("", true)) // a div.side on the start page alone
	now := time.Now().UTC()
	start := site.URL("/docs/")
	src := "Create Sentinel docs Using site " + start + ` Monitor table {u} In css "div.side" OR table {v} In css "div.none" Every interactive`
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	states, err := db.SentinelStates(ctx, []int64{sen.ID})
	if err != nil {
		t.Fatal(err)
	}
	on := " on site " + start + " (3 pages looked at)"
	want := []string{
		`scope css "div.none" matches nothing` + on,
		`scope table#u in css "div.side" matches nothing` + on,
	}
	if got := ScopeNotes(states[sen.ID]); !slices.Equal(got, want) {
		t.Errorf("notes:\n%q\nwant\n%q", got, want)
	}
}

// TestCommonMisses: what every page lacks, a table under a scope lacked
// by a page whose scope is missing, whichever page is looked at first.
func TestCommonMisses(t *testing.T) {
	const (
		scope = `scope css "div.side" matches nothing`
		under = `scope table#u in css "div.side" matches nothing`
		other = `scope table#v in css "div.main" matches nothing`
		plain = "scope table 2 matches nothing"
	)
	for _, tc := range []struct {
		name                 string
		common, misses, want []string
	}{
		{"both lack it", []string{plain}, []string{plain}, []string{plain}},
		{"the second has it", []string{plain}, nil, nil},
		{"the table, then no scope", []string{under, plain}, []string{scope, plain}, []string{under, plain}},
		{"no scope, then the table", []string{scope, plain}, []string{under, plain}, []string{plain, under}},
		{"no scope, then the scope with the table", []string{scope}, []string{}, nil},
		{"no scope on either", []string{scope}, []string{scope}, []string{scope}},
		{"another scope", []string{scope}, []string{other}, nil},
	} {
		if got := commonMisses(tc.common, tc.misses); !slices.Equal(got, tc.want) {
			t.Errorf("%s: commonMisses(%q, %q) = %q, want %q", tc.name, tc.common, tc.misses, got, tc.want)
		}
	}
}
