package intent

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// listingPage is a page listing cameras in a table, a row for each
// name=price.
func listingPage(rows ...string) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><title>Cameras</title></head><body><h1>Cameras</h1><table><tr><th>Camera</th><th>Price</th></tr>`)
	for _, r := range rows {
		name, price, _ := strings.Cut(r, "=")
		fmt.Fprintf(&b, `<tr><td>%s</td><td class="price">%s</td></tr>`, name, price)
	}
	b.WriteString(`</table></body></html>`)
	return b.String()
}

// valuePage is a page with body.
func valuePage(body string) string {
	return `<!DOCTYPE html><html><head><title>Shop</title></head><body>` + body + `</body></html>`
}

// cards returns a grid of cards alike but for their prices.
func cards(prices ...string) string {
	var b strings.Builder
	b.WriteString(`<div class="grid">`)
	for _, p := range prices {
		fmt.Fprintf(&b, `<div class="card"><span class="price">%s</span><button>Add to cart</button></div>`, p)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// saleCard returns a list item of a shop's listing (as WooCommerce writes
// it) with a regular price struck out and a sale price.
func saleCard(name, regular, sale string) string {
	return `<li class="product"><h2>` + name + `</h2><span class="price"><del><span class="amount">$` + regular +
		`</span></del> <ins><span class="amount">$` + sale + `</span></ins></span><a href="/cart">Add to cart</a></li>`
}

// valueBrief writes a value change as op(item: old->new).
func valueBrief(c Change) string {
	item := ""
	if c.Value != nil {
		item = c.Value.Item
	}
	return fmt.Sprintf("%s(%s: %s->%s)", c.Op, item, c.Old, c.New)
}

func valueBriefs(cs []Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = valueBrief(c)
	}
	slices.Sort(out)
	return out
}

// TestValueEachMatch: a value scope that matches several elements watches
// each of them, paired old to new by the item each sits in (a row, a list
// item, a card), not by position.
func TestValueEachMatch(t *testing.T) {
	tests := []struct {
		name, old, new, clause string
		want                   []string // valueBriefs; nil for no match
	}{
		{"second price cut, a row added",
			listingPage("Alpha=1999", "Bravo=2299"), listingPage("Alpha=1999", "Bravo=2099", "Charlie=2499"),
			`value In css ".price" decreases`, []string{"update(Bravo: 2299->2099)"}},
		{"changes reports the row added too",
			listingPage("Alpha=1999", "Bravo=2299"), listingPage("Alpha=1999", "Bravo=2099", "Charlie=2499"),
			`value In css ".price" changes`, []string{"insert(Charlie: ->2499)", "update(Bravo: 2299->2099)"}},
		{"increases ignores a cut and an added row",
			listingPage("Alpha=1999", "Bravo=2299"), listingPage("Alpha=1999", "Bravo=2099", "Charlie=2499"),
			`value In css ".price" increases`, nil},
		{"rows reordered, prices kept",
			listingPage("Alpha=1999", "Bravo=2299", "Charlie=2499"), listingPage("Charlie=2499", "Alpha=1999", "Bravo=2299"),
			`value In css ".price" changes`, nil},
		{"rows reordered, one price cut",
			listingPage("Alpha=1999", "Bravo=2299", "Charlie=2499"), listingPage("Charlie=2399", "Alpha=1999", "Bravo=2299"),
			`value In css ".price" decreases`, []string{"update(Charlie: 2499->2399)"}},
		{"first row removed, last one cut",
			listingPage("Alpha=1999", "Bravo=2299", "Charlie=2499"), listingPage("Bravo=2299", "Charlie=2399"),
			`value In css ".price" changes`, []string{"delete(Alpha: 1999->)", "update(Charlie: 2499->2399)"}},
		{"a delete is no decrease",
			listingPage("Alpha=1999", "Bravo=2299", "Charlie=2499"), listingPage("Bravo=2299", "Charlie=2499"),
			`value In css ".price" decreases`, nil},
		{"every price cut",
			listingPage("A=10", "B=20", "C=30", "D=40", "E=50"), listingPage("A=9", "B=19", "C=29", "D=39", "E=49"),
			`value In css ".price" decreases`,
			[]string{"update(A: 10->9)", "update(B: 20->19)", "update(C: 30->29)", "update(D: 40->39)", "update(E: 50->49)"}},
		{"falls below, one of three crosses",
			listingPage("Alpha=1999", "Bravo=2299", "Charlie=2499"), listingPage("Alpha=1899", "Bravo=1999", "Charlie=2450"),
			`value In css ".price" falls below 2000`, []string{"update(Bravo: 2299->1999)"}},
		{"rises above",
			listingPage("Alpha=1999", "Bravo=2299"), listingPage("Alpha=2001", "Bravo=2399"),
			`value In css ".price" rises above 2000`, []string{"update(Alpha: 1999->2001)"}},
		{"renamed and cut: paired by position",
			listingPage("Alpha=1999", "Bravo=2299"), listingPage("Alpha=1999", "Bravo II=2199"),
			`value In css ".price" decreases`, []string{"update(Bravo II: 2299->2199)"}},
		{"list items",
			valuePage(`<ul><li><b>Alpha</b> <span class="price">$1,999</span></li><li><b>Bravo</b> <span class="price">$2,299</span></li></ul>`),
			valuePage(`<ul><li><b>Alpha</b> <span class="price">$1,999</span></li><li><b>Bravo</b> <span class="price">$2,099</span></li></ul>`),
			`value In css ".price" decreases`, []string{"update(Bravo: $2,299->$2,099)"}},
		{"cards in a grid",
			valuePage(`<div class="grid"><div class="card"><h2>Alpha</h2><p>Body <span class="price">1999</span></p></div><div class="card"><h2>Bravo</h2><p>Body <span class="price">2299</span></p></div></div>`),
			valuePage(`<div class="grid"><div class="card"><h2>New</h2><p>Body <span class="price">999</span></p></div><div class="card"><h2>Alpha</h2><p>Body <span class="price">1999</span></p></div><div class="card"><h2>Bravo</h2><p>Body <span class="price">2099</span></p></div></div>`),
			`value In css ".price" changes`, []string{"insert(New Body: ->999)", "update(Bravo Body: 2299->2099)"}},
		{"cards alike but for their prices, one added first",
			valuePage(`<div class="grid"><div class="card"><span class="price">1999</span><button>Add to cart</button></div><div class="card"><span class="price">2299</span><button>Add to cart</button></div></div>`),
			valuePage(`<div class="grid"><div class="card"><span class="price">999</span><button>Add to cart</button></div><div class="card"><span class="price">1999</span><button>Add to cart</button></div><div class="card"><span class="price">2299</span><button>Add to cart</button></div></div>`),
			`value In css ".price" changes`, []string{"insert(Add to cart: ->999)"}},
		{"cards alike but for their prices, one cut",
			valuePage(`<div class="grid"><div class="card"><span class="price">1999</span><button>Add to cart</button></div><div class="card"><span class="price">2299</span><button>Add to cart</button></div><div class="card"><span class="price">2499</span><button>Add to cart</button></div></div>`),
			valuePage(`<div class="grid"><div class="card"><span class="price">1999</span><button>Add to cart</button></div><div class="card"><span class="price">2199</span><button>Add to cart</button></div><div class="card"><span class="price">2499</span><button>Add to cart</button></div></div>`),
			`value In css ".price" changes`, []string{"update(Add to cart: 2299->2199)"}},
		{"cards alike but for their prices, first removed and one added last: no decrease",
			valuePage(cards("1999", "2299", "2499")), valuePage(cards("2299", "2499", "999")),
			`value In css ".price" decreases`, nil},
		{"cards alike but for their prices, first removed and one added last",
			valuePage(cards("1999", "2299", "2499")), valuePage(cards("2299", "2499", "999")),
			`value In css ".price" changes`, []string{"delete(Add to cart: 1999->)", "insert(Add to cart: ->999)"}},
		{"cards alike but for their prices, one cut between two added",
			valuePage(cards("1999", "2299")), valuePage(cards("999", "1999", "2199", "2499")),
			`value In css ".price" changes`, []string{"insert(Add to cart: ->2499)", "insert(Add to cart: ->999)", "update(Add to cart: 2299->2199)"}},
		{"a sale price and the regular one in a card: named by the card",
			valuePage(`<ul>` + saleCard("Nikon Z5", "1,499.00", "1,299.00") + saleCard("Canon R8", "1,599.00", "1,499.00") + `</ul>`),
			valuePage(`<ul>` + saleCard("Nikon Z5", "1,499.00", "1,199.00") + saleCard("Canon R8", "1,599.00", "1,499.00") + `</ul>`),
			`value In css ".amount" decreases`, []string{"update(Nikon Z5 Add to cart: $1,299.00->$1,199.00)"}},
		{"a card with a sale price and the regular one moved last, its sale price cut",
			valuePage(`<ul>` + saleCard("Nikon Z5", "1,499.00", "1,299.00") + saleCard("Canon R8", "1,599.00", "1,499.00") + `</ul>`),
			valuePage(`<ul>` + saleCard("Canon R8", "1,599.00", "1,499.00") + saleCard("Nikon Z5", "1,499.00", "1,199.00") + `</ul>`),
			`value In css ".amount" decreases`, []string{"update(Nikon Z5 Add to cart: $1,299.00->$1,199.00)"}},
		{"two prices side by side in a card: named by the card",
			valuePage(`<div class="card"><h2>Nikon Z5</h2><span class="price">$1,299.99</span> <span class="price">$1,499.99</span></div><div class="card"><h2>Canon R8</h2><span class="price">$1,499.00</span></div>`),
			valuePage(`<div class="card"><h2>Nikon Z5</h2><span class="price">$1,199.99</span> <span class="price">$1,499.99</span></div><div class="card"><h2>Canon R8</h2><span class="price">$1,499.00</span></div>`),
			`value In css ".price" changes`, []string{"update(Nikon Z5: $1,299.99->$1,199.99)"}},
		{"prices alone in a list: named by none",
			valuePage(`<ul><li class="price">$10</li><li class="price">$20</li></ul>`),
			valuePage(`<ul><li class="price">$10</li><li class="price">$15</li></ul>`),
			`value In css ".price" changes`, []string{"update(: $20->$15)"}},
		{"rows their own items: named without the symbols beside their numbers",
			valuePage(`<ul><li>Nikon Z5 $2,299</li><li>Canon R6: $2,499</li></ul>`),
			valuePage(`<ul><li>Nikon Z5 $2,099</li><li>Canon R6: $2,399</li></ul>`),
			`value In css "li" decreases`, []string{"update(Canon R6: Canon R6: $2,499->Canon R6: $2,399)", "update(Nikon Z5: Nikon Z5 $2,299->Nikon Z5 $2,099)"}},
		{"rows their own items: named without the currency codes beside their numbers",
			valuePage(`<ul><li>Nikon Z5 EUR 2.299,00</li><li>Canon R6 Rp 24.999.000</li><li>Canon R8: CHF 1'499.00</li><li>Learn PHP $49</li></ul>`),
			valuePage(`<ul><li>Nikon Z5 EUR 2.099,00</li><li>Canon R6 Rp 23.999.000</li><li>Canon R8: CHF 1'399.00</li><li>Learn PHP $39</li></ul>`),
			`value In css "li" decreases`, []string{"update(Canon R6: Canon R6 Rp 24.999.000->Canon R6 Rp 23.999.000)",
				"update(Canon R8: Canon R8: CHF 1'499.00->Canon R8: CHF 1'399.00)",
				"update(Learn PHP: Learn PHP $49->Learn PHP $39)", "update(Nikon Z5: Nikon Z5 EUR 2.299,00->Nikon Z5 EUR 2.099,00)"}},
		{"rows their own items: named without the currency signs after their numbers",
			valuePage(`<ul><li>Nikon Z5 12.990 kr</li><li>Canon R6 49.990 Kč</li><li>Sony A7 4.299 zł</li><li>カメラ 129,800円</li><li>카메라 1,299,000원</li></ul>`),
			valuePage(`<ul><li>Nikon Z5 11.990 kr</li><li>Canon R6 48.990 Kč</li><li>Sony A7 4.199 zł</li><li>カメラ 119,800円</li><li>카메라 1,199,000원</li></ul>`),
			`value In css "li" decreases`, []string{"update(Canon R6: Canon R6 49.990 Kč->Canon R6 48.990 Kč)",
				"update(Nikon Z5: Nikon Z5 12.990 kr->Nikon Z5 11.990 kr)", "update(Sony A7: Sony A7 4.299 zł->Sony A7 4.199 zł)",
				"update(カメラ: カメラ 129,800円->カメラ 119,800円)", "update(카메라: 카메라 1,299,000원->카메라 1,199,000원)"}},
		{"matches without a number are not values",
			listingPage("Alpha=1999", "Bravo=call us", "Charlie=2499"), listingPage("Alpha=1999", "Bravo=call us", "Charlie=2399"),
			`value In css ".price" decreases`, []string{"update(Charlie: 2499->2399)"}},
		{"xpath scope",
			listingPage("Alpha=1999", "Bravo=2299"), listingPage("Alpha=1999", "Bravo=2099"),
			`value In xpath "//td[@class='price']" decreases`, []string{"update(Bravo: 2299->2099)"}},
		{"with an ignore list",
			valuePage(`<ul><li>Alpha <span class="price">1999</span><i>ad 1</i></li><li>Bravo <span class="price">2299 <i>ad 2</i></span></li></ul>`),
			valuePage(`<ul><li>Alpha <span class="price">1999</span><i>ad 3</i></li><li>Bravo <span class="price">2099 <i>ad 4</i></span></li></ul>`),
			`value In css ".price" decreases Ignore css "i"`, []string{"update(Bravo: 2299->2099)"}},
		{"one match: no item, as before",
			listingPage("Alpha=1999"), listingPage("Alpha=1899"),
			`value In css ".price" decreases`, []string{"update(: 1999->1899)"}},
		{"one match, another added before it: no increase",
			valuePage(`<p class="price">Price: 10</p>`), valuePage(`<p class="price">Price: 12</p><p class="price">Price: 10</p>`),
			`value In css ".price" increases`, nil},
		{"one match, another added before it: an insert",
			valuePage(`<p class="price">Price: 10</p>`), valuePage(`<p class="price">Price: 12</p><p class="price">Price: 10</p>`),
			`value In css ".price" changes`, []string{"insert(Price: ->Price: 12)"}},
		{"two matches, the first removed: no decrease",
			valuePage(`<p class="price">Price: 12</p><p class="price">Price: 10</p>`), valuePage(`<p class="price">Price: 10</p>`),
			`value In css ".price" decreases`, nil},
		{"one match on a page of cards",
			valuePage(`<div class="card"><h2>Alpha</h2><span class="price">1999</span></div>`),
			valuePage(`<div class="card"><h2>Alpha</h2><span class="price">1899</span></div><div class="card"><h2>Bravo</h2><span class="price">2299</span></div>`),
			`value In css ".price" decreases`, []string{"update(Alpha: 1999->1899)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, tc.old, tc.new, tc.clause)
			got := valueBriefs(r.Changes)
			if r.Matched != (tc.want != nil) || !slices.Equal(got, tc.want) {
				t.Errorf("%s: matched %v, changes %q; want %q", tc.clause, r.Matched, got, tc.want)
			}
		})
	}
}

// TestValueEachMatchRecord: each value changed is a record of its own,
// with its numbers, direction and delta, its ordinal among the values of
// its version, and a heading that names its item.
func TestValueEachMatchRecord(t *testing.T) {
	r := evalClause(t, listingPage("Alpha=1999", "Bravo=2299"), listingPage("Alpha=1999", "Bravo=2099", "Charlie=2499"), `value In css ".price" decreases`)
	if !r.Matched || len(r.Changes) != 1 {
		t.Fatalf("result %+v", r)
	}
	c := r.Changes[0]
	v := c.Value
	if c.Kind != KindValue || c.Op != Update || *v.Old != 2299 || *v.New != 2099 || v.Delta != -200 || v.Direction != "decreased" || v.Item != "Bravo" {
		t.Errorf("change %+v, value %+v", c, v)
	}
	if c.OldPos != 2 || c.NewPos != 2 || !slices.Equal(c.Fields, []string{"value"}) {
		t.Errorf("positions %d %d, fields %v", c.OldPos, c.NewPos, c.Fields)
	}
	if got, want := c.Heading(), "value decreased by 200 in Bravo"; got != want {
		t.Errorf("heading %q, want %q", got, want)
	}
	if got, want := c.Line(), "~ value decreased by 200 in Bravo: 2299 -> 2099"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	r = evalClause(t, listingPage("Alpha=1999", "Bravo=2299"), listingPage("Alpha=1999", "Bravo=2099", "Charlie=2499"), `value In css ".price" changes`)
	for _, c := range r.Changes {
		if c.Op == Insert {
			if got, want := c.Line(), "+ value added in Charlie: 2499"; got != want {
				t.Errorf("line %q, want %q", got, want)
			}
			if c.NewPos != 3 || c.OldPos != 0 || *c.Value.New != 2499 || c.Value.Old != nil {
				t.Errorf("insert %+v %+v", c, c.Value)
			}
		}
	}
	if got, want := Count(r.Changes), "1 value changed, 1 value added"; got != want {
		t.Errorf("count %q, want %q", got, want)
	}
}

// TestValueItemShortened: the item a value sits in is named by its text,
// cut short, in the record and shorter still in a heading.
func TestValueItemShortened(t *testing.T) {
	long := strings.Repeat("Mirrorless camera with a long name ", 10)
	r := evalClause(t, listingPage("Alpha=1999", long+"=2299"), listingPage("Alpha=1999", long+"=2099"), `value In css ".price" decreases`)
	if !r.Matched || len(r.Changes) != 1 {
		t.Fatalf("result %+v", r)
	}
	item := r.Changes[0].Value.Item
	if len(item) > maxValueItem+len("…") || !strings.HasPrefix(item, "Mirrorless camera") || !strings.HasSuffix(item, "…") {
		t.Errorf("item %q (%d bytes)", item, len(item))
	}
	h := r.Changes[0].Heading()
	if !strings.HasPrefix(h, "value decreased by 200 in Mirrorless camera") || len(h) > len("value decreased by 200 in ")+maxLabel+len("…") {
		t.Errorf("heading %q", h)
	}
}

// TestValueEachMatchComposite: the README's example, a price cut AND NOT
// "sold out", on a listing.
func TestValueEachMatchComposite(t *testing.T) {
	const clause = `value In css ".price" decreases AND NOT phrase {"sold out"}`
	old := listingPage("Alpha=1999", "Bravo=2299")
	cut := listingPage("Alpha=1999", "Bravo=2099")
	if r := evalClause(t, old, cut, clause); !r.Matched || len(r.AllChanges()) != 1 || valueBrief(r.AllChanges()[0]) != "update(Bravo: 2299->2099)" {
		t.Errorf("cut: %+v", r)
	}
	soldOut := listingPage("Alpha=1999 sold out", "Bravo=2099")
	if r := evalClause(t, old, soldOut, clause); r.Matched {
		t.Errorf("sold out: matched %+v", r.AllChanges())
	}
	if r := evalClause(t, old, cut, `value In css ".price" increases OR phrase {"sold out"}`); r.Matched {
		t.Errorf("OR: matched %+v", r.AllChanges())
	}
	if r := evalClause(t, old, soldOut, `value In css ".price" increases OR phrase {"sold out"}`); !r.Matched {
		t.Error("OR: sold out not seen")
	}
}
