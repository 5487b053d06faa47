package markup

import (
	"bytes"
	"math"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Refresh is an HTML page's declarative refresh, its first
// <meta http-equiv="refresh" content="..."> that parses (FindRefresh).
type Refresh struct {
	// Delay is the seconds the page asks to be shown before it is
	// reloaded or left, at most math.MaxInt32.
	Delay int
	// URL is the reference the page leads to, as written (tabs and line
	// breaks dropped, spaces around it trimmed); "" when the refresh
	// names none, a reload of the page itself.
	URL string
	// Base is the href of the first <base> with one before the meta
	// element, against which a browser resolves URL (the document's base
	// URL when the element is inserted); "" if there is none.
	Base string
}

// FindRefresh returns the first meta refresh of an HTML document whose
// content parses (ParseRefresh), as a browser with scripts reads it: a
// meta element in a <noscript>, a <script> or another element whose
// content is raw text is none, nor is one in a <template>, whose content
// is inert (and a <base> there sets no base URL); a <base> in <svg> or
// <math> is an SVG or MathML element, which sets none either, but in their
// HTML integration points (foreignContent). It reads the document
// with golang.org/x/net/html's tokenizer, up to that element.
func FindRefresh(doc []byte) (Refresh, bool) {
	z := html.NewTokenizer(bytes.NewReader(doc))
	var base string
	baseSeen := false
	templates := 0 // the <template> elements open
	var foreign foreignContent
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return Refresh{}, false
		case html.EndTagToken:
			name, _ := z.TagName()
			if templates > 0 {
				if atom.Lookup(name) == atom.Template {
					templates--
				}
				continue
			}
			foreign.end(string(name))
		case html.StartTagToken, html.SelfClosingTagToken:
			if templates > 0 {
				if name, _ := z.TagName(); atom.Lookup(name) == atom.Template {
					templates++
				}
				continue
			}
			name, hasAttr := z.TagName()
			// The attributes are read once, and only for the few tags
			// that need them.
			var attrs map[string]string
			read := func() map[string]string {
				if hasAttr && attrs == nil {
					attrs = tagAttrs(z)
				}
				return attrs
			}
			if foreign.start(string(name), tt == html.SelfClosingTagToken, func(k string) (string, bool) {
				v, ok := read()[k]
				return v, ok
			}) {
				// An SVG or MathML element: a base there is none, a
				// template no template.
				continue
			}
			a := atom.Lookup(name)
			if a == atom.Template {
				// Never void: <template/> opens one too.
				templates++
				continue
			}
			switch a {
			case atom.Base:
				if href, ok := read()["href"]; ok && !baseSeen {
					base, baseSeen = href, true
				}
			case atom.Meta:
				attrs := read()
				equiv, ok := attrs["http-equiv"]
				if !ok || !strings.EqualFold(strings.TrimSpace(equiv), "refresh") {
					continue
				}
				content, ok := attrs["content"]
				if !ok {
					continue
				}
				if delay, ref, ok := ParseRefresh(content); ok {
					return Refresh{Delay: delay, URL: ref, Base: base}, true
				}
			}
		}
	}
}

// tagAttrs returns the attributes of the tag z is at, by lower-case name,
// the first of each name (as the HTML parser keeps them).
func tagAttrs(z *html.Tokenizer) map[string]string {
	attrs := map[string]string{}
	for {
		k, v, more := z.TagAttr()
		if _, dup := attrs[string(k)]; !dup {
			attrs[string(k)] = string(v)
		}
		if !more {
			return attrs
		}
	}
}

// ParseRefresh reads the content of a meta refresh as the HTML standard's
// shared declarative refresh steps do: a delay in seconds (digits, a
// fraction after a full stop ignored: "0", "5", ".5", "1.5"), then, after
// a ";" or "," and spaces, the URL, optionally after "url" and "=" (in any
// case, spaces around "="), optionally in single or double quotes, which
// end it: `0; url=/a`, `0;URL='/a'`, `5 , URL = "/a"`, `3;/a`. ok is false
// for content the standard ignores (no delay: "", "x", "; url=/a"; a
// delay followed by another character: "5x"). ref is "" for a refresh of
// the page itself ("30"). The delay is at most math.MaxInt32.
func ParseRefresh(content string) (delay int, ref string, ok bool) {
	s := strings.TrimLeft(content, asciiSpace)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if delay < math.MaxInt32 {
			delay = min(delay*10+int(s[i]-'0'), math.MaxInt32)
		}
		i++
	}
	if i == 0 && (i >= len(s) || s[i] != '.') {
		return 0, "", false
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	s = s[i:]
	if s == "" {
		return delay, "", true
	}
	if s[0] != ';' && s[0] != ',' && !strings.ContainsRune(asciiSpace, rune(s[0])) {
		return 0, "", false
	}
	s = strings.TrimLeft(s, asciiSpace)
	if s != "" && (s[0] == ';' || s[0] == ',') {
		s = s[1:]
	}
	s = strings.TrimLeft(s, asciiSpace)
	if s == "" {
		return delay, "", true
	}
	ref = s
	if len(s) >= 3 && strings.EqualFold(s[:3], "url") {
		rest := strings.TrimLeft(s[3:], asciiSpace)
		if !strings.HasPrefix(rest, "=") {
			return delay, cleanRef(ref), true // "urlx": a URL that begins so
		}
		s = strings.TrimLeft(rest[1:], asciiSpace)
	}
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		quote := s[0]
		s = s[1:]
		if end := strings.IndexByte(s, quote); end >= 0 {
			s = s[:end]
		}
	}
	return delay, cleanRef(s), true
}

// asciiSpace is the HTML standard's ASCII white space.
const asciiSpace = "\t\n\f\r "

// cleanRef drops the tabs and line breaks a URL parser drops and trims
// the spaces around it.
func cleanRef(ref string) string {
	ref = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, ref)
	return strings.Trim(ref, asciiSpace)
}
