package intent

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// magnitude is a word or letter written after an amount that multiplies
// it by a power of ten: the M of $1.2M, the Mrd. of €3,5 Mrd.
type magnitude struct {
	word string
	exp  int
	// lang is the language (its base, as language.Base writes it) of a
	// magnitude written as a word, which multiplies a bare number on its
	// pages and English ones (million, Mrd); "" for the letters and
	// abbreviations of finance (K, M, bn), which do only an amount's or a
	// count's (amountMagnitude).
	lang string
}

// magnitudes are the magnitudes magnitudeAfter knows: the letters and
// abbreviations of English finance (K, M, MM, B, bn, T), the words and
// abbreviations of English, German, French, Spanish, Italian and Dutch,
// and India's lakh and crore.
var magnitudes = []magnitude{
	{"K", 3, ""}, {"k", 3, ""}, {"thousand", 3, "en"}, {"Tsd", 3, "de"},
	{"M", 6, ""}, {"m", 6, ""}, {"MM", 6, ""}, {"mn", 6, ""}, {"mln", 6, ""}, {"million", 6, "en"}, {"millions", 6, "en"},
	{"Mio", 6, "de"}, {"Million", 6, "de"}, {"Millionen", 6, "de"},
	{"millón", 6, "es"}, {"millones", 6, "es"}, {"milione", 6, "it"}, {"milioni", 6, "it"}, {"miljoen", 6, "nl"},
	{"B", 9, ""}, {"bn", 9, ""}, {"Bn", 9, ""}, {"billion", 9, "en"}, {"billions", 9, "en"}, {"Mrd", 9, "de"},
	{"Milliarde", 9, "de"}, {"Milliarden", 9, "de"}, {"milliard", 9, "fr"}, {"milliards", 9, "fr"},
	{"miliardo", 9, "it"}, {"miliardi", 9, "it"}, {"miljard", 9, "nl"},
	{"T", 12, ""}, {"tn", 12, ""}, {"trillion", 12, "en"}, {"trillions", 12, "en"},
	{"lakh", 5, "en"}, {"lakhs", 5, "en"}, {"crore", 7, "en"}, {"crores", 7, "en"}, {"Cr", 7, ""},
}

// magnitudeAfter returns the power of ten of the magnitude s, the text
// after a number, begins with, and s without it; 0 and s for none. A
// magnitude stands as a word of its own, with its abbreviation's period
// (Mio., Mrd.), joined to the digits ($1.2M, $2.1bn) or, one of more than
// one letter, after a space ($1.5 billion, ₹1.5 Cr): "$5 M", "$5Ms" and
// "€12m²" hold none.
func magnitudeAfter(s string) (exp int, rest string) {
	m, rest := magnitudeOf(s)
	return m.exp, rest
}

// magnitudeOf returns the magnitude s, the text after a number, begins
// with (magnitudeAfter), and s without it; the zero magnitude and s for
// none.
func magnitudeOf(s string) (magnitude, string) {
	t := strings.TrimLeftFunc(s, isAmountSpace)
	spaced := len(t) < len(s)
	for _, m := range magnitudes {
		if !strings.HasPrefix(t, m.word) || spaced && utf8.RuneCountInString(m.word) < 2 {
			continue
		}
		r := strings.TrimPrefix(t[len(m.word):], ".")
		if c, _ := utf8.DecodeRuneInString(r); !unicode.IsLetter(c) && !unicode.IsNumber(c) {
			return m, r
		}
	}
	return magnitude{}, s
}

// amountMagnitude returns the power of ten of the magnitude written after
// the number of s at [i, e), whose first digit is at d, where it is an
// amount with a currency, before it ($1.2M) or after the magnitude (1,2
// Mio. €); where a word that names an amount of money ends the text
// before the number (moneyNouns: Revenue 1.2M, Umsatz: 2,1 Mrd.); where
// the magnitude is a word of the page's language or English (r.lang,
// magnitude.lang: 1.2 million, 3 millions de visiteurs on a French page,
// 3,4 Mrd on a German one, or on a page that declares no language); or
// where it is a count's K, M or B joined to it (countMagnitude: 1.2K,
// 3.4M views); 0 for none.
func amountMagnitude(s string, i, d, e int, r pageReading) int {
	m, rest := magnitudeOf(s[e:])
	if m.exp == 0 {
		return 0
	}
	if exp, ok := longScale[m.word]; ok && longScaleLanguages[r.lang] {
		m.exp = exp // 2 billions on a French page
	}
	if _, ok := currencyBefore(s[:i], s[d:e]); ok {
		return m.exp
	}
	if _, ok := currencyAfter(rest, s[d:e], r.sign); ok {
		return m.exp
	}
	if moneyNouns[lastWord(s[:i])] {
		return m.exp
	}
	if m.lang != "" && (r.lang == "" || m.lang == "en" || m.lang == r.lang) {
		return m.exp
	}
	if countMagnitude(s[:i], s[d:e], s[e:], rest) {
		return m.exp
	}
	return 0
}

// longScale are the powers of ten of the magnitudes whose words the
// languages of longScaleLanguages spell as English does and count by the
// long scale (amountMagnitude): their billion is a million millions
// (English's trillion), their trillion a million billions.
var longScale = map[string]int{"billion": 12, "billions": 12, "trillion": 18, "trillions": 18}

// longScaleLanguages are the languages whose pages read the words of
// longScale by the long scale: French (2 billions d'euros is 2e12; 2
// milliards is 2e9).
var longScaleLanguages = map[string]bool{"fr": true}

// moneyNouns are the words, lower-cased, that name an amount of money
// before a figure written without its currency, whose magnitude
// multiplies it (amountMagnitude: Revenue 1.2M), in English, German,
// French, Spanish and Italian.
var moneyNouns = map[string]bool{
	"revenue": true, "revenues": true, "turnover": true, "income": true, "profit": true, "profits": true,
	"earnings": true, "valuation": true, "budget": true, "funding": true, "cap": true, "assets": true,
	"umsatz": true, "gewinn": true, "erlös": true, "bewertung": true, "affaires": true, "bénéfice": true,
	"ingresos": true, "facturación": true, "fatturato": true,
}

// countMagnitude reports whether after, the text after a number whose
// digits and separators are m and before which before stands, begins
// with a count's magnitude (rest is after without it, magnitudeAfter): a
// K, k, M or B joined to the digits (not m, metres, nor bn or T, which
// the amounts of finance write), where a count's noun (countNouns) stands
// after it (1.2K followers, 3k sold) or is the last word before the
// number (Followers: 12K, Sold 3k), or where the number has a decimal
// part and no letter stands before or after it, a counter's cell (1.2K,
// (3.4M)). Otherwise the letter is a unit, a size, a seat or a grade: 4K,
// Shoe size 10M (or 10.5M), Seat 12B, Apt 4B, 2B pencil, 1.5M USB-C Cable
// (metres) and 2.5K Display are 4, 10, 12, 4, 2, 1.5 and 2.5.
func countMagnitude(before, m, after, rest string) bool {
	if after == "" || strings.IndexByte("KkMB", after[0]) < 0 {
		return false
	}
	if countNouns[firstWord(rest)] || countNouns[lastWord(before)] {
		return true
	}
	return strings.ContainsAny(m, ".,") && !hasLetter(before) && !hasLetter(rest)
}

// countNouns are the words, lower-cased, that name what a count's
// magnitude counts (countMagnitude), in English, German, French and
// Spanish.
var countNouns = map[string]bool{
	"followers": true, "following": true, "views": true, "subscribers": true, "subs": true, "downloads": true,
	"installs": true, "likes": true, "users": true, "members": true, "reviews": true, "ratings": true,
	"comments": true, "shares": true, "plays": true, "streams": true, "listeners": true, "fans": true,
	"visits": true, "visitors": true, "readers": true, "sold": true, "sales": true, "orders": true,
	"stars": true, "forks": true, "watchers": true, "votes": true, "upvotes": true, "customers": true,
	"students": true, "abonnenten": true, "aufrufe": true, "abonnés": true, "vues": true, "seguidores": true,
	"vistas": true,
}

// firstWord returns the letters, lower-cased, of the word s begins with
// after spaces and punctuation.
func firstWord(s string) string {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(s)
	}
	return strings.ToLower(s[:end])
}

// lastWord returns the letters, lower-cased, of the word s ends with
// before spaces and punctuation (Followers: is followers).
func lastWord(s string) string {
	s = strings.TrimRightFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	start := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) + 1
	if start > 0 {
		_, w := utf8.DecodeRuneInString(s[start-1:])
		start += w - 1
	}
	return strings.ToLower(s[start:])
}
