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
}

// magnitudes are the magnitudes magnitudeAfter knows: the letters and
// abbreviations of English finance (K, M, MM, B, bn, T), the words and
// abbreviations of English and German, and India's lakh and crore.
var magnitudes = []magnitude{
	{"K", 3}, {"k", 3}, {"thousand", 3}, {"Tsd", 3},
	{"M", 6}, {"m", 6}, {"MM", 6}, {"mn", 6}, {"mln", 6}, {"million", 6}, {"millions", 6},
	{"Mio", 6}, {"Million", 6}, {"Millionen", 6},
	{"B", 9}, {"bn", 9}, {"Bn", 9}, {"billion", 9}, {"billions", 9}, {"Mrd", 9}, {"Milliarde", 9}, {"Milliarden", 9},
	{"T", 12}, {"tn", 12}, {"trillion", 12}, {"trillions", 12},
	{"lakh", 5}, {"lakhs", 5}, {"crore", 7}, {"crores", 7}, {"Cr", 7},
}

// magnitudeAfter returns the power of ten of the magnitude s, the text
// after a number, begins with, and s without it; 0 and s for none. A
// magnitude stands as a word of its own, with its abbreviation's period
// (Mio., Mrd.), joined to the digits ($1.2M, $2.1bn) or, one of more than
// one letter, after a space ($1.5 billion, ₹1.5 Cr): "$5 M", "$5Ms" and
// "€12m²" hold none.
func magnitudeAfter(s string) (exp int, rest string) {
	t := strings.TrimLeftFunc(s, isAmountSpace)
	spaced := len(t) < len(s)
	for _, m := range magnitudes {
		if !strings.HasPrefix(t, m.word) || spaced && utf8.RuneCountInString(m.word) < 2 {
			continue
		}
		r := strings.TrimPrefix(t[len(m.word):], ".")
		if c, _ := utf8.DecodeRuneInString(r); !unicode.IsLetter(c) && !unicode.IsNumber(c) {
			return m.exp, r
		}
	}
	return 0, s
}

// amountMagnitude returns the power of ten of the magnitude written after
// the number of s at [i, e), whose first digit is at d, where it is an
// amount with a currency, before it ($1.2M) or after the magnitude (1,2
// Mio. €), or a count's K, M or B joined to it (countMagnitude: 1.2K,
// 3.4M views); 0 for none. local is its page's currency sign
// (localSign).
func amountMagnitude(s string, i, d, e int, local string) int {
	exp, rest := magnitudeAfter(s[e:])
	if exp == 0 {
		return 0
	}
	if _, ok := currencyBefore(s[:i], s[d:e]); ok {
		return exp
	}
	if _, ok := currencyAfter(rest, s[d:e], local); ok {
		return exp
	}
	if countMagnitude(s[:i], s[d:e], s[e:], rest) {
		return exp
	}
	return 0
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
