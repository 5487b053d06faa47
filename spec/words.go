package spec

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The language defines what a keyword, a phrase or an excepted word
// matches: the words of a page whose comparison form (WordKey) is the
// same. The checker compares a change type's values by it, so that two
// values that match the same words are told as duplicates, and package
// intent compares a page's words by it.

// WordKey returns the comparison form of a word: in Unicode's canonical
// composition (NFC, so that an e and a combining accent is the é a reader
// sees), with the typographic apostrophes pages print (’ ‘ ʼ) written as
// the ' a user types, without soft hyphens (which show only where a
// browser breaks the word) and the other invisible format characters
// (Invisible: a zero width space, a word joiner, a zero width no-break
// space, ZWJ and ZWNJ, the bidirectional marks, which Unicode's
// collation ignores too), without leading and trailing punctuation and
// symbols (but for the + and # of C++ and C#, see TrimWord), and lower-cased
// unless caseSensitive. "Sorcerer’s" becomes "sorcerer's", "J." becomes
// "j", "(2024)," becomes "2024", "(C++)," becomes "c++", and "--" becomes
// "" (not a word).
func WordKey(w string, caseSensitive bool) string {
	if w == "" {
		return w
	}
	ascii, upper := true, false
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf {
			ascii = false
			break
		} else if c >= 'A' && c <= 'Z' {
			upper = true
		}
	}
	if !ascii {
		if !norm.NFC.IsNormalString(w) {
			w = norm.NFC.String(w)
		}
		if strings.ContainsAny(w, folded) {
			if w = wordFolder.Replace(w); w == "" {
				return w
			}
		}
	}
	if f, l := w[0], w[len(w)-1]; !isASCIIAlnum(f) || !isASCIIAlnum(l) {
		w = TrimWord(w)
	}
	if caseSensitive || ascii && !upper {
		return w
	}
	return strings.ToLower(w)
}

// folded are the characters WordKey writes otherwise: the characters
// pages print for an apostrophe (the right single quotation mark, the
// typographic apostrophe; the left one, set by word processors at a word's
// start, and by mistake; the modifier letter apostrophe), and the
// invisible characters, which it drops.
const folded = "\u2019\u2018\u02bc" + Invisible

var wordFolder = strings.NewReplacer(wordFolds()...)

// wordFolds returns wordFolder's pairs: each apostrophe to ', each
// Invisible character to nothing.
func wordFolds() []string {
	pairs := []string{"\u2019", "'", "\u2018", "'", "\u02bc", "'"}
	for _, r := range Invisible {
		pairs = append(pairs, string(r), "")
	}
	return pairs
}

// Invisible are the format characters a browser draws as nothing within a
// line, which a word is compared without (WordKey): the soft hyphen
// (U+00AD, shown only where the line breaks), the zero width space
// (U+200B, a break opportunity that joins the letters around it: Re\u200Bfunds
// is the word "Refunds", as a reader sees it), ZWNJ and ZWJ (U+200C,
// U+200D), the word joiner (U+2060), the invisible operators of
// mathematics (U+2061-U+2064), the zero width no-break space, or byte
// order mark (U+FEFF), and the bidirectional formatting characters: the
// marks (LRM U+200E, RLM U+200F, the Arabic letter mark U+061C), the
// embeddings and overrides (U+202A-U+202E) and the isolates
// (U+2066-U+2069), which order the letters of a line of mixed scripts
// but are none of them. ZWJ and ZWNJ change the shapes of an emoji
// sequence or of the letters of Arabic, Persian and the scripts of India,
// but not the letters a word is spelled with, which Unicode's collation
// compares without them too.
const Invisible = "\u00ad\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff" +
	"\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

// IsInvisible reports whether r is one of the Invisible characters.
func IsInvisible(r rune) bool {
	return r == '\u00ad' || r >= '\u200b' && r <= '\u200f' || r >= '\u2060' && r <= '\u2064' || r == '\ufeff' ||
		r == '\u061c' || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}

func isWordEdge(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

// TrimWord removes a word's leading and trailing punctuation and symbols,
// but for the plus and hash signs it ends with after a letter: they name
// things (C++, C#, F#, A+, Notepad++), and a user who watches for C++ is not
// asking about C.
func TrimWord(w string) string {
	start := strings.IndexFunc(w, func(r rune) bool { return !isWordEdge(r) })
	if start < 0 {
		return ""
	}
	end := strings.LastIndexFunc(w, func(r rune) bool { return !isWordEdge(r) })
	_, size := utf8.DecodeRuneInString(w[end:])
	end += size
	if r, _ := utf8.DecodeLastRuneInString(w[:end]); unicode.IsLetter(r) {
		for end < len(w) && (w[end] == '+' || w[end] == '#') {
			end++
		}
	}
	return w[start:end]
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
