package spec

import (
	"fmt"
	"unicode"
)

// invalidName returns the message for name, a sentinel name IsValidName
// refuses, written at pos. A combining mark ("cafe\u0301", an accent typed
// after its letter, as some keyboards and file systems write é) shows as
// a valid name: the message names it and its column (pos known), for the
// accented letter must be typed as one character. spec imports only the
// standard library, which has no tables to compose the two.
func invalidName(name string, pos Pos) string {
	col := pos.Column
	for _, r := range name {
		if unicode.Is(unicode.M, r) {
			at := ""
			if pos.IsValid() {
				at = fmt.Sprintf(" at column %d", col)
			}
			return fmt.Sprintf("invalid sentinel name %s: U+%04X (a combining mark)%s: type the accented letter as one character", quote(name), r, at)
		}
		col++
	}
	return "invalid sentinel name " + quote(name) + ": want a letter or _ followed by letters, digits, _ or -, at most 200 bytes, and not a reserved word"
}
