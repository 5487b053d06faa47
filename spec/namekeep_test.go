package spec

import "testing"

// TestNamesValidAsWritten: a name valid as written whose NFC form is not (a
// letter NFC decomposes into a letter and a mark) is valid and kept as
// written, one name with its NFC spelling; a name valid in NFC is kept in
// NFC (decomposed, Hangul jamo, a compatibility ideograph).
func TestNamesValidAsWritten(t *testing.T) {
	for _, tc := range []struct {
		name, kept string
		valid      bool
	}{
		{"\u095Bx", "\u095Bx", true},            // DEVANAGARI LETTER ZA: NFC is ja + nukta (a mark)
		{"\uFB2Ax", "\uFB2Ax", true},            // HEBREW LETTER SHIN WITH SHIN DOT
		{"\uF900x", "\u8C48x", true},            // a CJK compatibility ideograph: NFC is U+8C48
		{"\u1100\u1161", "\uAC00", true},        // Hangul jamo, letters as written
		{"cafe\u0301", "caf\u00e9", true},       // decomposed: kept composed
		{"x\u0301", "x\u0301", false},           // a mark that composes with nothing
		{"\u091C\u093C", "\u091C\u093C", false}, // a mark in NFC too: refused, as before
	} {
		if got := IsValidName(tc.name); got != tc.valid {
			t.Errorf("IsValidName(%+q) = %v, want %v", tc.name, got, tc.valid)
		}
		if got := CanonicalName(tc.name); got != tc.kept {
			t.Errorf("CanonicalName(%+q) = %+q, want %+q", tc.name, got, tc.kept)
		}
	}
	// Names NFC takes for one are one name, however written.
	for _, pair := range [][2]string{{"\uF900x", "\u8C48X"}, {"\u1100\u1161", "\uAC00"}, {"\u095Bx", "\u091C\u093CX"}} {
		if !sameName(pair[0], pair[1]) {
			t.Errorf("sameName(%+q, %+q) = false, want true", pair[0], pair[1])
		}
	}
	if !sameName("cafe\u0301", "CAF\u00c9") {
		t.Errorf("SameName: café decomposed is CAFÉ")
	}
}

// TestValidNameParsed: a sentinel whose name is valid as written and not in
// NFC parses and keeps its name as written.
func TestValidNameParsed(t *testing.T) {
	for _, name := range []string{"\u095Bx", "\uFB2Ax"} {
		src := "Create Sentinel " + name + " Using http://a.example/ Fetch 1 hour"
		f, err := Parse("", []byte(src))
		if err != nil || len(f.Sentinels) != 1 {
			t.Errorf("Parse(%+q): %v", src, err)
			continue
		}
		if got := f.Sentinels[0].Name.Name; got != name {
			t.Errorf("Parse(%+q): name %+q, want it as written", src, got)
		}
	}
}
