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

// ignoreSite is a site of three HTML pages (a text file too, not looked
// at): the start page alone has a div.side; ad, if not empty, is the page
// ("index", "guide") that has a span.ad, inside its div.side on the
// start page.
func ignoreSite(ad string) crawltest.Release {
	side, guide := `<div class="side">x</div>`, `<p>Install.</p>`
	switch ad {
	case "index":
		side = `<div class="side">x <span class="ad">buy</span></div>`
	case "guide":
		guide = `<p>Install.</p><span class="ad">buy</span>`
	}
	return crawltest.Release{
		"/docs/index.html": []byte(`<html><head><title>Docs</title></head><body><a href="guide.html">Guide</a> <a href="faq.html">FAQ</a> <a href="notes.txt">Notes</a>` + side + `</body></html>`),
		"/docs/guide.html": []byte(`<html><head><title>Guide</title></head><body>` + guide + `</body></html>`),
		"/docs/faq.html":   []byte(`<html><head><title>FAQ</title></head><body><p>Free.</p></body></html>`),
		"/docs/notes.txt":  []byte("notes"),
	}
}

// TestSiteScopeMissIgnoreUnused: an Ignore is unused on a page where it
// selects nothing, and on one that lacks the scope of its change type
// (nothing there is looked at, so it leaves nothing out), whatever that
// page holds: an Ignore unused on every page of the crawl is noted, and
// its note goes once it selects something on a page that has the scope.
// The Ignore was noted only when every page had its scope, since a page
// that lacks the scope has the scope's note alone. A scope on no page is
// its note alone, as on a page: the Ignore under it is not noted too,
// unless another change type holds it.
func TestSiteScopeMissIgnoreUnused(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, ignoreSite(""))
	now := time.Now().UTC()
	start := site.URL("/docs/")
	src := func(monitor string) string {
		return "Create Sentinel docs Using site " + start + " Monitor " + monitor + " Every interactive"
	}
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src(`any change In css "div.side" Ignore css "span.ad"`))
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	notes := func() []string {
		t.Helper()
		states, err := db.SentinelStates(ctx, []int64{sen.ID})
		if err != nil {
			t.Fatal(err)
		}
		return ScopeNotes(states[sen.ID])
	}
	on := " on site " + start + " (3 pages looked at)"
	unused := []string{`ignore css "span.ad" matches nothing` + on}

	runOnce(t, m, 1)
	if got := notes(); !slices.Equal(got, unused) {
		t.Errorf("no span.ad on any page, two pages without the div.side:\n%q\nwant\n%q", got, unused)
	}
	// A span.ad on the guide, which has no div.side: unused all the same.
	site.Set(ignoreSite("guide"), nil)
	checkAnHourLater(t, m, db, sen, &now)
	if got := notes(); !slices.Equal(got, unused) {
		t.Errorf("a span.ad on a page without the div.side:\n%q\nwant\n%q", got, unused)
	}
	// A span.ad in the start page's div.side: used, the note goes.
	site.Set(ignoreSite("index"), nil)
	checkAnHourLater(t, m, db, sen, &now)
	if got := notes(); len(got) != 0 {
		t.Errorf("a span.ad in the div.side: %q, want none", got)
	}
	// It goes from the start page: the note comes back.
	site.Set(ignoreSite(""), nil)
	checkAnHourLater(t, m, db, sen, &now)
	if got := notes(); !slices.Equal(got, unused) {
		t.Errorf("the span.ad gone:\n%q\nwant\n%q", got, unused)
	}

	// A scope on no page: its note alone, as on a page.
	editSpec(t, db, u, sen, src(`any change In css "div.none" Ignore css "span.ad"`), now)
	checkAnHourLater(t, m, db, sen, &now)
	if got, want := notes(), []string{`scope css "div.none" matches nothing` + on}; !slices.Equal(got, want) {
		t.Errorf("a scope on no page:\n%q\nwant\n%q", got, want)
	}
	// The same Ignore on a change type without a scope too: noted.
	editSpec(t, db, u, sen, src(`any change In css "div.none" Ignore css "span.ad" OR keywords {x} Ignore css "span.ad"`), now)
	checkAnHourLater(t, m, db, sen, &now)
	if got, want := notes(), []string{`ignore css "span.ad" matches nothing` + on, `scope css "div.none" matches nothing` + on}; !slices.Equal(got, want) {
		t.Errorf("the Ignore on a change type without a scope too:\n%q\nwant\n%q", got, want)
	}
}
