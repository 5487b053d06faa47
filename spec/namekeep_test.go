package spec

import "testing"

// TestNamesValidAsWrittenKept: a name valid as written is kept as written,
// though NFC would rewrite it (a letter NFC decomposes, a compatibility
// ideograph): such names were valid before names were normalised, may be
// stored, and must stay the names they were; a decomposed name is kept
// composed.
func TestNamesValidAsWrittenKept(t *testing.T) {
	for _, tc := range []struct {
		name, kept string
		valid      bool
	}{
		{"\u095Bx", "\u095Bx", true},            // DEVANAGARI LETTER ZA: NFC is ja + nukta (a mark)
		{"\uFB2Ax", "\uFB2Ax", true},            // HEBREW LETTER SHIN WITH SHIN DOT
		{"\uF900x", "\uF900x", true},            // a CJK compatibility ideograph: NFC is U+8C48
		{"\u1100\u1161", "\u1100\u1161", true},  // Hangul jamo, letters as written
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
	// The checker's key and the domain's comparison agree on names kept so.
	if !SameName("\uF900x", "\uF900X") || SameName("\uF900x", "\u8C48x") {
		t.Errorf("SameName: a compatibility ideograph is its own name, in any case")
	}
	if !SameName("cafe\u0301", "CAF\u00c9") {
		t.Errorf("SameName: café decomposed is CAFÉ")
	}
}

// TestValidNameParsed: a sentinel whose name NFC would rewrite parses and
// keeps its name.
func TestValidNameParsed(t *testing.T) {
	for _, name := range []string{"\u095Bx", "\uF900x"} {
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
