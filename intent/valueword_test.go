package intent

import "testing"

// TestValueWordNumbers: digits joined to a letter before them, directly or
// by a hyphen, are part of a word (UTF-8, COVID-19, MP3, H2O, A4, IPv6),
// not a value: a value scope reads the first number that stands as one,
// and names it by the text without that number. After a currency code, a
// currency symbol, a space or a period, the digits are an amount; letters
// after the digits are its unit (5kg).
func TestValueWordNumbers(t *testing.T) {
	tests := []struct {
		text  string
		want  float64
		ok    bool
		label string // ownLabel: the text without the number read
	}{
		{"The encoding is UTF-8", 0, false, ""},
		{"COVID-19 cases: 1,234", 1234, true, "COVID-19 cases:"},
		{"COVID‑19 cases: 12", 12, true, "COVID‑19 cases:"}, // a non-breaking hyphen
		{"MP3 player for $49", 49, true, "MP3 player for $"},
		{"H2O2 costs 7 EUR", 7, true, "H2O2 costs EUR"},
		{"Paper A4, 500 sheets", 500, true, "Paper A4, sheets"},
		{"IPv6 only", 0, false, ""},
		{"Model X−3 at 120", 120, true, "Model X−3 at"},
		{"Item-42: $19.99", 19.99, true, "Item-42: $"},
		{"v2.1.3", 0, false, ""},
		// Digits grouped otherwise than by thousands: a version, a date,
		// an address; the amount after them is the value.
		{"Version 2.1.3", 0, false, ""},
		{"Released 30.11.2026 at EUR 5", 5, true, "Released 30.11.2026 at EUR"},
		{"192.168.1.1", 0, false, ""},
		{"1,2.3,4", 0, false, ""},
		{"10.000.000", 10000000, true, ""},
		{"1.234.567,89", 1234567.89, true, ""},
		{"₹12,34,567.00", 1234567, true, "₹"},
		{"1,234,56", 0, false, ""},
		{"₹12,34,56,789", 123456789, true, "₹"},
		// India groups by two with commas only, and never before a group
		// of three: a kernel's or a program's version is no amount.
		{"Kernel 5.15.123", 0, false, ""},
		{"Version 3.12.100", 0, false, ""},
		{"1,234,56,789", 0, false, ""},
		{"ABC-42", 0, false, ""},  // not a currency code: a product's
		{"XUSD-42", 0, false, ""}, // a code inside a longer word is not one
		// Amounts and their units.
		{"$5", 5, true, "$"},
		{"€5", 5, true, "€"},
		{"EUR 5", 5, true, "EUR"},
		{"EUR-5", -5, true, "EUR"},
		{"USD5", 5, true, "USD"},
		{"Rp50.000", 50000, true, "Rp"}, // currencies written before their amounts, joined
		{"RM49.90", 49.9, true, "RM"},
		{"Rs500", 500, true, "Rs"},
		{"Canon R5 at $3,899", 3899, true, "Canon R5 at $"}, // not the rand
		{"XRp5", 0, false, ""},
		{"5kg", 5, true, "kg"},
		{"-5", -5, true, ""},
		{"5-10 days", 5, true, "-10 days"},
		{"No.5", 5, true, "No."},
		{"Rs.1,500", 1500, true, "Rs."},
		// A period before the digits is the amount's decimal point only
		// when the digits hold no separator of their own: the Peruvian
		// sol's S/. is its symbol.
		{"S/.49.90", 49.9, true, "S/."},
		{"S/.1,299.00", 1299, true, "S/."},
		{"$.99", 0.99, true, "$"},
		{"SKU+7", 7, true, "SKU+"},
		// Scripts written without spaces between words: the digits stand
		// apart from the words around them.
		{"価格1,000円", 1000, true, "価格 円"},
		// Nor do Hangul's, though Korean spaces its words: digits join
		// the counters and particles after them (12,000원, 3개), and the
		// word before them where a listing leaves the space out.
		{"가격12,000원", 12000, true, "가격 원"},
		{"제3회 공연", 3, true, "제 회 공연"},
	}
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

// TestValueProseWordNumbers: a value scope over prose does not report the
// digits of words (UTF-8 becoming UTF-16) as a value that changed, and
// reports a number beside them by its own change.
func TestValueProseWordNumbers(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           []string // valueBriefs; nil for no match
	}{
		{"encoding renamed", `<p>The encoding is UTF-8</p>`, `<p>The encoding is UTF-16</p>`, nil},
		{"standard renamed", `<p>Needs IPv4</p><p>Paper A4</p>`, `<p>Needs IPv6</p><p>Paper A5</p>`, nil},
		{"count beside a word's digits", `<p>COVID-19 cases: 120</p>`, `<p>COVID-19 cases: 150</p>`,
			[]string{"update(: COVID-19 cases: 120->COVID-19 cases: 150)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, valuePage(tc.old), valuePage(tc.new), `value In css "p" changes`)
			var got []string
			if r.Matched {
				got = valueBriefs(r.Changes)
			}
			if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
