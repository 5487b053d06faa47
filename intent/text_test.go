package intent

import (
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// TestWordKeyCanonical: a word is compared in its canonical composition
// (Unicode NFC), so "café" written with a precomposed é and with an e and
// a combining acute accent (as some editors and macOS file names write
// it) is one word, as a reader sees it.
func TestWordKeyCanonical(t *testing.T) {
	const composed, decomposed = "caf\u00e9", "cafe\u0301"
	for _, cs := range []bool{false, true} {
		if a, b := spec.WordKey(composed, cs), spec.WordKey(decomposed, cs); a != b {
			t.Errorf("caseSensitive=%v: spec.WordKey(%q) = %q, spec.WordKey(%q) = %q", cs, composed, a, decomposed, b)
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
		if got, want := spec.WordKey(w, false), spec.WordKey("Sorcerer's", false); got != want {
			t.Errorf("spec.WordKey(%q) = %q, want %q", w, got, want)
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

// TestWordKeySoftHyphen: a soft hyphen (&shy;, U+00AD) marks where a
// browser may break a long word, and shows only there: the word is the
// same without it.
func TestWordKeySoftHyphen(t *testing.T) {
	const plain, shy = "Donaudampfschifffahrt", "Donau\u00addampf\u00adschiff\u00adfahrt"
	if a, b := spec.WordKey(plain, false), spec.WordKey(shy, false); a != b {
		t.Errorf("spec.WordKey(%q) = %q, spec.WordKey(%q) = %q", plain, a, shy, b)
	}
	if k := spec.WordKey("\u00ad\u00ad", false); k != "" {
		t.Errorf("soft hyphens alone: %q, want no word", k)
	}
	page := func(body string) string { return `<html><body>` + body + `</body></html>` }
	r := evalClause(t, page(`<p>Die `+shy+` ist da</p>`), page(`<p>Die Fahrt ist weg</p>`), `keywords {`+plain+`}`)
	if !r.Matched {
		t.Errorf("keyword %q not found where the page hyphenates it", plain)
	}
	r = evalClause(t, page(`<p>Die `+plain+` ist da</p>`), page(`<p>Die `+shy+` ist da</p>`), `all words`)
	if r.Matched {
		t.Errorf("all words: soft hyphens reported as a change: %v", briefs(r.Changes))
	}
}

// TestWordKeyLanguageNames: a word that ends in plus or hash signs after a
// letter keeps them (C++, C#, F#, A+, Notepad++), so that a keyword C++ is
// not found in a page that writes C, and a keyword C not in one that
// writes C#; the punctuation around them still goes.
func TestWordKeyLanguageNames(t *testing.T) {
	for _, c := range []struct{ word, key string }{
		{"C++", "c++"},
		{"(C++),", "c++"},
		{"C#.", "c#"},
		{"F#", "f#"},
		{"A+", "a+"},
		{"Notepad++", "notepad++"},
		{"#golang", "golang"},
		{"1+", "1"},
		{"+", ""},
		{"++", ""},
		{"C", "c"},
		{"x+y", "x+y"},
	} {
		if got := spec.WordKey(c.word, false); got != c.key {
			t.Errorf("spec.WordKey(%q) = %q, want %q", c.word, got, c.key)
		}
	}
	page := func(body string) string { return `<html><body>` + body + `</body></html>` }
	if r := evalClause(t, page(`<p>We hire C developers</p>`), page(`<p>We hire Go developers</p>`), `keywords {"C++"}`); r.Matched {
		t.Errorf("keyword C++ found where the page writes C: %v", briefs(r.Changes))
	}
	if r := evalClause(t, page(`<p>We hire C++ developers</p>`), page(`<p>We hire Go developers</p>`), `keywords {"C++"}`); !r.Matched {
		t.Errorf("keyword C++ not found where the page writes C++")
	}
	if r := evalClause(t, page(`<p>Jobs: C#, Java</p>`), page(`<p>Jobs: Java</p>`), `keywords {"C"}`); r.Matched {
		t.Errorf("keyword C found where the page writes C#: %v", briefs(r.Changes))
	}
}
