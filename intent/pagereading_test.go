package intent

import "testing"

// pageReadingCase is a text a value scope matches on a page in lang
// ("" for none), the number it reads in it and whether that is an amount
// with a currency.
type pageReadingCase struct {
	lang, text string
	want       float64
	currency   bool
}

// checkPageReadings fails for each case whose text reads otherwise on
// its page.
func checkPageReadings(t *testing.T, tests []pageReadingCase) {
	t.Helper()
	for _, tc := range tests {
		lang := ""
		if tc.lang != "" {
			lang = ` lang="` + tc.lang + `"`
		}
		doc := parseDoc(t, `<!DOCTYPE html><html`+lang+`><body><p>x</p></body></html>`)
		r := pageReadingOf(doc)
		n, ok := textNumber(tc.text, r)
		if !ok {
			t.Errorf("%s: %q: no number, want %v", tc.lang, tc.text, tc.want)
			continue
		}
		if got, _ := n.value(pageDecimal(doc)); got != tc.want {
			t.Errorf("%s: %q: %v, want %v", tc.lang, tc.text, got, tc.want)
		}
		text := tc.text
		if r.groups == spacesGroup {
			text = joinSpaceGroups(text)
		}
		if got := currencyValue(text, r); got != tc.currency {
			t.Errorf("%s: %q: an amount with a currency %v, want %v", tc.lang, tc.text, got, tc.currency)
		}
	}
}

// TestValueRange: a range of amounts is read as its low end, whether its
// currency is written once or on both ends (10-€20, €10–€20, 10 - 20 €,
// $10 to $20), and is an amount with that currency; a dash spaced from
// both numbers before a currency symbol stands between a name's number
// and a price (Size 10 - $49.99).
func TestValueRange(t *testing.T) {
	checkPageReadings(t, []pageReadingCase{
		{"", "10-€20", 10, true},
		{"", "10–$20.50", 10, true},
		{"", "10 to €20", 10, true},
		{"", "€10–€20", 10, true},
		{"", "10 - 20 €", 10, true},
		{"", "$10 to $20", 10, true},
		{"fr", "10-20 €", 10, true},
		// A spaced dash before a currency: a name's number, then a price.
		{"", "Size 10 - $49.99", 49.99, true},
	})
}
