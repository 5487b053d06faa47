package markup

import (
	"bytes"
	"html"
	"strings"
)

// HTMLLinks returns, in document order, the raw href values of the links
// of an HTML page (a and area elements' href, any element's xlink:href)
// and of its base elements, their character references decoded, without
// building a tree or tokenising the text: a crawler that wants only a
// page's out-links (its importance) reads them at the cost of a scan for
// tags. It reads tags as golang.org/x/net/html's tokenizer does: names
// and attribute names case-insensitively, the first of an attribute
// written twice, no tag in comments, in the text of raw text elements
// (script, style, textarea, title...) or in a doctype; an element with
// both an href and an xlink:href gives its href. What a <template> holds
// is no link nor base of the page: its content is inert, never shown nor
// followed in a browser (a template in svg, an SVG element, is taken for
// one too, unlike FindRefresh: pages hold none). A base in svg or
// math, an SVG or MathML element that sets no base URL, is one here: a
// caller that finds a base reads the page's tree, where intent.PageBase
// passes it over. The values are as
// written: the caller resolves them against the page's URL and its bases
// in turn (a base resolved against the one before), and bytes are not
// decoded from the page's charset. A body cut short in a tag gives the
// links before it. Unlike the tokenizer, it does not follow the escapes of
// script data (a script's "<!--" then "<script"): the text after the
// script's first "</script" is read for tags. It reads HTML only: a feed
// (an XML document whose links are its entries', not a elements) has
// none here, and a caller reads a body Detect finds XML from its tree.
// Why it is not the tokenizer: see the package doc.
func HTMLLinks(b []byte) (hrefs, bases []string) {
	s := linkScanner{b: b}
	for s.next() {
		switch {
		case s.name == "base":
			if s.hasHref {
				bases = append(bases, s.href)
			}
		case (s.name == "a" || s.name == "area") && s.hasHref:
			hrefs = append(hrefs, s.href)
		case s.hasXlink:
			hrefs = append(hrefs, s.xlink)
		}
	}
	return hrefs, bases
}

// linkScanner reads the start tags of an HTML document.
type linkScanner struct {
	b   []byte
	pos int
	// The start tag read last: its name, lower-cased if it is one of the
	// few HTMLLinks looks at, and its href and xlink:href (the href only
	// for a, area and base).
	name              string
	href, xlink       string
	hasHref, hasXlink bool
	templates         int // the template elements open, whose content is inert
}

// next reads up to the next start tag; false at the end.
func (s *linkScanner) next() bool {
	b := s.b
	for {
		i := bytes.IndexByte(b[s.pos:], '<')
		if i < 0 {
			return false
		}
		s.pos += i + 1
		if s.pos >= len(b) {
			return false
		}
		switch c := b[s.pos]; {
		case isLetter(c):
			if !s.startTag() {
				return false
			}
			if raw := s.rawTextOf(); raw != "" {
				s.skipRaw(raw)
			}
			if s.name == "template" {
				// Never void: <template/> opens one too.
				s.templates++
				continue
			}
			if s.templates > 0 {
				continue // inert
			}
			return true
		case c == '!':
			if bytes.HasPrefix(b[s.pos:], []byte("!--")) {
				s.skipComment()
			} else {
				s.skipTo('>') // a doctype, a bogus comment
			}
		case c == '/':
			if s.templates > 0 && s.endTagIs("template") {
				s.templates--
			}
			s.skipTo('>') // an end tag, a bogus comment
		case c == '?':
			s.skipTo('>') // a bogus comment
		}
	}
}

// endTagIs reports whether the end tag whose "/" is at s.pos is named
// name (lower case), in any case of its ASCII letters.
func (s *linkScanner) endTagIs(name string) bool {
	i := s.pos + 1
	if i >= len(s.b) || !isLetter(s.b[i]) {
		return false
	}
	j := i
	for j < len(s.b) && !isTagEnd(s.b[j]) {
		j++
	}
	return asciiEqualFold(s.b[i:j], name)
}

// skipTo moves past the next c, or to the end.
func (s *linkScanner) skipTo(c byte) {
	if i := bytes.IndexByte(s.b[s.pos:], c); i >= 0 {
		s.pos += i + 1
	} else {
		s.pos = len(s.b)
	}
}

// skipComment moves past the comment at s.pos ("!--": CommentEnd).
func (s *linkScanner) skipComment() {
	s.pos = CommentEnd(s.b, s.pos+len("!--"))
}

// rawTextOf returns the name of the raw text element the tag read last
// opens, "" if it opens none.
func (s *linkScanner) rawTextOf() string {
	if s.name == "" {
		return ""
	}
	return RawTextElement(s.name)
}

// skipRaw moves past the text of raw text element name (RawTextEnd).
func (s *linkScanner) skipRaw(name string) {
	s.pos = RawTextEnd(s.b, s.pos, name)
}

// startTag reads the start tag whose name begins at s.pos, its attributes
// and its ">". It returns false for a tag cut short by the end.
func (s *linkScanner) startTag() bool {
	b := s.b
	s.href, s.xlink, s.hasHref, s.hasXlink = "", "", false, false
	i := s.pos
	for i < len(b) && !isTagEnd(b[i]) {
		i++
	}
	s.name = lowerName(b[s.pos:i])
	linkTag := s.name == "a" || s.name == "area" || s.name == "base"
	for {
		for i < len(b) && (isSpace(b[i]) || b[i] == '/') {
			i++
		}
		if i >= len(b) {
			return false
		}
		if b[i] == '>' {
			s.pos = i + 1
			return true
		}
		// An attribute name: up to white space, "/", ">" or "=" (a
		// first "=" belongs to the name).
		start := i
		i++
		for i < len(b) && !isTagEnd(b[i]) && b[i] != '=' {
			i++
		}
		key := b[start:i]
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		var val []byte
		if i < len(b) && b[i] == '=' {
			i++
			for i < len(b) && isSpace(b[i]) {
				i++
			}
			if i >= len(b) {
				return false
			}
			switch q := b[i]; q {
			case '"', '\'':
				j := bytes.IndexByte(b[i+1:], q)
				if j < 0 {
					return false
				}
				val, i = b[i+1:i+1+j], i+2+j
			default:
				start := i
				for i < len(b) && !isSpace(b[i]) && b[i] != '>' {
					i++
				}
				val = b[start:i]
			}
		}
		switch {
		case linkTag && !s.hasHref && asciiEqualFold(key, "href"):
			s.href, s.hasHref = unescape(val), true
		case !s.hasXlink && asciiEqualFold(key, "xlink:href"):
			s.xlink, s.hasXlink = unescape(val), true
		}
	}
}

// linkNames are the tag names HTMLLinks and rawText compare with
// (HTMLLinks skips what a template holds).
var linkNames = append([]string{"a", "area", "base", "template"}, rawText...)

// lowerName returns a tag name lower-cased: as a constant for the names
// of linkNames, without allocating; "" for another.
func lowerName(name []byte) string {
	for _, n := range linkNames {
		if asciiEqualFold(name, n) {
			return n
		}
	}
	return ""
}

// unescape is UnescapeAttr of a value as written in b.
func unescape(v []byte) string {
	return UnescapeAttr(string(v))
}

// UnescapeAttr decodes the character references of an attribute value as
// an HTML parser does: a named one without its ";" (of those that may
// lack it, "&amp", "&copy"...) is left as it is when a letter, a digit or
// "=" follows it, so that a query's "&copy=1" stays, where
// html.UnescapeString, which decodes text, reads "©=1".
// As the tokenizer does, it reads a NUL as U+FFFD and "\r\n" or "\r" as
// "\n".
func UnescapeAttr(s string) string {
	if strings.ContainsAny(s, "\x00\r") {
		s = strings.NewReplacer("\x00", "\uFFFD", "\r\n", "\n", "\r", "\n").Replace(s)
	}
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		n := refLen(s)
		b.WriteString(html.UnescapeString(s[:n]))
		s = s[n:]
	}
}

// refLen returns the length of the character reference s begins with
// ("&"), as far as an attribute value decodes it: 1 for an "&" that
// begins none (decoded as itself).
func refLen(s string) int {
	j := 1
	if j < len(s) && s[j] == '#' {
		// A numeric reference, decoded with or without its ";"; none
		// without a digit ("&#x;", which html.UnescapeString reads as
		// U+FFFD).
		digit := isDigit
		if k := j + 1; k < len(s) && s[k]|0x20 == 'x' {
			digit = isHexDigit
			j++
		}
		if j+1 >= len(s) || !digit(s[j+1]) {
			return 1
		}
		for j++; j < len(s) && (isAlnum(s[j])); j++ {
		}
		if j < len(s) && s[j] == ';' {
			j++
		}
		return j
	}
	for j < len(s) && isAlnum(s[j]) {
		j++
	}
	name := s[1:j]
	if name == "" {
		return 1
	}
	if j < len(s) && s[j] == ';' {
		// Decoded whole, rather than a prefix of its name before the
		// rest and ";".
		if d := html.UnescapeString(s[:j+1]); !strings.HasSuffix(d, s[j-1:j+1]) {
			return j + 1
		}
	}
	// The longest prefix of name that is a reference without ";": its
	// decoding no longer ends in name's letters (no reference decodes to
	// a letter or digit).
	for k := min(len(name), longestBare); k > 0; k-- {
		d := html.UnescapeString(s[:1+k])
		if d[len(d)-1] == name[k-1] {
			continue
		}
		if next := 1 + k; next < len(s) && (isAlnum(s[next]) || s[next] == '=') {
			return 1 // left as it is, in an attribute
		}
		return 1 + k
	}
	return 1
}

// longestBare is the length of the longest name of a reference that may
// lack its ";" ("acirc", "frac12"; as golang.org/x/net/html has it).
const longestBare = 6

// asciiEqualFold reports whether b is s (lower-case ASCII) in any case of
// its ASCII letters, as the tokenizer lowers names: bytes.EqualFold would
// fold "ſ" to "s" and "K" (U+212A) to "k" as well.
func asciiEqualFold[T string | []byte](b T, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool { return isLetter(c) || isDigit(c) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHexDigit(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isTagEnd reports whether c ends a tag or attribute name.
func isTagEnd(c byte) bool { return isSpace(c) || c == '/' || c == '>' }
