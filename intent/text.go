package intent

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-web/vigil/spec"
)

// asciiSpace is the white space of ASCII, as strings.Fields and
// unicode.IsSpace tell it.
const asciiSpace = " \t\n\v\f\r"

// normalizeSpace collapses runs of white space to one space and trims both
// ends (the note's normalize, §4.9), and leaves out the invisible
// characters a browser draws as nothing (leaveOutInvisible), so that a
// text whose only change is one of them, as one whose only change is its
// white space, is the same text. A URL is normalised by normalizeSpaceOnly.
func normalizeSpace(s string) string {
	return normalizeSpaceOnly(s, true)
}

// normalizeSpaceOnly is normalizeSpace, but it leaves the invisible
// characters in where invisible is false: a URL (an href, a src) is a
// different address with one in it, and XPath's normalize-space() is
// XPath's.
func normalizeSpaceOnly(s string, invisible bool) string {
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
	if invisible {
		s = leaveOutInvisible(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// leaveOutInvisible returns s without the invisible characters
// (spec.Invisible) a browser draws as nothing within a line, as matching
// compares a word without them (spec.WordKey): a soft hyphen, a zero width
// space (which joins the letters around it: Re&#8203;funds is "Refunds",
// as a reader sees it), a word joiner, an invisible operator, a zero width
// no-break space. A ZWJ or ZWNJ is left out likewise where it changes
// nothing a reader sees, but kept next to a character whose shape it may
// change (shapedByJoiner: an emoji sequence's family, the letters of
// Persian or of the scripts of India), so that a change of it there is a
// change of the text.
func leaveOutInvisible(s string) string {
	if !strings.ContainsFunc(s, spec.IsInvisible) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	// A run of invisible characters is read at once: whether its joiners
	// matter depends only on the visible characters on either side, so
	// a run costs its length, however long.
	before := rune(-1) // the last visible character, -1 at the start
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !spec.IsInvisible(r) {
			b.WriteString(s[i : i+n])
			before = r
			i += n
			continue
		}
		end := i + n
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if !spec.IsInvisible(r) {
				break
			}
			end += n
		}
		after := rune(-1)
		if end < len(s) {
			after, _ = utf8.DecodeRuneInString(s[end:])
		}
		if before >= 0 && shapedByJoiner(before) || after >= 0 && shapedByJoiner(after) {
			// Keep the run's joiners, in order.
			for k := i; k < end; {
				r, n := utf8.DecodeRuneInString(s[k:])
				if r == '\u200c' || r == '\u200d' {
					b.WriteString(s[k : k+n])
				}
				k += n
			}
		}
		i = end
	}
	return b.String()
}

// shapedByJoiner reports whether a ZWJ or ZWNJ next to r may change what
// a browser draws: not next to ASCII, white space, punctuation, a digit,
// nor a Latin, Greek or Cyrillic letter (whose ligatures are all a ZWNJ
// there may break), but next to another letter, a mark or a symbol (an
// emoji joined into one, a letter of Arabic, Persian or an Indian script
// in its joined or half form).
func shapedByJoiner(r rune) bool {
	if r < utf8.RuneSelf || unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsNumber(r) {
		return false
	}
	return !unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic)
}

// splitWords returns the words of a normalised text: its white-space
// separated fields.
func splitWords(s string) []string { return strings.Fields(s) }

// startsSpace reports whether s starts with white space, as normalizeSpace
// tells it, the invisible characters it leaves out passed over
// (price&#8203; list is two words).
func startsSpace(s string) bool {
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if !spec.IsInvisible(r) {
			return unicode.IsSpace(r)
		}
		s = s[n:]
	}
	return false
}

// endsSpace reports whether s ends with white space, as normalizeSpace
// tells it, the invisible characters it leaves out passed over.
func endsSpace(s string) bool {
	for len(s) > 0 {
		r, n := utf8.DecodeLastRuneInString(s)
		if !spec.IsInvisible(r) {
			return unicode.IsSpace(r)
		}
		s = s[:len(s)-n]
	}
	return false
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
