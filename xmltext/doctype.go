package xmltext

import (
	"fmt"
	"strings"
)

// CheckDoctype reports whether s, the text of a DOCTYPE between
// "<!DOCTYPE " and ">" as a parser keeps it (a name, identifiers in
// quotes, an internal subset in brackets), would end where s does when it
// is written so, rather than leave the rest of s as markup of the
// document. XML ends a DOCTYPE at the first > outside its quoted
// identifiers and its internal subset: s holds a > only inside a quoted
// identifier that closes ("a>b.dtd", well-formed XML) or an internal
// subset that closes, where XML reads it as part of the declarations. An
// HTML tokenizer ends a DOCTYPE at its first >, in a quoted identifier
// too: a DOCTYPE an HTML parser gave never holds a >, and one that
// holds it in quotes or in a subset, read as XML, is the writer's to cut
// (markup.WriteHTML writes it to its name). What else such a DOCTYPE
// holds (a quote, a bracket, in its name too) is left alone.
func CheckDoctype(s string) error {
	open := -1 // the offset of the internal subset's [, -1 outside it
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '>' && open < 0:
			return fmt.Errorf("DOCTYPE %q: the > at byte %d would end it", s, i)
		case c == '"' || c == '\'':
			k := strings.IndexByte(s[i+1:], c)
			if k < 0 {
				// No quote closes it: XML ends the DOCTYPE at a > in it.
				k = len(s) - i - 1
				if g := strings.IndexByte(s[i+1:], '>'); g >= 0 && open < 0 {
					return fmt.Errorf("DOCTYPE %q: the > at byte %d would end it (no quote closes the one at byte %d)", s, i+1+g, i)
				}
			}
			i += k + 1
		case c == '[' && open < 0:
			open = i
		case c == ']' && open >= 0:
			open = -1
		case open >= 0 && strings.HasPrefix(s[i:], "<!--"):
			if k := strings.Index(s[i+4:], "-->"); k >= 0 {
				i += 4 + k + 2
			} else {
				i = len(s)
			}
		case open >= 0 && strings.HasPrefix(s[i:], "<?"):
			if k := strings.Index(s[i+2:], "?>"); k >= 0 {
				i += 2 + k + 1
			} else {
				i = len(s)
			}
		}
	}
	if open >= 0 && strings.IndexByte(s[open:], '>') >= 0 {
		return fmt.Errorf("DOCTYPE %q: its internal subset at byte %d is not closed, and the > in it would end the DOCTYPE", s, open)
	}
	return nil
}
