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

// TestWordKeyApostrophe: the typographic apostrophe most pages print
// (Sorcerer’s, U+2019) is the apostrophe a user types (Sorcerer's).
func TestWordKeyApostrophe(t *testing.T) {
	for _, w := range []string{"Sorcerer\u2019s", "Sorcerer\u02bcs", "Sorcerer\u2018s"} {
		if got, want := wordKey(w, false), wordKey("Sorcerer's", false); got != want {
			t.Errorf("wordKey(%q) = %q, want %q", w, got, want)
		}
	}
	page := func(body string) string { return `<html><body>` + body + `</body></html>` }
	old, new := page(`<p>Harry Potter and the Sorcerer’s Stone</p>`), page(`<p>Harry Potter and the Philosopher’s Stone</p>`)
	for _, clause := range []string{`keywords {"Sorcerer's"}`, `phrase {"the Sorcerer's Stone"}`} {
		if r := evalClause(t, old, new, clause); !r.Matched {
			t.Errorf("%s: the change of Sorcerer’s is not reported", clause)
		}
	}
	if r := evalClause(t, page(`<p>Sorcerer's Stone</p>`), page(`<p>Sorcerer’s Stone</p>`), `all words`); r.Matched {
		t.Errorf("all words: a change of apostrophe reported: %v", briefs(r.Changes))
	}
}
