package intent

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDescribe: a change reads in words a user understands, in a mail, a
// feed or a chat message: what kind of object, what happened to it, and
// its texts.
func TestDescribe(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		c          Change
		line, html string
	}{
		{Change{Kind: KindListItem, Op: Insert, New: "Council approves new bridge"},
			"+ list item added: Council approves new bridge", "list item added: <ins>Council approves new bridge</ins>"},
		{Change{Kind: KindKeyword, Op: Delete, Old: "5324"},
			"- keyword removed: 5324", "keyword removed: <del>5324</del>"},
		{Change{Kind: KindNode, Op: Update, Old: "a < b", New: "a > b"},
			"~ text changed: a < b -> a > b", "text changed: <del>a &lt; b</del> <ins>a &gt; b</ins>"},
		{Change{Kind: KindNode, Op: Insert, New: "c.html", NewPath: "/html[1]/body[1]/a[3]/@href"},
			"+ attribute href added: c.html", "attribute href added: <ins>c.html</ins>"},
		{Change{Kind: KindNode, Op: Update, Old: "a", New: "b", OldPath: "/html[1]/body[1]/p[1]/@data-x", NewPath: "/html[1]/body[1]/p[1]/@data-x"},
			"~ attribute data-x changed: a -> b", "attribute data-x changed: <del>a</del> <ins>b</ins>"},
		{Change{Kind: KindNode, Op: Move, Old: "selected", New: "selected", OldPath: "/html[1]/body[1]/select[1]/option[1]/@selected", NewPath: "/html[1]/body[1]/select[1]/option[3]/@selected"},
			"~ selected moved to another option: selected", "selected moved to another option: selected"},
		{Change{Kind: KindNode, Op: Move, Old: "disabled", New: "disabled", OldPath: "/html[1]/body[1]/button[@id='a'][1]/@disabled", NewPath: "/html[1]/body[1]/button[@id='b'][1]/@disabled"},
			"~ disabled moved to another button: disabled", "disabled moved to another button: disabled"},
		{Change{Kind: KindNode, Op: Move, Old: "yes", New: "yes", OldPath: "/list[1]/item[1]/@selected", NewPath: "/list[1]/item[2]/@selected"},
			"~ attribute selected moved: yes", "attribute selected moved: yes"},
		{Change{Kind: KindNode, Op: Move, Old: "/a", New: "/a", OldPath: "/html[1]/body[1]/a[1]/@href", NewPath: "/html[1]/body[1]/a[2]/@href"},
			"~ attribute href moved: /a", "attribute href moved: /a"},
		{Change{Kind: KindNode, Op: Delete, Old: "x", OldPath: "/html[1]/body[1]/p[@id='@x'][1]/text()[1]"},
			"- text removed: x", "text removed: <del>x</del>"},
		{Change{Kind: KindValue, Op: Update, Old: "$499.00", New: "$449.00", Value: &ValueInfo{Old: f(499), New: f(449), Delta: -50, Direction: "decreased"}},
			"~ value decreased by 50: $499.00 -> $449.00", "value decreased by 50: <del>$499.00</del> <ins>$449.00</ins>"},
		{Change{Kind: KindValue, Op: Update, Old: "99", New: "120.5", Value: &ValueInfo{Delta: 21.5, Direction: "increased", Crossed: "above", Threshold: f(100)}},
			"~ value rose above 100: 99 -> 120.5", "value rose above 100: <del>99</del> <ins>120.5</ins>"},
		{Change{Kind: KindLink, Op: Update, Link: &LinkInfo{OldHref: "/a", NewHref: "/a", OldText: "A", NewText: "Alpha"}},
			"~ link changed: A -> Alpha (/a)", "link changed: <del>A</del> <ins>Alpha (/a)</ins>"},
		// A link's text or an image's alternative text that comes or goes
		// shows "(no text)" for the side without one, not a blank that
		// leaves the target in parentheses to read as the new text.
		{Change{Kind: KindLink, Op: Update, Link: &LinkInfo{OldHref: "/a", NewHref: "/a", OldText: "", NewText: "Docs"}},
			"~ link changed: (no text) -> Docs (/a)", "link changed: <del>(no text)</del> <ins>Docs (/a)</ins>"},
		{Change{Kind: KindLink, Op: Update, Link: &LinkInfo{OldHref: "/a", NewHref: "/a", OldText: "Docs", NewText: ""}},
			"~ link changed: Docs -> (no text) (/a)", "link changed: <del>Docs</del> <ins>(no text) (/a)</ins>"},
		{Change{Kind: KindImage, Op: Update, Image: &ImageInfo{OldSrc: "/x.png", NewSrc: "/x.png", OldAlt: "", NewAlt: "Logo"}},
			"~ image changed: (no text) -> Logo (/x.png)", "image changed: <del>(no text)</del> <ins>Logo (/x.png)</ins>"},
		{Change{Kind: KindImage, Op: Update, Image: &ImageInfo{OldSrc: "/x.png", NewSrc: "/x.png", OldAlt: "Logo", NewAlt: ""}},
			"~ image changed: Logo -> (no text) (/x.png)", "image changed: <del>Logo</del> <ins>(no text) (/x.png)</ins>"},
		{Change{Kind: KindTableRow, Op: Move, Old: "1.2 | May", New: "1.2 | May"},
			"~ row moved: 1.2 | May", "row moved: 1.2 | May"},
		{Change{Kind: KindWord, Op: Insert, New: "brand new"},
			"+ words added: brand new", "words added: <ins>brand new</ins>"},
		{Change{Kind: KindListItem, Op: Insert, New: "Salad", List: &ListInfo{List: "menu", NewParents: []string{"Food"}}},
			"+ list item added in Food: Salad", "list item added in Food: <ins>Salad</ins>"},
		{Change{Kind: KindListItem, Op: Delete, Old: "Steak", List: &ListInfo{List: "menu", OldParents: []string{"Food", "Mains"}}},
			"- list item removed from Food > Mains: Steak", "list item removed from Food &gt; Mains: <del>Steak</del>"},
		{Change{Kind: KindListItem, Op: Update, Old: "Soup", New: "Salad", List: &ListInfo{List: "menu", OldParents: []string{"Food"}, NewParents: []string{"Meals"}}},
			"~ list item changed in Meals: Soup -> Salad", "list item changed in Meals: <del>Soup</del> <ins>Salad</ins>"},
		{Change{Kind: KindListItem, Op: Move, Old: "Soup", New: "Soup", List: &ListInfo{List: "menu", OldParents: []string{"Food"}, NewParents: []string{"Food"}}},
			"~ list item moved in Food: Soup", "list item moved in Food: Soup"},
		{Change{Kind: KindListItem, Op: Move, Old: "Bread", New: "Bread", List: &ListInfo{List: "menu", OldParents: []string{"Food"}, NewParents: []string{"Drinks"}}},
			"~ list item moved from Food to Drinks: Bread", "list item moved from Food to Drinks: Bread"},
		{Change{Kind: KindListItem, Op: Move, Old: "Bread", New: "Bread", List: &ListInfo{List: "menu", NewParents: []string{"Food"}}},
			"~ list item moved into Food: Bread", "list item moved into Food: Bread"},
		{Change{Kind: KindListItem, Op: Move, Old: "Bread", New: "Bread", List: &ListInfo{List: "menu", OldParents: []string{"Food"}}},
			"~ list item moved out of Food: Bread", "list item moved out of Food: Bread"},
		{Change{Kind: KindListItem, Op: Insert, New: "Cod", List: &ListInfo{List: "menu", NewParents: []string{"Fish & <Chips>"}}},
			"+ list item added in Fish & <Chips>: Cod", "list item added in Fish &amp; &lt;Chips&gt;: <ins>Cod</ins>"},
		{Change{Kind: KindListItem, Op: Insert, New: "x", List: &ListInfo{List: "#1", NewParents: []string{"A", "B", "C", "D", "E"}}},
			"+ list item added in A > … > D > E: x", "list item added in A &gt; … &gt; D &gt; E: <ins>x</ins>"},
		{Change{Kind: KindListItem, Op: Insert, New: "x", List: &ListInfo{List: "#1", NewParents: []string{strings.Repeat("é", 30)}}},
			"+ list item added in " + strings.Repeat("é", 20) + "…: x", "list item added in " + strings.Repeat("é", 20) + "…: <ins>x</ins>"},
	} {
		if got := tc.c.Line(); got != tc.line {
			t.Errorf("Line: %q, want %q", got, tc.line)
		}
		if got := tc.c.LineHTML(); got != tc.html {
			t.Errorf("LineHTML: %q, want %q", got, tc.html)
		}
		// Messages are written from the stored records: the line survives
		// their JSON form.
		var back Change
		if b, err := json.Marshal(tc.c); err != nil || json.Unmarshal(b, &back) != nil || back.Line() != tc.line {
			t.Errorf("Line after a JSON round trip: %q, want %q (%v)", back.Line(), tc.line, err)
		}
	}
	long := Change{Kind: KindNode, Op: Insert, New: string(make([]byte, 400))}
	if _, n := long.Texts(); len(n) != maxShown+len("…") {
		t.Errorf("a long text is cut to %d bytes, want %d and an ellipsis", len(n), maxShown)
	}
	got := Count([]Change{{Kind: KindListItem, Op: Insert}, {Kind: KindTableCell, Op: Update}, {Kind: KindListItem, Op: Insert}, {Kind: KindNode, Op: Update}})
	if want := "2 list items added, 1 cell changed, 1 text changed"; got != want {
		t.Errorf("Count: %q, want %q", got, want)
	}
	// Nested items count as list items.
	// Two links added to a page under any change: each one's href and text.
	href := func(v string) Change {
		return Change{Kind: KindNode, Op: Insert, New: v, NewPath: "/html[1]/body[1]/a[3]/@href"}
	}
	text := func(v string) Change {
		return Change{Kind: KindNode, Op: Insert, New: v, NewPath: "/html[1]/body[1]/a[3]/text()[1]"}
	}
	if got, want := Count([]Change{href("c.html"), text("C"), href("d.html"), text("D")}), "2 attributes href added, 2 texts added"; got != want {
		t.Errorf("Count: %q, want %q", got, want)
	}
	// A button back in stock: its state, named.
	disabled := Change{Kind: KindNode, Op: Delete, Old: "disabled", OldPath: "/html[1]/body[1]/button[1]/@disabled"}
	if got, want := Count([]Change{disabled, href("e.html")}), "1 attribute disabled removed, 1 attribute href added"; got != want {
		t.Errorf("Count: %q, want %q", got, want)
	}
	got = Count([]Change{{Kind: KindListItem, Op: Update}, {Kind: KindListItem, Op: Update, List: &ListInfo{List: "menu", NewParents: []string{"Food"}}}})
	if want := "2 list items changed"; got != want {
		t.Errorf("Count: %q, want %q", got, want)
	}
}

// TestTextsShowTheDifference: a long text changed in its middle is shown
// from a little before the difference, on both sides; both were cut to
// their first 300 bytes, the same on both sides, so that a one-line change
// in a long page read "log line 0 log line 1 ...… -> log line 0 log line
// 1 ...…".
func TestTextsShowTheDifference(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "log line %d ", i)
	}
	old := b.String()
	new := strings.Replace(old, "log line 1234 ", "log line 1234 CHANGED ", 1)
	o, n := Change{Kind: KindNode, Op: Update, Old: old, New: new}.Texts()
	if !strings.Contains(o, "log line 1234 log line 1235") || !strings.Contains(n, "log line 1234 CHANGED") {
		t.Errorf("the difference is not shown:\n%s\n%s", o, n)
	}
	for _, s := range []string{o, n} {
		if !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") || len(s) > maxShown+2*len("…") || !utf8.ValidString(s) {
			t.Errorf("shown %q (%d bytes), want at most %d bytes between ellipses", s, len(s), maxShown)
		}
	}
	// A difference near the start needs no ellipsis before it.
	o, n = Change{Kind: KindNode, Op: Update, Old: "a" + old, New: "b" + old}.Texts()
	if !strings.HasPrefix(o, "alog line 0") || !strings.HasPrefix(n, "blog line 0") {
		t.Errorf("shown %q, %q", o[:20], n[:20])
	}
	// Two-byte characters are not cut in half.
	wide := strings.Repeat("é", 400)
	o, n = Change{Kind: KindNode, Op: Update, Old: wide + "x" + wide, New: wide + "y" + wide}.Texts()
	if !utf8.ValidString(o) || !utf8.ValidString(n) || !strings.Contains(o, "x") || !strings.Contains(n, "y") {
		t.Errorf("shown %q, %q", o, n)
	}
	// Short texts are shown whole.
	if o, n := (Change{Kind: KindNode, Op: Update, Old: "a < b", New: "a > b"}).Texts(); o != "a < b" || n != "a > b" {
		t.Errorf("shown %q, %q", o, n)
	}
}

// TestCellWhere: a table cell that changed says where it is, by its row
// (the row's first cell) and its column (its header, else its number), as
// a table of many rows needs: "cell changed: 1 -> 2" said neither. What
// the cell's own texts already show is not said twice.
func TestCellWhere(t *testing.T) {
	const (
		old  = `<table><tr><th>Camera</th><th>Price</th><th>Stock</th></tr><tr><td>Alpha</td><td>1999</td><td>3</td></tr><tr><td>Bravo</td><td>2299</td><td>5</td></tr></table>`
		new  = `<table><tr><th>Camera</th><th>Price</th><th>Units</th></tr><tr><td>Alpha</td><td>1999</td><td>3</td></tr><tr><td>Bravo</td><td>2099</td><td>5</td></tr></table>`
		bare = `<table><tr><td>Alpha</td><td>1</td></tr><tr><td>Bravo</td><td>2</td></tr></table>`
	)
	for _, tc := range []struct {
		name, old, new string
		want           []string
	}{
		{"by header", valuePage(old), valuePage(new), []string{
			"~ column header changed: Stock -> Units",
			"~ cell changed in row Bravo, column Price: 2299 -> 2099",
		}},
		{"by number", valuePage(bare), valuePage(`<table><tr><td>Alpha</td><td>1</td></tr><tr><td>Bravo</td><td>3</td></tr></table>`), []string{
			"~ cell changed in row Bravo, column 2: 2 -> 3",
		}},
		{"the row's first cell", valuePage(bare), valuePage(`<table><tr><td>Alpha</td><td>1</td></tr><tr><td>Charlie</td><td>2</td></tr></table>`), []string{
			"~ cell changed in column 1: Bravo -> Charlie",
		}},
		// A cell further along whose old or new text is its row's first
		// cell's still says its row: "Paris -> Lyon" in the row Paris.
		{"a cell like the row's first", valuePage(`<table><tr><th>From</th><th>To</th></tr><tr><td>Paris</td><td>Paris</td></tr><tr><td>Rome</td><td>Oslo</td></tr></table>`),
			valuePage(`<table><tr><th>From</th><th>To</th></tr><tr><td>Paris</td><td>Lyon</td></tr><tr><td>Rome</td><td>Rome</td></tr></table>`), []string{
				"~ cell changed in row Paris, column To: Paris -> Lyon",
				"~ cell changed in row Rome, column To: Oslo -> Rome",
			}},
	} {
		r := evalClause(t, tc.old, tc.new, "table")
		var got []string
		for _, c := range r.Changes {
			got = append(got, c.Line())
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: lines\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestShownWithoutSoftHyphens: the text a change shows a reader has no
// soft hyphen (U+00AD), which a page writes to say where a browser may
// break a word and which matching leaves out (spec.WordKey): the keyword
// found in Donau&shy;dampf is shown as Donaudampf, as the user wrote it,
// and so are the labels a heading names.
func TestShownWithoutSoftHyphens(t *testing.T) {
	page := func(body string) string { return "<html><body>" + body + "</body></html>" }
	for _, tc := range []struct {
		name, old, new, clause string
		want                   []string // Line of each change
	}{
		{"keyword", page(`<p>Fahrt</p>`), page(`<p>Fahrt mit dem Donau&shy;dampf&shy;schiff</p>`), `keywords {Donaudampfschiff}`,
			[]string{"+ keyword added: Donaudampfschiff"}},
		{"words", page(`<p>Ein Schiff</p>`), page(`<p>Ein Donau&shy;dampf&shy;schiff</p>`), `all words`,
			[]string{"~ words changed: Schiff -> Donaudampfschiff"}},
		{"list item label", page(`<ul><li>Donau&shy;dampf<ul><li>a</li></ul></li></ul>`), page(`<ul><li>Donau&shy;dampf<ul><li>a</li><li>b</li></ul></li></ul>`), `list`,
			[]string{"+ list item added in Donaudampf: b"}},
	} {
		r := evalClause(t, tc.old, tc.new, tc.clause)
		var got []string
		for _, c := range r.Changes {
			got = append(got, c.Line())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: lines %q, want %q", tc.name, got, tc.want)
		}
	}
}
