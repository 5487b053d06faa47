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

// TestValueSwissFranc: Swiss francs are a currency, written before the
// amount (Fr. 12.50, SFr. 12.50, CHF 12.50) or after it (12.50 Fr.), so
// that the amount is the value where a count stands before it; Fr. is
// Friday too, and makes an amount only of digits in an amount's form
// that are no day and month.
func TestValueSwissFranc(t *testing.T) {
	checkPageReadings(t, []pageReadingCase{
		{"", "Fr. 12.50", 12.5, true},
		{"", "SFr. 12.50", 12.5, true},
		{"", "CHF 12.50", 12.5, true},
		{"", "12.50 Fr.", 12.5, true},
		{"de-CH", "Fr. 12.50", 12.5, true},
		{"de-CH", "Art. 3 Fr. 12.50", 12.5, true},
		{"de-CH", "Menge 2 SFr. 1'299.00", 1299, true},
		{"de-CH", "2 Stk. 12.50 Fr.", 12.5, true},
		{"de-CH", "Art. 3 Fr. 1'299.–", 1299, true},
		{"", "Qty 2 CHF 12.50", 12.5, true},
		// On a Swiss page, Fr. after any number; elsewhere after an
		// amount's form only.
		{"de-CH", "2 Stk. 12 Fr.", 12, true},
		{"fr-CH", "2 pièces 12 Fr.", 12, true},
		{"de", "2 Stk. 12 Fr.", 2, false},
		// Fr. is Friday too: a day and a month after it are a date's, and
		// a bare number after it or before it is no amount.
		{"de", "Fr. 12.05.: Eintritt 19 €", 19, true},
		{"de", "Fr 3 Kurse", 3, false},
		// Nor is a time after it, or a number after a range of days
		// ending on it, as opening hours are written.
		{"de", "Mo.–Fr. 8.00–18.00 Uhr 5 €", 5, true},
		{"de", "Mo–Fr 8.30 bis 17.30 Uhr: Eintritt 5 €", 5, true},
		{"de", "Fr. 20.15 Uhr, Eintritt 25 €", 25, true},
		{"de-CH", "Di - Fr. 9.30-12.00, Eintritt 7.50 Fr.", 7.5, true},
		{"de-CH", "Mo bis Fr 10.00 Uhr: CHF 12.50", 12.5, true},
		{"de-CH", "Art. 3 Fr. 12.50 Uhrenarmband", 12.5, true},
		{"fr", "Frais 3 €", 3, true},
	})
}

// TestValuePageMagnitude: a magnitude's word of the page's language or
// English (million, millions, Mrd, milliards) multiplies a bare number as
// it does an amount, and so does a magnitude joined to a figure after a
// word that names an amount of money (Revenue 1.2M, Revenue: 2.1bn); a
// letter elsewhere, a word of another language and a unit spaced after
// the number (5 mn, minutes) do not.
func TestValuePageMagnitude(t *testing.T) {
	checkPageReadings(t, []pageReadingCase{
		{"", "Revenue 1.2M", 1.2e6, false},
		{"en", "Revenue: 2.1bn", 2.1e9, false},
		{"", "1.2 million", 1.2e6, false},
		{"en", "3 million views", 3e6, false},
		{"de", "3,4 Mrd", 3.4e9, false},
		{"de", "Umsatz 3,4 Mrd.", 3.4e9, false},
		{"", "2.5k", 2500, false},
		{"de", "1,5 Mio. €", 1.5e6, true},
		{"fr", "3,4 milliards", 3.4e9, false},
		{"fr", "2 millions de visiteurs", 2e6, false},
		{"en", "3,4 Mrd", 3.4, false}, // German on an English page
		{"", "Size 1.2M", 1.2, false},
		{"", "3 M views", 3, false},
		{"fr", "5 mn", 5, false}, // minutes
		// French counts by the long scale: its billion is a million
		// millions (a milliard is a thousand), its trillion a million
		// billions; English by the short one.
		{"fr", "2 billions d'euros", 2e12, false},
		{"fr", "1,5 billion €", 1.5e12, true},
		{"fr", "3 trillions", 3e18, false},
		{"en", "2 billion", 2e9, false},
		{"", "2 billion", 2e9, false},
		{"fr", "Chiffre d'affaires 2,1bn", 2.1e9, false},
	})
}

// TestValueNameNumber: a number right before a price grouped by a plain
// space, of two digits or more after a name (Clio 15 990 €, Windows 11
// 199 €) or of one after a product's name written with a capital inside
// it (iPhone 15 999 €, PlayStation 5 499 €), is the name's on every page
// where the price's currency is the euro, the dollar, the pound or the
// franc, whose shops' prices are seldom tens of thousands, and the number
// is not 1 (which begins a price's thousands far more often than it
// numbers a model); one digit after a brand's or a word's capital alone
// begins the price (Samsung 2 499 €, Pixel 8 699 €); a label's
// number is the price's (Prix : 15 999 €), as are those before a currency
// whose prices are tens of thousands (iPad 12 990 Kč) and those without
// a currency. A count before a quantity's unit stays a count on a page
// grouping by spaces too (Lot de 2 250 g).
func TestValueNameNumber(t *testing.T) {
	checkPageReadings(t, []pageReadingCase{
		{"fr", "iPhone 15 999 €", 999, true},
		{"cs", "iPhone 15 999 €", 999, true},
		{"fr", "PlayStation 5 499 €", 499, true},
		{"fr", "Pixel 8 699 €", 8699, true},  // the cost of the rule: read as a brand's price
		{"fr", "Pixel 8 : 699 €", 699, true}, // which a colon undoes
		{"fr", "Prix : 15 999 €", 15999, true},
		{"fr", "iPhone 15 : 999 €", 999, true},
		{"fr", "Prix iPhone 15 999 €", 999, true},
		// A 1 is a price's thousands (first models carry no number), and
		// prices in Kč are tens of thousands.
		{"fr", "Samsung 1 299 €", 1299, true},
		{"cs", "iPhone 15 999 Kč", 15999, true},
		{"cs", "iPad 12 990 Kč", 12990, true},
		{"", "iPad 12 990 Kč", 12990, true},
		{"", "Samsung 1 299 €", 1299, true},
		{"", "Samsung 2 499 €", 2499, true},
		{"fr", "Clio 15 990 €", 990, true}, // the cost of the rule: a lead of two digits is a model's
		{"fr", "Clio : 15 990 €", 15990, true},
		// A shop's word before a price is no name, whose number the
		// price's first digits would be: a sale's, a promotion's, a
		// saving's or a condition's (Promo 2 499 € was 2499 on a French
		// page before the name's-number rule, as it stays).
		{"fr", "Promo 2 499 €", 2499, true},
		{"fr", "Soldes 2 499 €", 2499, true},
		{"fr", "Offre 2 499 €", 2499, true},
		{"fr", "Économisez 2 499 €", 2499, true},
		{"fr", "Neuf 2 499 €", 2499, true},
		{"de", "Angebot 2 499 €", 2499, true},
		{"de", "Aktion 2 499 €", 2499, true},
		{"", "Promo 2 499 €", 2499, true},
		{"", "PROMO 2 499 €", 2499, true},
		{"fr", "Promo iPhone 15 999 €", 999, true},
		{"fr", "YouTube 12 000 vues", 12000, false},
		// A size's number is a size's whatever the currency.
		{"", "Größe 42 590 Kč", 590, true},
		{"cs", "Velikost 42 590 Kč", 590, true},
		{"fr", "Taille 42 590 €", 590, true},
		{"", "EU 42 590 Kč", 590, true},
		// A count and a quantity, on a page grouping by spaces too.
		{"fr", "Lot de 2 250 g", 2, false},
		{"fr", "Lot de 2 250 €", 2250, true},
	})
}

// TestValueSpacesApart: on a page whose language groups thousands
// otherwise (de, tr, en), a plain space groups an amount's thousands
// where a currency stands right before or after the groups, or a price's
// label before them (Preis 1 299 €, € 1 299, 12 990 TL, Preis: 1 299), as
// shops there type it; elsewhere it ends the number (2 299 Stück, 1
// 299.00), and a name's number stays the name's (iPhone 15 999 €).
func TestValueSpacesApart(t *testing.T) {
	checkPageReadings(t, []pageReadingCase{
		{"de", "Preis 1 299 €", 1299, true},
		{"de", "1 299 €", 1299, true},
		{"de", "1 299,00 €", 1299, true},
		{"de", "€ 1 299", 1299, true},
		{"de", "Preis: 1 299", 1299, false},
		{"de", "iPhone 15 999 €", 999, true},
		{"de", "Größe 42 59,99 €", 59.99, true},
		{"de", "2 299 Stück", 2, false},
		{"en", "1 299.00", 1, false},
		{"tr", "12 990 TL", 12990, true},
		{"tr", "2 adet 49 TL", 49, true},
	})
}

// FuzzTextNumber: on a page in each kind of language (none, one grouping
// thousands by spaces, one grouping them otherwise with a currency sign
// of its own, a Swiss one), a text's number is read without a panic,
// wherever findValueIn finds one its float64 holds, and its digits are
// those of the span findValueIn finds in the text as the page reads it.
func FuzzTextNumber(f *testing.F) {
	for _, s := range []string{"10-€20", "10 to €20", "Fr. 12.50", "Fr. 12.05.: Eintritt 19 €", "Art. 3 Fr. 1'299.–",
		"Mo.–Fr. 8.00–18.00 Uhr 5 €", "Fr. 20.15 Uhr, 25 Fr.", "Di - Fr 9.30-12.00 h 7.50 Fr.",
		"iPhone 15 999 €", "Prix : 15 999 €", "Samsung 1 299 €", "iPad 12 990 Kč", "Lot de 2 250 g", "Preis 1 299 €",
		"1 299,00 €", "€ 1 299", "Preis: 1 299", "12 990 TL", "2 Stk. 12 Fr.", "Revenue 1.2M", "3 million views",
		"3,4 Mrd", "1,5 Mio. €", "5 mn", "1 299 999 € 2"} {
		f.Add(s)
	}
	readings := []pageReading{
		{},
		{groups: spacesGroup, lang: "fr"},
		{groups: spacesApart, sign: "TL", lang: "tr"},
		{groups: spacesApart, sign: "Fr", lang: "de"},
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range readings {
			text := s
			if r.groups == spacesGroup {
				text = joinSpaceGroups(s)
			}
			start, end, ok := findValueIn(text, r)
			n, scanned := textNumber(s, r)
			if scanned && !ok {
				t.Fatalf("%+v: textNumber(%q) read %q, findValueIn found none", r, s, n.text)
			}
			if scanned && digitsOf(n.text) != digitsOf(text[start:end]) {
				t.Fatalf("%+v: textNumber(%q) read %q, findValueIn found %q", r, s, n.text, text[start:end])
			}
			if ok && !scanned && len(digitsOf(text[start:end])) < 300 {
				t.Fatalf("%+v: textNumber(%q) read none, findValueIn found %q", r, s, text[start:end])
			}
		}
	})
}

// TestValuePageReadingChange: a value change type watching a price
// written as these readings read it reports the change of the price the
// page shows, with its direction and difference.
func TestValuePageReadingChange(t *testing.T) {
	page := func(lang, v string) string {
		return `<!DOCTYPE html><html lang="` + lang + `"><body><p class="price">` + v + `</p></body></html>`
	}
	for _, tc := range []struct {
		lang, old, new string
		o, n, delta    float64
	}{
		{"", "10-€20", "12-€20", 10, 12, 2},
		{"de-CH", "Art. 3 Fr. 12.50", "Art. 3 Fr. 11.90", 12.5, 11.9, -0.6},
		{"fr", "iPhone 15 999 €", "iPhone 15 949 €", 999, 949, -50},
		{"fr", "Prix : 15 999 €", "Prix : 14 999 €", 15999, 14999, -1000},
		{"de", "Preis 1 299 €", "Preis 1 199 €", 1299, 1199, -100},
		{"", "Samsung 1 299 €", "Samsung 1 199 €", 1299, 1199, -100},
		{"tr", "12 990 TL", "13 490 TL", 12990, 13490, 500},
		{"fr", "Lot de 2 250 g", "Lot de 3 250 g", 2, 3, 1},
		{"en", "Revenue 1.2M", "Revenue 1.5M", 1.2e6, 1.5e6, 300e3},
		{"de", "3,4 Mrd", "3,5 Mrd", 3.4e9, 3.5e9, 100e6},
	} {
		r := evalClause(t, page(tc.lang, tc.old), page(tc.lang, tc.new), `value In css ".price" changes`)
		if !r.Matched || len(r.Changes) != 1 {
			t.Errorf("%s: %s -> %s: %+v", tc.lang, tc.old, tc.new, r)
			continue
		}
		if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n || v.Delta != tc.delta {
			t.Errorf("%s: %s -> %s: %v -> %v by %v, want %v -> %v by %v", tc.lang, tc.old, tc.new, *v.Old, *v.New, v.Delta, tc.o, tc.n, tc.delta)
		}
	}
}

// TestValueSpaceGroupedThousands: a price whose thousands a space groups
// (a plain one, a no-break one, a narrow no-break one), with or without a
// decimal part, currency before or after, signed or not, and after a
// brand's name and one digit (Samsung 2 499 €, Model 3 999 €), is one
// number; numbers that are merely next to each other are not joined:
// groups of other than three digits (Pack of 3 24 cans, rooms 2 3 4, 1
// 2345), a lead of four digits (2024 150 pages), a count before a
// quantity (Lot de 2 250 g), a size's number (Größe 42 590 Kč), a name's
// number of two digits or more before a price in euros (Windows 11 199 €,
// Nike Air Max 90 129 €, Clio 15 990 €), and a product's number after a
// name written with a capital inside it (iPhone 15 999 €, PlayStation 5
// 499 €).
func TestValueSpaceGroupedThousands(t *testing.T) {
	var tests []pageReadingCase
	for _, lang := range []string{"", "fr"} {
		tests = append(tests, []pageReadingCase{
			{lang, "Samsung 2 499 €", 2499, true},
			{lang, "Samsung 2\u00a0499 €", 2499, true},
			{lang, "Samsung 2\u202f499 €", 2499, true},
			{lang, "2 499 €", 2499, true},
			{lang, "2 499,99 €", 2499.99, true},
			{lang, "2\u00a0499,99\u00a0€", 2499.99, true},
			{lang, "2\u202f499,99 €", 2499.99, true},
			{lang, "Samsung 2 499,99 €", 2499.99, true},
			{lang, "Pixel 8 699 €", 8699, true}, // a one-digit lead after a brand: the price's thousands
			{lang, "Model 3 999 €", 3999, true}, // the cost of it, which a colon undoes
			{lang, "Model 3 : 999 €", 999, true},
			{lang, "Dyson 1 299 €", 1299, true},
			{lang, "Prix 1 299 €", 1299, true},
			// A lead of two digits or more after a name is the name's
			// number before a price in euros, dollars, pounds or francs.
			{lang, "Nike Air Max 90 129 €", 129, true},
			{lang, "Windows 11 199 €", 199, true},
			{lang, "Top 10 199 €", 199, true},
			{lang, "Clio 15 990 €", 990, true}, // the cost of it, which a colon or a label undoes
			{lang, "Clio : 15 990 €", 15990, true},
			{lang, "Prix : 15 999 €", 15999, true},
			{lang, "iPad 12 990 Kč", 12990, true},
			{lang, "1 234 567", 1234567, false},
			{lang, "1 234 567,89 €", 1234567.89, true},
			{lang, "€ 2 499", 2499, true},
			{lang, "€2 499", 2499, true},
			{lang, "2 499 EUR", 2499, true},
			{lang, "EUR 2 499", 2499, true},
			{lang, "-2 499 €", -2499, true},
			{lang, "−2 499,99 €", -2499.99, true},
			{lang, "–2 499 €", -2499, true},
			{lang, "(€2 499)", -2499, true},
			// Numbers next to each other stay apart.
			{lang, "Pack of 3 24 cans", 3, false},
			{lang, "rooms 2 3 4", 2, false},
			{lang, "1 2345", 1, false},
			{lang, "2024 150 pages", 2024, false},
			{lang, "Lot de 2 250 g", 2, false},
			{lang, "Pack of 3 240 g", 3, false},
			{lang, "Größe 42 590 Kč", 590, true},
			{lang, "iPhone 15 999 €", 999, true},
			{lang, "PlayStation 5 499 €", 499, true},
			{lang, "iPhone 15 : 999 €", 999, true},
			// No-break spaces group by the same rule.
			{lang, "1\u00a0234\u00a0567", 1234567, false},
			{lang, "1\u202f234\u202f567,89 €", 1234567.89, true},
			{lang, "1\u00a02345", 1, false},
			{lang, "2024\u00a0150 pages", 2024, false},
			{lang, "rooms 2\u00a03\u00a04", 2, false},
			{lang, "Pack of 3\u202f24 cans", 3, false},
			{lang, "0\u00a0299", 0, false},
			{lang, "1\u00a0234\u00a056", 1234, false},
			{lang, "3,50\u00a0100", 3.5, false},
		}...)
	}
	// A page in a language that groups otherwise reads the groups beside
	// a currency as the amount's.
	tests = append(tests, []pageReadingCase{
		{"de", "Samsung 2 499 €", 2499, true},
		{"en", "Samsung 2 499 €", 2499, true},
		{"de", "Samsung 2\u00a0499 €", 2499, true},
		{"de", "iPhone 15 999 €", 999, true},
		{"de", "Windows 11 199 €", 199, true},
		{"en", "Nike Air Max 90 129 €", 129, true},
		{"en", "Top 10 199 €", 199, true},
		{"de", "Model 3 999 €", 3999, true},
		// Two groups or more are thousands' on such a page too (the SI's
		// and DIN 5008's writing), where one may be a second number.
		{"en", "1 234 567", 1234567, false},
		{"de", "Einwohner: 1 234 567", 1234567, false},
		{"en", "1 234 567.89", 1234567.89, false},
		{"en", "1 299.00", 1, false},
		{"de", "2 299 Stück", 2, false},
		{"en", "rooms 2 3 4", 2, false},
		{"en", "2024 150 300", 2024, false},
		{"en", "Lot of 2 250 500 g", 2, false},
	}...)
	checkPageReadings(t, tests)
}
