package intent

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// afterCurrencyPrefix reports whether s ends with an abbreviation of a
// currency that pages write joined to its amounts (Rp50.000, RM49.90,
// Rs500), standing as a word of its own. Not the rand's R, which would
// read the digits of Canon R5 as an amount: it is a letter currency
// (letterCurrencyAtEnd), an amount's only in an amount's form.
func afterCurrencyPrefix(s string) bool {
	for _, p := range currencyPrefixes {
		if strings.HasSuffix(s, p) {
			r, _ := utf8.DecodeLastRuneInString(s[:len(s)-len(p)])
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}
	}
	return false
}

// currencyPrefixes are the abbreviations afterCurrencyPrefix knows: the
// rupiah, the ringgit, the rupee, the taka, the Kenyan shilling and the
// Swiss franc's SFr. (its Fr. is a letter currency: letterCurrencies).
var currencyPrefixes = []string{"Rp", "RM", "Rs", "Tk", "Ksh", "KSh", "SFr", "sFr"}

// signBeforeSymbol reports whether s, the text before a number, ends with
// a minus sign and a currency symbol, the sign standing as a word's start:
// -$5.00, −€20 and –$5.00 (an en dash) are negative amounts, Item-$5 is
// not.
func signBeforeSymbol(s string) bool {
	sym, w := utf8.DecodeLastRuneInString(s)
	if !unicode.Is(unicode.Sc, sym) {
		return false
	}
	s = s[:len(s)-w]
	sign, w := utf8.DecodeLastRuneInString(s)
	if sign != '-' && sign != '−' && sign != '–' {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:len(s)-w])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// endsWithDashSign reports whether s, the text before a number's first
// digit, ends with an en dash standing as a word's start, which European
// typesetting writes for a minus sign (–15 %, –1,23): not one joined to a
// word or a number before it (2019–2020, Mon–5), nor one a space follows
// (10 – 20), which findNumber leaves out of the number.
func endsWithDashSign(s string) bool {
	dash, w := utf8.DecodeLastRuneInString(s)
	if dash != '–' {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:len(s)-w])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// afterCurrencyCode reports whether s ends with the code of a currency
// prices are commonly written in (USD, EUR, CHF), standing as a word of
// its own, after which a hyphen is the amount's sign, not a word's. Not
// every ISO 4217 code: TOP, ALL, TRY, CUP and PEN are words too ("TOP-10
// deals"), and the X codes are no currencies a page prices in.
func afterCurrencyCode(s string) bool {
	if len(s) < 3 || !signedCurrencies[s[len(s)-3:]] {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:len(s)-3])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// wordCodes are the codes of signedCurrencies that name other things as
// often before a number, PHP a language (PHP 8) and CAD a craft (CAD 3):
// currencyBefore takes them for an amount's only where its digits have an
// amount's form (PHP 1,299.00).
var wordCodes = map[string]bool{"PHP": true, "CAD": true}

// signedCurrencies are the currency codes afterCurrencyCode knows.
var signedCurrencies = map[string]bool{
	"USD": true, "EUR": true, "GBP": true, "JPY": true, "CHF": true, "CAD": true, "AUD": true, "NZD": true,
	"CNY": true, "HKD": true, "SGD": true, "KRW": true, "INR": true, "SEK": true, "NOK": true, "DKK": true,
	"PLN": true, "CZK": true, "HUF": true, "RON": true, "BGN": true, "ISK": true, "RUB": true, "UAH": true,
	"BRL": true, "MXN": true, "ARS": true, "CLP": true, "COP": true, "ZAR": true, "ILS": true, "AED": true,
	"SAR": true, "TWD": true, "THB": true, "IDR": true, "MYR": true, "PHP": true, "VND": true, "EGP": true,
	"NGN": true, "KES": true, "PKR": true, "BDT": true,
}

// inAccountingParens reports whether the number of s at [i, e) is an
// amount with a currency in parentheses, which accounts write for a
// negative amount: ($1,200), (€1.200,00), (1,200.00 USD), or with the
// currency outside them, as a statement's column writes it: $(5.00),
// € (2.50), (2.50) €. The amount and its parentheses are the whole of s,
// a statement's cell, or follow a label's colon (Net income: ($1,200)),
// but a shop's label's (shopLabel: Order total: ($45.00), You save:
// ($20.00), whose words say the amount's sign): after other words they
// hold a surcharge or an option's price, as shops write one (Extra cheese
// ($1.50), Option A (2.50) €), and before others a note. A number without
// a currency is a count (Reviews (1,200)), and parentheses around more
// than the amount and its currency hold a note ((12 items) $5).
func inAccountingParens(s string, i, e int, local string) bool {
	d := firstDigit(s, i)
	m := s[d:e]
	before, okBefore := currencyBefore(s[:i], m)
	after, okAfter := currencyAfter(s[e:], m, local)
	if !okAfter {
		_, after = magnitudeAfter(after) // ($1.2M)
	}
	before = strings.TrimRightFunc(before, isAmountSpace)
	after = strings.TrimLeftFunc(after, isAmountSpace)
	if !strings.HasSuffix(before, "(") || !strings.HasPrefix(after, ")") {
		return false
	}
	before, after = before[:len(before)-1], after[1:]
	if okBefore || okAfter {
		return statementCell(before, after)
	}
	if rest, ok := currencyBefore(before, m); ok {
		return statementCell(rest, after)
	}
	if rest, ok := currencyAfter(after, m, local); ok {
		return statementCell(before, rest)
	}
	return false
}

// statementCell reports whether before and after, the text of a value
// before and after its amount in parentheses with its currency, leave the
// amount a statement's cell: nothing after it, and nothing before it but
// a label ending with a colon that is no shop's (shopLabel), as
// inAccountingParens describes.
func statementCell(before, after string) bool {
	before = strings.TrimSpace(before)
	if strings.TrimSpace(after) != "" {
		return false
	}
	label, ok := strings.CutSuffix(before, ":")
	return before == "" || ok && !shopLabel(label)
}

// trailingMinus reports whether the number of s at [i, e) is an amount
// with a minus sign after it, as German statements write one: 2.50- €,
// 1.234,56- EUR. The sign is joined to the digits and stands before the
// amount's currency (currencyAfter), not before another number (20-€30, 5-
// 10) nor a word (5-pack). Without a currency after it, a minus ends a
// shop's price, as the dash of 49,– does (Preis: 49,99-, € 49,99-; Rs.
// 1,299- is India's 1,299/- typed short), not a sign: a statement writes
// its currency after the sign, or in its column's head, where a shop's
// price tag writes its cents' dash far more often than a page writes a
// statement's line alone; but an amount with cents, the text ending with
// its minus, after a statement's label (statementWords: Saldo: 1.234,56-,
// Kontostand 12,00-) is the statement's.
func trailingMinus(s string, i, e int, local string) bool {
	r, w := utf8.DecodeRuneInString(s[e:])
	if r != '-' && r != '−' {
		return false
	}
	d := firstDigit(s, i)
	rest := s[e+w:]
	if _, ok := currencyAfter(rest, s[d:e], local); ok {
		return true
	}
	if strings.TrimLeftFunc(rest, unicode.IsSpace) != "" || !twoDecimals(s[d:e]) {
		return false
	}
	if isoCodeBefore(s[:i]) {
		return true // EUR 1.234,56-: a ledger's export
	}
	for _, word := range lowerWords(s[:i]) {
		if statementWords[word] {
			return true
		}
	}
	return false
}

// isoCodeBefore reports whether s ends with a currency's ISO code, three
// capitals as a word of their own, before spaces (EUR 1.234,56-).
func isoCodeBefore(s string) bool {
	s = strings.TrimRight(s, " \u00a0")
	if len(s) < 3 {
		return false
	}
	code := s[len(s)-3:]
	for k := range 3 {
		if code[k] < 'A' || code[k] > 'Z' {
			return false
		}
	}
	if len(s) > 3 {
		r, _ := utf8.DecodeLastRuneInString(s[:len(s)-3])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return signedCurrencies[code]
}

// statementWords are the labels of a bank or account statement's amount,
// whose minus after the amount is its sign (trailingMinus).
var statementWords = map[string]bool{
	"saldo": true, "kontostand": true, "sollsaldo": true, "endsaldo": true, "anfangssaldo": true,
	"soll": true, "lastschrift": true, "belastung": true, "kontosaldo": true,
	"kartenzahlung": true, "überweisung": true, "umsatz": true, "restbetrag": true,
	"balance": true, "solde": true, "debit": true, "débit": true, "debet": true,
}

// twoDecimals reports whether m, a number's digits and separators, ends
// with a separator and two digits, an amount's cents (49.90, 1.234,56).
func twoDecimals(m string) bool {
	last := strings.LastIndexAny(m, ".,")
	return last >= 0 && len(m)-last-1 == 2 && isDigit(m[last+1]) && isDigit(m[last+2])
}

// hasCurrency reports whether the number of s at [i, e), whose first
// digit is at d, is an amount with a currency: a currency written before
// it (currencyBefore) or after it (currencyAfter, local its page's sign).
func hasCurrency(s string, i, d, e int, local string) bool {
	_, before := currencyBefore(s[:i], s[d:e])
	before = before && !fridayDate(s[:i], s[d:e], s[e:]) && !fridayHours(s[:i], s[d:e], s[e:])
	_, after := currencyAfter(s[e:], s[d:e], local)
	return before || after
}

// currencyBefore reports whether s, the text before a number whose
// digits and separators are m, ends with the number's currency: a
// currency symbol ($, €, ₹, US$, R$) or a currency code
// (afterCurrencyCode; of wordCodes, before an amount's form only), but
// one spaced from the number that the number before it owns
// (numberBeforeOwns: 1.299 € 20 % sparen, 5 EUR 2 Stück), an
// abbreviation written before amounts (afterCurrencyPrefix, S/) or, before
// an amount's form, a letter (letterCurrencyAtEnd), then spaces; after an
// abbreviation or a letter, a period (Rs.1,500, S/.49.90, kr.1.299). It
// returns s without the currency and the spaces.
func currencyBefore(s, m string) (rest string, ok bool) {
	t := strings.TrimRightFunc(s, isAmountSpace)
	spaced := len(t) < len(s)
	if r, w := utf8.DecodeLastRuneInString(t); unicode.Is(unicode.Sc, r) {
		if spaced && numberBeforeOwns(t[:len(t)-w], m) {
			return s, false // 5 € 2 Stück
		}
		return t[:len(t)-w], true
	}
	if afterCurrencyCode(t) && (!wordCodes[t[len(t)-3:]] || amountForm(m)) {
		if spaced && numberBeforeOwns(t[:len(t)-3], m) {
			return s, false // 5 EUR 2 Stück
		}
		return t[:len(t)-3], true
	}
	t = strings.TrimSuffix(t, ".")
	if strings.HasSuffix(t, "S/") {
		return t[:len(t)-len("S/")], true
	}
	for _, p := range currencyPrefixes {
		if strings.HasSuffix(t, p) && afterCurrencyPrefix(t) {
			return t[:len(t)-len(p)], true
		}
	}
	if n := letterCurrencyAtEnd(t); n > 0 && amountForm(m) {
		return t[:len(t)-n], true
	}
	return s, false
}

// letterCurrencyAtEnd returns the length of the currency written with
// one letter, or the krona's and krone's Kr or the Swiss franc's Fr, that
// ends s standing as a word of its own, or 0: the quetzal's Q (Q49.90),
// the lempira's L (L1,250.00), the rand's R (R299.99), Kr and kr
// (Kr1.299, kr 1.299), Fr (Fr. 12.50). Letters that name many things
// besides (Q3, a quarter; L2, a cache; Canon R5, a camera; Kr85, krypton;
// Fr 3, Friday the third), they write an amount only where its digits
// have an amount's form (amountForm), which the callers ask, and Fr not
// before a day and a month (fridayDate).
func letterCurrencyAtEnd(s string) int {
	for _, c := range letterCurrencies {
		if strings.HasSuffix(s, c) {
			if r, _ := utf8.DecodeLastRuneInString(s[:len(s)-len(c)]); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return len(c)
			}
			return 0
		}
	}
	return 0
}

// fridayDate reports whether a number whose digits and separators are m,
// with before and after the text around it, is a date after Friday's Fr.,
// as German writes it (Fr. 12.05.: Friday the twelfth of May), not an
// amount in Swiss francs: a day and a month ending with a period.
func fridayDate(before, m, after string) bool {
	if _, ok := afterFriday(before); !ok || !strings.HasPrefix(after, ".") {
		return false
	}
	day, month, ok := strings.Cut(m, ".")
	if !ok || len(day) < 1 || len(day) > 2 || len(month) != 2 || !allDigits(day) || !allDigits(month) {
		return false
	}
	dn, _ := strconv.Atoi(day)
	mn, _ := strconv.Atoi(month)
	return dn >= 1 && dn <= 31 && mn >= 1 && mn <= 12
}

// fridayHours reports whether a number whose digits and separators are m,
// with before and after the text around it, is a time after Friday's Fr.
// or Fr, as opening hours write it, not an amount in Swiss francs: after a
// range of days that ends on Friday (Mo.–Fr. 8.00–18.00, Di - Fr 9.30,
// Mo bis Fr 10), or an hour and its minutes (20.15, 8:30) or an hour
// alone before Uhr or h, or a range of them before it (Fr. 20.15 Uhr, Fr
// 8.00–12.00 Uhr).
func fridayHours(before, m, after string) bool {
	t, ok := afterFriday(before)
	if !ok {
		return false
	}
	return dayRangeEnd.MatchString(t) || clockTime.MatchString(m) && hoursAfter.MatchString(after)
}

// afterFriday is the opening check of fridayDate and fridayHours: it
// returns before without the spaces and the one period that end it, and
// whether that ends with Fr standing as a word of its own
// (letterCurrencyAtEnd), Friday's Fr. or Fr or the Swiss franc's.
func afterFriday(before string) (string, bool) {
	t := strings.TrimSuffix(strings.TrimRightFunc(before, isAmountSpace), ".")
	return t, strings.HasSuffix(t, "Fr") && letterCurrencyAtEnd(t) != 0
}

// dayRangeEnd matches a text that ends with a range of days ending on
// Friday, in German (fridayHours): Mo.–Fr, Di - Fr, Mo bis Fr.
var dayRangeEnd = regexp.MustCompile(`(?:^|[^\pL\pN])(?:Mo|Di|Mi|Do)\.?\s*(?:[-–—]|bis)\s*Fr$`)

// clockTime matches a time of day as German writes it, an hour and its
// minutes after a period or a colon, or an hour alone (fridayHours).
var clockTime = regexp.MustCompile(`^(?:[01]?[0-9]|2[0-4])(?:[.:][0-5][0-9])?$`)

// hoursAfter matches the text after a time of day that says it is one:
// Uhr or h, after the range's other end if any (fridayHours).
var hoursAfter = regexp.MustCompile(`^(?:\s*(?:[-–—]|bis)\s*[0-9]{1,2}(?:[.:][0-9]{2})?)?\s*(?:Uhr|h)(?:[^\pL\pN]|$)`)

// letterCurrencies are the currencies letterCurrencyAtEnd knows.
var letterCurrencies = []string{"Q", "L", "R", "Kr", "kr", "Fr"}

// amountForm reports whether m, a number's digits and separators, has
// the form of an amount of money: two decimals (49.90, 1.299,00) or its
// thousands grouped (1.299, 1,299, 1'299), as a quarter (3), a cache
// level (2), a version (2.5) or a date (3.2026) has not.
func amountForm(m string) bool {
	if twoDecimals(m) {
		return true
	}
	last := strings.LastIndexAny(m, ".,")
	whole := m
	if last >= 0 && len(m)-last-1 != 3 {
		whole = m[:last] // the decimals of 1.299,5
	}
	groups := strings.FieldsFunc(whole, func(r rune) bool { return r == ' ' || isNumberRune(r) && (r < '0' || r > '9') })
	return len(groups) > 1 && byThousands(groups)
}

// currencyAfter reports whether s, the text after a number whose digits
// and separators are m, begins with the number's currency: spaces, then
// a currency symbol (1.299,00 €), a currency code (7 EUR) or a sign
// written after amounts (currencySuffixes: 1 234 kr, 1,000円), standing
// as a word of its own (but the signs of the scripts that join their
// words: 1,000円税込, 12,000원부터), and not joined to digits after it,
// whose currency it is (H.264 $20); spaced from both numbers, it is the
// one's before it (1.299 € 20 % sparen), but where only the one after has
// an amount's form (Qty 2 USD 15.00: numberBeforeOwns). Of the signs,
// those that name units too (wordSuffixes: 2 TL, a teaspoon; 6 Ft, feet)
// are a currency only joined to the number (50TL) or after an amount's
// form (1.299,00 TL), but on a page whose language's currency it is
// (local, localSign: 990 Ft on a Hungarian page). The marks of an amount without cents before it are
// the amount's (1.299,- €), as is a magnitude (magnitudeAfter: 1,2 Mio.
// €) and a minus sign (trailingMinus: 2.50- €). It returns s without the
// currency and what stood before it.
func currencyAfter(s, m, local string) (rest string, ok bool) {
	_, t := magnitudeAfter(s)
	if r, w := utf8.DecodeRuneInString(t); r == '-' || r == '−' {
		t = t[w:] // 1.234,56- EUR (trailingMinus)
	}
	if len(t) >= 2 && isSeparator(t[0]) {
		if r, w := utf8.DecodeRuneInString(t[1:]); r == '-' || r == '–' || r == '—' {
			t = t[1+w:]
		}
	}
	first, _ := utf8.DecodeRuneInString(t)
	joined := !isAmountSpace(first)
	t = strings.TrimLeftFunc(t, isAmountSpace)
	n := 0
	if r, w := utf8.DecodeRuneInString(t); unicode.Is(unicode.Sc, r) {
		n = w
	} else if len(t) >= 3 && signedCurrencies[t[:3]] && !startsWord(t[3:]) {
		n = 3
	} else {
		for _, sign := range currencySuffixes {
			last, _ := utf8.DecodeLastRuneInString(sign)
			if strings.HasPrefix(t, sign) && (unicode.In(last, digitApartScripts...) || !startsWord(t[len(sign):])) {
				if wordSuffixes[sign] && sign != local && !joined && !amountForm(m) {
					break
				}
				n = len(sign)
				break
			}
		}
	}
	if n == 0 || startsDigits(t[n:]) {
		// None, or the currency of the number joined after it: H.264 $20.
		return s, false
	}
	if next := strings.TrimLeftFunc(strings.TrimPrefix(t[n:], "."), isAmountSpace); startsDigits(next) && !joined {
		// Spaced from both numbers: this one's (1.299 € 20 % sparen),
		// but where only the one after has an amount's form (an
		// abbreviation's period is the sign's: 2 SFr. 1'299.00).
		_, k, _ := findNumber(next)
		if amountForm(next[:k]) && !amountForm(m) {
			return s, false // Qty 2 USD 15.00
		}
	}
	return t[n:], true
}

// numberBeforeOwns reports whether rest, the text before a currency
// written before a number whose digits and separators are m and spaced
// from it, ends with a number that owns the currency: a value's number
// (not a word's, MP3 € 20), joined to the currency (12€ 3 Farben) or
// spaced from it too, then but where only the number after it has an
// amount's form (Qty 2 USD 15.00 is 15). A currency spaced from both
// numbers is written after the amount far more often than before one:
// 1.299 € 20 % sparen is 1299.
func numberBeforeOwns(rest, m string) bool {
	r := strings.TrimRightFunc(rest, isAmountSpace)
	if r == "" || !isDigit(r[len(r)-1]) {
		return false
	}
	start := len(r)
	for start > 0 {
		c, w := utf8.DecodeLastRuneInString(r[:start])
		if !isNumberRune(c) {
			break
		}
		start -= w
	}
	for start < len(r) && !isDigit(r[start]) {
		start++ // a separator before the digits
	}
	prev := r[start:]
	if wordDigits(r[:start], prev) {
		return false
	}
	return len(r) == len(rest) || !amountForm(m) || amountForm(prev)
}

// startsDigits reports whether s begins with a digit.
func startsDigits(s string) bool { return s != "" && isDigit(s[0]) }

// currencySuffixes are the signs of currencies written after their
// amounts that currencyAfter knows, besides the symbols and codes: the
// Nordic krona and krone, the Czech koruna, the złoty, the forint, the
// leu, the lira, the rouble, the hryvnia, the lev, the yen, the yuan and
// the won, and the Swiss franc.
var currencySuffixes = []string{"kr", "Kr", "Kč", "zł", "Ft", "lei", "TL", "руб", "рублей", "грн", "лв", "円", "元", "원", "SFr", "sFr", "Fr"}

// wordSuffixes are the currencySuffixes that name a unit after a number
// as often as a currency: TL a teaspoon (German recipes' Teelöffel) as
// well as the Turkish lira, Ft feet as well as the forint, Fr the franc
// as well as a Friday (bis 12 Fr.).
var wordSuffixes = map[string]bool{"TL": true, "Ft": true, "Fr": true}

// startsWord reports whether s begins with a letter or a digit, going on
// a word the text before it began.
func startsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isAmountSpace reports whether r is a space that stands between an
// amount and its currency: a plain, no-break or thin space.
func isAmountSpace(r rune) bool {
	return r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009'
}

// joinsRange reports whether gap, the text between two numbers (from the
// end of the first to the first digit of the second), joins them into
// one run whose currency the second's is: spaces and at most one dash or
// tilde, or one word of rangeWords between spaces, the ends of a range
// (20–30 €, 20 - 30 €, 1,000〜2,000円, 20 to 30 €). Spaces alone join
// none: those that group an amount's thousands are its own
// (spaceGroupsAfter: 12 490 Kč), and others stand between a name's number
// and an amount (Größe 42 59,99 €). Where the second number's currency
// is written before it, the range's ends are joined by a dash joined to
// both (10-€20, 10–$20.50) or by a range's word (10 to €20): a dash
// spaced from them stands between a name's number and a price as often
// (Size 10 - $49.99 is 49.99).
func joinsRange(gap string) bool {
	if rest, ok := currencyBefore(gap, ""); ok {
		if r, w := utf8.DecodeRuneInString(rest); w > 0 && w == len(rest) && isRangeDash(r) {
			return true // 10-€20
		}
		return rangeWord(rest)
	}
	t := strings.TrimFunc(gap, isAmountSpace)
	if t == "" {
		return false
	}
	if r, w := utf8.DecodeRuneInString(t); w == len(t) && isRangeDash(r) {
		return true
	}
	return rangeWord(gap)
}

// isRangeDash reports whether r joins the ends of a range: a dash or a
// tilde.
func isRangeDash(r rune) bool { return strings.ContainsRune("-–—−~〜～", r) }

// rangeWord reports whether gap, the text between two numbers, is one
// word of rangeWords between spaces (20 to 30 €).
func rangeWord(gap string) bool {
	t := strings.TrimFunc(gap, isAmountSpace)
	spacedBefore := strings.TrimLeftFunc(gap, isAmountSpace) != gap
	spacedAfter := strings.TrimRightFunc(gap, isAmountSpace) != gap
	return t != "" && spacedBefore && spacedAfter && slices.Contains(rangeWords, t)
}

// rangeWords are the words between the ends of a range that joinsRange
// knows: English, German, French, Spanish and Italian, Scandinavian,
// Dutch and Russian.
var rangeWords = []string{"to", "bis", "à", "a", "til", "tot", "до"}
