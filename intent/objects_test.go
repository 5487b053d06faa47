package intent

import (
	"slices"
	"testing"
)

// TestContainersPairedByContent: tables and lists without an id are
// paired by what they hold, not by their index on the page. A list or a
// table added before the others is inserted, and the others, unchanged,
// are no change; one whose items changed is still paired with its old
// version.
func TestContainersPairedByContent(t *testing.T) {
	page := func(body string) string { return `<html><body>` + body + `</body></html>` }
	const (
		table  = `<table><tr><td>A</td><td>1</td></tr><tr><td>B</td><td>2</td></tr></table>`
		table2 = `<table><tr><td>A</td><td>1</td></tr><tr><td>B</td><td>3</td></tr></table>`
		promo  = `<table><tr><td>Promo</td><td>9</td></tr></table>`
		list   = `<ul><li>one</li><li>two</li></ul>`
		list2  = `<ul><li>one</li><li>two</li><li>three</li></ul>`
		nav    = `<ul><li>Home</li><li>About</li></ul>`
	)
	for _, tc := range []struct {
		name, old, new, clause string
		want                   []string
	}{
		{"table added before", table, promo + table, "table", []string{"insert(Promo | 9,1)"}},
		{"table added before, the other changed", table, promo + table2, "table", []string{"insert(Promo | 9,1)", "update(2->3,2,2)"}},
		{"list added before", list, nav + list, "list", []string{"insert(About,2)", "insert(Home,1)"}},
		{"list added before, the other changed", list, nav + list2, "list", []string{"insert(About,2)", "insert(Home,1)", "insert(three,3)"}},
		{"list removed before", nav + list, list, "list", []string{"delete(About,2)", "delete(Home,1)"}},
		{"list changed in place", list, `<ul><li>uno</li><li>dos</li></ul>`, "list", []string{"update(one->uno,1,1)", "update(two->dos,2,2)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.old), page(tc.new), tc.clause)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if got := briefs(r.Changes); !slices.Equal(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
}
