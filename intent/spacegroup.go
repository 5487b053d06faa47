package intent

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/message"
	textnumber "golang.org/x/text/number"

	"github.com/vigil-web/vigil/tree"
)

// This file holds the reading of plain spaces between digits: where they
// group an amount's thousands (12 490 Kč), and where they stand between a
// name's or a count's number and the amount (iPhone 15 999 €, Lot de 2
// 250 g), as the page's language says (pageGroupsBySpace).

// spaceGrouping is what the language of a page says of a plain space
// between digits (pageGroupsBySpace).
type spaceGrouping int

const (
	// spacesGuessed: the page declares no language; a plain space groups
	// thousands where the digits have their form (spaceGroupsAfter).
	spacesGuessed spaceGrouping = iota
	// spacesGroup: the language groups thousands by a space
	// (joinSpaceGroups).
	spacesGroup
	// spacesApart: the language groups thousands otherwise; a plain
	// space ends a number but beside a currency or a price's label
	// (spaceGroupsBeside).
	spacesApart
)

// pageGroupsBySpace returns whether the language a document declares on
// its root element groups thousands by a space, as the Unicode CLDR writes
// numbers in it (fr, pl, cs, ru, sv, pt-PT: 1 234 567 with a no-break
// space, which pages often type as a plain one: spacesGroup), not (en, de,
// es: spacesApart), or whether it declares none (spacesGuessed).
func pageGroupsBySpace(d *tree.Document) spaceGrouping {
	tag, ok := pageLanguage(d)
	if !ok {
		return spacesGuessed
	}
	s := message.NewPrinter(tag).Sprint(textnumber.Decimal(1234567))
	if strings.ContainsAny(s, "\u00a0\u202f ") {
		return spacesGroup
	}
	return spacesApart
}

// spaceGroupsAfter returns the end of the number of s at [i, e), whose
// first digit is at d, with the groups of thousands that plain spaces
// join to it, as pages type the no-break space of the languages that
// group by one: one space, then exactly three digits not followed by
// another, the last group with a decimal part of one or two digits or
// none (12 490 Kč, 1 299,00 €, 1 234 567). The number before them is
// one to three digits, not beginning with 0, and no name's (nameNumber:
// iPhone 15 999 €, PlayStation 5 499 € and Windows 11 199 € are a
// model's number and a price, where Samsung 2 499 €, iPad 12 990 Kč, Prix 1 299 €, Galaxy S24
// 1 299 € and iPhone 15 Pro 1 199 € are 2499, 12990, 1299, 1299 and
// 1199).
// Grouped otherwise (Größe 42 59,99 €, 2024 150 €, 12 4900 Kč), the
// numbers stand apart, as do a count after a count's word and the
// quantity after it (countAndQuantity: Lot de 2 250 g is 2).
func spaceGroupsAfter(s string, i, d, e int) int {
	if e-d > 3 || s[d] == '0' || !allDigits(s[d:e]) {
		return e
	}
	end := e
	for end+4 <= len(s) && s[end] == ' ' && isDigit(s[end+1]) {
		_, k, _ := findNumber(s[end+1:])
		g := s[end+1 : end+1+k] // the group, and its decimal part
		if len(g) < 3 || !isDigit(g[1]) || !isDigit(g[2]) {
			break
		}
		if len(g) == 3 {
			end += 1 + k
			continue
		}
		if dec := g[4:]; !isSeparator(g[3]) || len(dec) > 2 || !allDigits(dec) {
			break // 12 4900, 1 299.000, 1 000'00
		}
		end += 1 + k // 1 299,00: the decimals end it
		break
	}
	if end > e && (countAndQuantity(s[:i], s[end:]) || nameNumber(s[:i], s[d:e], s[end:])) {
		return e
	}
	return end
}

// spaceGroupsBeside is spaceGroupsAfter on a page whose language groups
// thousands otherwise (spacesApart: de, tr, en), where a plain space
// between digits ends a number but where shops type it for the no-break
// space of an amount's groups: where a currency stands right before the
// number or right after its groups (local is the page's sign, localSign),
// or a price's label before it (isPriceLabel), the groups are the
// amount's: "Preis 1 299 €", "1 299,00 €", "€ 1 299", "Preis: 1 299" and
// "12 990 TL" on a Turkish page are 1299 and 12990, where "2 299 Stück"
// and "1 299.00" are 2 and 1, and "iPhone 15 999 €" 999 (nameNumber). So
// are two groups or more, as the SI and DIN 5008 write large numbers in
// English and German ("1 234 567" is 1234567), where one group may be a
// second number.
func spaceGroupsBeside(s string, i, d, e int, local string) int {
	end := spaceGroupsAfter(s, i, d, e)
	if end == e {
		return e
	}
	m := s[d:end]
	if strings.Count(m, " ") >= 2 {
		return end
	}
	if _, ok := currencyBefore(s[:i], m); ok {
		return end
	}
	if _, ok := currencyAfter(s[end:], m, local); ok {
		return end
	}
	if isPriceLabel(lastWord(s[:i])) {
		return end
	}
	return e
}

// nameNumber reports whether lead, the digits before a plain space and
// groups of three digits, with before the text before it and after the
// text after the groups, is a name's number, not the first digits of an
// amount, where a word says so:
//   - a size's word (sizeWords: Größe 42 590 Kč, EU 42 590 Kč), whose
//     number is a size's before any price;
//   - a lead of two digits or more (Nike Air Max 90 129 €, Windows 11
//     199 €, Top 10 199 €), or one digit after a product's name written
//     with a capital inside it (camelName: iPhone 15 999 €, PlayStation
//     5 499 €, AirPods 2 149 €), before the groups of a price in the
//     euro, the dollar, the pound or the franc (highValueCurrency), whose
//     shops' prices are seldom tens of thousands where a model's number
//     is often two digits.
//
// Both after a name's word (afterName: not a price's label, so Prix : 15
// 999 € and Prix 1 299 € are 15999 and 1299), and not 1, which begins a
// price's thousands far more often than it numbers a model (iPad 1 099 €
// is 1099). One digit after a word written with a capital only at its
// start is a brand's price's thousands (Samsung 2 499 € is 2499): such a
// word names a brand (Samsung, Dyson) as often as a model. The costs of
// it: Clio 15 990 € is 990 and Model 3 999 € 3999, Pixel 8 699 € 8699,
// which a colon undoes (Clio : 15 990 €, Model 3 : 999 €). Before
// another currency (iPad 12 990 Kč, where prices are tens of thousands),
// or none (YouTube 12 000 vues), the groups are the number's.
func nameNumber(before, lead, after string) bool {
	if lead == "1" || !afterName(before) {
		return false
	}
	if sizeWords[lastWord(before)] {
		return true
	}
	return (len(lead) >= 2 || camelName(endingWord(strings.TrimSuffix(before, " ")))) && highValueCurrency(after)
}

// camelName reports whether w is written with a capital letter after a
// small one, as products' names are (iPhone, iPad, PlayStation, AirPods,
// MacBook, OnePlus), not as a word or a brand's name is (Samsung, Pixel,
// Clio, SAMSUNG).
func camelName(w string) bool {
	prevLower := false
	for _, r := range w {
		if prevLower && unicode.IsUpper(r) {
			return true
		}
		prevLower = unicode.IsLower(r)
	}
	return false
}

// sizeWords are the words, lower-cased, before a size's number
// (nameNumber): size and its German, French, Spanish, Italian, Dutch,
// Czech, Polish, Swedish, Danish and Norwegian, Finnish and Portuguese
// words, and the shoe sizes' systems (EU 42, UK 8, US 10).
var sizeWords = map[string]bool{
	"size": true, "größe": true, "grösse": true, "taille": true, "talla": true, "taglia": true, "maat": true,
	"velikost": true, "rozmiar": true, "storlek": true, "størrelse": true, "koko": true, "tamanho": true,
	"eu": true, "uk": true, "us": true,
}

// highValueCurrency reports whether after, the text after an amount's
// digits, begins with the currency of the euro, the dollar, the pound or
// the Swiss franc (€, $, £, EUR, USD, GBP, CHF, Fr., SFr.), after a
// decimal part's end (,–) and spaces, standing as a word of its own.
func highValueCurrency(after string) bool {
	t := after
	if t != "" && isSeparator(t[0]) {
		t = strings.TrimLeft(t[1:], "0123456789-–") // 999,00 €, 999,– €
	}
	t = strings.TrimLeftFunc(t, isAmountSpace)
	for _, c := range highValueCurrencies {
		if rest, ok := strings.CutPrefix(t, c); ok && !startsWord(rest) {
			return true
		}
	}
	return false
}

// highValueCurrencies are the currencies highValueCurrency knows.
var highValueCurrencies = []string{"€", "$", "£", "EUR", "USD", "GBP", "CHF", "Fr", "SFr"}

// countAndQuantity reports whether a number grouped by plain spaces,
// before which before and after which after stand, is a count and a
// quantity, as packs are written (Lot de 2 250 g, Pack of 2 100 ml): a
// count's word (countWords) ends before, a space after it, and a unit of
// measure (quantityUnits) begins after, standing as a word of its own,
// joined or spaced. A preposition (de, of) is a count's word only after
// another (Lot de, Pack of), as it follows a measure's name as often
// (Poids de 1 250 g, Weight of 1 250 g). Without the count's word the
// groups are one quantity (1 250 g is 1250), and without the unit one
// amount (Lot de 2 250 € is 2250).
func countAndQuantity(before, after string) bool {
	t, ok := strings.CutSuffix(before, " ")
	w := strings.ToLower(endingWord(t))
	if !ok || !countWords[w] {
		return false
	}
	if w == "de" || w == "of" {
		t, ok = strings.CutSuffix(t[:len(t)-len(w)], " ")
		if w = strings.ToLower(endingWord(t)); !ok || !countWords[w] || w == "de" || w == "of" {
			return false
		}
	}
	after = strings.TrimLeft(after, " ")
	end := strings.IndexFunc(after, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(after)
	}
	return quantityUnits[strings.ToLower(after[:end])] && !startsWord(after[end:])
}

// countWords are the words before a count of items (countAndQuantity):
// lot, pack, set, x, par, pcs and Stück, and of and de after one of
// them.
var countWords = map[string]bool{
	"lot": true, "pack": true, "set": true, "x": true, "de": true, "of": true, "par": true, "pcs": true, "stück": true,
}

// quantityUnits are the units of measure, lower-cased, after a pack's
// quantity (countAndQuantity): grams, kilograms, litres, their
// millilitres and centilitres, and metres, centimetres and millimetres.
var quantityUnits = map[string]bool{
	"g": true, "kg": true, "ml": true, "l": true, "cl": true, "cm": true, "mm": true, "m": true,
}

// allDigits reports whether s is ASCII digits alone.
func allDigits(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// afterName reports whether s, the text before a number, ends with a
// name's word and one space: the number may be the name's (iPhone 15,
// EU 42, Größe 42: nameNumber says where it is), not an amount's first
// digits. A name's word is
// written with a capital letter (not od of od 12 490 Kč), and is none of
// these:
//   - a label (isPriceLabel: Prix 1 299 €, Preis, Cena, Od 12 490 Kč),
//     whose number is the amount;
//   - a shop's word (isShopWord: Promo 2 499 €, Soldes, Angebot,
//     Économisez, Neuf), which a price follows as a label's does;
//   - a word holding digits (Galaxy S24 1 299 €, Nikon Z5 12 990 Kč,
//     iPhone 15 1 199 €): a name's own number, after which a number is
//     none of its;
//   - a word after a name's number, directly or through one word (iPhone
//     15 Pro 1 199 €, iPhone 15 Pro Max, Galaxy S24 Ultra): a name has
//     one number, and the words after it go on the name.
func afterName(s string) bool {
	t, ok := strings.CutSuffix(s, " ")
	if !ok {
		return false
	}
	w := endingWord(t)
	if w == "" || strings.IndexFunc(w, unicode.IsDigit) >= 0 || strings.IndexFunc(w, unicode.IsUpper) < 0 || isPriceLabel(w) || isShopWord(w) {
		return false
	}
	for range 2 {
		t, ok = strings.CutSuffix(t[:len(t)-len(w)], " ")
		if w = endingWord(t); !ok || w == "" {
			return true
		}
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			return false // iPhone 15 Pro
		}
	}
	return true
}

// endingWord returns the letters and digits that end s, as written.
func endingWord(s string) string {
	start := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if start < 0 {
		return s
	}
	_, w := utf8.DecodeRuneInString(s[start:])
	return s[start+w:]
}

// spaceGroupRE finds digits followed by groups of three after single
// spaces: the candidates of joinSpaceGroups.
var spaceGroupRE = regexp.MustCompile(`\d+(?: \d{3})+`)

// joinSpaceGroups writes the plain spaces of s that group thousands as
// no-break spaces, which numbers hold: "1 299,00 €" becomes "1\u00a0299,00
// €". A space groups when the digits before the first one are one to three,
// not beginning with 0 (which never begins a group of thousands), every
// group after it is three digits not followed by another, and
// the digits are not a decimal part ("3,50 100"): "2024 150 personnes"
// and "1 2345" keep their spaces. Nor do a name's number before a price
// (nameNumber: "iPhone 15 999 €" is 999, "iPad 1 099 €" and "iPad 12 990
// Kč" 1099 and 12990) and a count before a quantity (countAndQuantity:
// "Lot de 2 250 g"), as spaceGroupsAfter reads them.
func joinSpaceGroups(s string) string {
	if !strings.Contains(s, " ") {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range spaceGroupRE.FindAllStringIndex(s, -1) {
		start, end := loc[0], loc[1]
		lead := strings.IndexByte(s[start:end], ' ')
		if lead > 3 || s[start] == '0' || end < len(s) && isDigit(s[end]) ||
			start > 0 && (isDigit(s[start-1]) || isSeparator(s[start-1]) || s[start-1] == ' ' && start > 1 && isDigit(s[start-2])) ||
			nameNumber(s[:start], s[start:start+lead], s[end:]) || countAndQuantity(s[:start], s[end:]) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(strings.ReplaceAll(s[start:end], " ", "\u00a0"))
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// noBreakGroupsEnd returns the end of the thousands that no-break spaces
// (U+00A0, U+202F) group in m, a number's digits and separators as
// findNumber finds them from its first digit: all of m where it holds no
// such space, else up to the first one that stands otherwise than between
// groups of thousands, as spaceGroupsAfter reads plain spaces. The digits
// before the first space are one to three, not beginning with 0 and
// without a separator, each group after a space is three digits,
// followed by another space, a separator (the decimal part, which
// wellGrouped reads) or the end: "2 499,99" and "1 234 567" are whole
// (with no-break spaces), "2024 150", "1 2345", "0 299" and "2 3 4" end
// before the first space, "1 234 56" before the second.
func noBreakGroupsEnd(m string) int {
	at := strings.IndexAny(m, "\u00a0\u202f")
	if at < 0 {
		return len(m)
	}
	if at > 3 || m[0] == '0' || !allDigits(m[:at]) {
		return at
	}
	for {
		_, w := utf8.DecodeRuneInString(m[at:])
		g := m[at+w:]
		if len(g) < 3 || !allDigits(g[:3]) || len(g) > 3 && isDigit(g[3]) {
			return at // 2 3 4, 1 2345
		}
		at += w + 3
		if r, _ := utf8.DecodeRuneInString(m[at:]); r != '\u00a0' && r != '\u202f' {
			return len(m) // the end, or a separator: wellGrouped reads the rest
		}
	}
}
