package fetch

import "testing"

// TestNumericIPv4: the URL standard's IPv4 parser, for the hosts that end
// in a number.
func TestNumericIPv4(t *testing.T) {
	for host, want := range map[string]string{
		"2130706433":      "127.0.0.1",
		"0x7f000001":      "127.0.0.1",
		"0x7F.1":          "127.0.0.1",
		"127.1":           "127.0.0.1",
		"127.0.1":         "127.0.0.1",
		"0177.0.0.1":      "127.0.0.1",
		"0":               "0.0.0.0",
		"10.1.":           "10.0.0.1",
		"0x":              "0.0.0.0",
		"93.184.215.14":   "93.184.215.14",
		"1.2.3.4.5":       "invalid",
		"256.1.1.1":       "invalid",
		"1.16777216":      "invalid",
		"4294967296":      "invalid",
		"09.1.1.1":        "invalid",
		"example.com":     "",
		"1.example":       "",
		"example.123":     "invalid",
		"a.0x1":           "invalid",
		"localhost":       "",
		"xn--80ak6aa92e":  "",
		"12345678901234":  "invalid",
		"0x1ffffffffffff": "invalid",
	} {
		a, numeric, err := numericIPv4(host)
		got := ""
		switch {
		case err != nil:
			got = "invalid"
		case numeric:
			got = a.String()
		}
		if got != want {
			t.Errorf("numericIPv4(%q) = %q (%v, %v), want %q", host, got, numeric, err, want)
		}
	}
}
