package intent

import "testing"

// TestWordKeyCanonical: a word is compared in its canonical composition
// (Unicode NFC), so "café" written with a precomposed é and with an e and
// a combining acute accent (as some editors and macOS file names write
// it) is one word, as a reader sees it.
func TestWordKeyCanonical(t *testing.T) {
	const composed, decomposed = "caf\u00e9", "cafe\u0301"
	for _, cs := range []bool{false, true} {
		if a, b := wordKey(composed, cs), wordKey(decomposed, cs); a != b {
			t.Errorf("caseSensitive=%v: wordKey(%q) = %q, wordKey(%q) = %q", cs, composed, a, decomposed, b)
		}
	}
	page := func(body string) string { return `<html><body>` + body + `</body></html>` }
	r := evalClause(t, page(`<p>Le `+decomposed+` est ouvert</p>`), page(`<p>Le bar est ouvert</p>`), `keywords {"`+composed+`"}`)
	if !r.Matched {
		t.Errorf("keyword %q not found where the page writes %q", composed, decomposed)
	}
	r = evalClause(t, page(`<p>Le `+composed+` est ouvert</p>`), page(`<p>Le `+decomposed+` est ouvert</p>`), `all words`)
	if r.Matched {
		t.Errorf("all words: a change of normalisation form reported: %v", briefs(r.Changes))
	}
}
