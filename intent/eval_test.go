package intent

import (
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/treediff"
)

// monitor parses the Monitor clause of a sentinel.
func monitor(t *testing.T, clause string) spec.Expr {
	t.Helper()
	s, err := spec.ParseSentinel("test", []byte("Create Sentinel s1 Using http://example.com/ Monitor "+clause))
	if err != nil {
		t.Fatalf("parse %q: %v", clause, err)
	}
	return s.Monitor.X
}

func evalClause(t *testing.T, old, new, clause string) *Result {
	t.Helper()
	p := NewPair(parseDoc(t, old), parseDoc(t, new), nil, nil)
	r, err := p.Evaluate(monitor(t, clause))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestComposite is the note's §7.6: the truth table and the seed's example
// "all words AND NOT phrase {Lord of the Rings}".
func TestComposite(t *testing.T) {
	const (
		base   = `<html><body><ul><li>Lord of the Rings by Tolkien</li><li>Dune by Herbert</li></ul><a href="/a">A</a></body></html>`
		words  = `<html><body><ul><li>Lord of the Rings by Tolkien</li><li>Dune by Herbert</li><li>Emma by Austen</li></ul><a href="/a">A</a></body></html>`
		phrase = `<html><body><ul><li>Dune by Herbert</li><li>Emma by Austen</li></ul><a href="/a">A</a></body></html>`
		links  = `<html><body><ul><li>Lord of the Rings by Tolkien</li><li>Dune by Herbert</li></ul><a href="/b">A</a></body></html>`
	)
	tests := []struct {
		name, new, clause string
		want              bool
	}{
		{"words changed, phrase unchanged: notify", words, `all words AND NOT phrase {"Lord of the Rings"}`, true},
		{"words changed with the phrase: no", phrase, `all words AND NOT phrase {"Lord of the Rings"}`, false},
		{"nothing changed: no", base, `all words AND NOT phrase {"Lord of the Rings"}`, false},
		{"OR: only t1", words, `all words OR all links`, true},
		{"OR: only t2", links, `all words OR all links`, true},
		{"OR: neither", base, `all words OR all links`, false},
		{"AND: only t1", words, `all words AND all links`, false},
		{"AND: both", `<html><body><ul><li>X</li></ul><a href="/b">A</a></body></html>`, `all words AND all links`, true},
		{"NOT: change", links, `NOT all links`, false},
		{"NOT: no change", words, `NOT all links`, true},
		{"nested", links, `(all words OR all links) AND NOT keywords {Tolkien}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, base, tc.new, tc.clause)
			if r.Matched != tc.want {
				t.Errorf("Matched = %v, want %v (%+v)", r.Matched, tc.want, r)
			}
			// the composite agrees with the spec package's reference evaluator
			p := NewPair(parseDoc(t, base), parseDoc(t, tc.new), nil, nil)
			x := monitor(t, tc.clause)
			ref := spec.Eval(x, func(ct *spec.ChangeType) bool {
				r, err := p.Primitive(ct)
				if err != nil {
					t.Fatal(err)
				}
				return r.Matched
			})
			if ref != r.Matched {
				t.Errorf("spec.Eval = %v, Evaluate = %v", ref, r.Matched)
			}
		})
	}
}

// TestShared checks that one Pair computes each primitive once: the same
// *Result comes back for every expression that uses it.
func TestShared(t *testing.T) {
	p := NewPair(parseDoc(t, `<html><body><img src="a.png"></body></html>`), parseDoc(t, `<html><body><img src="b.png"></body></html>`), nil, nil)
	a, err := p.Evaluate(monitor(t, `all images`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Evaluate(monitor(t, `all links AND all images`))
	if err != nil {
		t.Fatal(err)
	}
	if b.Operands[1] != a {
		t.Error("all images computed twice")
	}
	if len(p.contents) != 1 {
		t.Errorf("%d extractions, want 1", len(p.contents))
	}
}

// TestEmptyDelta: an empty delta from treediff answers "no change".
func TestEmptyDelta(t *testing.T) {
	old, new := parseDoc(t, books), parseDoc(t, books)
	d, err := treediff.Diff(old, new, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPair(old, new, d, nil)
	r, err := p.Evaluate(monitor(t, `any change OR all words`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Matched {
		t.Errorf("change reported for equal versions: %+v", r)
	}
}

// TestCompareVectors is the note's §7.7.
func TestCompareVectors(t *testing.T) {
	tests := []struct {
		c    Compare
		want []VersionPair
	}{
		{Compare{Method: spec.Pairwise}, []VersionPair{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 9}}},
		{Compare{}, []VersionPair{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 9}}},
		{Compare{Method: spec.MovingN, N: 4}, []VersionPair{{1, 4}, {2, 5}, {3, 6}, {4, 7}, {5, 8}, {6, 9}}},
		{Compare{Method: spec.EveryN, N: 4}, []VersionPair{{1, 5}, {5, 9}}}, // reading A
	}
	for _, tc := range tests {
		if got := tc.c.Pairs(9); !slices.Equal(got, tc.want) {
			t.Errorf("%v %d: got %v, want %v", tc.c.Method, tc.c.N, got, tc.want)
		}
	}
	// Equivalence (reading A): every 3 at 10 minutes compares the versions
	// pairwise at 30 minutes does. Version v is fetched at 10(v-1) minutes.
	every := Compare{Method: spec.EveryN, N: 3}.Pairs(31)
	var times [][2]int
	for _, p := range every {
		times = append(times, [2]int{10 * (p.Old - 1), 10 * (p.New - 1)})
	}
	var pairwise [][2]int
	for _, p := range (Compare{Method: spec.Pairwise}).Pairs(11) {
		pairwise = append(pairwise, [2]int{30 * (p.Old - 1), 30 * (p.New - 1)})
	}
	if !slices.Equal(times, pairwise) {
		t.Errorf("every 3 at 10 min %v != pairwise at 30 min %v", times, pairwise)
	}
	if _, ok := (Compare{Method: spec.EveryN, N: 4}).Reference(4); ok {
		t.Error("every 4 compares version 4")
	}
	if err := (Compare{Method: spec.MovingN, N: 1}).Validate(); err == nil {
		t.Error("moving 1 accepted")
	}
	if c := CompareOf(&spec.CompareClause{Method: spec.MovingN, N: 4}); c.N != 4 || c.Method != spec.MovingN {
		t.Errorf("CompareOf: %+v", c)
	}
}

// TestHTMLCases are the changes a user would write sentinels for.
func TestHTMLCases(t *testing.T) {
	page := func(body string) string {
		return `<!DOCTYPE html><html><head><title>Shop</title><script>var keyword = "recall";</script><style>.x{}</style></head><body>` + body + `</body></html>`
	}
	t.Run("link href changed", func(t *testing.T) {
		r := evalClause(t, page(`<p>See <a href="/terms-2024">our terms</a>.</p>`), page(`<p>See <a href="/terms-2025">our terms</a>.</p>`), `all links`)
		if len(r.Changes) != 1 {
			t.Fatalf("changes %+v", r.Changes)
		}
		c := r.Changes[0]
		if c.Op != Update || !slices.Equal(c.Fields, []string{"href"}) || c.Link.OldHref != "/terms-2024" || c.Link.NewHref != "/terms-2025" || c.Link.OldText != "our terms" || c.Link.Context != "/html[1]/body[1]/p[1]" {
			t.Errorf("change %+v link %+v", c, c.Link)
		}
	})
	t.Run("link text changed, link added and removed", func(t *testing.T) {
		r := evalClause(t, page(`<a href="/a">Home</a><a href="/b">Old</a><a href="/c">Gone</a>`),
			page(`<a href="/a">Start</a><a href="/b">Old</a><a href="/d">New</a><a href="/e">Extra</a>`), `all links`)
		got := briefs(r.Changes)
		want := []string{"delete(/c,3)", "insert(/d,3)", "insert(/e,4)", "update(/a->/a,1,1)"}
		if !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
	t.Run("image replaced", func(t *testing.T) {
		r := evalClause(t, page(`<img src="/logo-old.png" alt="Logo"><img src="/x.png" alt="X">`), page(`<img src="/logo-new.png" alt="Logo"><img src="/x.png" alt="X">`), `all images`)
		if len(r.Changes) != 1 || r.Changes[0].Op != Update || !slices.Equal(r.Changes[0].Fields, []string{"src"}) || r.Changes[0].Image.NewSrc != "/logo-new.png" {
			t.Errorf("changes %+v", r.Changes)
		}
	})
	t.Run("lazy and responsive images", func(t *testing.T) {
		// Pages that load images lazily keep a placeholder in src and the
		// image in data-src; responsive ones may give srcset alone. The
		// image a reader sees is the one that counts.
		for _, tc := range []struct{ old, new, src string }{
			{`<img src="data:image/gif;base64,R0lGOD" data-src="/a.jpg" alt="A">`, `<img src="data:image/gif;base64,R0lGOD" data-src="/b.jpg" alt="A">`, "/b.jpg"},
			{`<img src="/blank.gif" data-lazy-src="/a.jpg" alt="A">`, `<img src="/blank.gif" data-lazy-src="/b.jpg" alt="A">`, "/b.jpg"},
			{`<img srcset="/a-1x.jpg 1x, /a-2x.jpg 2x" alt="A">`, `<img srcset="/b-1x.jpg 1x, /b-2x.jpg 2x" alt="A">`, "/b-1x.jpg"},
		} {
			r := evalClause(t, page(tc.old), page(tc.new), `all images`)
			if len(r.Changes) != 1 || r.Changes[0].Op != Update || r.Changes[0].Image.NewSrc != tc.src {
				t.Errorf("%s -> %s: changes %+v, want an update to %s", tc.old, tc.new, r.Changes, tc.src)
			}
		}
	})
	t.Run("keyword whose markup changed", func(t *testing.T) {
		// The keyword set in <em>, or its paragraph moved into a <div>:
		// the words are the same, and so is where the keyword stands.
		for _, tc := range []struct{ old, new string }{
			{`<p>Big sale today.</p>`, `<p>Big <em>sale</em> today.</p>`},
			{`<p>Big sale today.</p><p>Other.</p>`, `<div><p>Big sale today.</p></div><p>Other.</p>`},
		} {
			if r := evalClause(t, page(tc.old), page(tc.new), `keywords {sale}`); r.Matched {
				t.Errorf("%s -> %s: %+v", tc.old, tc.new, r.Changes)
			}
		}
		if r := evalClause(t, page(`<p>Tickets are available now.</p>`), page(`<p>Tickets are <b>available</b> now.</p>`), `phrase {"tickets are available"}`); r.Matched {
			t.Errorf("phrase set in bold: %+v", r.Changes)
		}
		// A keyword or phrase whose text around it is new: the word
		// alignment pairs it with itself across the page, and it is a
		// change all the same.
		for _, tc := range []struct{ old, new, clause string }{
			{`<p>Big sale today.</p>`, `<h2>Notice</h2><div>Our store will close. There is no sale any more.</div>`, `keywords {sale}`},
			{`<p>Tickets are available now.</p><p>Venue news.</p>`, `<p>Sold out.</p><p>Venue news. Tickets are available at the door for members.</p>`, `phrase {"tickets are available"}`},
			{`<p>Tickets are available now.</p>`, `<div><h3>Update</h3><p>Only a few tickets are available: hurry.</p></div>`, `phrase {"tickets are available"}`},
		} {
			if r := evalClause(t, page(tc.old), page(tc.new), tc.clause); !r.Matched {
				t.Errorf("%s -> %s, %s: no change reported", tc.old, tc.new, tc.clause)
			}
		}
		// A keyword that really goes, or comes, is reported.
		r := evalClause(t, page(`<p>Big sale today.</p>`), page(`<p>Big <em>offer</em> today.</p>`), `keywords {sale}`)
		if len(r.Changes) != 1 || r.Changes[0].Op != Delete {
			t.Errorf("keyword gone: %+v", r.Changes)
		}
		r = evalClause(t, page(`<p>Big offer today.</p>`), page(`<p>Big <b>sale</b> today.</p>`), `keywords {sale}`)
		if len(r.Changes) != 1 || r.Changes[0].Op != Insert {
			t.Errorf("keyword come: %+v", r.Changes)
		}
	})
	t.Run("markup that is no content change", func(t *testing.T) {
		// Attribute order, and a style sheet's new version.
		for _, tc := range []struct{ old, new string }{
			{`<html><body><img src="/logo.png" alt="Company logo"></body></html>`, `<html><body><img alt="Company logo" src="/logo.png"></body></html>`},
			{`<html><head><link rel="stylesheet" href="/site.css?v=1"></head><body><p>x</p></body></html>`,
				`<html><head><link rel="stylesheet" href="/site.css?v=2"></head><body><p>x</p></body></html>`},
		} {
			if r := evalClause(t, tc.old, tc.new, `any change`); r.Matched {
				t.Errorf("%s -> %s: %+v", tc.old, tc.new, r.Changes)
			}
		}
	})
	t.Run("regex match among attribute leaves", func(t *testing.T) {
		// The match is placed in the text it is in, whatever attribute
		// leaves stand between the texts.
		tail := `<p>second</p><img src="/1.png" alt="1"><img src="/2.png" alt="2"><img src="/3.png" alt="3"><p>third</p>`
		r := evalClause(t, page(`<p>Valid from 01.02.2025</p>`+tail), page(`<p>Valid from 01.03.2025</p>`+tail), `regular expression {"\\d{2}\\.\\d{2}\\.\\d{4}"}`)
		for _, c := range r.Changes {
			if p := c.NewPath + c.OldPath; !strings.Contains(p, "/p[1]/text()") {
				t.Errorf("%s %q at %s", c.Op, c.New+c.Old, p)
			}
		}
		if len(r.Changes) == 0 {
			t.Error("no change")
		}
	})
	t.Run("table row added in the middle", func(t *testing.T) {
		table := func(rows ...string) string {
			s := `<table id="prices"><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody>`
			for _, r := range rows {
				f := strings.Split(r, "=")
				s += "<tr><td>" + f[0] + "</td><td>" + f[1] + "</td></tr>"
			}
			return s + "</tbody></table>"
		}
		r := evalClause(t, page(table("Apple=1", "Pear=2", "Plum=3")), page(table("Apple=1", "Pear=2", "Kiwi=5", "Plum=3")), `table {prices}`)
		if len(r.Changes) != 1 {
			t.Fatalf("changes %+v", r.Changes)
		}
		c := r.Changes[0]
		if c.Kind != KindTableRow || c.Op != Insert || c.NewPos != 4 || c.New != "Kiwi | 5" || c.Table.Table != "prices" || c.Table.Row != "Kiwi" {
			t.Errorf("change %+v %+v", c, c.Table)
		}
		// a cell update, a removed row and a moved row
		r = evalClause(t, page(table("Apple=1", "Pear=2", "Plum=3", "Fig=4")), page(table("Fig=4", "Apple=1", "Pear=9")), `table`)
		got := briefs(r.Changes)
		want := []string{"delete(Plum | 3,4)", "move(Fig | 4,5,2)", "update(2->9,3,4)"}
		if !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
		for _, c := range r.Changes {
			if c.Kind == KindTableCell && (c.Table.Header != "Price" || c.Table.Column != 2 || c.Table.Row != "Pear") {
				t.Errorf("cell %+v", c.Table)
			}
		}
	})
	t.Run("list reordered", func(t *testing.T) {
		r := evalClause(t, page(`<ol id="top"><li>Alpha</li><li>Beta</li><li>Gamma</li><li>Delta</li></ol>`),
			page(`<ol id="top"><li>Gamma</li><li>Alpha</li><li>Beta</li><li>Delta</li></ol>`), `list {top}`)
		if len(r.Changes) != 1 || r.Changes[0].Op != Move || r.Changes[0].Old != "Gamma" || r.Changes[0].OldPos != 3 || r.Changes[0].NewPos != 1 {
			t.Errorf("changes %+v", r.Changes)
		}
		for _, c := range r.Changes {
			if c.Op == Insert || c.Op == Delete {
				t.Errorf("reorder reported as %s", c.Op)
			}
		}
		// any change sees the same reordering as a move of a leaf
		r = evalClause(t, page(`<ol><li>Alpha</li><li>Beta</li><li>Gamma</li></ol>`), page(`<ol><li>Gamma</li><li>Alpha</li><li>Beta</li></ol>`), `any change`)
		if len(r.Changes) != 1 || r.Changes[0].Op != Move {
			t.Errorf("any change: %+v", r.Changes)
		}
	})
	t.Run("price with no-break spaces", func(t *testing.T) {
		// French formatting groups digits with no-break spaces (U+00A0, or
		// U+202F): "1 234,50 €" is 1234.5, not 1.
		for _, sp := range []string{"&nbsp;", "\u202f"} {
			old := page(`<p><span class="p5">1` + sp + `234,50` + sp + `€</span></p>`)
			new := page(`<p><span class="p5">999,00` + sp + `€</span></p>`)
			r := evalClause(t, old, new, `value In css ".p5" decreases`)
			if !r.Matched || len(r.Changes) != 1 {
				t.Fatalf("%q: result %+v", sp, r)
			}
			if v := r.Changes[0].Value; *v.Old != 1234.5 || *v.New != 999 || v.Direction != "decreased" {
				t.Errorf("%q: value %+v", sp, v)
			}
		}
	})
	t.Run("price split across elements", func(t *testing.T) {
		for _, tc := range []struct {
			old, new string
			o, n     float64
			clause   string // default `value In css ".price" decreases`
		}{
			// Cells, paragraphs and list items keep their numbers apart.
			{`<table class="price"><tr><td>3</td><td>,5</td></tr></table>`, `<table class="price"><tr><td>2</td><td>,9</td></tr></table>`, 3, 2, ""},
			{`<div class="price"><p>7</p><p>.5</p></div>`, `<div class="price"><p>6</p><p>.9</p></div>`, 7, 6, ""},
			{`<div class="price"><b>7</b><p>.5</p></div>`, `<div class="price"><b>6</b><p>.9</p></div>`, 7, 6, ""},
			// So they do where a region is left out, and inline ones join.
			{`<div class="price"><p>4</p><p>,5</p><i>x</i></div>`, `<div class="price"><p>3</p><p>,9</p><i>y</i></div>`, 4, 3,
				`value In css ".price" decreases Ignore css "i"`},
			{`<div class="price">$<b>1</b>,299<i>x</i></div>`, `<div class="price">$<b>1</b>,199<i>y</i></div>`, 1299, 1199,
				`value In css ".price" decreases Ignore css "i"`},
			// Elements between the parts part them too, ignored or not.
			{`<div class="price"><span>3</span><hr><span>,5</span></div>`, `<div class="price"><span>2</span><hr><span>,9</span></div>`, 3, 2, ""},
			{`<div class="price"><span>3</span><br><span>,5</span></div>`, `<div class="price"><span>2</span><br><span>,9</span></div>`, 3, 2, ""},
			{`<div class="price">3<img src="a.png">,5</div>`, `<div class="price">2<img src="a.png">,9</div>`, 3, 2, ""},
			{`<div class="price">3<div class="ad">Ad</div>,5</div>`, `<div class="price">2<div class="ad">Ad</div>,9</div>`, 3, 2,
				`value In css ".price" decreases Ignore css ".ad"`},
			// Two matches are two values.
			{`<span class="price">3</span><span class="price">,5</span><i>x</i>`, `<span class="price">2</span><span class="price">,9</span><i>y</i>`, 3, 2,
				`value In css ".price" decreases Ignore css "i"`},
			// No-break spaces group digits where a region is ignored too.
			{`<div class="price">1&nbsp;234,50&nbsp;€<i>a</i></div>`, `<div class="price">999,00&nbsp;€<i>b</i></div>`, 1234.5, 999,
				`value In css ".price" decreases Ignore css "i"`},
			// A separator alone in its element, and cents in superscript.
			{`<span class="price">$<span>12<span>.</span></span><span>99</span></span>`, `<span class="price">$<span>12<span>.</span></span><span>49</span></span>`, 12.99, 12.49, ""},
			{`<span class="price">12,<sup>99</sup> €</span>`, `<span class="price">11,<sup>49</sup> €</span>`, 12.99, 11.49, ""},
			// But a list of numbers is not one, nor a footnote.
			{`<div class="price">1,<b>2</b></div>`, `<div class="price">0,<b>2</b></div>`, 1, 0, ""},
			{`<div class="price">Pages <a>3</a>,<a>5</a></div>`, `<div class="price">Pages <a>2</a>,<a>5</a></div>`, 3, 2, ""},
			{`<div class="price"><b>1</b>,<b>2</b></div>`, `<div class="price"><b>0</b>,<b>2</b></div>`, 1, 0, ""},
			{`<div class="price">In 2019,<sup>3</sup> 4 more</div>`, `<div class="price">In 2018,<sup>3</sup> 4 more</div>`, 2019, 2018, ""},
			// Buttons, labels and custom elements are inline.
			{`<div class="price"><button>$1</button>,299</div>`, `<div class="price"><button>$1</button>,199</div>`, 1299, 1199, ""},
			{`<div class="price"><x-int>12</x-int><x-frac>.99</x-frac></div>`, `<div class="price"><x-int>12</x-int><x-frac>.49</x-frac></div>`, 12.99, 12.49, ""},
			{`<span class="price">$<b>1</b>,299</span>`, `<span class="price">$<b>1</b>,199</span>`, 1299, 1199, ""},
			{`<span class="price"><span>12</span><span>.99</span></span>`, `<span class="price"><span>12</span><span>.49</span></span>`, 12.99, 12.49, ""},
			// A script inside the selection is no text of the page.
			{`<div class="price"><script>var v = {v: 3}</script>$20</div>`, `<div class="price"><script>var v = {v: 3}</script>$15</div>`, 20, 15, ""},
		} {
			clause := tc.clause
			if clause == "" {
				clause = `value In css ".price" decreases`
			}
			r := evalClause(t, page(tc.old), page(tc.new), clause)
			if !r.Matched || len(r.Changes) != 1 {
				t.Fatalf("%s -> %s: %+v", tc.old, tc.new, r)
			}
			if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n {
				t.Errorf("%s -> %s: %v -> %v, want %v -> %v", tc.old, tc.new, *v.Old, *v.New, tc.o, tc.n)
			}
		}
	})
	t.Run("price changed", func(t *testing.T) {
		old := page(`<div class="product"><span class="price">$1,299.00</span></div>`)
		new := page(`<div class="product"><span class="price">$1,199.00</span></div>`)
		r := evalClause(t, old, new, `value In css "span.price" decreases`)
		if !r.Matched || len(r.Changes) != 1 {
			t.Fatalf("result %+v", r)
		}
		v := r.Changes[0].Value
		if *v.Old != 1299 || *v.New != 1199 || v.Delta != -100 || v.Direction != "decreased" {
			t.Errorf("value %+v", v)
		}
		if r := evalClause(t, old, new, `value In css "span.price" increases`); r.Matched {
			t.Error("increases matched a decrease")
		}
		r = evalClause(t, old, new, `value In xpath "//span[@class='price']" falls below 1200`)
		if !r.Matched || r.Changes[0].Value.Crossed != "below" || *r.Changes[0].Value.Threshold != 1200 {
			t.Errorf("falls below: %+v", r)
		}
		if r := evalClause(t, old, new, `value In css "span.price" falls below 1000`); r.Matched {
			t.Error("falls below 1000 matched")
		}
		if r := evalClause(t, new, old, `value In css "span.price" rises above 1200`); !r.Matched || r.Changes[0].Value.Crossed != "above" {
			t.Errorf("rises above: %+v", r)
		}
		// all words sees the price as a replaced word
		r = evalClause(t, old, new, `all words`)
		if got := briefs(r.Changes); !slices.Equal(got, []string{"update($1,299.00->$1,199.00,2,2)"}) {
			t.Errorf("words: %v", got)
		}
	})
	t.Run("difference at the values' precision", func(t *testing.T) {
		// 1099.99 - 1200.50 is -100.50999999999999 in floating point; a
		// reader is told the difference the page's figures give.
		tests := map[string]struct {
			old, new string
			delta    float64
			said     string
		}{
			"cents":          {"$1,200.50", "$1,099.99", -100.51, "value decreased by 100.51"},
			"tenths":         {"0.3", "0.1", -0.2, "value decreased by 0.2"},
			"mixed places":   {"10.1", "12", 1.9, "value increased by 1.9"},
			"decimal commas": {"1.200,50 €", "1.099,99 €", -100.51, "value decreased by 100.51"},
			"whole numbers":  {"1,299", "1,199", -100, "value decreased by 100"},
		}
		for name, tc := range tests {
			t.Run(name, func(t *testing.T) {
				r := evalClause(t, page(`<span class="price">`+tc.old+`</span>`), page(`<span class="price">`+tc.new+`</span>`), `value In css ".price" changes`)
				if !r.Matched || len(r.Changes) != 1 {
					t.Fatalf("result %+v", r)
				}
				c := r.Changes[0]
				if c.Value.Delta != tc.delta {
					t.Errorf("delta %v, want %v", c.Value.Delta, tc.delta)
				}
				if got := c.Heading(); got != tc.said {
					t.Errorf("heading %q, want %q", got, tc.said)
				}
			})
		}
	})
	t.Run("keyword only in a script", func(t *testing.T) {
		old := page(`<p>Nothing to see.</p>`)
		new := strings.Replace(old, `var keyword = "recall";`, `var keyword = "recall"; var recall = 1;`, 1)
		new = strings.Replace(new, `.x{}`, `.recall{}`, 1)
		new = strings.Replace(new, `<p>`, `<!-- recall --><noscript>recall</noscript><template>recall</template><p>`, 1)
		for _, clause := range []string{`keywords {recall}`, `any change`, `all words`, `phrase {"recall"}`, `regular expression {"recall"}`} {
			if r := evalClause(t, old, new, clause); r.Matched {
				t.Errorf("%s: %+v", clause, r.Changes)
			}
		}
		if r := evalClause(t, old, strings.Replace(old, "Nothing", "A recall, nothing", 1), `keywords {recall}`); !r.Matched {
			t.Error("keyword in the text not found")
		}
	})
	t.Run("scope and ignore", func(t *testing.T) {
		old := page(`<div id="main"><p>Price list</p></div><footer><p>Updated today</p></footer>`)
		new := page(`<div id="main"><p>Price list</p></div><footer><p>Updated yesterday</p></footer>`)
		if r := evalClause(t, old, new, `any change In css "#main"`); r.Matched {
			t.Errorf("scoped: %+v", r.Changes)
		}
		if r := evalClause(t, old, new, `all words Ignore xpath "//footer"`); r.Matched {
			t.Errorf("ignored: %+v", r.Changes)
		}
		if r := evalClause(t, old, new, `all words`); !r.Matched {
			t.Error("footer change not seen")
		}
		if r := evalClause(t, old, new, `all words except {today, yesterday}`); r.Matched {
			t.Errorf("except: %+v", r.Changes)
		}
	})
	t.Run("regular expression", func(t *testing.T) {
		r := evalClause(t, page(`<p>Order by 12/01/2026 or 12/05/2026</p>`), page(`<p>Order by 12/03/2026 or 12/05/2026</p>`), `regular expression {"\\d+/\\d+/\\d{4}"}`)
		if got := briefs(r.Changes); !slices.Equal(got, []string{"update(12/01/2026->12/03/2026,1,1)"}) {
			t.Errorf("got %v", got)
		}
	})
}

// TestMarkupAroundLoneWords: a keyword or a phrase that is all the text
// of its scope (or of the page) and stays, with only the markup around it
// changed, is no change: the start and the end of the word sequences hold
// it in place, as a word next to it would. One that comes or goes, or
// moves, is a change.
func TestMarkupAroundLoneWords(t *testing.T) {
	page := func(body string) string {
		return `<!DOCTYPE html><html><head></head><body>` + body + `</body></html>`
	}
	tests := []struct {
		name, old, new, clause string
		want                   bool
	}{
		{"scoped phrase set in strong", `<h1>Cam</h1><div class="stock">Sold out</div>`, `<h1>Cam</h1><div class="stock"><strong>Sold out</strong></div>`, `phrase {"sold out"} In css ".stock"`, false},
		{"scoped keyword set in bold", `<h1>x</h1><div class="s">sale</div>`, `<h1>x</h1><div class="s"><b>sale</b></div>`, `keywords {sale} In css ".s"`, false},
		{"scoped keyword out of bold", `<h1>x</h1><div class="s"><b>sale</b></div>`, `<h1>x</h1><div class="s">sale</div>`, `keywords {sale} In css ".s"`, false},
		{"keyword alone on the page", `<p>sale</p>`, `<p><b>sale</b></p>`, `keywords {sale}`, false},
		{"phrase alone on the page", `<p>a b c</p>`, `<p><b>a b c</b></p>`, `phrase {"a b c"}`, false},
		{"phrase first on the page, then a new word", `<p>a b c</p>`, `<p><b>a b c</b></p><p>d</p>`, `phrase {"a b c"}`, false},
		{"keyword last on the page, a new word before it", `<p>sale</p>`, `<p>d</p><div>sale</div>`, `keywords {sale}`, false},
		{"keyword first, then last", `<p>sale</p><p>d</p>`, `<p>d</p><p><b>sale</b></p>`, `keywords {sale}`, true},
		{"scoped keyword comes", `<h1>x</h1><div class="s">none</div>`, `<h1>x</h1><div class="s"><b>sale</b></div>`, `keywords {sale} In css ".s"`, true},
		{"scoped keyword goes", `<h1>x</h1><div class="s"><b>sale</b></div>`, `<h1>x</h1><div class="s">none</div>`, `keywords {sale} In css ".s"`, true},
		{"scoped phrase comes", `<div class="stock">In stock</div>`, `<div class="stock"><strong>Sold out</strong></div>`, `phrase {"sold out"} In css ".stock"`, true},
		{"scoped phrase goes", `<div class="stock"><strong>Sold out</strong></div>`, `<div class="stock">In stock</div>`, `phrase {"sold out"} In css ".stock"`, true},
		{"keyword moves to the end", `<p>sale</p><p>other</p>`, `<p>other</p><p><b>sale</b></p>`, `keywords {sale}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.old), page(tc.new), tc.clause)
			if r.Matched != tc.want {
				t.Errorf("%s: %s -> %s: matched %v, want %v (%s)", tc.clause, tc.old, tc.new, r.Matched, tc.want, briefs(r.Changes))
			}
		})
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"$1,299.00", 1299, true}, {"1.299,00 €", 1299, true}, {"12,5", 12.5, true}, {"-3", -3, true},
		{"1,199", 1199, true}, {"Price: 42 USD", 42, true}, {"0.125", 0.125, true}, {"none", 0, false},
		{"1 299", 1299, true}, {"1 2345", 1, true}, {"3.14", 3.14, true}, {"10.000.000", 10000000, true}, {"−7.5", -7.5, true},
		// One separator and three digits: thousands, unless a zero or
		// more than three digits stand before it, which never begin a
		// group of thousands.
		{"3.499", 3499, true}, {"1,085", 1085, true}, {"0,125", 0.125, true}, {"00.125", 0.125, true},
		{"1234.567", 1234.567, true}, {"1'234.567", 1234.567, true}, {"1\u00a0234,567", 1234.567, true},
		// Swiss grouping as the CLDR writes it for de-CH, with the
		// typographic apostrophe.
		{"CHF 1\u2019234.50", 1234.5, true}, {"1\u2019000\u2019000", 1000000, true},
		{"12.345.678", 12345678, true}, {"1,234,567.5", 1234567.5, true},
		// Digits joined to a word by a hyphen are the word's; a plus
		// joined to a word is no sign, nor a period a decimal point; a
		// separator before the first digit is one.
		{"Item-42: $19.99", 19.99, true}, {"SKU+7", 7, true}, {"Model X−3", 0, false}, {"No.5", 5, true}, {"Rs.1,500", 1500, true},
		{"Price: -42", -42, true}, {"€-5", -5, true}, {"(-3)", -3, true},
		{"$.99", 0.99, true}, {".5", 0.5, true}, {",75 €", 0.75, true}, {"-.5", -0.5, true}, {"$.125", 0.125, true},
		// A sign before a currency symbol is the amount's: a refund of
		// -$5.00, a balance of −€20 (they read as 5 and 20).
		{"-$5.00", -5, true}, {"Balance: −€20", -20, true}, {"+£3", 3, true}, {"-$.99", -0.99, true},
		{"Item-$5", 5, true}, {"$-5", -5, true},
	}
	for _, tc := range tests {
		got, ok := ParseNumber(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseNumber(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
