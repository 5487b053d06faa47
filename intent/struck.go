package intent

import (
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// isStruckOut reports whether an HTML element, named with or without a
// namespace prefix, strikes the text in it out: del, s and strike, where
// shops write the regular price beside a sale's ($59.99 $49.99).
func isStruckOut(name string) bool {
	switch strings.ToLower(localName(name)) {
	case "del", "s", "strike":
		return true
	}
	return false
}

// unstruckText returns the text of match, an HTML element, as a value
// reads it (textJoiner), without the elements below it that strike their
// text out (isStruckOut) nor those skip selects, and whether there were
// any struck out.
func unstruckText(match *tree.Node, skip func(*tree.Node) bool) (string, bool) {
	j := textJoiner{html: true}
	struck := false
	tree.Walk(match, func(n *tree.Node) bool {
		switch {
		case n != match && skip(n):
			return false
		case n.Kind == tree.Text:
			j.add(n, n.Value)
		case n.Kind != tree.Element:
		case n != match && isStruckOut(n.Name):
			struck = true
			return false
		default:
			j.element(n)
		}
		return true
	})
	return normalizeValueSpace(j.String()), struck
}

// severalNumbers reports whether s holds a number besides the one at
// [start, end).
func severalNumbers(s string, start, end int) bool {
	_, _, before := findNumber(s[:start])
	_, _, after := findNumber(s[end:])
	return before || after
}
