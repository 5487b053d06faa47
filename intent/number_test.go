package intent

import "testing"

// TestValueReading: a number that may be written either way (3.499 is
// 3.499 in the US and 3499 in Germany) is read as the other version of
// the value, or the page's language, shows.
func TestValueReading(t *testing.T) {
	page := func(lang, v string) string {
		if lang != "" {
			lang = ` lang="` + lang + `"`
		}
		return `<!DOCTYPE html><html` + lang + `><body><h1>Cam</h1><span class="price">` + v + `</span></body></html>`
	}
	tests := []struct {
		name     string
		lang     string
		old, new string
		o, n     float64
	}{
		// The other version shows the decimal separator.
		{"fuel price, new shows a decimal point", "", "3.499", "3.50", 3.499, 3.5},
		{"fuel price, old shows a decimal point", "", "3.50", "3.499", 3.5, 3.499},
		{"both separators show it", "", "1,234.56", "1,085", 1234.56, 1085},
		{"decimal comma shown", "", "2,50", "1,085", 2.5, 1.085},
		{"grouping shows the other", "", "1.000.000", "1.085", 1000000, 1085},
		{"grouping comma shows a decimal point", "", "1,000,000", "1.085", 1000000, 1.085},
		{"the other version wins over the language", "de", "3.499", "3.50", 3.499, 3.5},
		{"a leading zero is no group", "", "0,125", "0,2", 0.125, 0.2},
		{"a leading zero shows it", "", "0.125", "1.085", 0.125, 1.085},
		// Else the page's language does.
		{"English: decimal point", "en", "1.085", "2", 1.085, 2},
		{"German: grouping point", "de", "1.085", "2", 1085, 2},
		{"Swiss German: decimal point", "de-CH", "1.085", "2", 1.085, 2},
		{"Swiss German: grouping apostrophe", "de-CH", "CHF 1\u2019234.50", "CHF 1\u2019334.50", 1234.5, 1334.5},
		{"French: decimal comma", "fr", "1,085", "2", 1.085, 2},
		{"English: grouping comma", "en-US", "1,085", "2", 1085, 2},
		// Else thousands, as ParseNumber reads it.
		{"no language", "", "1.085", "2", 1085, 2},
		{"unknown language", "zz", "1.085", "2", 1085, 2},
		{"both ambiguous", "", "3.499", "3.509", 3499, 3509},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.lang, tc.old), page(tc.lang, tc.new), `value In css ".price" changes`)
			if !r.Matched || len(r.Changes) != 1 {
				t.Fatalf("%s -> %s: %+v", tc.old, tc.new, r)
			}
			if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n {
				t.Errorf("%s -> %s: %v -> %v, want %v -> %v", tc.old, tc.new, *v.Old, *v.New, tc.o, tc.n)
			}
			// The direction follows the reading.
			inc := `value In css ".price" increases`
			if tc.o > tc.n {
				inc = `value In css ".price" decreases`
			}
			if r := evalClause(t, page(tc.lang, tc.old), page(tc.lang, tc.new), inc); !r.Matched {
				t.Errorf("%s -> %s: %s not matched", tc.old, tc.new, inc)
			}
		})
	}
	// The report's cases.
	vp := func(s string) string { return page("", s) }
	for _, tc := range []struct {
		old, new, clause string
		want             bool
	}{
		{"3.499", "3.50", `value In css ".price" decreases`, false},
		{"3.499", "3.50", `value In css ".price" increases`, true},
		{"0,125", "0,2", `value In css ".price" increases`, true},
		{"3.50", "3.499", `value In css ".price" falls below 3.5`, true},
	} {
		if r := evalClause(t, vp(tc.old), vp(tc.new), tc.clause); r.Matched != tc.want {
			t.Errorf("%s -> %s, %s: matched %v, want %v", tc.old, tc.new, tc.clause, r.Matched, tc.want)
		}
	}
}

func TestPageDecimal(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want byte
	}{
		{`<html lang="en"><body></body></html>`, '.'},
		{`<html lang="EN-gb"><body></body></html>`, '.'},
		{`<html lang=" de "><body></body></html>`, ','},
		{`<html lang="de-CH"><body></body></html>`, '.'},
		{`<html lang="pt-BR"><body></body></html>`, ','},
		{`<html lang="es-MX"><body></body></html>`, '.'},
		{`<html xml:lang="fr"><body></body></html>`, ','},
		{`<?xml version="1.0"?><r xml:lang="de"><p>1</p></r>`, ','},
		// No language, none known, or digits of another script.
		{`<html><body></body></html>`, 0},
		{`<html lang=""><body></body></html>`, 0},
		{`<html lang="und"><body></body></html>`, 0},
		{`<html lang="zz"><body></body></html>`, 0},
		{`<html lang="x-klingon"><body></body></html>`, 0},
		{`<html lang="en US"><body></body></html>`, 0},
		{`<html lang="ar"><body></body></html>`, 0},
	} {
		if got := pageDecimal(parseDoc(t, tc.doc)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.doc, got, tc.want)
		}
	}
}

// TestValueSign: an item number's hyphen is not a minus sign (its digits
// are the item number's, no value: TestValueWordNumbers), a hyphen after
// a currency code is, an en dash that begins a number is (as European
// typesetting writes a minus: –15 %, –1,23), and a price written without
// its zero ($.99) is not 99.
func TestValueSign(t *testing.T) {
	page := func(v string) string {
		return `<!DOCTYPE html><html><body><span class="price">` + v + `</span></body></html>`
	}
	for _, tc := range []struct {
		old, new string
		o, n     float64
	}{
		{"Item-42: $19.99", "Item-42: $18.99", 19.99, 18.99},
		{"$.99", "$1.49", 0.99, 1.49},
		{"Save -5 €", "Save -7 €", -5, -7},
		{"–15 %", "–20 %", -15, -20},
		{"▼ –1,23", "▲ +0,45", -1.23, 0.45},
		{"Saldo: –$5.00", "Saldo: $5.00", -5, 5},
		{"2019–2020: 12", "2020–2021: 12", 2019, 2020}, // a range's dash, joined to the digits before it
		{"10 – 20", "11 – 20", 10, 11},                 // a dash between spaces
		// A minus after an amount, as German statements write it.
		{"2.50- €", "3.50 €", -2.5, 3.5},
		{"Saldo: 1.234,56- EUR", "Saldo: 1.234,56 EUR", -1234.56, 1234.56},
		// Without a currency after it, a minus after an amount ends a
		// shop's price, as the dash of 49,– does, not a statement's sign,
		// but after a statement's label it is the sign.
		{"Saldo: 1.234,56-", "Saldo: 99,00-", -1234.56, -99},
		{"Kontostand 12,00-", "Kontostand 12,00", -12, 12},
		{"Balance: 3.50-", "Balance: 4.50", -3.5, 4.5},
		{"Saldo: 49,-", "Saldo: 44,-", 49, 44},         // no cents: a price's dash
		{"EUR 1.234,56-", "EUR 99,00-", -1234.56, -99}, // a ledger's export, its code before
		{"Kartenzahlung REWE 23,45-", "Kartenzahlung REWE 19,99-", -23.45, -19.99},
		{"Preis: 49,99-", "Preis: 44,99-", 49.99, 44.99},
		{"49,99-", "44,99-", 49.99, 44.99},
		{"€ 49,99-", "€ 44,99-", 49.99, 44.99},
		{"Preis: 49,–", "Preis: 44,–", 49, 44},
		{"1.234,56- EUR", "99,00- EUR", -1234.56, -99},
		{"Ages 3-", "Ages 4-", 3, 4},             // no amount
		{"Rs. 1,299-", "Rs. 1,199-", 1299, 1199}, // India's "/-" typed short: no cents, no minus
		{"5-10 days", "6-10 days", 5, 6},
		{"USD-1,234.50", "USD 12.00", -1234.5, 12},
		{"Balance: EUR-3.50", "Balance: EUR-4.50", -3.5, -4.5},
	} {
		r := evalClause(t, page(tc.old), page(tc.new), `value In css ".price" changes`)
		if !r.Matched || len(r.Changes) != 1 {
			t.Fatalf("%s -> %s: %+v", tc.old, tc.new, r)
		}
		if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n {
			t.Errorf("%s -> %s: %v -> %v, want %v -> %v", tc.old, tc.new, *v.Old, *v.New, tc.o, tc.n)
		}
	}
}

// TestValueAttributeIgnore: a value an XPath reads from an attribute is
// read from it with Ignore too; it was read from the text of the element
// that carries it as soon as a region was ignored. An attribute on an
// ignored element is left out.
func TestValueAttributeIgnore(t *testing.T) {
	page := func(price, ad string) string {
		return `<html><head><meta itemprop="price" content="` + price + `"></head><body><p>Cam 3</p>` +
			`<div class="ad" data-price="` + ad + `">Ad</div><p data-price="` + price + `">Cam 3</p></body></html>`
	}
	for _, tc := range []struct {
		clause string
		o, n   float64
	}{
		{`value In xpath "//meta/@content" increases`, 10, 12},
		{`value In xpath "//meta/@content" increases Ignore css ".ad"`, 10, 12},
		{`value In xpath "//@data-price" increases Ignore css ".ad"`, 10, 12},
	} {
		r := evalClause(t, page("10", "1"), page("12", "2"), tc.clause)
		if !r.Matched || len(r.Changes) != 1 {
			t.Errorf("%s: %+v, want %v -> %v", tc.clause, r, tc.o, tc.n)
			continue
		}
		if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n {
			t.Errorf("%s: %v -> %v, want %v -> %v", tc.clause, *v.Old, *v.New, tc.o, tc.n)
		}
	}
}

// TestValueSpaceGrouping: on a page in a language that groups thousands
// by spaces (fr, pl, cs, sv...: the CLDR writes a no-break space, pages
// often type a plain one), "1 299,00 €" is 1299; on a page in another,
// only beside a currency or a price's label (spaceGroupsBeside); where
// the digits around the space cannot be groups of thousands, the space
// ends the number; on a page that declares no language, the digits' form
// decides (spaceGroupsAfter).
func TestValueSpaceGrouping(t *testing.T) {
	page := func(lang, v string) string {
		return `<!DOCTYPE html><html lang="` + lang + `"><body><p class="price">` + v + `</p></body></html>`
	}
	for _, tc := range []struct {
		lang, old, new string
		o, n           float64
	}{
		{"fr", "1 299,00 €", "1 199,00 €", 1299, 1199},
		{"fr", "1 299,00 €", "999,00 €", 1299, 999},
		{"cs", "12 490 Kč", "11 990 Kč", 12490, 11990},
		{"sv", "1 234 567 kr", "1 234 568 kr", 1234567, 1234568},
		{"fr", "2024 150 personnes", "2025 150 personnes", 2024, 2025}, // four digits lead no group
		{"fr", "1 2345", "1 2346", 1, 1},                               // four digits are no group either
		{"fr", "12 2024 150", "13 2024 150", 12, 13},                   // nor the end of a longer run
		{"fr", "0 299", "0 199", 0, 0},                                 // a zero begins no group
		{"fr", "3,50 100", "3,75 100", 3.5, 3.75},                      // a decimal part is no group
		{"en", "1 299.00", "1 199.00", 1, 1},                           // English groups with commas
		{"de", "1 299,00 €", "1 199,00 €", 1299, 1199},                 // German with periods, but a shop types a space before a currency
		{"de", "1 299,00", "1 199,00", 1, 1},                           // without a currency or a label, apart
		{"de", "iPhone 15 999 €", "iPhone 15 949 €", 999, 949},
		{"", "12 490 Kč", "11 990 Kč", 12490, 11990}, // no language: the groups' form
		{"", "iPhone 15 999 €", "iPhone 15 949 €", 999, 949},
		{"", "Lot de 2 250 g", "Lot de 3 250 g", 2, 3}, // a count and a quantity
		{"", "1 250 g", "1 500 g", 1250, 1500},
		// A label's number groups; a name's stands apart, on a page that
		// groups by spaces too.
		{"", "Prix 1 299 €", "Prix 1 199 €", 1299, 1199},
		{"", "Preis 1 299 €", "Preis 1 199 €", 1299, 1199},
		{"", "iPhone 15 Pro 1 199 €", "iPhone 15 Pro 1 099 €", 1199, 1099},
		{"fr", "Prix 1 299 €", "Prix 1 199 €", 1299, 1199},
		{"fr", "iPhone 15 Pro 1 199 €", "iPhone 15 Pro 1 099 €", 1199, 1099},
		// After a name, a 1 and the number before a price in Kč begin
		// its thousands (iPhone 15 999 € is a model and its price:
		// TestValueNameNumber).
		{"fr", "Samsung 1 299 €", "Samsung 1 199 €", 1299, 1199},
		{"fr", "iPad 1 099 €", "iPad 1 049 €", 1099, 1049},
		{"fr", "AirPods 1 199 €", "AirPods 1 149 €", 1199, 1149},
		{"cs", "iPad 12 990 Kč", "iPad 11 990 Kč", 12990, 11990},
		{"fr", "YouTube 1 200 000 vues", "YouTube 1 300 000 vues", 1200000, 1300000},
		{"cs", "iPhone 15 19 990 Kč", "iPhone 15 18 990 Kč", 19990, 18990},
		{"cs", "Nikon Z5 12 990 Kč", "Nikon Z5 11 990 Kč", 12990, 11990},
		{"cs", "Cena 12 490 Kč", "Cena 11 990 Kč", 12490, 11990},
		{"de", "Preis 1 299 €", "Preis 1 199 €", 1299, 1199}, // German groups with periods, but a shop types a space after a label
		{"tr", "12 990 TL", "11 990 TL", 12990, 11990},
	} {
		r := evalClause(t, page(tc.lang, tc.old), page(tc.lang, tc.new), `value In css ".price" changes`)
		if tc.o == tc.n {
			if r.Matched {
				t.Errorf("%s: %s -> %s: a change reported, want both read as %v: %+v", tc.lang, tc.old, tc.new, tc.o, r.Changes)
			}
			continue
		}
		if len(r.Changes) != 1 || r.Changes[0].Value == nil || r.Changes[0].Value.Old == nil || r.Changes[0].Value.New == nil {
			t.Fatalf("%s: %s -> %s: %+v", tc.lang, tc.old, tc.new, r)
		}
		if o, n := *r.Changes[0].Value.Old, *r.Changes[0].Value.New; o != tc.o || n != tc.n {
			t.Errorf("%s: %s -> %s read as %v -> %v, want %v -> %v", tc.lang, tc.old, tc.new, o, n, tc.o, tc.n)
		}
	}
}
