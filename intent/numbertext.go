package intent

import (
	"strings"

	"github.com/vigil-web/vigil/markup"

	"github.com/vigil-web/vigil/tree"
)

// textJoiner joins the values of a selection's text nodes, in document
// order, into the text a value change type reads its number from. Values
// are joined by a space, but for a number that HTML inline elements split:
// $<b>1</b>,299 reads "$1,299", <span>12</span><span>.99</span> "12.99",
// 12<span>.</span><span>99</span> (a shop's markup) "12.99", and
// 12,<sup>99</sup> "12,99". Table cells, paragraphs, line breaks, images or
// XML elements keep the parts apart (<td>3</td><td>,5</td> is "3 ,5", not
// 3.5), whether they stand around the parts or between them.
type textJoiner struct {
	b    strings.Builder
	html bool
	prev *tree.Node // the last text node added
	// lone is set when prev was a separator alone, joined to the number
	// before it ("12" "."): the digits that follow join it too.
	lone bool
	// apart is set when an element that parts text (element) came since
	// prev.
	apart bool
}

// element notes element n, met between two texts in document order: one
// that is not inline parts them.
func (j *textJoiner) element(n *tree.Node) {
	if !isInline(n.Name) && !isNonContent(n.Name) {
		j.apart = true
	}
}

// add appends text node n, whose value is v.
func (j *textJoiner) add(n *tree.Node, v string) {
	join := j.prev != nil && j.html && !j.apart && j.continues(n, v) && inlineBetween(j.prev, n)
	if j.prev != nil && !join {
		j.b.WriteByte(' ')
	}
	j.b.WriteString(v)
	j.lone = join && len(v) == 1 && isSeparator(v[0]) && aloneIn(n)
	j.prev, j.apart = n, false
}

// continues reports whether v, the value of text node n, continues the
// number the text so far ends with.
func (j *textJoiner) continues(n *tree.Node, v string) bool {
	if v == "" {
		return false
	}
	s := j.b.String()
	endsDigit := s != "" && isDigit(s[len(s)-1])
	switch {
	case endsDigit && len(v) >= 2 && isSeparator(v[0]) && isDigit(v[1]):
		return true // 12 .99
	case endsDigit && len(v) == 1 && isSeparator(v[0]):
		// 12 . (99 to come), where the separator is an element's own:
		// in <a>3</a>,<a>5</a> it separates two numbers.
		return aloneIn(n) && n.Parent != j.prev.Parent
	case j.lone && isDigit(v[0]):
		return true // 12. 99
	case len(s) >= 2 && isSeparator(s[len(s)-1]) && isDigit(s[len(s)-2]):
		// 12, 99 is two numbers but for cents in superscript: two
		// digits, alone in their <sup> (not a footnote, 2019,<sup>3</sup>).
		return len(v) == 2 && isDigit(v[0]) && isDigit(v[1]) && aloneIn(n) &&
			strings.EqualFold(localName(n.Parent.Name), "sup")
	}
	return false
}

// aloneIn reports whether text node n is its parent's only child.
func aloneIn(n *tree.Node) bool { return n.Parent != nil && len(n.Parent.Children) == 1 }

// String returns the joined text.
func (j *textJoiner) String() string { return j.b.String() }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isSeparator(c byte) bool { return c == '.' || c == ',' }

// localName returns a qualified name without its prefix.
func localName(name string) string {
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		return name[i+1:]
	}
	return name
}

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
// namespace prefix, keeps a number's parts together: an inline element
// (markup.IsInline) that shows text, not an image, a control or media,
// which stand between the parts.
func isInline(name string) bool {
	name = strings.ToLower(localName(name))
	switch name {
	case "audio", "canvas", "embed", "iframe", "img", "input", "math", "meter", "object", "picture",
		"progress", "select", "svg", "textarea", "video":
		return false
	}
	return markup.IsInline(name)
}
