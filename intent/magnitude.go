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
// Mio. €), or a count's K, M or B joined to it (countMagnitude: 1.2K
// followers, 3.4M views); 0 for none.
func amountMagnitude(s string, i, d, e int) int {
	exp, rest := magnitudeAfter(s[e:])
	if exp == 0 {
		return 0
	}
	if _, ok := currencyBefore(s[:i], s[d:e]); ok {
		return exp
	}
	if _, ok := currencyAfter(rest, s[d:e]); ok {
		return exp
	}
	if countMagnitude(s[e:]) {
		return exp
	}
	return 0
}

// countMagnitude reports whether s, the text after a number, begins with
// a magnitude (magnitudeAfter tells which) that counts of followers, views
// or sales take without a currency: one joined to the digits that begins
// with K, k, M or B (1.2K, 3k sold, 1.2M views, and so 4K, as 10K is a
// resistor's ohms), not m (5m, metres), bn or T, which the amounts of
// finance write.
func countMagnitude(s string) bool {
	return s != "" && strings.IndexByte("KkMB", s[0]) >= 0
}
