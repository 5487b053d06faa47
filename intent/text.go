package intent

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// asciiSpace is the white space of ASCII, as strings.Fields and
// unicode.IsSpace tell it.
const asciiSpace = " \t\n\v\f\r"

// normalizeSpace collapses runs of white space to one space and trims both
// ends (the note's normalize, §4.9).
func normalizeSpace(s string) string {
	// White space only at the ends (a line with its newline) is cut off
	// without a copy.
	s = strings.Trim(s, asciiSpace)
	clean := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			clean = false
			break
		}
		sp := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
		if sp && (prevSpace || c != ' ') {
			clean = false
			break
		}
		prevSpace = sp
	}
	if clean && !prevSpace {
		return s
	}
	if clean && s == "" {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// wordKey returns the comparison form of a word: in Unicode's canonical
// composition (NFC, so that an e and a combining accent is the é a reader
// sees), with the typographic apostrophes pages print (’ ‘ ʼ) written as
// the ' a user types, without soft hyphens (which show only where a
// browser breaks the word), without leading and trailing punctuation and
// symbols (but for the + and # of C++ and C#, see trimWord), and lower-cased
// unless caseSensitive. "Sorcerer’s" becomes "sorcerer's", "J." becomes
// "j", "(2024)," becomes "2024", "(C++)," becomes "c++", and "--" becomes
// "" (not a word).
func wordKey(w string, caseSensitive bool) string {
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
		w = trimWord(w)
	}
	if caseSensitive || ascii && !upper {
		return w
	}
	return strings.ToLower(w)
}

// folded are the characters wordKey writes otherwise: the characters
// pages print for an apostrophe (the right single quotation mark, the
// typographic apostrophe; the left one, set by word processors at a word's
// start, and by mistake; the modifier letter apostrophe), and the soft
// hyphen, which it drops.
const folded = "\u2019\u2018\u02bc\u00ad"

var wordFolder = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u02bc", "'", "\u00ad", "")

func isWordEdge(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }

// trimWord removes a word's leading and trailing punctuation and symbols,
// but for the plus and hash signs it ends with after a letter: they name
// things (C++, C#, F#, A+, Notepad++), and a user who watches for C++ is not
// asking about C.
func trimWord(w string) string {
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

// splitWords returns the words of a normalised text: its white-space
// separated fields.
func splitWords(s string) []string { return strings.Fields(s) }

// forEachField calls f with the offset of each white-space separated field
// of s (a normalised text: single ASCII spaces) and the field, without
// allocating.
func forEachField(s string, f func(int, string)) {
	start := -1
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			if start >= 0 {
				f(start, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		f(start, s[start:])
	}
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
