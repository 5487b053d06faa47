package intent

import (
	"slices"
	"testing"
)

// TestScopeMisses: a scope, or a table or list named by id or index, that
// selects nothing on a page is named, so that a sentinel that can never
// fire there says why; one that selects something is not.
func TestScopeMisses(t *testing.T) {
	const page = `<html><body><div class="main">
<table id="prices"><tr><td>a</td></tr></table>
<ul id="news"><li>x</li></ul>
</div><table><tr><td>b</td></tr></table></body></html>`
	tests := []struct {
		clause string
		want   []string
	}{
		{`any change`, nil},
		{`table {prices}`, nil},
		{`table {u}`, []string{"scope table#u matches nothing"}},
		{`table {2}`, nil},
		{`table {3}`, []string{"scope table 3 matches nothing (the page has 2 tables)"}},
		{`table {"#p"}`, []string{`scope table {"#p"} matches nothing`}},
		{`table {"a b", "#3"}`, []string{`scope table {"a b"} matches nothing`, "scope table 3 matches nothing (the page has 2 tables)"}},
		{`list {news, old}`, []string{"scope list#old matches nothing"}},
		{`list {id}`, []string{"scope list#id matches nothing"}},
		{`keywords {a} In css "div.side"`, []string{`scope css "div.side" matches nothing`}},
		{`keywords {a} In xpath "//div[@class='main']"`, nil},
		{`table {u} In css "div.main"`, []string{`scope table#u in css "div.main" matches nothing`}},
		{`table {prices} In css "div.side"`, []string{`scope css "div.side" matches nothing`}},
		{`value In css "#price" changes OR NOT table {u} AND list`, []string{`scope css "#price" matches nothing`, "scope table#u matches nothing"}},
		{`table {u} OR table {u} In css "div.main"`, []string{"scope table#u matches nothing", `scope table#u in css "div.main" matches nothing`}},
		{`table {1} In css "div.main"`, nil},
		{`table {2} In css "div.main"`, []string{`scope table 2 in css "div.main" matches nothing (the scope has 1 table)`}},
		{`list In css "table"`, []string{`scope list in css "table" matches nothing`}},
		{`all words Ignore css "div.side"`, []string{`ignore css "div.side" matches nothing`}},
		{`all words Ignore css "div.main"`, nil},
		{`all words Ignore css "div.main" Ignore xpath "//aside"`, []string{`ignore xpath "//aside" matches nothing`}},
		{`keywords {a} In css "div.side" Ignore css "p.ad"`, []string{`scope css "div.side" matches nothing`}},
		{`table {u} Ignore css "p.ad"`, []string{`ignore css "p.ad" matches nothing`, "scope table#u matches nothing"}},
	}
	doc := parseDoc(t, page)
	old := parseDoc(t, `<html><body><p>before</p></body></html>`)
	for _, tt := range tests {
		got, err := ScopeMisses(doc, monitor(t, tt.clause))
		if err != nil {
			t.Errorf("%s: %v", tt.clause, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.clause, got, tt.want)
		}
		// A pair's New says the same.
		got, err = NewPair(old, doc, nil, nil).ScopeMisses(monitor(t, tt.clause))
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: Pair.ScopeMisses %q, %v, want %q", tt.clause, got, err, tt.want)
		}
	}
	if got, err := ScopeMisses(parseDoc(t, `<html><body><p>no tables</p></body></html>`), monitor(t, "table")); err != nil || !slices.Equal(got, []string{"scope table matches nothing"}) {
		t.Errorf("table on a page without one: %q, %v", got, err)
	}
}

// TestPairScopeMissesShared: a pair's ScopeMisses reads its New through the
// contents its comparison builds, and the comparison reuses them: a table
// sentinel's scope notes and its evaluation build one content, not two.
func TestPairScopeMissesShared(t *testing.T) {
	old := parseDoc(t, `<html><body><div class="main"><table id="p"><tr><td>1</td></tr></table></div></body></html>`)
	cur := parseDoc(t, `<html><body><div class="main"><table id="p"><tr><td>2</td></tr></table></div></body></html>`)
	x := monitor(t, `table {p, u} In css "div.main"`)
	p := NewPair(old, cur, nil, nil)
	got, err := p.ScopeMisses(x)
	if want := []string{`scope table#u in css "div.main" matches nothing`}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("ScopeMisses: %q, %v, want %q", got, err, want)
	}
	if len(p.contents) != 1 {
		t.Fatalf("after ScopeMisses the pair holds %d contents, want 1", len(p.contents))
	}
	if r, err := p.Evaluate(x); err != nil || !r.Matched {
		t.Fatalf("Evaluate: %+v, %v, want the table changed", r, err)
	}
	if len(p.contents) != 1 || len(p.selectors) != 1 {
		t.Errorf("after Evaluate the pair holds %d contents and %d selectors, want 1 and 1: the scope notes' were not reused", len(p.contents), len(p.selectors))
	}
	// A New read as its source text has no notes (its tables are none).
	p = NewPair(old, cur, nil, nil)
	p.NewReadAsText = true
	if got, err := p.ScopeMisses(x); err != nil || got != nil {
		t.Errorf("New read as text: %q, %v, want none", got, err)
	}
}
