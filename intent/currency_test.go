package intent

import "testing"

// valueTextCase is a text a value scope matches, the number it reads in
// it (ok false for none) and the label of the value as its own item: the
// text without that number (ownLabel).
type valueTextCase struct {
	text  string
	want  float64
	ok    bool
	label string
}

// checkValueTexts fails for each case whose text reads otherwise.
func checkValueTexts(t *testing.T, tests []valueTextCase) {
	t.Helper()
	for _, tc := range tests {
		n, ok := scanNumber(tc.text)
		got, _ := n.value(0)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("%q: value %v, %v; want %v, %v", tc.text, got, ok, tc.want, tc.ok)
		}
		if l := ownLabel(tc.text); l != tc.label {
			t.Errorf("%q: label %q, want %q", tc.text, l, tc.label)
		}
	}
}

// TestValueCurrencyAmount: where a text holds an amount with a currency
// (a symbol or a code, before or after it) and bare numbers, the amount
// is the value (a codec's, a model's or a count's number is not the
// price); of several amounts, the one shop words say is asked now (after
// a now-word, or after one after a was-word), else the first; of a range
// of amounts written with the currency once (20–30 €), its first number.
// Without an amount, the first number.
func TestValueCurrencyAmount(t *testing.T) {
	checkValueTexts(t, []valueTextCase{
		{"H.264 $20", 20, true, "H.264 $"},
		{"MPEG-4 Part 10, $20", 20, true, "MPEG-4 Part 10, $"},
		{"No.5 costs €20", 20, true, "No.5 costs €"},
		{"2 for $5", 5, true, "2 for $"},
		{"12 x 3,50 €", 3.5, true, "12 x €"},
		{"4.5 out of 5 stars (1,234) $29.99", 29.99, true, "4.5 out of 5 stars (1,234) $"},
		{"Save 20% – $79.99", 79.99, true, "Save 20% – $"},
		{"1/2 price $10", 10, true, "1/2 price $"},
		{"Qty 2 USD 15.00", 15, true, "Qty 2 USD"},
		// A currency spaced from the numbers on both sides is the one's
		// before it, but where only the one after has an amount's form
		// (Qty 2 USD 15.00); joined to the one after, that one's.
		{"1.299 € 20 % sparen", 1299, true, "€ 20 % sparen"},
		{"49,99 € 3 Farben", 49.99, true, "€ 3 Farben"},
		{"899 € 0% Finanzierung", 899, true, "€ 0% Finanzierung"},
		{"1.299,00 € 24 Monate Garantie", 1299, true, "€ 24 Monate Garantie"},
		{"29,99 € 4,5 Sterne", 29.99, true, "€ 4,5 Sterne"},
		{"9,99 € 1 kg", 9.99, true, "€ 1 kg"},
		{"5 EUR 2 Stück", 5, true, "EUR 2 Stück"},
		{"12€ 3 Farben", 12, true, "€ 3 Farben"},
		{"EUR 5", 5, true, "EUR"},
		{"Pack 2 €5", 5, true, "Pack 2 €"},
		{"MP3 € 20", 20, true, "MP3 €"},
		// PHP and CAD name a language and a craft as well: their codes
		// make an amount only of digits in an amount's form.
		{"Learn PHP 8 for $49", 49, true, "Learn PHP 8 for $"},
		{"CAD 3 course, CAD 1,299.00", 1299, true, "CAD 3 course, CAD"},
		{"Pack of 6, 7 EUR", 7, true, "Pack of 6, EUR"},
		{"Size 42: 1.299 kr", 1299, true, "Size 42: kr"},
		// A plain space groups thousands in exact groups of three, but
		// after a name's number (a model's, a size's).
		{"Ø 30 cm, 12 490 Kč", 12490, true, "Ø 30 cm, Kč"},
		{"12 490 Kč", 12490, true, "Kč"},
		{"od 12 490 Kč", 12490, true, "od Kč"},
		{"1 299 € 12 mois", 1299, true, "€ 12 mois"},
		{"1 299,00 €", 1299, true, "€"},
		{"1 234 567 Kč", 1234567, true, "Kč"},
		{"Größe 42 59,99 €", 59.99, true, "Größe 42 €"},
		{"EU 42 59,99 €", 59.99, true, "EU 42 €"},
		{"iPhone 15 999 €", 999, true, "iPhone 15 €"},
		{"Pixel 8 699 €", 8699, true, "Pixel €"}, // a brand's word says nothing of its number: the groups are the amount's
		{"Pixel 8 : 699 €", 699, true, "Pixel 8 : €"},
		{"2024 150 €", 150, true, "2024 €"},
		{"12 4900 Kč", 4900, true, "12 Kč"},
		// After a count's word, a count and a quantity: the group before
		// a unit of measure is the quantity's, the value the count.
		{"Lot de 2 250 g", 2, true, "Lot de 250 g"},
		{"Pack of 2 100 ml", 2, true, "Pack of 100 ml"},
		{"Set of 3 500 ml", 3, true, "Set of 500 ml"},
		{"pack 6 330 ml", 6, true, "pack 330 ml"},
		{"Lot de 2 250g", 2, true, "Lot de 250g"},
		{"Vendu par 2 250 g", 2, true, "Vendu par 250 g"},
		{"Stück 2 250 g", 2, true, "Stück 250 g"},
		{"Lot de 2 250 g 4,99 €", 4.99, true, "Lot de 2 250 g €"},
		{"1 250 g", 1250, true, "g"},
		{"de 1 250 €", 1250, true, "de €"},
		{"Lot de 2 250 €", 2250, true, "Lot de €"}, // a currency is no unit
		{"Lot de 2 250 grammes", 2250, true, "Lot de grammes"},
		{"Poids net de 1 250 g", 1250, true, "Poids net de g"}, // a measure's de
		{"Weight of 1 250 g", 1250, true, "Weight of g"},
		// A label is no name: the number after it is the amount's.
		{"Prix 1 299 €", 1299, true, "Prix €"},
		{"Preis 1 299 €", 1299, true, "Preis €"},
		{"Price 1 299 €", 1299, true, "Price €"},
		{"PRIX 1 299 €", 1299, true, "PRIX €"},
		{"Total 1 299 €", 1299, true, "Total €"},
		{"Cena 12 490 Kč", 12490, true, "Cena Kč"},
		{"Precio 1 299 €", 1299, true, "Precio €"},
		{"Prezzo 1 299 €", 1299, true, "Prezzo €"},
		{"Prijs 1 299 €", 1299, true, "Prijs €"},
		{"Pris 1 299 kr", 1299, true, "Pris kr"},
		{"Hinta 1 299 €", 1299, true, "Hinta €"},
		{"Od 12 490 Kč", 12490, true, "Od Kč"},
		{"Prix TTC 1 299 €", 1299, true, "Prix TTC €"},
		// A name has one number: after it, its words (Pro, Ultra) and
		// the number that follows are no name's.
		{"iPhone 15 Pro 1 199 €", 1199, true, "iPhone 15 Pro €"},
		{"iPhone 15 Pro Max 1 399 €", 1399, true, "iPhone 15 Pro Max €"},
		{"Galaxy S24 Ultra 1 299 €", 1299, true, "Galaxy S24 Ultra €"},
		{"Galaxy S24 1 299 €", 1299, true, "Galaxy S24 €"},
		{"Nikon Z5 12 990 Kč", 12990, true, "Nikon Z5 Kč"},
		{"iPhone 15 1 199 €", 1199, true, "iPhone 15 €"},
		{"Pixel 8 Pro 1 099 €", 1099, true, "Pixel 8 Pro €"},
		{"3個 1,000円", 1000, true, "3個 円"},
		{"2 шт. по 500 руб.", 500, true, "2 шт. по руб."},
		{"2 шт. по 500 рублей", 500, true, "2 шт. по рублей"},
		{"3 кг 120 грн", 120, true, "3 кг грн"},
		{"5 бр. 12 лв.", 12, true, "5 бр. лв."},
		{"2 рубрики 5", 2, true, "рубрики 5"}, // a word that begins like a sign
		{"3개 12,000원", 12000, true, "3개 원"},
		// TL and Ft, spaced from a bare number, are a teaspoon and feet,
		// the lira's and the forint's only joined to it or after an
		// amount's form.
		{"Für 4 Personen: 2 TL Salz", 4, true, "Für Personen: 2 TL Salz"},
		{"Pack of 2, 6 Ft", 2, true, "Pack of , 6 Ft"},
		{"2 adet 1.299,00 TL", 1299, true, "2 adet TL"},
		{"2 adet 50TL", 50, true, "2 adet TL"},
		{"2 db 1.990 Ft", 1990, true, "2 db Ft"},
		{"2 db 990Ft", 990, true, "2 db Ft"},
		{"갤럭시 S24 1,200,000원", 1200000, true, "갤럭시 S24 원"},
		{"Top 10 under Rs.1,500", 1500, true, "Top 10 under Rs."},
		{"Step 2: S/.49.90", 49.9, true, "Step 2: S/."},
		// Several amounts: the first, but where shop words say otherwise.
		{"USD 1,234.50 (EUR 1.100,00)", 1234.5, true, "USD (EUR 1.100,00)"},
		// Shop words say which amount is asked now (pricewords.go): the
		// one after a now-word, else the first, passing over one after a
		// was-word that another amount follows.
		{"Was $59.99, now $49.99", 49.99, true, "Was $59.99, now $"},
		{"Was $59.99 Now $49.99", 49.99, true, "Was $59.99 Now $"},
		{"Old price 59,99 € New price 49,99 €", 49.99, true, "Old price 59,99 € New price €"},
		{"statt 59,99 € jetzt 49,99 €", 49.99, true, "statt 59,99 € jetzt €"},
		{"statt 59,99 € nur 49,99 €", 49.99, true, "statt 59,99 € nur €"},
		{"UVP: 59,99 € 49,99 €", 49.99, true, "UVP: 59,99 € €"},
		{"statt 59,99 € 49,99 €", 49.99, true, "statt 59,99 € €"},
		{"avant 59,99 € maintenant 49,99 €", 49.99, true, "avant 59,99 € maintenant €"},
		{"Ancien prix : 59,99 € Nouveau prix : 49,99 €", 49.99, true, "Ancien prix : 59,99 € Nouveau prix : €"},
		{"Antes 59,99 € Ahora 49,99 €", 49.99, true, "Antes 59,99 € Ahora €"},
		{"Precio anterior: 59,99 € 49,99 €", 49.99, true, "Precio anterior: 59,99 € €"},
		{"Prima 59,99 € Ora 49,99 €", 49.99, true, "Prima 59,99 € Ora €"},
		{"Van €59,99 Nu €49,99", 49.99, true, "Van €59,99 Nu €"},
		{"Oude prijs €59,99 Nieuwe prijs €49,99", 49.99, true, "Oude prijs €59,99 Nieuwe prijs €"},
		{"Regular $59.99 Sale $49.99", 49.99, true, "Regular $59.99 Sale $"},
		{"Reg. $59.99 $49.99", 49.99, true, "Reg. $59.99 $"},
		{"List Price: $59.99 Price: $49.99", 49.99, true, "List Price: $59.99 Price: $"},
		{"Was USD 59.99 Now USD 49.99", 49.99, true, "Was USD 59.99 Now USD"},
		{"$59.99 Now $49.99", 49.99, true, "$59.99 Now $"},
		{"Now $49.99 Was $59.99", 49.99, true, "Now $ Was $59.99"},
		{"$49.99 Was $59.99", 49.99, true, "$ Was $59.99"},
		{"Was 1 299 € Now 1 199 €", 1199, true, "Was 1 299 € Now €"},
		// A was-amount alone, or before a saving, is the value.
		{"Was $59.99", 59.99, true, "Was $"},
		{"List Price: $59.99", 59.99, true, "List Price: $"},
		{"Was $59.99 Save $10", 59.99, true, "Was $ Save $10"},
		// A surcharge after a was-amount is no price asked; a was-word
		// in a sentence, or ending one, is no label; Italian ora is the
		// hour too.
		{"UVP: 59,99 € zzgl. 4,95 € Versand", 59.99, true, "UVP: € zzgl. 4,95 € Versand"},
		{"Was $59.99 + $5.99 shipping", 59.99, true, "Was $ + $5.99 shipping"},
		{"It was $20 cheaper than the $40 model", 20, true, "It was $ cheaper than the $40 model"},
		{"Die Veranstaltung findet am 12.03. statt. 15 € Abendkasse 18 €", 15, true, "Die Veranstaltung findet am 12.03. statt. € Abendkasse 18 €"},
		{"La prima ora costa 2 €, dalla seconda ora 1,50 €", 2, true, "La prima ora costa €, dalla seconda ora 1,50 €"},
		{"Reg. $59.99 Sale $49.99", 49.99, true, "Reg. $59.99 Sale $"},
		{"Price was $30 per person, but $25 for groups", 30, true, "Price was $ per person, but $25 for groups"},
		{"Ticket price was $45 last year; this year $50", 45, true, "Ticket price was $ last year; this year $50"},
		{"UVP 59,99 € unser Preis 49,99 €", 49.99, true, "UVP 59,99 € unser Preis €"},
		{"Was $30 $20", 20, true, "Was $30 $"},
		{"Was $59.99, you save $10.00", 59.99, true, "Was $ , you save $10.00"},
		{"$59.99 Buy now and save $10", 59.99, true, "$ Buy now and save $10"},
		{"Regular $59.99 $10 off", 59.99, true, "Regular $ $10 off"},
		{"statt 59,99 € 10 € günstiger", 59.99, true, "statt € 10 € günstiger"},
		{"Was 3 items, now $5", 5, true, "Was 3 items, now $"},
		// A range of amounts: its first number, with the currency once
		// or twice.
		{"€20–€30", 20, true, "€ –€30"},
		{"20–30 €", 20, true, "–30 €"},
		{"20 - 30 €", 20, true, "- 30 €"},
		{"Sizes 3, 20–30 €", 20, true, "Sizes 3, –30 €"},
		{"$20 - $30", 20, true, "$ - $30"},
		{"from $9.99/mo", 9.99, true, "from $ /mo"},
		{"20 to 30 €", 20, true, "to 30 €"},
		{"20 bis 30 €", 20, true, "bis 30 €"},
		{"de 20 à 30 €", 20, true, "de à 30 €"},
		{"1,000〜2,000円", 1000, true, "〜2,000円"},
		{"1.000 ~ 2.000 kr", 1000, true, "~ 2.000 kr"},
		{"Rooms 2 to 3, $500", 500, true, "Rooms 2 to 3, $"},
		{"20 or 30 €", 30, true, "20 or €"}, // no range
		// A sign stays the amount's.
		{"Save -5 €", -5, true, "Save €"},
		{"Balance 3: -$5.00", -5, true, "Balance 3: -$"},
		// No amount: the first number, as before.
		{"Comments 12 of 30", 12, true, "Comments of 30"},
		{"3 items, total in $", 3, true, "items, total in $"},
		{"-15 %", -15, true, "%"},
		{"down 3.2%", 3.2, true, "down %"},
	})
}

// TestValueCurrencyAmountChange: a price watched beside a codec's or a
// model's number changes by the price's change; the number that is no
// price is left alone.
func TestValueCurrencyAmountChange(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		o, n     float64
	}{
		{"H.264 encoder $20", "H.264 encoder $18", 20, 18},
		{"MPEG-4 Part 10, $20", "MPEG-4 Part 10, $25", 20, 25},
		{"No.5 costs €20", "No.5 costs €19", 20, 19},
		{"2 for $5", "2 for $6", 5, 6},
		{"20–30 €", "25–30 €", 20, 25},
		{"가격12,000원", "가격11,000원", 12000, 11000},
		{"Q49.90", "Q44.90", 49.9, 44.9},
		{"Kr1.299", "Kr1.199", 1299, 1199},
		{"Was $59.99 Now $49.99", "Was $59.99 Now $44.99", 49.99, 44.99},
		{"statt 59,99 € jetzt 49,99 €", "statt 69,99 € jetzt 49,00 €", 49.99, 49},
	} {
		r := evalClause(t, valuePage(`<p class="price">`+tc.old+`</p>`), valuePage(`<p class="price">`+tc.new+`</p>`), `value In css ".price" changes`)
		if !r.Matched || len(r.Changes) != 1 {
			t.Errorf("%s -> %s: %+v", tc.old, tc.new, r)
			continue
		}
		if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n {
			t.Errorf("%s -> %s: %v -> %v, want %v -> %v", tc.old, tc.new, *v.Old, *v.New, tc.o, tc.n)
		}
	}
}

// TestValueAccountingNegative: an amount with a currency in parentheses
// is negative, as accounts write losses, where it is the whole text, a
// statement's cell, or follows its label's colon; an amount in
// parentheses after other words is a surcharge, as shops write one, and
// a bare number in parentheses is a count, as the web writes them beside
// a link or a tab.
func TestValueAccountingNegative(t *testing.T) {
	checkValueTexts(t, []valueTextCase{
		{"($1,200)", -1200, true, "($ )"},
		{"(€1.200,00)", -1200, true, "(€ )"},
		{"(1,200.00 USD)", -1200, true, "( USD)"},
		{"( $1,200 )", -1200, true, "( $ )"},
		{"(USD 1,200)", -1200, true, "(USD )"},
		{"(1.299,- €)", -1299, true, "( ,- €)"},
		{"Net income: ($1,200)", -1200, true, "Net income: ($ )"},
		{"(-$5.00)", -5, true, "(-$ )"},
		// The currency outside the parentheses, as statements write a
		// column's.
		{"$(5.00)", -5, true, "$( )"},
		{"€ (2.50)", -2.5, true, "€ ( )"},
		{"(2.50) €", -2.5, true, "( ) €"},
		// After words, a surcharge, an option's price.
		{"Net (1,200) USD", 1200, true, "Net ( ) USD"},
		{"Extra cheese ($1.50)", 1.5, true, "Extra cheese ($ )"},
		{"Express shipping ($9.99)", 9.99, true, "Express shipping ($ )"},
		{"Gift wrap (£2.50)", 2.5, true, "Gift wrap (£ )"},
		{"2 units (€5)", 5, true, "2 units (€ )"},
		{"Option A (2.50) €", 2.5, true, "Option A ( ) €"},
		{"Option A $(2.50)", 2.5, true, "Option A $( )"},
		{"($1,200) loss", 1200, true, "($ ) loss"},
		// After the colon of a shop's label, a cart's or a receipt's
		// line, the parentheses set the amount off; its words say its
		// sign (shopLabel).
		{"Order total: ($45.00)", 45, true, "Order total: ($ )"},
		{"You save: ($20.00)", 20, true, "You save: ($ )"},
		{"Discount: ($5.00)", 5, true, "Discount: ($ )"},
		{"Rabatt: (5,00 €)", 5, true, "Rabatt: ( €)"},
		{"Remise : (5,00 €)", 5, true, "Remise : ( €)"},
		{"Sous-total : (45,00 €)", 45, true, "Sous-total : ( €)"},
		// A statement's labels keep the sign, whatever shop's word
		// stands in them.
		{"Operating loss from delivery segment: ($1,200)", -1200, true, "Operating loss from delivery segment: ($ )"},
		{"Q3 net loss, order backlog: ($1,200)", -1200, true, "Q3 net loss, order backlog: ($ )"},
		{"Cash used for order fulfilment: ($2,300)", -2300, true, "Cash used for order fulfilment: ($ )"},
		{"Promo revenue adjustments: ($500)", -500, true, "Promo revenue adjustments: ($ )"},
		{"Total: ($1,200)", -1200, true, "Total: ($ )"},
		{"Total comprehensive income: ($1,200)", -1200, true, "Total comprehensive income: ($ )"},
		{"Jahresfehlbetrag: (1.200,00 €)", -1200, true, "Jahresfehlbetrag: ( €)"},
		// Counts, and parentheses around more than the amount.
		{"Reviews (1,200)", 1200, true, "Reviews ( )"},
		{"Comments (12)", 12, true, "Comments ( )"},
		{"(12 items) $5", 5, true, "(12 items) $"},
		{"$49 ($59 list)", 49, true, "$ ($59 list)"},
		{"(20–30 €)", 20, true, "( –30 €)"},
		{"Total (incl. VAT) $1,200", 1200, true, "Total (incl. VAT) $"},
		{"Reviews (1,200) $5", 5, true, "Reviews (1,200) $"},
	})
}

// TestValueAccountingNegativeChange: a result turning to a loss written in
// parentheses falls below zero; a count in parentheses that grows rises.
func TestValueAccountingNegativeChange(t *testing.T) {
	for _, tc := range []struct {
		old, new, clause string
		o, n             float64
	}{
		{"$1,200", "($1,200)", `value In css ".v" falls below 0`, 1200, -1200},
		{"(1,200.00 USD)", "(900.00 USD)", `value In css ".v" increases`, -1200, -900},
		{"Reviews (1,200)", "Reviews (1,250)", `value In css ".v" increases`, 1200, 1250},
		{"You save: ($20.00)", "You save: ($25.00)", `value In css ".v" increases`, 20, 25},
		{"Order total: ($45.00)", "Order total: ($40.00)", `value In css ".v" decreases`, 45, 40},
		{"Net income: ($1,200)", "Net income: ($900)", `value In css ".v" increases`, -1200, -900},
	} {
		r := evalClause(t, valuePage(`<p class="v">`+tc.old+`</p>`), valuePage(`<p class="v">`+tc.new+`</p>`), tc.clause)
		if !r.Matched || len(r.Changes) != 1 {
			t.Errorf("%s -> %s, %s: %+v", tc.old, tc.new, tc.clause, r)
			continue
		}
		if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n {
			t.Errorf("%s -> %s: %v -> %v, want %v -> %v", tc.old, tc.new, *v.Old, *v.New, tc.o, tc.n)
		}
	}
}

// TestValueLetterCurrency: a currency written with one letter, or the
// krona's and krone's Kr, joined to digits or spaced from them, makes
// them an amount where they have an amount's form, two decimals or groups
// of thousands (Q49.90, Kr1.299); otherwise the letter and the digits are
// a word's (Q3, L2, Kr85, A4), as they were.
func TestValueLetterCurrency(t *testing.T) {
	checkValueTexts(t, []valueTextCase{
		{"Q49.90", 49.9, true, "Q"},
		{"L49.90", 49.9, true, "L"},
		{"Kr1.299", 1299, true, "Kr"},
		{"kr 1.299", 1299, true, "kr"},
		{"kr.1.299,00", 1299, true, "kr."},
		{"Q1,299", 1299, true, "Q"},
		{"Precio: Q1,299.00", 1299, true, "Precio: Q"},
		{"Zapatos talla 42 L1,250.00", 1250, true, "Zapatos talla 42 L"},
		{"Pack of 2, kr 1.299", 1299, true, "Pack of 2, kr"},
		{"R299.99", 299.99, true, "R"}, // the rand
		{"R1,299", 1299, true, "R"},
		{"Canon R5 R45,999.00", 45999, true, "Canon R5 R"},
		// No amount's form: a word's digits.
		{"L2 cache", 0, false, ""},
		{"A4", 0, false, ""},
		{"Q3", 0, false, ""},
		{"Kr85", 0, false, ""},
		{"Kr-85", 0, false, ""},
		{"Canon R5", 0, false, ""},
		{"R1.5", 0, false, ""},
		{"R134a", 0, false, ""},
		{"L2.5", 0, false, ""},
		{"Q3.2026", 0, false, ""},
		{"XL49.90", 0, false, ""}, // the letter ends a longer word
		// The quarter is a word's; the year after it stands apart.
		{"Q3 2026", 2026, true, "Q3"},
		{"Q3 2026 revenue: $5.20", 5.2, true, "Q3 2026 revenue: $"},
		{"L2 cache 4 MB", 4, true, "L2 cache MB"},
		// Spaced from digits without the form, the letter is no
		// currency: the first number is the value.
		{"Size L 42, 7 EUR", 7, true, "Size L 42, EUR"},
		{"Size L 42", 42, true, "Size L"},
	})
}

// TestValueMagnitude: an amount with a currency written with a magnitude
// after it ($1.2M, €3,5 Mrd., ₹1.5 Cr) is that many thousands, millions
// or billions, so that $900K rising to $1.2M is a rise, and so is a
// count's K, M or B joined to it where the number has a decimal part
// and no word before it (1.2K) or a count's noun names it (12K
// followers, Sold 3k); otherwise the letter after a number without a
// currency is a unit, a size or a grade, as before (4K, 10M, 4B, 2B).
func TestValueMagnitude(t *testing.T) {
	checkValueTexts(t, []valueTextCase{
		{"$1.2M", 1.2e6, true, "$ M"},
		{"$900K", 900e3, true, "$ K"},
		{"$50k", 50e3, true, "$ k"},
		{"$5MM", 5e6, true, "$ MM"},
		{"Market cap $2.1T", 2.1e12, true, "Market cap $ T"},
		{"$2.1bn", 2.1e9, true, "$ bn"},
		{"£2.1 bn", 2.1e9, true, "£ bn"},
		{"$1.5 billion", 1.5e9, true, "$ billion"},
		{"€3,5 Mrd.", 3.5e9, true, "€ Mrd."},
		{"1,2 Mio. €", 1.2e6, true, "Mio. €"},
		{"Umsatz 2024: 1,2 Mrd. €", 1.2e9, true, "Umsatz 2024: Mrd. €"},
		{"₹1.5 Cr", 1.5e7, true, "₹ Cr"},
		{"Rs 1.2 lakh", 1.2e5, true, "Rs lakh"},
		{"($1.2M)", -1.2e6, true, "($ M)"},
		{"$1.299M", 1.299e6, true, "$ M"}, // with a magnitude, a decimal point
		{"1,2 Tsd. €", 1200, true, "Tsd. €"},
		// A count's K, M or B joined to it: 950 followers rising to 1.2K
		// is a rise.
		{"1.2K followers", 1200, true, "K followers"},
		{"Sold 3k", 3000, true, "Sold k"},
		{"1.2M views", 1.2e6, true, "M views"},
		{"(1.2K)", 1200, true, "( K)"}, // a count: no currency
		{"4K TV $499", 499, true, "4K TV $"},
		{"12K followers", 12000, true, "K followers"},
		{"Followers: 12K", 12000, true, "Followers: K"},
		{"3M views", 3e6, true, "M views"},
		{"4K stars", 4000, true, "K stars"},
		// A size, a seat, an apartment, a pencil's grade, a screen: the
		// letter is no magnitude.
		{"4K", 4, true, "K"},
		{"Shoe size 10M", 10, true, "Shoe size M"},
		{"Shoe size 10.5M", 10.5, true, "Shoe size M"},
		{"Baby romper 6M", 6, true, "Baby romper M"},
		{"Size 34B", 34, true, "Size B"},
		{"Seat 12B", 12, true, "Seat B"},
		{"Apt 4B", 4, true, "Apt B"},
		{"2B pencil", 2, true, "B pencil"},
		// A decimal number's letter followed by words: metres, a shoe's
		// width, a screen; a counter's cell holds the number alone.
		{"1.5M USB-C Cable", 1.5, true, "M USB-C Cable"},
		{"8.5M Women's Sneaker", 8.5, true, "M Women's Sneaker"},
		{"2.5K Display", 2.5, true, "K Display"},
		// No magnitude: a unit, a spaced letter, a word going on, a count's
		// magnitude that is only an amount's (m, bn, T).
		{"5KB", 5, true, "KB"},
		{"100 Mbps", 100, true, "Mbps"},
		{"3 M views", 3, true, "M views"},
		{"3 million views", 3e6, true, "million views"}, // a word: a magnitude (TestValuePageMagnitude)
		{"5m", 5, true, "m"},
		{"2bn", 2, true, "bn"},
		{"5T", 5, true, "T"},
		{"$5 M", 5, true, "$ M"},
		{"$5 Bonus", 5, true, "$ Bonus"},
		{"$5Ms", 5, true, "$ Ms"},
		{"€12m²", 12, true, "€ m²"},
		{"5 K", 5, true, "K"},
	})
	// The difference keeps the digits the writings show.
	r := evalClause(t, valuePage(`<p class="v">$900K</p>`), valuePage(`<p class="v">$1.2M</p>`), `value In css ".v" increases`)
	if !r.Matched || len(r.Changes) != 1 || r.Changes[0].Value.Delta != 300e3 {
		t.Errorf("$900K -> $1.2M: %+v", r)
	}
	r = evalClause(t, valuePage(`<p class="v">950 followers</p>`), valuePage(`<p class="v">1.2K followers</p>`), `value In css ".v" increases`)
	if !r.Matched || len(r.Changes) != 1 || r.Changes[0].Value.Delta != 250 {
		t.Errorf("950 -> 1.2K followers: %+v", r)
	}
	r = evalClause(t, valuePage(`<p class="v">$1.25M</p>`), valuePage(`<p class="v">$1.2M</p>`), `value In css ".v" decreases`)
	if !r.Matched || len(r.Changes) != 1 || r.Changes[0].Value.Delta != -50e3 {
		t.Errorf("$1.25M -> $1.2M: %+v", r)
	}
}

// TestValueDecreasesReading: a value read as written falls where the
// text's value falls, and not where only another number of its text does.
func TestValueDecreasesReading(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		o, n     float64
	}{
		{"Für 4 Personen: 2 TL Salz", "Für 2 Personen: 2 TL Salz", 4, 2},
		{"Shoe size 10M", "Shoe size 9.5", 10, 9.5},
		{"Extra cheese ($1.50)", "Extra cheese ($1.25)", 1.5, 1.25},
		{"1.299 € 20 % sparen", "1.199 € 20 % sparen", 1299, 1199},
		{"Größe 42 59,99 €", "Größe 42 49,99 €", 59.99, 49.99},
		{"12 490 Kč", "11 990 Kč", 12490, 11990},
		{"1.2K followers", "950 followers", 1200, 950},
	} {
		r := evalClause(t, valuePage(`<p class="v">`+tc.old+`</p>`), valuePage(`<p class="v">`+tc.new+`</p>`), `value In css ".v" decreases`)
		if !r.Matched || len(r.Changes) != 1 {
			t.Errorf("%s -> %s: %+v", tc.old, tc.new, r)
			continue
		}
		if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n {
			t.Errorf("%s -> %s: %v -> %v, want %v -> %v", tc.old, tc.new, *v.Old, *v.New, tc.o, tc.n)
		}
	}
}

// TestValueLanguageCurrency: Ft and TL spaced after a bare number are a
// currency on a page whose language's it is (the forint on a Hungarian
// page, the lira on a Turkish one), where elsewhere they are feet and a
// teaspoon, as without a page language.
func TestValueLanguageCurrency(t *testing.T) {
	for _, tc := range []struct {
		lang, text string
		want       float64
	}{
		{"hu", "990 Ft", 990},
		{"hu", "2 db 990 Ft", 990},
		{"hu-HU", "2 db 990 Ft", 990},
		{"hu", "12 990 Ft", 12990},
		{"hu", "2 db 12 990 Ft", 12990},
		{"hu", "1.990 Ft", 1990},
		{"hu", "2 db 1.990 Ft", 1990},
		{"hu", "(990 Ft)", -990},
		{"hu", "Szállítás: (990 Ft)", 990}, // a shop's label (shopLabel)
		{"hu", "Kedvezmény: (990 Ft)", 990},
		{"tr", "İndirim: (49,90 TL)", 49.9},
		{"hu", "2 db 49 TL", 2}, // the lira is no Hungarian page's
		{"tr", "49,90 TL", 49.9},
		{"tr", "1.299 TL", 1299},
		{"tr", "2 adet 49 TL", 49},
		{"tr", "2 adet 1.299 TL", 1299},
		{"tr", "2 adet 49,90 TL", 49.9},
		{"tr", "2 adet 990 Ft", 2},
		// Without a page language, or in another, as before.
		{"", "2 db 990 Ft", 2},
		{"", "2 adet 49 TL", 2},
		{"", "Für 4 Personen: 2 TL Salz", 4},
		{"de", "Für 4 Personen: 2 TL Salz", 4},
		{"en", "Pack of 2, 6 Ft", 2},
		{"", "2 db 1.990 Ft", 1990},
		{"", "2 adet 1.299,00 TL", 1299},
	} {
		lang := ""
		if tc.lang != "" {
			lang = ` lang="` + tc.lang + `"`
		}
		doc := parseDoc(t, `<!DOCTYPE html><html`+lang+`><body><p>x</p></body></html>`)
		n, ok := textNumber(tc.text, pageReadingOf(doc))
		if !ok {
			t.Errorf("%s: %q: no number, want %v", tc.lang, tc.text, tc.want)
			continue
		}
		if got, _ := n.value(pageDecimal(doc)); got != tc.want {
			t.Errorf("%s: %q: %v, want %v", tc.lang, tc.text, got, tc.want)
		}
	}
	// A price on such a page changes by the amount's change.
	page := func(lang, v string) string {
		return `<!DOCTYPE html><html lang="` + lang + `"><body><p class="price">` + v + `</p></body></html>`
	}
	for _, tc := range []struct {
		oldLang, newLang, old, new string
		o, n                       float64
	}{
		{"hu", "hu", "2 db 990 Ft", "2 db 890 Ft", 990, 890},
		{"tr", "tr", "2 adet 49 TL", "2 adet 45 TL", 49, 45},
	} {
		r := evalClause(t, page(tc.oldLang, tc.old), page(tc.newLang, tc.new), `value In css ".price" changes`)
		if !r.Matched || len(r.Changes) != 1 {
			t.Errorf("%s %s -> %s %s: %+v", tc.oldLang, tc.old, tc.newLang, tc.new, r)
			continue
		}
		if v := r.Changes[0].Value; *v.Old != tc.o || *v.New != tc.n {
			t.Errorf("%s %s -> %s %s: %v -> %v, want %v -> %v", tc.oldLang, tc.old, tc.newLang, tc.new, *v.Old, *v.New, tc.o, tc.n)
		}
	}
}
