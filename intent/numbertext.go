package intent

import (
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// textJoiner joins the values of a selection's text nodes, in document
// order, into the text a value change type reads its number from. Values
// are joined by a space, but for a number that HTML inline elements split:
// $<b>1</b>,299 reads "$1,299" and <span>12</span><span>.99</span> "12.99",
// where table cells, paragraphs or XML elements keep theirs apart
// (<td>3</td><td>,5</td> is "3 ,5", not 3.5).
type textJoiner struct {
	b       strings.Builder
	html    bool
	prev    *tree.Node // the last text node added
	prevVal string
}

// add appends text node n, whose value is v.
func (j *textJoiner) add(n *tree.Node, v string) {
	if j.prev != nil && !(j.html && continuesNumber(j.prevVal, v) && inlineBetween(j.prev, n)) {
		j.b.WriteByte(' ')
	}
	j.b.WriteString(v)
	j.prev, j.prevVal = n, v
}

// String returns the joined text.
func (j *textJoiner) String() string { return j.b.String() }

// continuesNumber reports whether b continues a number that a ends: a ends
// with a digit and b starts with a decimal or thousands separator and a
// digit.
func continuesNumber(a, b string) bool {
	return a != "" && isDigit(a[len(a)-1]) && len(b) >= 2 && (b[0] == '.' || b[0] == ',') && isDigit(b[1])
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// maxInlineDepth bounds the walk from two text nodes up to their common
// ancestor: a number is split by a few formatting elements, not dozens,
// and a bound keeps a deep document's cost linear.
const maxInlineDepth = 16

// inlineBetween reports whether every element between text nodes a and b
// and their lowest common ancestor is an HTML inline (phrasing) element.
func inlineBetween(a, b *tree.Node) bool {
	var up [maxInlineDepth]*tree.Node
	n := 0
	for p := a.Parent; p != nil && n < len(up); p = p.Parent {
		up[n] = p
		n++
	}
	steps := 0
	for p := b.Parent; p != nil && steps < maxInlineDepth; p = p.Parent {
		for i := 0; i < n; i++ {
			if up[i] != p {
				continue
			}
			for _, e := range up[:i] {
				if !isInline(e.Name) {
					return false
				}
			}
			return true
		}
		if !isInline(p.Name) {
			return false
		}
		steps++
	}
	return false
}

// isInline reports whether an HTML element, named with or without a
// namespace prefix, is a phrasing element that formats text within a line.
func isInline(name string) bool {
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	switch strings.ToLower(name) {
	case "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i",
		"ins", "kbd", "mark", "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup",
		"time", "tt", "u", "var":
		return true
	}
	return false
}
