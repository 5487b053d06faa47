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
		{`all words Ignore css "div.side"`, nil}, // an Ignore that matches nothing leaves nothing out: no harm
	}
	doc := parseDoc(t, page)
	for _, tt := range tests {
		got, err := ScopeMisses(doc, monitor(t, tt.clause))
		if err != nil {
			t.Errorf("%s: %v", tt.clause, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.clause, got, tt.want)
		}
	}
	if got, err := ScopeMisses(parseDoc(t, `<html><body><p>no tables</p></body></html>`), monitor(t, "table")); err != nil || !slices.Equal(got, []string{"scope table matches nothing"}) {
		t.Errorf("table on a page without one: %q, %v", got, err)
	}
}
