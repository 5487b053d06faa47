package spec

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// CanonicalName returns name as a sentinel name is kept: in Unicode
// normalisation form C (NFC) when that is a valid name, so that a name
// written decomposed ("cafe" and U+0301, as macOS keyboards and some
// copies write café; Hangul as jamo) is the name written composed. A name
// whose NFC form is not valid is returned as written: valid as written
// (NFC decomposes a few letters, U+095B into a letter and a mark), it is
// kept so; valid in neither form, the error names the text the user
// wrote, at its columns. The parser and the JSON decoder keep every
// sentinel name so.
func CanonicalName(name string) string {
	if norm.NFC.IsNormalString(name) {
		return name
	}
	if c := norm.NFC.String(name); validName(c) {
		return c
	}
	return name
}

// invalidName returns the message for name, a sentinel name IsValidName
// refuses, written at pos. A combining mark ("cafe\u0301", an accent typed
// after its letter, as some keyboards and file systems write é) is part
// of the name's letter when NFC composes the two (CanonicalName); one
// that composes with nothing before it ("x\u0301") shows as a valid
// name: the message names it and its column (pos known).
func invalidName(name string, pos Pos) string {
	col := pos.Column
	for i, r := range name {
		if unicode.Is(unicode.M, r) {
			if last, _ := utf8.DecodeLastRuneInString(norm.NFC.String(name[:i+utf8.RuneLen(r)])); unicode.Is(unicode.M, last) {
				at := ""
				if pos.IsValid() {
					at = fmt.Sprintf(" at column %d", col)
				}
				return fmt.Sprintf("invalid sentinel name %s: U+%04X (a combining mark)%s makes no one character with the letter before it: a name holds letters, digits, _ and -", quote(name), r, at)
			}
		}
		col++
	}
	return "invalid sentinel name " + quote(name) + ": want a letter or _ followed by letters, digits, _ or -, at most 200 bytes, and not a reserved word"
}

// nameKey is the key of a sentinel's name in the checker's maps: the lower
// case of its NFC form, so that names NFC takes for one (a letter NFC
// decomposes, written either way) are one name. Two names are one
// sentinel's when their keys are equal, which strings.EqualFold is not: it
// also takes 'ſ' for 's'.
func nameKey(name string) string {
	if !norm.NFC.IsNormalString(name) {
		name = norm.NFC.String(name)
	}
	return strings.ToLower(name)
}

// sameName says whether a and b name one sentinel: their keys (nameKey)
// are equal, as vigil.SameSentinelName says of names kept canonical
// (CanonicalName).
func sameName(a, b string) bool { return a == b || nameKey(a) == nameKey(b) }
