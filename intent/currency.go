package intent

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// afterCurrencyPrefix reports whether s ends with an abbreviation of a
// currency that pages write joined to its amounts (Rp50.000, RM49.90,
// Rs500), standing as a word of its own. Not the rand's R, which would
// read the digits of Canon R5 as an amount.
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
// rupiah, the ringgit, the rupee, the taka and the Kenyan shilling.
var currencyPrefixes = []string{"Rp", "RM", "Rs", "Tk", "Ksh", "KSh"}

// signBeforeSymbol reports whether s, the text before a number, ends with
// a minus sign and a currency symbol, the sign standing as a word's start:
// -$5.00 and −€20 are negative amounts, Item-$5 is not.
func signBeforeSymbol(s string) bool {
	sym, w := utf8.DecodeLastRuneInString(s)
	if !unicode.Is(unicode.Sc, sym) {
		return false
	}
	s = s[:len(s)-w]
	sign, w := utf8.DecodeLastRuneInString(s)
	if sign != '-' && sign != '−' {
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

// signedCurrencies are the currency codes afterCurrencyCode knows.
var signedCurrencies = map[string]bool{
	"USD": true, "EUR": true, "GBP": true, "JPY": true, "CHF": true, "CAD": true, "AUD": true, "NZD": true,
	"CNY": true, "HKD": true, "SGD": true, "KRW": true, "INR": true, "SEK": true, "NOK": true, "DKK": true,
	"PLN": true, "CZK": true, "HUF": true, "RON": true, "BGN": true, "ISK": true, "RUB": true, "UAH": true,
	"BRL": true, "MXN": true, "ARS": true, "CLP": true, "COP": true, "ZAR": true, "ILS": true, "AED": true,
	"SAR": true, "TWD": true, "THB": true, "IDR": true, "MYR": true, "PHP": true, "VND": true, "EGP": true,
	"NGN": true, "KES": true, "PKR": true, "BDT": true,
}
