package intent

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// numberSyntax is the syntax findNumber finds, as a regular expression:
// the reference it is tested against.
var numberSyntax = regexp.MustCompile(`[-+−]?[.,]?\d(?:[\d.,\x{00A0}\x{202F}'\x{2019}]*\d)?`)

// checkFindNumber fails unless findNumber finds in s what numberSyntax
// finds.
func checkFindNumber(t *testing.T, s string) {
	t.Helper()
	want := numberSyntax.FindStringIndex(s)
	start, end, ok := findNumber(s)
	var got []int
	if ok {
		got = []int{start, end}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("findNumber(%q) = %v, want %v", s, got, want)
	}
}

// TestFindNumber: findNumber finds the first number as numberSyntax does,
// in writings of numbers and in random strings of their characters,
// broken UTF-8 among them.
func TestFindNumber(t *testing.T) {
	for _, s := range []string{
		"", "no digits", "$1,299.99", "1.299,00 €", "-3", "+-3", "−5", "a−.5", "−", "-.", "-.x5", ".,5", "$.99",
		"Item-42", "No.5", "1'234.50", "1’234.50", "12\u00a0345", "12\u202f345", "1 2", "1..", "1.,x", "x9",
		"\xe2\x885", "\xe2-5", "5\xc2\xa0", "5\xc2\xa06", "5\xc2", "\xff7\xff", "uint8", "U+00E4", "1e100",
	} {
		checkFindNumber(t, s)
	}
	alphabet := []string{"0", "7", ".", ",", "-", "+", "−", "\u00a0", "\u202f", "'", "’", "a", " ", "$", "\xe2", "\x88", "\xc2", "\xa0", "é"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		var b strings.Builder
		for range r.IntN(9) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		checkFindNumber(t, b.String())
	}
}

// FuzzFindNumber: findNumber finds what numberSyntax finds.
func FuzzFindNumber(f *testing.F) {
	for _, s := range []string{"$1,299.99", "−.5", "1’234\u00a0567", "\xe2\x88-1", "Item-42"} {
		f.Add(s)
	}
	f.Fuzz(checkFindNumber)
}

// FuzzFindValue: the span findValue returns is a number numberSyntax
// reads whole (its plain spaces grouping thousands as no-break spaces), whose digits are no word's, and scanNumber reads that
// number, its digits (whatever its sign, parentheses and magnitude), and
// reads one wherever findValue finds one its float64 holds.
func FuzzFindValue(f *testing.F) {
	for _, s := range []string{"UTF-8", "COVID‑19 cases: 12", "USD-5", "No.5", "価格1,000円", "Model X−3 at 120",
		"H.264 $20", "MPEG-4 Part 10, $20", "No.5 costs €20", "Qty 2 USD 15.00", "20 - 30 €", "12 490 Kč", "1.299,- €",
		"($1,200)", "(€1.200,00)", "(1,200.00 USD)", "Reviews (1,200)", "가격12,000원",
		"Q49.90", "L49.90", "Kr1.299", "kr 1.299", "Q3 2026", "L2 cache", "A4", "Kr-85", "20 to 30 €", "1,000〜2,000円", "R299.99", "Canon R5",
		"$1.2M", "1,2 Mio. €", "($1.2M)", "4K TV $499", "–15 %", "–$5.00", "2019–2020", "Learn PHP 8 for $49", "1.2K followers", "1,2 Tsd. €", "$(5.00)", "(2.50) €", "2.50- €", "1.234,56-", "2 шт. по 500 руб.",
		"1 299 € 12 mois", "iPhone 15 999 €", "Größe 42 59,99 €", "1 299,00 €", "1.299 € 20 % sparen", "Qty 2 USD 15.00",
		"Extra cheese ($1.50)", "Shoe size 10M", "Für 4 Personen: 2 TL Salz", "1 000'00",
		"Prix 1 299 €", "iPhone 15 Pro 1 199 €", "Galaxy S24 1 299 €", "Od 12 490 Kč", "Order total: ($45.00)", "Preis: 49,99-",
		"Was $59.99 Now $49.99", "Was $59.99 Save $10", "Old price 59,99 € New price 49,99 €", "Was USD 59.99 Now USD 49.99",
		"10-€20", "10–$20.50", "Size 10 - $49.99",
		"Lot de 2 250 g", "Pack of 2 100 ml", "Lot de 2 250g",
		"10 to €20", "Fr. 12.50", "12.50 Fr.", "Art. 3 Fr. 1'299.–", "Fr. 12.05.: Eintritt 19 €", "Menge 2 SFr. 1'299.00",
		"Revenue 1.2M", "1.2 million", "3,4 Mrd", "2 millions de visiteurs", "Samsung 1 299 €", "Samsung 2 499 €",
		"iPad 12 990 Kč", "iPhone 15 999,00 €", "1\u00a02345", "2024\u202f150 pages", "rooms 2\u00a03\u00a04", "1\u00a0234\u00a056",
		"Pixel 8 699 €", "PlayStation 5 499 €"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start, end, ok := findValue(s)
		n, scanned := scanNumber(s)
		if scanned != ok && (scanned || len(digitsOf(s[start:end])) < 300) {
			t.Fatalf("scanNumber(%q) read %v, findValue found %v", s, scanned, ok)
		}
		if !ok {
			return
		}
		if scanned && digitsOf(n.text) != digitsOf(s[start:end]) {
			t.Fatalf("scanNumber(%q) read %q, findValue found %q", s, n.text, s[start:end])
		}
		// The plain spaces of a space-grouped number (12 490) are its
		// groups', as no-break spaces are.
		// A no-break space that groups no thousands ends it (2024 150).
		grouped := strings.ReplaceAll(s[start:end], " ", "\u00a0")
		if m := numberSyntax.FindString(grouped + s[end:]); len(m) != len(grouped) && !startsNoBreakSpace(s[end:]) {
			t.Fatalf("findValue(%q) = %q, not a whole number (%q)", s, s[start:end], m)
		}
		d := start
		for !isDigit(s[d]) {
			d++
		}
		if wordDigits(s[:d], s[d:end]) {
			t.Fatalf("findValue(%q) = %q, a word's digits", s, s[start:end])
		}
	})
}

// startsNoBreakSpace reports whether s begins with a no-break space
// (U+00A0) or a narrow one (U+202F).
func startsNoBreakSpace(s string) bool {
	return strings.HasPrefix(s, "\u00a0") || strings.HasPrefix(s, "\u202f")
}

// digitsOf returns the digits of s without the zeros that lead them
// (scanNumber writes $.99 as 0.99).
func digitsOf(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if isDigit(c) && (c != '0' || b.Len() > 0) {
			b.WriteByte(c)
		}
	}
	return b.String()
}
