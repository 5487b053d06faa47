package intent

import (
	"fmt"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// wordBrief writes a change by its operation and the words it names, as a
// reader would tell it: "insert Refunds", "update 30 -> 10".
func wordBrief(c Change) string {
	switch c.Op {
	case Delete:
		return "delete " + c.Old
	case Insert:
		return "insert " + c.New
	case Move:
		return "move " + c.Old
	}
	return "update " + c.Old + " -> " + c.New
}

// TestWordsAcrossInlineElements: a word that inline markup splits is one
// word, as a browser shows it (a drop cap, <b>price</b>list, a link around
// part of a word), for keywords, phrases, regular expressions and all
// words; white space, a line break and any other element that parts the
// text (a paragraph, a cell, an image) part it, and so do two elements side
// by side (menu links, tag pills) but for a single letter.
func TestWordsAcrossInlineElements(t *testing.T) {
	page := func(body string) string {
		return `<!DOCTYPE html><html><head><title>Shop</title></head><body>` + body + `</body></html>`
	}
	const (
		plain   = `<p>Payments are made in 30 days</p>`
		dropcap = `<p><span class="dropcap">R</span>efunds are paid in 30 days</p>`
	)
	tests := []struct {
		name, old, new, clause string
		want                   []string // wordBrief of each change, sorted; none for no change
	}{
		// A drop cap.
		{"drop cap, keyword", plain, dropcap, `keywords {refunds}`, []string{"insert Refunds"}},
		{"drop cap, keyword gone", dropcap, plain, `keywords {refunds}`, []string{"delete Refunds"}},
		{"drop cap, keyword kept", dropcap + `<p>Call us.</p>`, dropcap + `<p>Write to us.</p>`, `keywords {refunds}`, nil},
		{"drop cap, its letters no keyword", plain, dropcap, `keywords {efunds}`, nil},
		{"drop cap, phrase", plain, dropcap, `phrase {"refunds are paid"}`, []string{"insert refunds are paid"}},
		{"drop cap, phrase kept", dropcap + `<p>Call us.</p>`, dropcap + `<p>Write to us.</p>`, `phrase {"refunds are paid"}`, nil},
		{"drop cap, regular expression", plain, dropcap, `regular expression {"\\bRefunds are\\b"}`, []string{"insert Refunds are"}},
		{"drop cap, all words", `<p>Payments are paid in 30 days</p>`, `<p><span class="dropcap">R</span>efunds are paid in 30 days</p>`, `all words`, []string{"update Payments -> Refunds"}},
		{"drop cap set, all words", `<p>Refunds are paid in 30 days</p>`, dropcap, `all words`, nil},
		{"drop cap set, keyword", `<p>Refunds are paid in 30 days</p>`, dropcap, `keywords {refunds}`, nil},
		{"drop cap taken off, keyword", dropcap, `<p>Refunds are paid in 30 days</p>`, `keywords {refunds}`, nil},
		{"drop cap set, phrase", `<p>Refunds are paid in 30 days</p>`, dropcap, `phrase {"refunds are paid"}`, nil},
		{"drop cap set, regular expression", `<p>Refunds are paid in 30 days</p>`, dropcap, `regular expression {"Refunds are"}`, nil},
		{"link set around part of a word, keyword", `<p>Refunds are paid</p>`, `<p><a href="/r">Ref</a>unds are paid</p>`, `keywords {refunds}`, nil},
		{"drop cap, other words changed", dropcap, `<p><span class="dropcap">R</span>efunds are paid in 10 days</p>`, `all words`, []string{"update 30 -> 10"}},
		// Only the inline part edited, or only the rest.
		{"drop cap letter edited", `<p><span class="dropcap">D</span>efunds are paid</p>`, `<p><span class="dropcap">R</span>efunds are paid</p>`, `keywords {refunds}`, []string{"insert Refunds"}},
		{"rest of the word edited", `<p><span class="dropcap">R</span>efunds are paid</p>`, `<p><span class="dropcap">R</span>ebates are paid</p>`, `keywords {refunds}`, []string{"delete Refunds"}},
		{"inline prefix edited", `<p>Orders <b>pre</b>paid</p>`, `<p>Orders <b>un</b>paid</p>`, `keywords {unpaid}`, []string{"insert unpaid"}},
		{"inline prefix edited, old word", `<p>Orders <b>pre</b>paid</p>`, `<p>Orders <b>un</b>paid</p>`, `keywords {prepaid}`, []string{"delete prepaid"}},
		// Bold with and without a space.
		{"bold joined, phrase", `<p>See our catalogue</p>`, `<p>See our <b>price</b>list</p>`, `phrase {"price list"}`, nil},
		{"bold joined, keyword", `<p>See our catalogue</p>`, `<p>See our <b>price</b>list</p>`, `keywords {pricelist}`, []string{"insert pricelist"}},
		{"bold joined, part no keyword", `<p>See our catalogue</p>`, `<p>See our <b>price</b>list</p>`, `keywords {price}`, nil},
		{"bold spaced, phrase", `<p>See our catalogue</p>`, `<p>See our <b>price</b> list</p>`, `phrase {"price list"}`, []string{"insert price list"}},
		{"bold with space inside, phrase", `<p>See our catalogue</p>`, `<p>See our <b>price </b>list</p>`, `phrase {"price list"}`, []string{"insert price list"}},
		{"bold, invisible then space, keyword", `<p>See our catalogue</p>`, "<p>See our <b>price</b>\u200b list</p>", `keywords {pricelist}`, nil},
		{"bold, space then invisible inside, keyword", `<p>See our catalogue</p>`, "<p>See our <b>price \u200b</b>list</p>", `keywords {pricelist}`, nil},
		{"bold, BOM then space, phrase", `<p>See our catalogue</p>`, "<p>See our <b>price</b>\ufeff list</p>", `phrase {"price list"}`, []string{"insert price list"}},
		{"bold, invisible alone between, keyword", `<p>See our catalogue</p>`, "<p>See our <b>price</b>\u200blist</p>", `keywords {pricelist}`, []string{"insert pricelist"}},
		{"bold spaced, keyword", `<p>See our catalogue</p>`, `<p>See our <b>price</b> list</p>`, `keywords {pricelist}`, nil},
		// An ignored inline element inside a word, in the word's element
		// or around one of its parts.
		{"ignored inside a word", `<p>Our list</p>`, `<p>Our pri<span class="ad">AD</span>ce list</p>`, `keywords {price} Ignore css ".ad"`, []string{"insert price"}},
		{"ignored inside a word's bold part", `<p>Our list</p>`, `<p>Our <b>pri<span class="ad">AD</span></b>ce list</p>`, `keywords {price} Ignore css ".ad"`, []string{"insert price"}},
		// A link around part of a word.
		{"link inside a word", plain, `<p><a href="/r">Ref</a>unds are paid in 30 days</p>`, `keywords {refunds}`, []string{"insert Refunds"}},
		{"link inside a word, phrase", plain, `<p><a href="/r">Ref</a>unds are paid in 30 days</p>`, `phrase {"refunds are paid"}`, []string{"insert refunds are paid"}},
		{"word in three parts", plain, `<p>R<b>efund</b>s are paid</p>`, `keywords {refunds}`, []string{"insert Refunds"}},
		{"letters each in a span", plain, `<p><span>R</span><span>e</span><span>f</span>unds are paid</p>`, `keywords {refunds}`, []string{"insert Refunds"}},
		// Texts in two elements side by side are apart, as a style
		// sheet shows them, but for a single letter.
		{"menu links side by side", `<p>Nothing</p>`, `<p><a href="/">Home</a><a href="/about">About</a></p>`, `keywords {about}`, []string{"insert About"}},
		{"menu links side by side, no joined word", `<p>Nothing</p>`, `<p><a href="/">Home</a><a href="/about">About</a></p>`, `keywords {homeabout}`, nil},
		{"tag pills", `<p>Nothing</p>`, `<p><span class="tag">go</span><span class="tag">web</span></p>`, `phrase {"go web"}`, []string{"insert go web"}},
		{"two inline parts side by side", `<p>Nothing</p>`, `<p><b>pri</b><i>ce</i></p>`, `keywords {price}`, nil},
		{"drop cap in its own element beside the rest", plain, `<p><span class="dropcap">R</span><span>efunds</span> are paid</p>`, `keywords {refunds}`, []string{"insert Refunds"}},
		{"punctuation joined", `<p>Nothing</p>`, `<p><b>Sale</b>!</p>`, `keywords {sale}`, []string{"insert Sale"}},
		{"punctuation around", `<p>Nothing</p>`, `<p>(<b>sale</b>) today</p>`, `keywords {sale}`, []string{"insert sale"}},
		{"empty inline element between", `<p>Nothing</p>`, `<p>price<b></b>list</p>`, `keywords {pricelist}`, []string{"insert pricelist"}},
		{"drop cap, paragraph moved", dropcap, `<div>` + dropcap + `</div>`, `keywords {refunds}`, nil},
		{"drop cap, paragraph moved, phrase", dropcap, `<div>` + dropcap + `</div>`, `phrase {"refunds are paid"}`, nil},
		{"drop cap, regular expression at the start", plain, dropcap, `regular expression {"^Refunds"}`, []string{"insert Refunds"}},
		{"drop cap in the body, kept", `<span class="dropcap">R</span>efunds are paid<p>Call us.</p>`, `<span class="dropcap">R</span>efunds are paid<p>Write to us.</p>`, `keywords {refunds}`, nil},
		{"drop cap in the body, letter edited", `<span class="dropcap">D</span>efunds are paid<p>Call us.</p>`, `<span class="dropcap">R</span>efunds are paid<p>Call us.</p>`, `keywords {refunds}`, []string{"insert Refunds"}},
		{"drop cap in the body, rest edited", `<span class="dropcap">R</span>efunds are paid<p>Call us.</p>`, `<span class="dropcap">R</span>ebates are paid<p>Call us.</p>`, `keywords {refunds}`, []string{"delete Refunds"}},
		// What parts a word.
		{"line break parts", `<p>Nothing</p>`, `<p>price<br>list</p>`, `keywords {pricelist}`, nil},
		{"line break parts, keyword", `<p>Nothing</p>`, `<p>price<br>list</p>`, `keywords {price}`, []string{"insert price"}},
		{"line break parts, phrase", `<p>Nothing</p>`, `<p>price<br>list</p>`, `phrase {"price list"}`, nil},
		{"paragraphs part", `<p>Nothing</p>`, `<p>price</p><p>list</p>`, `keywords {pricelist}`, nil},
		{"cells part", `<p>Nothing</p>`, `<table><tr><td>price</td><td>list</td></tr></table>`, `keywords {pricelist}`, nil},
		{"image parts", `<p>Nothing</p>`, `<p>price<img src="/x.png" alt="">list</p>`, `keywords {pricelist}`, nil},
		{"space alone in a span parts", `<p>Nothing</p>`, `<p>price<span> </span>list</p>`, `phrase {"price list"}`, []string{"insert price list"}},
		{"no-break space parts", `<p>Nothing</p>`, `<p><b>price&nbsp;</b>list</p>`, `phrase {"price list"}`, []string{"insert price list"}},
	}
	for _, opt := range []*Options{nil, {Optimize: true}} {
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/optimize=%v", tc.name, opt != nil), func(t *testing.T) {
				p := NewPair(parseDoc(t, page(tc.old)), parseDoc(t, page(tc.new)), nil, opt)
				r, err := p.Evaluate(monitor(t, tc.clause))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, c := range r.Changes {
					got = append(got, wordBrief(c))
				}
				slices.Sort(got)
				if !slices.Equal(got, tc.want) || r.Matched != (len(tc.want) > 0) {
					t.Errorf("%s: %s -> %s: got %q (matched %v), want %q", tc.clause, tc.old, tc.new, got, r.Matched, tc.want)
				}
			})
		}
	}
}

// TestWordAcrossInlineElementsPlace: a word that inline markup splits is
// reported where it starts, whichever of its parts changed.
func TestWordAcrossInlineElementsPlace(t *testing.T) {
	page := func(body string) string {
		return `<!DOCTYPE html><html><head><title>Shop</title></head><body>` + body + `</body></html>`
	}
	tests := []struct {
		name, old, new, clause, path string
	}{
		{"drop cap letter edited", `<p><span class="dropcap">D</span>efunds are paid</p>`, `<p><span class="dropcap">R</span>efunds are paid</p>`,
			`keywords {refunds}`, "/html[1]/body[1]/p[1]/span[1]/text()[1]"},
		{"rest of the word edited", `<p><span class="dropcap">R</span>efunds are paid</p>`, `<p><span class="dropcap">R</span>ebates are paid</p>`,
			`keywords {refunds}`, "/html[1]/body[1]/p[1]/span[1]/text()[1]"},
		{"drop cap, all words", `<p>Payments are paid</p>`, `<p><span class="dropcap">R</span>efunds are paid</p>`,
			`all words`, "/html[1]/body[1]/p[1]/span[1]/text()[1]"},
		{"link inside a word, phrase", `<p>Payments are paid</p>`, `<p><a href="/r">Ref</a>unds are paid</p>`,
			`phrase {"refunds are paid"}`, "/html[1]/body[1]/p[1]/a[1]/text()[1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.old), page(tc.new), tc.clause)
			if len(r.Changes) != 1 {
				t.Fatalf("changes %+v, want one", r.Changes)
			}
			c := r.Changes[0]
			path := c.NewPath
			if c.Op == Delete {
				path = c.OldPath
			}
			if path != tc.path || c.WordPos > 1 && c.Kind == KindKeyword {
				t.Errorf("%s at %s (word %d), want at %s, word 1", wordBrief(c), path, c.WordPos, tc.path)
			}
		})
	}
}

// TestWordsInXMLElements: in XML, elements part words, as they always did,
// and a phrase still spans them.
func TestWordsInXMLElements(t *testing.T) {
	old, new := `<r><a>x</a></r>`, `<r><a>price</a><b>list</b></r>`
	if r := evalClause(t, old, new, `keywords {pricelist}`); r.Matched {
		t.Errorf("keyword pricelist found in XML elements: %+v", r.Changes)
	}
	if r := evalClause(t, old, new, `phrase {"price list"}`); !r.Matched {
		t.Error("phrase price list not found across XML elements")
	}
}

// TestWordsOfATextPage: a page read as its source text, a <pre> of one
// text node a line, has the words of its lines, each line's apart from the
// next line's, as before words were read across inline elements.
func TestWordsOfATextPage(t *testing.T) {
	d := parseDoc(t, "<!DOCTYPE html><html><head></head><body><pre>x</pre></body></html>")
	pre := d.Root.Children[1].Children[0]
	pre.Children = nil
	for _, line := range []string{"price\n", "list\n", "a<b>b</b>c\n", "end"} {
		pre.Children = append(pre.Children, &tree.Node{Kind: tree.Text, Value: line, Parent: pre})
	}
	c := newContent(d, nil, nil, false, newSymtab())
	var got []string
	for _, w := range c.words {
		got = append(got, w.text)
	}
	if want := []string{"price", "list", "a<b>b</b>c", "end"}; !slices.Equal(got, want) || c.spans != nil {
		t.Errorf("words %q (spans %v), want %q", got, c.spans, want)
	}
}
