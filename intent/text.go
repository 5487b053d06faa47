package intent

import (
	"strings"
	"unicode"
	"unicode/utf8"
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

// splitWords returns the words of a normalised text: its white-space
// separated fields.
func splitWords(s string) []string { return strings.Fields(s) }

// startsSpace reports whether s starts with white space, as normalizeSpace
// tells it.
func startsSpace(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && unicode.IsSpace(r)
}

// endsSpace reports whether s ends with white space, as normalizeSpace
// tells it.
func endsSpace(s string) bool {
	r, n := utf8.DecodeLastRuneInString(s)
	return n > 0 && unicode.IsSpace(r)
}

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
