package markup

import (
	"strings"
	"unsafe"
)

// xmlSpace and htmlSpace mark the white-space bytes of XML (space, tab,
// newline, carriage return) and of HTML (those and form feed).
var xmlSpace, htmlSpace [256]bool

func init() {
	for _, c := range " \t\n\r" {
		xmlSpace[c] = true
		htmlSpace[c] = true
	}
	htmlSpace['\f'] = true
}

// isXMLSpaceByte reports whether c is XML white space.
func isXMLSpaceByte(c byte) bool { return xmlSpace[c] }

// isXMLSpace reports whether s is empty or only XML white space.
func isXMLSpace(s string) bool { return isAll(s, &xmlSpace) }

// isAll reports whether every byte of s is marked in space.
func isAll(s string, space *[256]bool) bool {
	for i := 0; i < len(s); i++ {
		if !space[s[i]] {
			return false
		}
	}
	return true
}

// collapseSpace trims white space (the bytes marked in space) at both ends
// of s and replaces every inner run of white space with one space. It
// returns s itself when nothing changes, so normalised text usually costs
// no allocation.
func collapseSpace(s string, space *[256]bool) string {
	start, end := 0, len(s)
	for start < end && space[s[start]] {
		start++
	}
	for end > start && space[s[end-1]] {
		end--
	}
	s = s[start:end]
	// Find the first run to rewrite: a white-space byte other than a
	// single space. s ends with a byte that is not white space, so s[i+1]
	// exists.
	i := 0
	for i < len(s) && (!space[s[i]] || (s[i] == ' ' && !space[s[i+1]])) {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for i < len(s) {
		for space[s[i]] { // a run; text follows it
			i++
		}
		b = append(b, ' ')
		j := i
		for j < len(s) && !space[s[j]] {
			j++
		}
		b = append(b, s[i:j]...)
		i = j
	}
	return unsafe.String(unsafe.SliceData(b), len(b)) // b is not used again
}

// normalizeXMLText applies the Normalize policy to the text v, which comes
// right after an element or not (elemBefore) and right before one or not
// (elemAfter), in an element whose children so far include text other than
// white space or not (mixed). It returns false for a text to drop, and
// otherwise v collapsed and trimmed, or v as it is if preserve (white space
// alone included: in xml:space="preserve" it is content).
//
// White space next to a sibling element is kept as one space, as in
// "a <b>b</b> c", where it separates words; white space alone is kept as
// one space between two elements in mixed content, or on one line, as in
// "<b>x</b> <i>y</i>". Everywhere else it is dropped: at the start and end
// of an element, next to a comment or processing instruction, and between
// elements on lines of their own, where it is indentation. It is
// collapseSpace specialised for XML white space, on the parser's hot path.
func normalizeXMLText(v string, preserve, elemBefore, elemAfter, mixed bool) (string, bool) {
	if preserve {
		return v, v != ""
	}
	start, end := 0, len(v)
	for start < end && class[v[start]]&cSpace != 0 {
		start++
	}
	if start == end {
		if elemBefore && elemAfter && (mixed || !strings.ContainsAny(v, "\n\r")) {
			return " ", true
		}
		return "", false
	}
	for class[v[end-1]]&cSpace != 0 {
		end--
	}
	lead, trail := elemBefore && start > 0, elemAfter && end < len(v)
	collapse := needsCollapse(v[start:end])
	if !collapse && (!lead || v[start-1] == ' ') && (!trail || v[end] == ' ') {
		// The spaces kept are in v already: no new string.
		if lead {
			start--
		}
		if trail {
			end++
		}
		return v[start:end], true
	}
	v = v[start:end]
	if collapse {
		v = collapseSpace(v, &xmlSpace)
	}
	return padSpace(v, lead, trail), true
}

// padSpace returns v with one space before it if lead, and after it if
// trail: the white space kept between words at a normalised text's ends.
func padSpace(v string, lead, trail bool) string {
	switch {
	case lead && trail:
		return " " + v + " "
	case lead:
		return " " + v
	case trail:
		return v + " "
	}
	return v
}

// needsCollapse reports whether s, which neither starts nor ends with white
// space, has a byte below 0x20 (tab, newline, carriage return in XML text)
// or two spaces in a row: whether collapseSpace would change it. It looks
// at eight bytes at a time.
func needsCollapse(s string) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
		lows  = 0x7f7f7f7f7f7f7f7f
	)
	prevSpace := false
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// A byte below 0x20 borrows into its high bit; bytes >= 0x80 are
		// masked out by ^w. Borrows only propagate from such a byte.
		if (w-0x20*ones)&^w&highs != 0 {
			return true
		}
		// The high bit of each byte that is a space (exact, no borrows).
		t := w ^ 0x20*ones
		sp := ^((t&lows + lows) | t) & highs
		if sp&(sp>>8) != 0 || (prevSpace && sp&0x80 != 0) {
			return true
		}
		prevSpace = sp>>63 != 0
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || (c == ' ' && prevSpace) {
			return true
		}
		prevSpace = c == ' '
	}
	return false
}
