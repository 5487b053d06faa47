package markup

// foreignContent follows, tag by tag, whether the HTML parser puts an
// element in foreign content (SVG or MathML), for a reader of tags
// without a tree (FindRefresh): an svg or math start tag opens it, and
// what it holds is SVG or MathML (an element named base there is no HTML
// base, one named template no template) until its end tag, a tag that
// breaks out of it (p, div, meta...: breaksOut), or an HTML integration
// point (svg's foreignObject, desc and title, MathML's mi, mo, mn, ms,
// mtext and an annotation-xml of text/html or application/xhtml+xml),
// which holds HTML again. It follows the parser's stack of open elements
// only for the elements of foreign content and the svg and math elements
// in the HTML of their integration points; an HTML element's end tag is
// not looked for there, as the parser ignores most of those that close
// nothing it tracks.
type foreignContent struct {
	open []foreignElement
}

// foreignElement is an element open in foreign content.
type foreignElement struct {
	name  string // lower case
	space string // "svg" or "math"
	html  bool   // an integration point: what it holds is HTML
}

// inHTML reports whether the next start tag is read as HTML.
func (f *foreignContent) inHTML() bool {
	return len(f.open) == 0 || f.open[len(f.open)-1].html
}

// start reads a start tag named name (lower case; selfClosing for one
// ending in "/>") whose attribute key (lower case) is attr(key), if it
// has one, and
// reports whether it is an element of foreign content.
func (f *foreignContent) start(name string, selfClosing bool, attr func(key string) (string, bool)) bool {
	if !f.inHTML() && breaksOut(name, attr) {
		f.popToHTML()
	}
	if f.inHTML() {
		if name != "svg" && name != "math" {
			return false
		}
		if !selfClosing {
			f.open = append(f.open, foreignElement{name: name, space: name})
		}
		return true
	}
	top := f.open[len(f.open)-1]
	space := top.space
	if space == "math" && top.name == "annotation-xml" && name == "svg" {
		space = "svg"
	}
	if !selfClosing {
		f.open = append(f.open, foreignElement{name: name, space: space, html: integrationPoint(space, name, attr)})
	}
	return true
}

// end reads an end tag named name (lower case): it closes the element of
// that name open last and all opened after it. In foreign content </p>
// and </br> break out of it, as their start tags do.
func (f *foreignContent) end(name string) {
	if !f.inHTML() && (name == "p" || name == "br") {
		f.popToHTML()
		return
	}
	for i := len(f.open) - 1; i >= 0; i-- {
		if f.open[i].name == name {
			f.open = f.open[:i]
			return
		}
	}
}

// popToHTML closes the elements of foreign content open up to the
// integration point that holds them, if any.
func (f *foreignContent) popToHTML() {
	for !f.inHTML() {
		f.open = f.open[:len(f.open)-1]
	}
}

// integrationPoint reports whether an element named name in foreign
// content of space ("svg" or "math") holds HTML.
func integrationPoint(space, name string, attr func(key string) (string, bool)) bool {
	if space == "svg" {
		return name == "foreignobject" || name == "desc" || name == "title"
	}
	switch name {
	case "mi", "mo", "mn", "ms", "mtext":
		return true
	case "annotation-xml":
		enc, _ := attr("encoding")
		return asciiEqualFold(enc, "text/html") || asciiEqualFold(enc, "application/xhtml+xml")
	}
	return false
}

// breaksOut reports whether a start tag named name, whose attribute key
// is attr(key) if it has one, ends foreign content, as the HTML standard's rules for
// parsing tokens in foreign content list them.
func breaksOut(name string, attr func(key string) (string, bool)) bool {
	switch name {
	case "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt",
		"em", "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li",
		"listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span",
		"strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var":
		return true
	case "font":
		_, color := attr("color")
		_, face := attr("face")
		_, size := attr("size")
		return color || face || size
	}
	return false
}
