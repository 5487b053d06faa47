package intent

import "testing"

// TestValueStruckOut: a match that holds a price struck out (del, s,
// strike: the regular price beside a sale's) and another reads the other,
// the price asked; a match that is the struck price, or holds no other
// number, reads it, and an attribute's value or an XML document's del
// element is read as it is.
func TestValueStruckOut(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, clause string
		o, n                   float64 // 0, 0 for no change
	}{
		{"del and ins", `<span class="price"><del>$59.99</del> <ins>$49.99</ins></span>`,
			`<span class="price"><del>$59.99</del> <ins>$44.99</ins></span>`, `value In css ".price" changes`, 49.99, 44.99},
		{"s", `<p class="price"><s>$59.99</s> $49.99</p>`, `<p class="price"><s>$59.99</s> $44.99</p>`,
			`value In css ".price" decreases`, 49.99, 44.99},
		{"strike, a sale price written first", `<p class="price">€49,99 <strike>€59,99</strike></p>`, `<p class="price">€44,99 <strike>€59,99</strike></p>`,
			`value In css ".price" decreases`, 49.99, 44.99},
		{"the regular price alone changes", `<p class="price"><del>$59.99</del> $49.99</p>`, `<p class="price"><del>$69.99</del> $49.99</p>`,
			`value In css ".price" changes`, 0, 0},
		{"the sale ends", `<p class="price"><del>$59.99</del> $49.99</p>`, `<p class="price">$59.99</p>`,
			`value In css ".price" increases`, 49.99, 59.99},
		{"the struck price watched itself", `<p class="price"><del>$59.99</del> $49.99</p>`, `<p class="price"><del>$69.99</del> $49.99</p>`,
			`value In css "del" increases`, 59.99, 69.99},
		{"nothing but a struck number", `<p class="price"><del>$59.99</del> sold out</p>`, `<p class="price"><del>$69.99</del> sold out</p>`,
			`value In css ".price" increases`, 59.99, 69.99},
		{"with an ignore list", `<p class="price"><del>$59.99</del> $49.99 <i>$5 off</i></p>`, `<p class="price"><del>$59.99</del> $44.99 <i>$6 off</i></p>`,
			`value In css ".price" decreases Ignore css "i"`, 49.99, 44.99},
		// A sale's badge beside the struck price is no price: the
		// struck one, the only amount, is read.
		{"a percentage badge", `<p class="price"><del>€59,99</del> -20%</p>`, `<p class="price"><del>€54,99</del> -20%</p>`,
			`value In css ".price" decreases`, 59.99, 54.99},
		{"a stock badge", `<p class="price"><del>$59.99</del> Only 3 left</p>`, `<p class="price"><del>$59.99</del> Only 2 left</p>`,
			`value In css ".price" changes`, 0, 0},
		{"prices without a currency", `<p class="price"><del>59.99</del> 49.99</p>`, `<p class="price"><del>59.99</del> 44.99</p>`,
			`value In css ".price" decreases`, 49.99, 44.99},
		{"xpath", `<p class="price"><del>$59.99</del> $49.99</p>`, `<p class="price"><del>$59.99</del> $44.99</p>`,
			`value In xpath "//p[@class='price']" decreases`, 49.99, 44.99},
		// The element that carries the attribute strikes a number out:
		// the attribute's value is read whole all the same, its first
		// amount, not the element's text without the struck one ($2).
		{"an attribute", `<p class="price" data-was="$59.99 $49.99"><del>$1</del> $2</p>`, `<p class="price" data-was="$54.99 $49.99"><del>$1</del> $2</p>`,
			`value In xpath "//p/@data-was" decreases`, 59.99, 54.99},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, valuePage(tc.old), valuePage(tc.new), tc.clause)
			if tc.o == 0 && tc.n == 0 {
				if r.Matched {
					v := r.Changes[0].Value
					t.Errorf("%s: a change reported, %v -> %v", tc.clause, *v.Old, *v.New)
				}
				return
			}
			if !r.Matched || len(r.Changes) != 1 {
				t.Fatalf("%s: %+v", tc.clause, r)
			}
			if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n {
				t.Errorf("%s: %v -> %v, want %v -> %v", tc.clause, *v.Old, *v.New, tc.o, tc.n)
			}
		})
	}
	// Rows their own items are named without the prices in them.
	li := func(a, b string) string {
		return valuePage(`<ul><li>Nikon Z5 <del>$1,499.00</del> $` + a + `</li><li>Canon R8 <del>$1,599.00</del> $` + b + `</li></ul>`)
	}
	r := evalClause(t, li("1,299.00", "1,499.00"), li("1,199.00", "1,499.00"), `value In css "li" changes`)
	want := "update(Nikon Z5: Nikon Z5 $1,499.00 $1,299.00->Nikon Z5 $1,499.00 $1,199.00)"
	if got := valueBriefs(r.Changes); len(got) != 1 || got[0] != want {
		t.Errorf("rows: %q, want %q", got, want)
	}
	// In XML, del is an element like any other.
	old := `<?xml version="1.0"?><r><p><del>59.99</del> 49.99</p></r>`
	new := `<?xml version="1.0"?><r><p><del>69.99</del> 49.99</p></r>`
	if r := evalClause(t, old, new, `value In xpath "//p" increases`); !r.Matched {
		t.Errorf("XML del: no change, want 59.99 -> 69.99")
	}
}
