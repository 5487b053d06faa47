package intent

import (
	"net/url"
	"strings"

	"github.com/vigil-web/vigil/markup"
)

// markupRef is a URL written in an href or src attribute of a tag in a
// text (markupRefs), at text[start:end] (the value as written).
type markupRef struct {
	url        string // the value, its character references read (markup.UnescapeAttr) and white space around it trimmed
	start, end int
	base       bool // the href of a base element
	// resource is set for the src of any tag and the href of one
	// other than a, area or base (not an xlink:href): an image's, a
	// script's or a stylesheet's address, which a parsed page does
	// not link to (warehouse.ExtractLinks), written relative or
	// absolute.
	resource bool
	// absolute is set for a resource's address written with a
	// scheme, recorded only for where it is (TextLinks reads its
	// URL): it is no relative link.
	absolute bool
}

// markupRefs returns the URLs written relative (without a scheme:
// "/a", "docs/b", "//cdn.example/c", "#top") in the href and src
// attributes of the tags of text, in order, the href of each base
// element whatever it is, and the absolute addresses of resources
// (absolute: an img's src written with its scheme): the links a page
// read as its source text (HTML read as text, a feed served malformed)
// writes relative, which TextLinks, reading absolute URLs, does not
// find, and where the absolute URLs it finds are no link of the page
// parsed. A tag is what the HTML tokenizer
// reads as a start tag (in foreign content, where no element's text is
// raw, the text of a style or title holds tags): "<" and an ASCII letter, then its attributes, over
// lines, up to the ">" outside a quoted value; none is in a comment, a
// doctype, a bogus comment (<![CDATA[ in HTML) or the text of a raw text
// element (script, style, title, textarea...: markup.RawTextElement). An
// attribute's name is compared without its case, and xlink:href is an
// href. "href=" outside a tag (in prose, between <code> and </code>, in a
// link commented out or written in a script's string) is no link, nor is
// a value that cannot be a URL as written: one holding white space, a
// quote, "<", ">", a backslash (markup escaped in a JSON string,
// href=\"/a\"), or "{" or "}" (a template's placeholder). A tag whose
// quote or ">" never comes, like a comment or a raw text never closed,
// ends the text, as the tokenizer reads it, so a text is read once. As
// a parsed page's (PageBase, content.skip), a template's tags hold no
// link nor base (its content is inert), and a base in svg or math, but in
// their HTML integration points (a foreignObject, an mtext, an
// annotation-xml of HTML; an svg that an annotation-xml holds is SVG, its
// foreignObject one of them), is an SVG or MathML element, no base
// (tagScope); an a in them is a link in both.
func markupRefs(text string) []markupRef {
	var out []markupRef
	var scope tagScope
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '<')
		if j < 0 {
			break
		}
		i += j + 1
		if i >= len(text) {
			break
		}
		switch c := text[i]; {
		case c == '!' && strings.HasPrefix(text[i:], "!--"):
			i = markup.CommentEnd(text, i+len("!--"))
			continue
		case c == '!' || c == '?':
			i = pastByte(text, i, '>') // a doctype, a bogus comment (<![CDATA[ in HTML)
			continue
		case c == '/' && i+1 < len(text) && isASCIILetter(text[i+1]):
			start := i + 1
			for i = start; i < len(text) && !isTagSpace(text[i]) && text[i] != '/' && text[i] != '>'; i++ {
			}
			scope.end(text[start:i])
			i = tagAttrs(text, i, func(string, int, int) {})
			continue
		case !isASCIILetter(c):
			continue
		}
		start := i
		for i < len(text) && !isTagSpace(text[i]) && text[i] != '/' && text[i] != '>' {
			i++
		}
		name := text[start:i]
		space := scope.space()
		encoding := ""
		i = tagAttrs(text, i, func(attr string, v0, v1 int) {
			if strings.EqualFold(attr, "encoding") {
				encoding = markup.UnescapeAttr(text[v0:v1])
			}
			if space == "template" {
				return // inert
			}
			isBase := strings.EqualFold(name, "base") && strings.EqualFold(attr, "href")
			if isBase && space != "" {
				return // an SVG or MathML element, no base nor link
			}
			if !isBase && !isRefAttr(attr) {
				return
			}
			resource := !isBase && !strings.EqualFold(attr, "xlink:href") &&
				!(strings.EqualFold(attr, "href") && (strings.EqualFold(name, "a") || strings.EqualFold(name, "area")))
			if u, ok := refValue(text[v0:v1], isBase); ok {
				out = append(out, markupRef{url: u, start: v0, end: v1, base: isBase, resource: resource})
			} else if u, ok := refValue(text[v0:v1], true); ok && resource {
				out = append(out, markupRef{url: u, start: v0, end: v1, resource: true, absolute: true})
			}
		})
		scope.start(name, space, strings.HasSuffix(text[:i], "/>"), encoding)
		if raw := markup.RawTextElement(name); raw != "" && space != "svg" && space != "math" {
			// Foreign content has no raw text: an svg's style or
			// title holds tags.
			i = markup.RawTextEnd(text, i, raw)
		}
	}
	return out
}

// tagScope follows, as markupRefs reads a text's tags, the elements that
// change how the tags in them read, as a parsed page's walk does
// (walkHTMLElements, content.skip): a template, whose content is inert,
// and the foreign content of svg and math, whose base is no HTML base
// element, with their HTML integration points (isIntegrationPoint), which
// hold HTML again, and an svg that an annotation-xml holds, SVG again
// (an annotation-xml of HTML, an integration point, holds HTML, whose
// svg is SVG). It follows each element of foreign content, as the parser
// puts it in its space. An end tag closes the innermost element open of
// its name, and those in it; the tags that break out of foreign content
// in a parser (a p, a div) do not here, so that an svg never closed keeps
// a later base from counting, where a browser would take it.
type tagScope struct {
	open []scopeElement // innermost last
}

// scopeElement is an element open in a tagScope, its name in lower case
// and the space of its content: "" for HTML, "svg", "math", or "template"
// for a template's inert content.
type scopeElement struct{ name, space string }

// space returns the space of the tags read next.
func (s *tagScope) space() string {
	if len(s.open) == 0 {
		return ""
	}
	return s.open[len(s.open)-1].space
}

// start reads a start tag called name, read in space, self-closing or not,
// with its encoding attribute's value.
func (s *tagScope) start(name, space string, selfClosing bool, encoding string) {
	name = strings.ToLower(name)
	if len(s.open) >= maxForeignDepth {
		// Past the depth the HTML parser takes, no tag is followed, an
		// svg, a math or a template no more than another, so that a
		// text of tags never closed costs each end tag a bounded search.
		return
	}
	switch {
	case (space == "" || space == "template") && name == "template":
		s.open = append(s.open, scopeElement{name, "template"})
	case space == "" && (name == "svg" || name == "math") && !selfClosing:
		s.open = append(s.open, scopeElement{name, name})
	case (space == "svg" || space == "math") && !selfClosing &&
		isIntegrationPoint(name, space, func() string { return encoding }):
		s.open = append(s.open, scopeElement{name, ""})
	case space == "math" && name == "svg" && !selfClosing && s.open[len(s.open)-1].name == "annotation-xml":
		// An svg an annotation-xml holds (one that is no integration
		// point, of another encoding or none) is SVG, as the parser
		// puts it, not MathML: its foreignObject holds HTML, its mi
		// does not.
		s.open = append(s.open, scopeElement{name, "svg"})
	case (space == "svg" || space == "math") && !selfClosing:
		// Each element of foreign content stays in its space; followed,
		// so that an svg knows whether an annotation-xml holds it, and
		// an svg in an svg (or a math in it) its end tag does not close
		// the outer one's.
		s.open = append(s.open, scopeElement{name, space})
	}
}

// maxForeignDepth is how many elements tagScope follows open at once
// (templates, and the elements of foreign content): the HTML parser
// (markup.ParseHTML) takes no page nested more than 512 deep.
const maxForeignDepth = 512

// end reads an end tag called name.
func (s *tagScope) end(name string) {
	for k := len(s.open) - 1; k >= 0; k-- {
		if strings.EqualFold(s.open[k].name, name) {
			s.open = s.open[:k]
			return
		}
	}
}

// pastByte returns the offset after the first c in text from i on, or
// the text's end.
func pastByte(text string, i int, c byte) int {
	if k := strings.IndexByte(text[i:], c); k >= 0 {
		return i + k + 1
	}
	return len(text)
}

// tagAttrs reads the attributes of the tag whose name ends at i, calling
// attr with each one's name and the bounds of its value, and returns where
// the tag ends: after its ">", or the text's end.
func tagAttrs(text string, i int, attr func(name string, v0, v1 int)) int {
	for i < len(text) {
		c := text[i]
		switch {
		case c == '>':
			return i + 1
		case isTagSpace(c) || c == '/':
			i++
			continue
		}
		n0 := i
		for i < len(text) && !isTagSpace(text[i]) && text[i] != '/' && text[i] != '>' && (text[i] != '=' || i == n0) {
			i++
		}
		name := text[n0:i]
		for i < len(text) && isTagSpace(text[i]) {
			i++
		}
		if i >= len(text) || text[i] != '=' {
			continue // an attribute without a value
		}
		i++
		for i < len(text) && isTagSpace(text[i]) {
			i++
		}
		if i >= len(text) {
			break
		}
		var v0, v1 int
		if q := text[i]; q == '"' || q == '\'' {
			k := strings.IndexByte(text[i+1:], q)
			if k < 0 {
				return len(text)
			}
			v0, v1 = i+1, i+1+k
			i = v1 + 1
		} else {
			v0 = i
			for i < len(text) && !isTagSpace(text[i]) && text[i] != '>' {
				i++
			}
			v1 = i
		}
		attr(name, v0, v1)
	}
	return len(text)
}

// isRefAttr reports whether an attribute's value is a URL markupRefs
// reads: href, src or xlink:href, in any case.
func isRefAttr(name string) bool {
	return strings.EqualFold(name, "href") || strings.EqualFold(name, "src") || strings.EqualFold(name, "xlink:href")
}

// refValue returns an attribute's value as a URL, its character
// references read as an HTML parser reads them in an attribute
// (markup.UnescapeAttr: a query's &sect=3 stays), and whether markupRefs
// takes it: written relative, or any URL for a base element's href.
func refValue(v string, isBase bool) (string, bool) {
	v = strings.Trim(markup.UnescapeAttr(v), " \t\n\f\r")
	if v == "" || strings.ContainsAny(v, " \t\n\f\r\"'<>\\{}`") {
		return "", false
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "" && !isBase) {
		return "", false
	}
	return v, true
}

// isTagSpace reports whether c is white space between a tag's attributes.
func isTagSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isASCIILetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
