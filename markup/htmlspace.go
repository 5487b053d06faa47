package markup

import (
	"strings"

	"github.com/vigil-web/vigil/tree"
	"golang.org/x/net/html"
)

// The Normalize policy in HTML keeps the white space that separates words
// on a line: "Alpha <b>x</b> beta" keeps its spaces ("Alpha ", " beta"),
// and so does the blank between <b>x</b> <i>y</i>, where trimming every
// text node made "Alphaxbeta" of a page written back or shown. White space
// next to a block (a paragraph, a cell, a line break), or at the start or
// end of one, is dropped as before: it is layout.

// lineContext is what stands around an element within its line: whether
// inline content (text, or an inline element) comes right before it and
// right after it. Only an inline element passes it on to its children.
type lineContext struct {
	inlineBefore, inlineAfter bool
}

// before reports whether inline content comes right before the next child
// of n, whose children so far are kids.
func (l lineContext) before(n *tree.Node, kids []*tree.Node) bool {
	if len(kids) > 0 {
		return flowsInline(kids[len(kids)-1])
	}
	return l.inlineBefore && isInlineElement(n.Name)
}

// after reports whether inline content comes right after a child of n
// followed by next (nil for the last child).
func (l lineContext) after(n, next *tree.Node) bool {
	if next != nil {
		return flowsInline(next)
	}
	return l.inlineAfter && isInlineElement(n.Name)
}

// childLine returns the line context of child, the last child converted
// of parent so far, followed in the source by next.
func childLine(parent, child *tree.Node, next *html.Node, line lineContext) lineContext {
	kids := parent.Children
	before := line.before(parent, kids[:len(kids)-1])
	after := false
	switch {
	case next == nil:
		after = line.after(parent, nil)
	case next.Type == html.TextNode:
		after = !isAll(next.Data, &htmlSpace)
	case next.Type == html.ElementNode:
		after = next.Namespace == "" && isInlineElement(next.Data)
	}
	return lineContext{inlineBefore: before, inlineAfter: after}
}

// flowsInline reports whether node n is inline content: text, or an inline
// element. White space alone is not: where it separates inline content, it
// is kept as a space of its own.
func flowsInline(n *tree.Node) bool {
	return n.Kind == tree.Text && !isAll(n.Value, &htmlSpace) || n.Kind == tree.Element && isInlineElement(n.Name)
}

// isInlineElement reports whether an HTML element lays out within a line
// (phrasing content and inline replaced elements; custom elements, whose
// names hold a hyphen, too). A line break is not: the space after it is
// not shown.
func isInlineElement(name string) bool {
	switch name {
	case "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "button", "cite", "code", "data", "del", "dfn",
		"em", "font", "i", "img", "input", "ins", "kbd", "label", "mark", "nobr", "output", "q", "ruby",
		"rp", "rt", "s", "samp", "select", "small", "span", "strike", "strong", "sub", "sup", "time", "tt",
		"u", "var", "wbr":
		return true
	}
	return strings.Contains(name, "-")
}

// normalizeHTMLText applies the Normalize policy to the HTML text v, with
// inline content before it or not, after it or not: it returns false for a
// text to drop (white space only, but between inline content, where it is
// one space), and otherwise v with each run of white space made one space,
// and trimmed at an end where no inline content is next to it (or v as it
// is, if preserve).
func normalizeHTMLText(v string, preserve, inlineBefore, inlineAfter bool) (string, bool) {
	if isAll(v, &htmlSpace) {
		if inlineBefore && inlineAfter && !preserve && v != "" {
			return " ", true
		}
		return "", false
	}
	if preserve {
		return v, true
	}
	lead := inlineBefore && htmlSpace[v[0]]
	trail := inlineAfter && htmlSpace[v[len(v)-1]]
	v = collapseSpace(v, &htmlSpace)
	switch {
	case lead && trail:
		return " " + v + " ", true
	case lead:
		return " " + v, true
	case trail:
		return v + " ", true
	}
	return v, true
}
