package intent

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	textnumber "golang.org/x/text/number"

	"github.com/vigil-web/vigil/tree"
)

// findNumber returns where the first number in s starts and ends: digits
// with "," "." thin/non-breaking spaces or apostrophes (the Swiss
// 1'234.50, which the CLDR writes 1’234.50) as separators, with an
// optional sign and an optional separator before the first digit ($.99).
// It finds what the regular expression
// [-+−]?[.,]?\d(?:[\d.,\x{00A0}\x{202F}'\x{2019}]*\d)? finds, without
// one: a value scope reads the number of each of its matches, thousands
// of them a check.
func findNumber(s string) (start, end int, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isDigit(c) && !isSeparator(c) && c != '-' && c != '+' && !strings.HasPrefix(s[i:], "−") {
			continue
		}
		p := i
		switch {
		case c == '-' || c == '+':
			p++
		case c != '.' && c != ',' && !isDigit(c):
			p += len("−")
		}
		if p < len(s) && isSeparator(s[p]) {
			p++
		}
		if p >= len(s) || !isDigit(s[p]) {
			continue
		}
		end = p + 1
		// The separators and digits that follow, up to the last digit.
		for q := end; q < len(s); {
			r, w := utf8.DecodeRuneInString(s[q:])
			if !isNumberRune(r) {
				break
			}
			q += w
			if r < utf8.RuneSelf && isDigit(byte(r)) {
				end = q
			}
		}
		return i, end, true
	}
	return 0, 0, false
}

// isNumberRune reports whether r may stand in a number after its first
// digit: a digit or a separator (findNumber).
func isNumberRune(r rune) bool {
	switch r {
	case '.', ',', '\u00a0', '\u202f', '\'', '\u2019':
		return true
	}
	return '0' <= r && r <= '9'
}

// ParseNumber reads the number in s that is its value, as prices and
// counts are written on pages: its first amount with a currency (or the
// one a shop's words say is asked now: "Was $59.99 Now $49.99" is 49.99),
// else its first number ("H.264 $20" is 20, "Comments 12 of 30" is 12:
// findValue).
// "$1,299.00" is 1299, "1.299,00 €" is 1299, "12,5" is 12.5, "-3" is -3,
// "$.99" is 0.99. With both "." and "," the last one is
// the decimal separator. With only one kind, it is a thousands separator
// when it occurs more than once (10.000.000). Occurring once, it is a
// decimal separator when it is not followed by exactly three digits
// (3.50), when it begins the number ($.99), when a zero begins the number
// (0,125: a zero never begins a group of thousands) or when more than
// three digits stand before it (1234.567, Swiss 1'234.567). Otherwise
// ("3.499", "1,085") the number may be written either way, and
// ParseNumber reads it as thousands (3499, 1085); the value change type
// reads it as the other version of the value, or the page's language,
// shows (see the package documentation). Plain spaces group thousands
// where the groups after them are of exactly three digits and the number
// before them is no name's: "12 490 Kč" and "Cena 12 490 Kč" are 12490,
// "1 2345" 1, "iPhone 15 999 €" 999 and "iPhone 15 Pro 1 199 €" 1199
// (spaceGroupsAfter).
//
// Digits joined to a letter before them, directly or by a hyphen, are part
// of a word, not a number: "UTF-8", "COVID-19", "MP3", "H2O", "A4",
// "IPv6", "Item-42" hold none, and "MP3 player for $49" is 49 (findValue);
// letters after the digits are a unit ("5kg" is 5). A plus or a separator
// right after a letter or a digit belongs to the word before it, not to
// the number: "SKU+7" is 7, "No.5" is 5. Digits grouped otherwise than
// by thousands are no number either: "Version 2.1.3", "30.11.2026" and
// "192.168.1.1" hold none (wellGrouped). After a currency code, a hyphen
// is the amount's sign: "USD-1,234.50" is -1234.5, and so is a minus sign
// before a currency symbol: "-$5.00" is -5. An en dash that begins a
// number is a minus sign, as European typesetting writes it: "–15 %" is
// -15, where "2019–2020" is 2019; so is a minus after an amount, as German
// statements write it, before its currency: "1.234,56- EUR" is -1234.56,
// where "Preis: 49,99-", a shop's price, is 49.99. An amount with a
// currency in parentheses that are the whole text (or follow a label's
// colon, but a shop's label's) is negative, as a statement's cell writes
// it: "($1,200)", "Net income: ($1,200)" and "(1,200.00 USD)" are -1200,
// where "Reviews (1,200)" is 1200, "Extra cheese ($1.50)", a surcharge,
// 1.5 and "You save: ($20.00)" 20 (shopLabel). A
// currency written with one letter, or the krona's Kr, makes the digits
// after it an amount where they have an amount's form, two decimals or
// groups of thousands: "Q49.90" is 49.9, "R299.99" 299.99 and "Kr1.299"
// 1299, where "Q3", "L2 cache", "Canon R5" and "Kr85" hold none. A
// magnitude after an amount multiplies it: "$1.2M" is 1200000, "€3,5
// Mrd." 3500000000 (magnitudeAfter), as a magnitude's word does a bare
// number ("1.2 million" is 1200000), any magnitude does after a word
// naming an amount of money ("Revenue 1.2M": moneyNouns), and a count's
// K, M or B does where a count's noun names it or the number has a
// decimal part and no word before it: "1.2K" is 1200, "12K followers"
// 12000, where "Size 34B" is 34 (countMagnitude).
func ParseNumber(s string) (float64, bool) {
	n, ok := scanNumber(s)
	if !ok {
		return 0, false
	}
	f, _ := n.value(0)
	return f, true
}

// number is a number as a page writes it.
type number struct {
	neg bool
	// text holds the digits and the separators "." and ",", with the
	// grouping spaces and apostrophes removed.
	text string
	// dec is the decimal separator the writing shows ('.' or ','), or 0
	// when it shows none: no separator, or an ambiguous one.
	dec byte
	// amb is the separator of an ambiguous writing: once, with one to
	// three digits before it (not beginning with 0) and three after it,
	// so that "3.499" may be 3.499 or 3499.
	amb byte
	// exp is the power of ten a magnitude after an amount multiplies it
	// by (amountMagnitude): 6 for $1.2M.
	exp int
}

// scanNumber reads the number in s that is its value (findValue), as
// ParseNumber describes.
func scanNumber(s string) (number, bool) { return scanNumberIn(s, pageReading{}) }

// scanNumberIn reads the number in s that is its value (findValueIn),
// as its page's language says (pageReading): plain spaces grouping
// thousands where it allows (spaceGroupsAfter), its currency's sign
// after any amount (localSign).
func scanNumberIn(s string, r pageReading) (number, bool) {
	i, end, ok := findValueIn(s, r)
	if !ok {
		return number{}, false
	}
	m := s[i:end]
	var n number
	switch {
	case strings.HasPrefix(m, "-"), strings.HasPrefix(m, "+"):
		n.neg = m[0] == '-'
		m = m[1:]
	case strings.HasPrefix(m, "−"):
		n.neg = true
		m = m[len("−"):]
	default:
		n.neg = signBeforeSymbol(s[:i]) || endsWithDashSign(s[:i])
	}
	n.neg = n.neg || inAccountingParens(s, i, end, r.sign) || trailingMinus(s, i, end, r.sign)
	if isSeparator(m[0]) {
		m = "0" + m // $.99
	}
	m = groupingRemover.Replace(strings.ReplaceAll(m, " ", "")) // 12 490 (spaceGroupsAfter)
	n.text = m
	lastDot, lastComma := strings.LastIndexByte(m, '.'), strings.LastIndexByte(m, ',')
	switch {
	case lastDot >= 0 && lastComma >= 0:
		if lastDot > lastComma {
			n.dec = '.'
		} else {
			n.dec = ','
		}
	case lastDot >= 0 || lastComma >= 0:
		sep, other := byte('.'), byte(',')
		at := lastDot
		if lastComma >= 0 {
			sep, other, at = ',', '.', lastComma
		}
		switch {
		case strings.Count(m, string(sep)) > 1:
			n.dec = other // 10.000.000
		case len(m)-at-1 != 3, m[0] == '0', at > 3:
			n.dec = sep // 3.50, 0,125, 1234.567
		default:
			n.amb = sep // 3.499
		}
	}
	d := firstDigit(s, i)
	if n.exp = amountMagnitude(s, i, d, end, r); n.exp != 0 && n.amb != 0 {
		// $1.299M: a magnitude spares the groups of thousands.
		n.dec, n.amb = n.amb, 0
	}
	if _, ok := n.value(0); !ok {
		return number{}, false
	}
	return n, true
}

// findValue returns where the number in s that is its value starts and
// ends: of the numbers findNumber finds, those that are values (without
// a sign or separator that joins them to the word before them, Item+7,
// No.5: the word's; not those whose digits are a word's own, wordDigits:
// UTF-8, MP3; nor those whose digits are grouped otherwise than an
// amount's, wellGrouped), the first amount with a currency (hasCurrency:
// "H.264 $20" is 20), else the first. Of several amounts, the words of a
// shop before them may say which is asked now (amountPick, amountWord):
// the first after a now-word ("$59.99 Now $49.99" is 49.99), else the
// first, passing over one after a was-word that another amount, not a
// saving, follows ("Regular $59.99 $49.99" is 49.99, "Was $59.99 Save
// $10" 59.99). Where bare numbers run up to the
// amount, joined by a dash, a tilde or a range's word (joinsRange: 20–30
// €, 20 to 30 €), the run's first number is the value. Groups of three
// digits after plain spaces are the number's (spaceGroupsAfter: 12 490 Kč
// is 12490). A separator before digits that hold a separator of their own
// is not the number's (S/.49.90 is 49.9, $.99 is 0.99). After a currency
// code, a hyphen is the amount's sign: USD-1,234.50 is -1234.5.
func findValue(s string) (start, end int, ok bool) { return findValueIn(s, pageReading{}) }

// findValueIn is findValue as the language of its page says (r): with
// groups of thousands after plain spaces (spaceGroupsAfter), on a page
// whose language groups thousands otherwise (spacesApart) only beside a
// currency or a price's label (spaceGroupsBeside), and with the
// sign of its currency that names a unit elsewhere after any amount
// (localSign: 990 Ft on a Hungarian page).
func findValueIn(s string, r pageReading) (start, end int, ok bool) {
	start, end, _, ok = findAmountIn(s, r)
	return start, end, ok
}

// findAmountIn is findValueIn that reports too whether the value is an
// amount with a currency: its own, or, where it begins a range (10-€20,
// 10 - 20 €), the range's.
func findAmountIn(s string, r pageReading) (start, end int, amount, ok bool) {
	plainGroups := r.groups != spacesApart
	first, run := [2]int{-1, -1}, [2]int{-1, -1}
	var pick amountPick
	prevEnd := -1 // the end of the value before, where it is the number before too
	runLabel := 0 // where the text before the run's first number begins
	for off := 0; ; {
		i, e, found := findNumber(s[off:])
		if !found {
			break
		}
		label := off
		i, e = off+i, off+e
		off = e
		for !isDigit(s[i]) {
			if r, _ := utf8.DecodeLastRuneInString(s[:i]); !unicode.IsLetter(r) && !unicode.IsDigit(r) || afterCurrencyCode(s[:i]) {
				break
			}
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
		}
		d := firstDigit(s, i)
		if d > i && isSeparator(s[d-1]) && strings.ContainsAny(s[d:e], ".,") {
			// S/.49.90: a separator before digits that hold their own
			// is the symbol's period, not a decimal point ($.99).
			i = d
		}
		e = d + noBreakGroupsEnd(s[d:e]) // 2024 150, 1 2345: the first
		if wordDigits(s[:d], s[d:e]) || !wellGrouped(s[d:e]) {
			prevEnd = -1
			continue
		}
		if plainGroups {
			e = spaceGroupsAfter(s, i, d, e)
		} else {
			e = spaceGroupsBeside(s, i, d, e, r.sign)
		}
		off = e
		if first[0] < 0 {
			first = [2]int{i, e}
		}
		if prevEnd < 0 || !joinsRange(s[prevEnd:d]) {
			run, runLabel = [2]int{i, e}, label
		}
		if hasCurrency(s, i, d, e, r.sign) && pick.add(run, pick.after(s, run, amountWord(s[runLabel:run[0]], s[d:e], s[e:]))) {
			break
		}
		prevEnd = e
	}
	if at, ok := pick.value(); ok {
		return at[0], at[1], true, true
	}
	if first[0] < 0 {
		return 0, 0, false, false
	}
	return first[0], first[1], false, true
}

// amountPick picks the amount that is a text's value of the amounts
// with a currency findValueIn finds, by the shop word before each
// (amountWord): the first after a now-word (Was $59.99 Now $49.99), else
// the first, passing over one after a was-word that another amount
// follows, not a saving (Regular $59.99 $49.99 is 49.99, where Was $59.99
// Save $10 and Was $59.99 alone are 59.99).
type amountPick struct {
	chosen, was [2]int
	// hasChosen is set once an amount is the value but for a now-word
	// after it; hasWas, while the last amount was after a was-word.
	hasChosen, hasWas bool
}

// add takes the amount at at, after word, and reports whether it is the
// value whatever follows: the first after a now-word.
func (p *amountPick) add(at [2]int, word amountWordKind) bool {
	if word == nowWord {
		p.chosen, p.hasChosen = at, true
		return true
	}
	if p.hasChosen {
		return false
	}
	switch {
	case p.hasWas && word == saveWord:
		p.chosen, p.hasChosen = p.was, true // Was $59.99 Save $10
	case word == wasWord:
		p.was, p.hasWas = at, true
	default:
		p.chosen, p.hasChosen = at, true
	}
	return false
}

// after returns what word, said of the amount at at in s, comes to after
// the amounts added before: an amount a clause or a sentence of its own
// sets apart from a was-amount does not stand in for it ("Price was $30
// per person, but $25 for groups" is 30), where one right after it does
// ("UVP 59,99 € unser Preis 49,99 €" is 49.99): such an amount is taken
// as a saving is (the was-amount stays the value).
func (p *amountPick) after(s string, at [2]int, word amountWordKind) amountWordKind {
	if word != noWord || !p.hasWas || p.hasChosen || p.was[1] > at[0] {
		return word
	}
	between := s[p.was[1]:at[0]]
	if strings.ContainsAny(between, ",;") || len(strings.Fields(between)) > maxWasGap {
		return saveWord
	}
	return word
}

// maxWasGap is the most words between a was-amount and the amount that
// stands in for it (UVP 59,99 € unser Preis 49,99 €: €, unser, Preis).
const maxWasGap = 4

// value returns the amount picked, if any: where the last amount was
// after a was-word (Was $59.99), that one.
func (p *amountPick) value() ([2]int, bool) {
	switch {
	case p.hasChosen:
		return p.chosen, true
	case p.hasWas:
		return p.was, true
	}
	return [2]int{}, false
}

// wellGrouped reports whether the digits and separators m, from a
// number's first digit, are grouped as an amount's: where one separator
// occurs more than once, or before the other one (the decimal separator,
// then once), it groups the digits before the decimal separator by
// thousands (byThousands), or with commas as India does (indianGrouped:
// 12,34,567). A version (2.1.3, 5.15.123), a date (30.11.2026) or an
// address (192.168.1.1) is no amount, where reading it as one would make
// 213 of "Version 2.1.3".
func wellGrouped(m string) bool {
	m = groupingRemover.Replace(m)
	lastDot, lastComma := strings.LastIndexByte(m, '.'), strings.LastIndexByte(m, ',')
	whole, thousands := m, byte(0)
	switch {
	case lastDot >= 0 && lastComma >= 0:
		dec := max(lastDot, lastComma)
		if strings.IndexByte(m, m[dec]) != dec {
			return false // the decimal separator twice: 1,2.3,4
		}
		whole, thousands = m[:dec], m[min(lastDot, lastComma)]
	case strings.Count(m, ".") > 1:
		thousands = '.'
	case strings.Count(m, ",") > 1:
		thousands = ','
	default:
		return true // one separator, or none: ParseNumber reads it
	}
	groups := strings.Split(whole, string(thousands))
	return byThousands(groups) || thousands == ',' && indianGrouped(groups)
}

// byThousands reports whether groups, a number's digits before its
// decimal separator split at its thousands separator, are grouped by
// thousands: the first of one to three digits, the others of three.
func byThousands(groups []string) bool {
	if len(groups[0]) < 1 || len(groups[0]) > 3 {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return false
		}
	}
	return true
}

// indianGrouped reports whether groups, as byThousands takes them, are
// grouped as India writes amounts (12,34,567, the lakh and crore): the
// last of three digits, the first of one or two, the others of two.
func indianGrouped(groups []string) bool {
	last := len(groups) - 1
	if last < 1 || len(groups[last]) != 3 || len(groups[0]) < 1 || len(groups[0]) > 2 {
		return false
	}
	for _, g := range groups[1:last] {
		if len(g) != 2 {
			return false
		}
	}
	return true
}

// wordDigits reports whether the digits and separators m after before are
// part of a word, not a value: joined to a letter before them, directly
// or by a hyphen (UTF-8, COVID-19, MP3, H2O, A4, IPv6, v2.1), unless that
// letter ends a currency code standing as a word (USD5, EUR-5), a
// currency's abbreviation written joined to amounts (Rp50.000, RM49.90)
// or, where m has an amount's form (amountForm), a currency's letter
// (letterCurrencyAtEnd: Q49.90, R299.99, where Q3 and R5 are words).
// Letters of the scripts written without spaces between words (Chinese,
// Japanese, Thai...) and Hangul's join no digits (digitApartScripts):
// 価格1,000円 is 1000, 가격12,000원 is 12000.
func wordDigits(before, m string) bool {
	if r, w := utf8.DecodeLastRuneInString(before); isHyphen(r) {
		before = before[:len(before)-w]
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return unicode.IsLetter(r) && !unicode.In(r, digitApartScripts...) && !afterCurrencyCode(before) && !afterCurrencyPrefix(before) &&
		!(letterCurrencyAtEnd(before) > 0 && amountForm(m))
}

// isHyphen reports whether r joins a word's letters to its digits: the
// hyphen-minus, the Unicode hyphens and the minus sign pages type for
// them.
func isHyphen(r rune) bool {
	return r == '-' || r == '\u2010' || r == '\u2011' || r == '−'
}

// digitApartScripts are the scripts whose letters join no digits into a
// word, where digits stand next to letters without being part of one:
// those written without spaces between words (Chinese, Japanese, Thai,
// Lao, Khmer, Burmese), and Hangul, whose words take digits before the
// counters and particles written joined to them (12,000원, 3개, 제3회),
// never inside a name as Latin letters do (MP3, H2O).
var digitApartScripts = []*unicode.RangeTable{
	unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar,
	unicode.Hangul,
}

// groupingRemover removes the separators that only group digits: the
// no-break and thin no-break spaces and the apostrophes.
var groupingRemover = strings.NewReplacer("\u00a0", "", "\u202f", "", "'", "", "\u2019", "")

// value returns the number, reading an ambiguous separator as a decimal
// one if it is dec and as a thousands one otherwise.
func (n number) value(dec byte) (float64, bool) {
	d := n.dec
	if n.amb != 0 && n.amb == dec {
		d = dec
	}
	var b strings.Builder
	for i := 0; i < len(n.text); i++ {
		switch c := n.text[i]; {
		case isDigit(c):
			b.WriteByte(c)
		case c == d:
			b.WriteByte('.')
		}
	}
	if n.exp != 0 {
		b.WriteString("e" + strconv.Itoa(n.exp))
	}
	f, err := strconv.ParseFloat(b.String(), 64)
	if err != nil {
		return 0, false
	}
	if n.neg {
		f = -f
	}
	return f, true
}

// places returns how many digits follow the decimal separator of the
// number read with dec as value reads it, less its magnitude's power: 2
// for "$1,299.50", 0 for "1,299" and for "$1.25M".
func (n number) places(dec byte) int {
	d := n.dec
	if n.amb != 0 && n.amb == dec {
		d = dec
	}
	i := strings.LastIndexByte(n.text, d)
	if d == 0 || i < 0 {
		return 0
	}
	k := 0
	for _, c := range []byte(n.text[i+1:]) {
		if isDigit(c) {
			k++
		}
	}
	return max(k-n.exp, 0)
}

// difference returns nf - of rounded to places decimal places (at most
// 15, what a float64 holds), so that 1099.99 - 1200.50 is -100.51, as the
// figures on the page give, not the float64 -100.50999999999999.
func difference(of, nf float64, places int) float64 {
	d := nf - of
	if places > 15 || math.IsNaN(d) || math.IsInf(d, 0) {
		return d
	}
	scale := math.Pow10(places)
	r := math.Round(d*scale) / scale
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return d
	}
	return r
}

// readValues returns the numbers of the old and new versions of a value.
// An ambiguous writing (3.499) is read with the decimal separator the
// other version's writing shows (3.50: a decimal point, so 3.499 is
// 3.499), failing that with the one of its page's language (pageDecimal),
// failing that as thousands (3499), as ParseNumber reads it. places is the
// most decimal places the two writings show, the precision of their
// difference.
func readValues(o, n number, oldDoc, newDoc *tree.Document) (of, nf float64, places int) {
	oldDec, newDec := n.dec, o.dec
	if oldDec == 0 && o.amb != 0 {
		oldDec = pageDecimal(oldDoc)
	}
	if newDec == 0 && n.amb != 0 {
		newDec = pageDecimal(newDoc)
	}
	of, _ = o.value(oldDec)
	nf, _ = n.value(newDec)
	return of, nf, max(o.places(oldDec), n.places(newDec))
}

// pageDecimal returns the decimal separator ('.' or ',') of the language
// a document declares on its root element (lang, or xml:lang), as the
// Unicode CLDR writes numbers in it: '.' for en and en-IN, ',' for de, fr
// and pt-BR, '.' for de-CH. It returns 0 when the document declares no
// language, one that is not known, or one whose numbers use neither.
func pageDecimal(d *tree.Document) byte {
	tag, ok := pageLanguage(d)
	if !ok {
		return 0
	}
	s := message.NewPrinter(tag).Sprint(textnumber.Decimal(1.5))
	switch {
	case strings.Contains(s, "1,5"):
		return ','
	case strings.Contains(s, "1.5"):
		return '.'
	}
	return 0
}

// pageReading is what the language a page declares says of the reading
// of its values: how a plain space between digits groups them, and the
// sign of its currency that names a unit elsewhere (localSign).
type pageReading struct {
	groups spaceGrouping
	// sign is the language's currency of wordSuffixes, "" for none.
	sign string
	// lang is the base of the language ("de" of de-CH), "" for none:
	// the magnitudes written as its words multiply a bare number
	// (amountMagnitude).
	lang string
}

// pageReadingOf returns what the language document d declares says of
// the reading of its values (pageGroupsBySpace, localSign, its base).
func pageReadingOf(d *tree.Document) pageReading {
	r := pageReading{groups: pageGroupsBySpace(d), sign: localSign(d)}
	if tag, ok := pageLanguage(d); ok {
		base, _ := tag.Base()
		r.lang = base.String()
	}
	return r
}

// localSign returns the sign of wordSuffixes that is the currency of the
// language document d declares, where shops write it after any amount:
// Ft on a Hungarian page (990 Ft, the forint), TL on a Turkish one (49
// TL, the lira); "" for none, and for a page that declares no language,
// where they are feet and a teaspoon as often (currencyAfter).
func localSign(d *tree.Document) string {
	tag, ok := pageLanguage(d)
	if !ok {
		return ""
	}
	if region, conf := tag.Region(); conf != language.No && regionSigns[region.String()] != "" {
		return regionSigns[region.String()]
	}
	base, _ := tag.Base()
	return languageSigns[base.String()]
}

// languageSigns are the currencies of wordSuffixes by the language whose
// pages write them (localSign).
var languageSigns = map[string]string{"hu": "Ft", "tr": "TL"}

// regionSigns are the currencies of wordSuffixes by the region whose
// pages write them, whatever their language (localSign): the Swiss
// franc's Fr in Switzerland and Liechtenstein (de-CH, fr-CH, it-CH).
var regionSigns = map[string]string{"CH": "Fr", "LI": "Fr"}

// pageLanguage returns the language a document declares on its root
// element (lang, or xml:lang), and false when it declares none, or one that
// is not known.
func pageLanguage(d *tree.Document) (language.Tag, bool) {
	if d == nil || d.Root == nil {
		return language.Und, false
	}
	v, ok := d.Root.Attr("lang")
	if !ok || strings.TrimSpace(v) == "" {
		v, _ = d.Root.Attr("xml:lang")
	}
	tag, err := language.Parse(strings.TrimSpace(v))
	if err != nil {
		return language.Und, false
	}
	if _, conf := tag.Base(); conf == language.No || tag.IsRoot() {
		return language.Und, false
	}
	return tag, true
}

// firstDigit returns the index of the first digit of s from i on: the
// first digit of a number that findNumber found at i, after its sign or
// currency symbol.
func firstDigit(s string, i int) int {
	for !isDigit(s[i]) {
		i++
	}
	return i
}
