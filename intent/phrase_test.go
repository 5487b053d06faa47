package intent

import (
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestPhraseWithinBlocks: in HTML a phrase is found within a block of
// text, read across the inline elements that split it (<b>sold</b> out),
// but not across the end of a heading, a paragraph, a cell, a list item
// or a line break, nor from one match of the scope to the next. Regular
// expressions match within a block the same way. XML elements, as in the
// seed's example, do not part a phrase.
func TestPhraseWithinBlocks(t *testing.T) {
	page := func(body string) string {
		return `<!DOCTYPE html><html><head></head><body>` + body + `</body></html>`
	}
	const sold = `phrase {"sold out"}`
	const soldRE = `regular expression {"(?i)sold\\s+out"}`
	tests := []struct {
		name, old, new, clause string
		want                   bool
	}{
		{"heading then paragraph", `<p>x</p>`, `<h2>Tickets sold</h2><p>Out now: the new album</p>`, sold, false},
		{"two cells", `<table><tr><td>x</td></tr></table>`, `<table><tr><td>Sold</td><td>Out of 5 stars</td></tr></table>`, sold, false},
		{"two paragraphs", `<p>x</p>`, `<p>All sold</p><p>out of stock soon</p>`, sold, false},
		{"two list items", `<p>x</p>`, `<ul><li>Tickets sold</li><li>Out now</li></ul>`, sold, false},
		{"line break", `<p>x</p>`, `<p>Tickets sold<br>Out now</p>`, sold, false},
		{"div in a div", `<p>x</p>`, `<div>Tickets sold<div>out now</div></div>`, sold, false},
		{"two matches of the scope", `<p>x</p>`, `<span class="s">sold</span><span class="s">out</span>`, sold + ` In css ".s"`, false},
		{"bold then text", `<p>x</p>`, `<p><b>sold</b> out</p>`, sold, true},
		{"text then link", `<p>x</p>`, `<p>sold <a href="/x">out</a></p>`, sold, true},
		{"one paragraph", `<p>x</p>`, `<p>Tickets sold out</p>`, sold, true},
		{"phrase gone from a paragraph", `<p>Tickets sold out</p>`, `<p>Tickets sold</p><p>Out now</p>`, sold, true},
		{"regex: heading then paragraph", `<p>x</p>`, `<h2>Tickets sold</h2><p>Out now: the new album</p>`, soldRE, false},
		{"regex: two cells", `<table><tr><td>x</td></tr></table>`, `<table><tr><td>Sold</td><td>Out of 5 stars</td></tr></table>`, soldRE, false},
		{"regex: line break", `<p>x</p>`, `<p>Tickets sold<br>Out now</p>`, soldRE, false},
		{"regex: ^ at the start of a block", `<p>x</p>`, `<h2>Tickets sold</h2><p>Out now</p>`, `regular expression {"^Out"}`, true},
		{"regex: bold then text", `<p>x</p>`, `<p><b>sold</b> out</p>`, soldRE, true},
		{"regex: text then link", `<p>x</p>`, `<p>sold <a href="/x">out</a></p>`, soldRE, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.old), page(tc.new), tc.clause)
			if r.Matched != tc.want {
				t.Errorf("%s: %s -> %s: matched %v, want %v (%s)", tc.clause, tc.old, tc.new, r.Matched, tc.want, briefs(r.Changes))
			}
		})
	}
	t.Run("XML elements do not part a phrase", func(t *testing.T) {
		r := evalClause(t, `<book><title>x</title></book>`, `<book><name>Sold</name><author>out</author></book>`, sold)
		if !r.Matched {
			t.Errorf("no change reported")
		}
	})
}

// TestPhraseInPlaceWithoutUpdates: a phrase whose markup alone changed is
// no change, with phrase updates turned off (PhraseThreshold above 1) as
// with them on; the option only decides whether a phrase gone from its
// place is an update or a delete.
func TestPhraseInPlaceWithoutUpdates(t *testing.T) {
	old := parseDoc(t, `<html><body><p>Buy <em>sold out</em> now</p></body></html>`)
	new := parseDoc(t, `<html><body><p>Buy sold out now</p></body></html>`)
	for _, opt := range []*Options{nil, {PhraseThreshold: 2}, seedOnly} {
		r, err := NewPair(old, new, nil, opt).Evaluate(monitor(t, `phrase {"sold out"}`))
		if err != nil {
			t.Fatal(err)
		}
		if r.Matched {
			t.Errorf("%+v: %v, want no change", opt, briefs(r.Changes))
		}
	}
}

// TestPhraseUpdateTexts: a phrase that became another text is an update
// whose two sides are both as the pages write them; the old side was the
// phrase as the sentinel gives it ("big sale today" -> "Big sale
// tomorrow").
func TestPhraseUpdateTexts(t *testing.T) {
	page := func(b string) string { return `<html><body>` + b + `</body></html>` }
	for _, tc := range []struct{ old, new, wantOld, wantNew string }{
		{`<p>Big sale today only</p>`, `<p>Big sale tomorrow only</p>`, "Big sale today", "Big sale tomorrow"},
		{`<p>Big sale tomorrow only</p>`, `<p>Big sale today only</p>`, "Big sale tomorrow", "Big sale today"},
	} {
		r := evalClause(t, page(tc.old), page(tc.new), `phrase {"big sale today"}`)
		if len(r.Changes) != 1 || r.Changes[0].Op != Update {
			t.Fatalf("%s -> %s: %s, want one update", tc.old, tc.new, briefs(r.Changes))
		}
		if c := r.Changes[0]; c.Old != tc.wantOld || c.New != tc.wantNew {
			t.Errorf("%s -> %s: update %q -> %q, want %q -> %q", tc.old, tc.new, c.Old, c.New, tc.wantOld, tc.wantNew)
		}
	}
}

// TestPhraseAcrossLinesOfAPre: a page read as its source text holds it in
// a <pre>, as one text node or as one a line (the warehouse's reading); a
// phrase, a regular expression or the words across a line break are found
// the same either way (at other positions: a line is a leaf), the lines
// of the <pre> being one block.
func TestPhraseAcrossLinesOfAPre(t *testing.T) {
	const (
		old = "Changelog\nv1.2: tickets on sale\n"
		new = "Changelog\nv1.3: tickets sold\nout, more soon\n"
	)
	page := func(text string, lines bool) *tree.Document {
		d := parseDoc(t, "<!DOCTYPE html><html><head></head><body><pre>\n"+html.EscapeString(text)+"</pre></body></html>")
		pre := d.Root.Children[1].Children[0]
		if lines {
			var kids []*tree.Node
			for _, line := range strings.SplitAfter(pre.Children[0].Value, "\n") {
				if line != "" {
					kids = append(kids, &tree.Node{Kind: tree.Text, Value: line, Parent: pre})
				}
			}
			pre.Children = kids
		}
		return d
	}
	for _, clause := range []string{`phrase {"sold out"}`, `regular expression {"sold\\s+out"}`, `keywords {"sold", "out"}`, `all words`} {
		t.Run(clause, func(t *testing.T) {
			var got [2]int
			for k, lines := range []bool{false, true} {
				r, err := NewPair(page(old, lines), page(new, lines), nil, nil).Evaluate(monitor(t, clause))
				if err != nil {
					t.Fatal(err)
				}
				if !r.Matched {
					t.Errorf("one text a line %v: no change reported", lines)
				}
				got[k] = len(r.Changes)
			}
			if got[0] != got[1] {
				t.Errorf("%d changes as one text, %d as one text a line", got[0], got[1])
			}
		})
	}
	// A line changed is a leaf updated, not the whole text.
	r, err := NewPair(page(old, true), page(strings.Replace(old, "on sale", "sold out", 1), true), nil, nil).Evaluate(monitor(t, "any change"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := briefs(r.Changes), []string{"update(v1.2: tickets on sale->v1.2: tickets sold out,2,2)"}; !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
}

// TestPhraseGoneIsRemoved: a phrase of which one word alone is left
// where it stood is removed, the phrase as the sentinel gives it, not
// changed into that word ("great shop." -> "shop."), which any text
// standing there may share with it; one of which at least two words are
// left, in order, and at least the threshold's share of them, is changed,
// both sides as the pages write them.
func TestPhraseGoneIsRemoved(t *testing.T) {
	page := func(b string) string { return `<html><body>` + b + `</body></html>` }
	for _, tc := range []struct {
		phrase, old, new string
		line             string
	}{
		{"great shop", `<p>A great shop.</p>`, `<p>A shop.</p>`, "- phrase removed: great shop"},
		{"great shop", `<p>great shop.</p>`, `<p>shop.</p>`, "- phrase removed: great shop"},
		{"great shop", `<p>Reviews: great shop.</p>`, `<p>Reviews: closed shop.</p>`, "- phrase removed: great shop"},
		{"great shop", `<p>We are a great shop. Come in.</p>`, `<p>We are moving. Our new shop opens soon. Come in.</p>`, "- phrase removed: great shop"},
		{"great shop", `<p>A shop.</p>`, `<p>A great shop.</p>`, "+ phrase added: great shop"},
		{"big sale today", `<p>Big sale today only</p>`, `<p>Sale today only</p>`, "~ phrase changed: Big sale today -> Sale today"},
		{"big sale today", `<p>Big sale today only</p>`, `<p>Big sale tomorrow only</p>`, "~ phrase changed: Big sale today -> Big sale tomorrow"},
		{"big sale today", `<p>Big sale today only</p>`, `<p>Big sale only</p>`, "~ phrase changed: Big sale today -> Big sale"},
		{"big sale today", `<p>Big sale today only</p>`, `<p>Closing sale only</p>`, "- phrase removed: big sale today"},
	} {
		r := evalClause(t, page(tc.old), page(tc.new), `phrase {"`+tc.phrase+`"}`)
		var lines []string
		for _, c := range r.Changes {
			lines = append(lines, c.Line())
		}
		if !slices.Equal(lines, []string{tc.line}) {
			t.Errorf("%q: %s -> %s: %q, want %q", tc.phrase, tc.old, tc.new, lines, tc.line)
		}
	}
}

// TestPhraseUpdateWithinABlock: in HTML a phrase stands within a block of
// text, and so does what it became: the words left of it where it stood,
// but in several blocks (two paragraphs, two list items), are no edit of
// it, which is removed; an edit within one block, inline elements
// splitting it or other blocks standing around, is a change.
func TestPhraseUpdateWithinABlock(t *testing.T) {
	page := func(b string) string { return `<html><body>` + b + `</body></html>` }
	for _, tc := range []struct{ old, new, line string }{
		{`<p>Big sale today</p><p>Open daily</p>`, `<p>Big</p><p>sale</p><p>Open daily</p>`, "- phrase removed: big sale today"},
		{`<p>Big sale today</p><p>Open daily</p>`, `<ul><li>Big news</li><li>Garage sale</li></ul><p>Open daily</p>`, "- phrase removed: big sale today"},
		{`<h2>News</h2><p>Big sale today</p><p>Open daily</p>`, `<h2>News</h2><p>Big changes.</p><p>Our sale ended.</p><p>Open daily</p>`, "- phrase removed: big sale today"},
		{`<p>Big sale today only</p>`, `<p>Big <b>sale</b> tomorrow only</p>`, "~ phrase changed: Big sale today -> Big sale tomorrow"},
		{`<p>Big sale today</p><p>Open daily</p>`, `<p>Welcome</p><p>Big sale tomorrow</p><p>Open daily</p>`, "~ phrase changed: Big sale today -> Big sale tomorrow"},
		{`<p>Big sale today</p><p>Open daily</p>`, `<p>Big news</p><p>Big sale soon</p><p>Open daily</p>`, "~ phrase changed: Big sale today -> Big sale soon"},
	} {
		r := evalClause(t, page(tc.old), page(tc.new), `phrase {"big sale today"}`)
		var lines []string
		for _, c := range r.Changes {
			lines = append(lines, c.Line())
		}
		if !slices.Equal(lines, []string{tc.line}) {
			t.Errorf("%s -> %s: %q, want %q", tc.old, tc.new, lines, tc.line)
		}
	}
	// The change's new path is the block's that holds what the phrase
	// became, not the window's first.
	r := evalClause(t, page(`<p>Big sale today</p><p>Open daily</p>`), page(`<p>Welcome</p><p>Big sale tomorrow</p><p>Open daily</p>`), `phrase {"big sale today"}`)
	if len(r.Changes) != 1 || !strings.Contains(r.Changes[0].NewPath, "/p[2]/") {
		t.Errorf("changes %+v, want one whose new path is in the second paragraph", r.Changes)
	}
}

// TestPhraseWordsInserted: a phrase whose words are all left, in order,
// with words put between them, is changed ("Big sale today" -> "Big sale
// starts today"), as one with a word taken out of it is; one whose words
// are scattered through a text of which they are less than the
// threshold's share is removed.
func TestPhraseWordsInserted(t *testing.T) {
	page := func(b string) string { return `<html><body>` + b + `</body></html>` }
	for _, tc := range []struct{ old, new, line string }{
		{`<p>Big sale today only</p>`, `<p>Big sale starts today only</p>`, "~ phrase changed: Big sale today -> Big sale starts today"},
		{`<p>Big sale starts today only</p>`, `<p>Big sale today only</p>`, "~ phrase changed: Big sale starts today -> Big sale today"},
		{`<p>Big sale today only</p>`, `<p>Big news: our garage sale starts today only</p>`, "- phrase removed: big sale today"},
		{`<p>Big sale today only</p>`, `<p>Big sale, today only</p>`, ""},
	} {
		r := evalClause(t, page(tc.old), page(tc.new), `phrase {"big sale today"}`)
		var lines []string
		for _, c := range r.Changes {
			lines = append(lines, c.Line())
		}
		var want []string
		if tc.line != "" {
			want = []string{tc.line}
		}
		if !slices.Equal(lines, want) {
			t.Errorf("%s -> %s: %q, want %q", tc.old, tc.new, lines, want)
		}
	}
}
