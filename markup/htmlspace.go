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
// end of one, is dropped as before: it is layout. Comments, scripts, styles
// and templates, which take no place in the text, are looked through.

// lineContext is what stands around an element within its line: whether
// inline content (text, or an inline element) comes right before it, and
// ends with a space, and whether inline content comes right after it. Only
// an inline element passes it on to its children.
type lineContext struct {
	inlineBefore, spaceBefore, inlineAfter bool
}

// before reports whether inline content comes right before the next child
// of n, whose children so far are kids (normalised), and whether that
// content ends with a space: a space there is the only one a reader sees,
// and the next text keeps none of its own (in "a <b> x</b>", b's text is
// "x", as in "a <b>x</b>").
func (l lineContext) before(n *tree.Node, kids []*tree.Node) (inline, space bool) {
	for i := len(kids) - 1; i >= 0; i-- {
		if !unseen(kids[i]) {
			if !flowsInline(kids[i]) {
				return false, false
			}
			return true, endsWithSpace(kids[i])
		}
	}
	if !IsInline(n.Name) {
		return false, false
	}
	return l.inlineBefore, l.spaceBefore
}

// endsWithSpace reports whether the text of inline content n, normalised,
// ends with a space: n's own, or, for an element, its last text's, looked
// for down its last children (a few levels; an image ends with none).
func endsWithSpace(n *tree.Node) bool {
	for depth := 0; depth < 16 && n != nil; depth++ {
		switch n.Kind {
		case tree.Text:
			// A text not normalised yet (a sibling before the element
			// being opened) keeps its white space as one space: it is
			// followed by inline content.
			return n.Value != "" && htmlSpace[n.Value[len(n.Value)-1]]
		case tree.Element:
			if preserveHTML[n.Name] {
				return false // its text is its own: "<textarea>t </textarea> y" keeps y's space
			}
			var last *tree.Node
			for i := len(n.Children) - 1; i >= 0; i-- {
				if !unseen(n.Children[i]) {
					last = n.Children[i]
					break
				}
			}
			n = last
		default:
			return false
		}
	}
	return false
}

// after reports whether inline content comes right after a child of n
// that the children next follow.
func (l lineContext) after(n *tree.Node, next []*tree.Node) bool {
	for _, c := range next {
		if !unseen(c) {
			return flowsInline(c)
		}
	}
	return l.inlineAfter && IsInline(n.Name)
}

// childLine returns the line context of child, the last child converted
// of parent so far, followed in the source by next and its siblings.
func childLine(parent, child *tree.Node, next *html.Node, line lineContext) lineContext {
	kids := parent.Children
	before, space := line.before(parent, kids[:len(kids)-1])
	for next != nil && (next.Type == html.CommentNode || next.Type == html.ElementNode && unseenElement(next.Data)) {
		next = next.NextSibling
	}
	after := false
	switch {
	case next == nil:
		after = line.after(parent, nil)
	case next.Type == html.TextNode:
		after = !isAll(next.Data, &htmlSpace)
	case next.Type == html.ElementNode:
		after = IsInline(next.Data)
	}
	return lineContext{inlineBefore: before, spaceBefore: space, inlineAfter: after}
}

// unseen reports whether node n takes no place in the text a reader sees:
// a comment, a processing instruction, a script, a style or a template.
func unseen(n *tree.Node) bool {
	return n.Kind == tree.Comment || n.Kind == tree.ProcInst || n.Kind == tree.Element && unseenElement(n.Name)
}

func unseenElement(name string) bool {
	return name == "script" || name == "style" || name == "template"
}

// flowsInline reports whether node n is inline content: text, or an inline
// element. White space alone is not: where it separates inline content, it
// is kept as a space of its own.
func flowsInline(n *tree.Node) bool {
	return n.Kind == tree.Text && !isAll(n.Value, &htmlSpace) || n.Kind == tree.Element && IsInline(n.Name)
}

// IsInline reports whether an HTML element lays out within a line of
// text: phrasing content (the HTML standard's list, with the obsolete
// inline elements pages still use), and custom elements, whose names hold a
// hyphen. A line break is not: the space after it is not shown.
func IsInline(name string) bool {
	switch name {
	case "a", "abbr", "acronym", "audio", "b", "bdi", "bdo", "big", "button", "canvas", "cite", "code",
		"data", "datalist", "del", "dfn", "em", "embed", "font", "i", "iframe", "img", "input", "ins",
		"kbd", "label", "map", "mark", "math", "meter", "nobr", "object", "output", "picture", "progress",
		"q", "ruby", "rp", "rt", "s", "samp", "select", "slot", "small", "span", "strike", "strong",
		"sub", "sup", "svg", "textarea", "time", "tt", "u", "var", "video", "wbr":
		return true
	}
	return strings.Contains(name, "-")
}

// normalizeHTMLText applies the Normalize policy to the HTML text v, with
// inline content before it or not (ending with a space or not), after it
// or not: it returns false for a text to drop (white space only, but
// between inline content, where it is one space), and otherwise v with
// each run of white space made one space, and trimmed at an end where no
// inline content is next to it, or where the content before ends with a
// space already (or v as it is, white space alone included, if preserve:
// in a pre the spaces and line breaks between elements are content).
func normalizeHTMLText(v string, preserve, inlineBefore, spaceBefore, inlineAfter bool) (string, bool) {
	if preserve {
		return v, v != ""
	}
	if isAll(v, &htmlSpace) {
		if inlineBefore && !spaceBefore && inlineAfter && v != "" {
			return " ", true
		}
		return "", false
	}
	lead := inlineBefore && !spaceBefore && htmlSpace[v[0]]
	trail := inlineAfter && htmlSpace[v[len(v)-1]]
	return padSpace(collapseSpace(v, &htmlSpace), lead, trail), true
}
