package xmltext

import "testing"

// TestCheckDoctype: the DOCTYPEs parsers give pass, those with a > that
// would end them before their text does are refused.
func TestCheckDoctype(t *testing.T) {
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{`html`, true},
		{`html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"`, true},
		{`html PUBLIC '-//x "y"//EN'`, true},
		{`r SYSTEM "a>b.dtd"`, true}, // XML: a > in a quoted identifier
		{`r [ <!ENTITY co "ACME > ] Corp"> <!-- a ] > --> <?p ] > ?> ]`, true},
		{`r SYSTEM "r.dtd" [ <!ATTLIST r id ID #IMPLIED> ]`, true},
		{`html PUBLIC "x`, true}, // HTML: a quote left open in an identifier
		{`a"b[`, true},           // HTML: a name holds what it likes, but a >
		{`html><script>alert(1)</script><!--`, false},
		{`html SYSTEM "><script>"`, true}, // XML: in quotes; HTML writes it to its name
		{`html PUBLIC "x><script>`, false},
		{`r [ <!ENTITY a "b">`, false},
		{`r [ <!-- ] > `, false},
		{`r [ ]><script>`, false},
	} {
		if err := CheckDoctype(tc.s); (err == nil) != tc.ok {
			t.Errorf("CheckDoctype(%q) = %v, want ok %v", tc.s, err, tc.ok)
		}
	}
}
