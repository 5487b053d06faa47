package markup

import (
	"errors"
	"io"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// voidHTML lists the HTML elements that have no end tag.
var voidHTML = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true,
	"hr": true, "img": true, "input": true, "keygen": true, "link": true,
	"meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

// rawTextHTML lists the HTML elements whose text is written unescaped (the
// HTML tokenizer reads it as raw text).
var rawTextHTML = map[string]bool{
	"script": true, "style": true, "xmp": true, "iframe": true,
	"noembed": true, "noframes": true, "noscript": true, "plaintext": true,
}

// WriteHTML writes d as HTML5 in UTF-8, and a meta element's charset (or
// http-equiv Content-Type charset) says utf-8: the DOCTYPE (as HTML can hold
// it, see htmlDoctype), the prolog comments,
// the root element and the epilog comments. Void elements get no end tag;
// the text of raw-text elements (script, style, ...) is written as it is;
// other text escapes &, < and >, attribute values & and ". Nothing is
// written after the content of a plaintext element, which HTML cannot
// close. Empty elements
// inside svg and math are written as self-closing tags. By default nothing
// is added, so ParseHTML of the output with the Keep policy gives back a
// tree parsed from HTML. A tree parsed from XML may not survive an HTML
// parse unchanged (HTML moves misplaced elements, for one).
func WriteHTML(w io.Writer, d *tree.Document, opt *WriteOptions) error {
	if d == nil || d.Root == nil {
		return errors.New("markup: write HTML: document has no root element")
	}
	x := newXMLWriter(w, opt)
	omit := opt != nil && opt.OmitProlog
	if !omit {
		_, before, after := d.SplitProlog()
		for _, n := range before {
			if n.Kind == tree.Comment {
				x.htmlNode(n, false)
				x.line()
			}
		}
		if d.Doctype != "" {
			x.str("<!DOCTYPE ")
			x.str(htmlDoctype(d.Doctype))
			x.str(">")
			x.line()
		}
		for _, n := range after {
			if n.Kind == tree.Comment {
				x.htmlNode(n, false)
				x.line()
			}
		}
	}
	x.htmlNode(d.Root, false)
	if !omit {
		for _, n := range d.Epilog {
			if n.Kind == tree.Comment {
				x.line()
				x.htmlNode(n, false)
			}
		}
	}
	if x.indent != "" {
		x.str("\n")
	}
	return x.flush()
}

// WriteNodeHTML writes the subtree at n as HTML.
func WriteNodeHTML(w io.Writer, n *tree.Node, opt *WriteOptions) error {
	if n == nil {
		return errors.New("markup: write HTML: nil node")
	}
	x := newXMLWriter(w, opt)
	x.htmlNode(n, false)
	return x.flush()
}

// htmlNode writes the subtree at n as HTML without recursion. foreign says
// whether n's parent is in SVG or MathML content.
func (x *xmlWriter) htmlNode(n *tree.Node, foreign bool) {
	type frame struct {
		n       *tree.Node
		next    int
		foreign bool // children are in foreign content
		raw     bool // children's text is raw text
		// preserve: inside an element whose white space is content (pre,
		// textarea...): nothing is indented below it, where a parse keeps
		// white space alone.
		preserve bool
		indent   bool
	}
	push := func(stack []frame, n *tree.Node, parentForeign bool) []frame {
		f := frame{n: n, foreign: childForeign(n.Name, parentForeign)}
		f.raw = !parentForeign && rawTextHTML[n.Name]
		f.preserve = !parentForeign && preserveHTML[n.Name] || len(stack) > 0 && stack[len(stack)-1].preserve
		f.indent = x.indent != "" && !hasText(n) && !f.raw && !f.preserve
		return append(stack, f)
	}
	var stack []frame
	visit := func(c *tree.Node, parentForeign, raw bool) {
		switch c.Kind {
		case tree.Text:
			if raw {
				x.str(c.Value)
			} else {
				x.escapeHTML(c.Value, false)
			}
		case tree.Comment:
			x.str("<!--")
			x.str(c.Value)
			x.str("-->")
		case tree.ProcInst:
			// HTML has no processing instructions; the tokenizer reads
			// "<?...>" as a comment.
			x.str("<!--?")
			x.str(c.Name)
			if c.Value != "" {
				x.byte(' ')
				x.str(c.Value)
			}
			x.str("?-->")
		case tree.Element:
			x.byte('<')
			x.str(c.Name)
			for _, a := range c.Attrs {
				x.byte(' ')
				x.str(a.Name)
				x.str(`="`)
				x.escapeHTML(metaCharset(c, a, parentForeign), true)
				x.byte('"')
			}
			switch {
			case !parentForeign && voidHTML[c.Name]:
				x.byte('>')
			case len(c.Children) == 0 && (parentForeign || c.Name == "svg" || c.Name == "math"):
				x.str("/>")
			default:
				x.byte('>')
				if len(c.Children) == 0 && !parentForeign && c.Name == "plaintext" {
					x.stopped = true // no end tag can follow, nor anything else
					return
				}
				if len(c.Children) == 0 {
					x.str("</")
					x.str(c.Name)
					x.byte('>')
					return
				}
				// The parser drops a newline right after these start
				// tags: write one more to keep a leading newline.
				if !parentForeign && (c.Name == "pre" || c.Name == "textarea" || c.Name == "listing") {
					if f := c.Children[0]; f.Kind == tree.Text && strings.HasPrefix(f.Value, "\n") {
						x.byte('\n')
					}
				}
				stack = push(stack, c, parentForeign)
			}
		}
	}
	visit(n, foreign, false)
	for len(stack) > 0 && x.err == nil {
		top := &stack[len(stack)-1]
		if top.next == len(top.n.Children) {
			if top.raw && top.n.Name == "plaintext" {
				x.stopped = true // no end tag can follow, nor anything else
				return
			}
			if top.indent {
				x.newline(len(stack) - 1)
			}
			x.str("</")
			x.str(top.n.Name)
			x.byte('>')
			stack = stack[:len(stack)-1]
			continue
		}
		c := top.n.Children[top.next]
		top.next++
		if top.indent {
			x.newline(len(stack))
		}
		visit(c, top.foreign, top.raw)
	}
}

// childForeign reports whether the children of an element named name are
// in foreign (SVG or MathML) content.
func childForeign(name string, parentForeign bool) bool {
	switch {
	case !parentForeign:
		return name == "svg" || name == "math"
	case name == "foreignObject", name == "desc", name == "title",
		name == "annotation-xml", name == "mi", name == "mo", name == "mn",
		name == "ms", name == "mtext":
		return false // HTML integration points
	}
	return true
}

// escapeHTML writes s as HTML text or, if attr, as an attribute value.
func (x *xmlWriter) escapeHTML(s string, attr bool) {
	last := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case '&':
			rep = "&amp;"
		case '<':
			if attr {
				continue
			}
			rep = "&lt;"
		case '>':
			if attr {
				continue
			}
			rep = "&gt;"
		case '"':
			if !attr {
				continue
			}
			rep = "&quot;"
		case '\r':
			rep = "&#13;"
		case 0:
			rep = "&#0;"
		default:
			continue
		}
		x.str(s[last:i])
		x.str(rep)
		last = i + 1
	}
	x.str(s[last:])
}

// metaCharset returns the value to write for attribute a of element n: a
// meta element's charset, or the charset parameter of its http-equiv
// Content-Type, becomes utf-8, as what WriteHTML writes is; any other value
// as it is.
func metaCharset(n *tree.Node, a tree.Attr, foreign bool) string {
	if foreign || !strings.EqualFold(n.Name, "meta") {
		return a.Value
	}
	switch {
	case strings.EqualFold(a.Name, "charset"):
		if isUTF8Label(a.Value) {
			return a.Value // as written: UTF-8, utf-8
		}
		return "utf-8"
	case strings.EqualFold(a.Name, "content"):
		equiv, _ := n.Attr("http-equiv")
		if !strings.EqualFold(strings.TrimSpace(equiv), "content-type") {
			return a.Value
		}
		from, to, ok := charsetParam(a.Value)
		if !ok || isUTF8Label(strings.Trim(a.Value[from:to], `"'`)) {
			return a.Value
		}
		return a.Value[:from] + "utf-8" + a.Value[to:]
	}
	return a.Value
}

// charsetParam finds the value of the charset parameter of a Content-Type
// value: the bytes [from, to) after "charset" (in any case, not inside a
// longer word) and "=", spaces around it allowed, up to a ';' or a space.
// It matches ASCII only, so positions are those of v.
func charsetParam(v string) (from, to int, ok bool) {
	const word = "charset"
	for k := 0; k+len(word) <= len(v); k++ {
		if !asciiFold(v[k:k+len(word)], word) || k > 0 && isWordByte(v[k-1]) {
			continue
		}
		i := k + len(word)
		for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
			i++
		}
		if i == len(v) || v[i] != '=' {
			continue
		}
		i++
		for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
			i++
		}
		j := i
		for j < len(v) && v[j] != ';' && v[j] != ' ' && v[j] != '\t' {
			j++
		}
		return i, j, true
	}
	return 0, 0, false
}

// asciiFold reports whether s equals the lower-case ASCII word w, ASCII
// letters in any case.
func asciiFold(s, w string) bool {
	for i := range len(w) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// isUTF8Label reports whether a charset label names UTF-8 itself.
func isUTF8Label(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return s == "utf-8" || s == "utf8"
}

// htmlDoctype returns doctype, the text of a DOCTYPE, as HTML can hold
// it: an HTML tokenizer ends a DOCTYPE at its first >, so that the rest of
// an XML internal subset ("[<!ENTITY x 'y'>]") or of a quoted identifier
// holding a > would be written as the page's text or markup. Such a
// DOCTYPE is cut before its internal subset, which HTML does not read,
// and one that still holds a > to its name.
func htmlDoctype(doctype string) string {
	if !strings.Contains(doctype, ">") {
		return doctype
	}
	if i := strings.IndexByte(doctype, '['); i >= 0 {
		doctype = strings.TrimRight(doctype[:i], " \t\r\n")
	}
	if strings.Contains(doctype, ">") {
		if f := strings.Fields(doctype); len(f) > 0 {
			doctype = f[0]
		}
		doctype, _, _ = strings.Cut(doctype, ">")
	}
	return doctype
}
