package intent

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-web/vigil/tree"
)

// TextLink is a link written in plain text (TextLinks): an absolute http
// or https URL, at text[Start:End].
type TextLink struct {
	// URL is the link's target as written.
	URL string
	// Text is the label of a Markdown link ([label](URL)), white space
	// normalised, else the URL.
	Text string
	// Start and End are the URL's byte offsets in the text.
	Start, End int
}

// TextLinks returns the links written in text, in order: its absolute
// http and https URLs, as an autolinker finds them in plain text. A URL
// starts at "http://" or "https://" (in any case) that does not continue
// a word (xhttps://, git+https://), and runs up to white space, a control
// character, a character that cannot be in a URL (< > " ` \), or a ]
// that closes no [ of the URL (an IPv6 host's [::1] is in it), so never
// across a line break: a URL cut by one is the part before it. Then
// punctuation that ends a sentence or surrounds the URL is trimmed from
// its end (. , ; : ! ? ' * _ ~ and every punctuation mark outside ASCII:
// 」 。 …), and a closing ) ] or } that closes none of the URL: the
// parentheses of https://en.wikipedia.org/wiki/Mercury_(planet) are
// kept, those around "(see https://example.com/a)" are not. A URL in
// angle brackets, <https://example.com/a.>, is what they hold, untrimmed,
// as RFC 3986 (Appendix C) delimits one. The destination of a Markdown
// link on one line, [label](https://...), is the URL up to the ) that
// closes it (or the white space before its title), named by the label
// (Text): an llms.txt's links are named. The URLs within a label are not
// links (the Markdown link is). A URL whose host is empty, or that does
// not parse (net/url), is not a link.
func TextLinks(text string) []TextLink {
	md := markdownLinks(text)
	var out []TextLink
	for i := 0; ; {
		k := nextURL(text, i)
		if k < 0 {
			break
		}
		for len(md) > 0 && md[0].end <= k {
			out = append(out, md[0].link)
			md = md[1:]
		}
		if len(md) > 0 && md[0].from <= k {
			i = md[0].end // in a Markdown link: its label or its destination
			continue
		}
		limit := len(text)
		if len(md) > 0 {
			limit = md[0].from
		}
		end := urlEnd(text, k, limit)
		if l, ok := textLink(text, k, end, ""); ok {
			out = append(out, l)
		}
		i = max(end, k+1)
	}
	for _, m := range md {
		out = append(out, m.link)
	}
	return out
}

// markdownLink is a Markdown link of a text: link, whose label starts
// at from (its [) and whose destination ends before end (its ) or the
// white space before its title).
type markdownLink struct {
	link      TextLink
	from, end int
}

// maxLabelDepth bounds the [ markdownLinks keeps open on a line.
const maxLabelDepth = 64

// markdownLinks returns the Markdown links of text, [label](URL) on one
// line with an absolute http(s) URL, in order; nested brackets in the
// label are its text.
func markdownLinks(text string) []markdownLink {
	var out []markdownLink
	var open []int // the [ not closed yet on this line
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			open = open[:0]
		case '[':
			if len(open) < maxLabelDepth {
				open = append(open, i)
			}
		case ']':
			if len(open) == 0 {
				continue
			}
			from := open[len(open)-1]
			open = open[:len(open)-1]
			dest := i + 2
			if i+1 >= len(text) || text[i+1] != '(' || !urlAt(text, dest) {
				continue
			}
			end, ok := destinationEnd(text, dest)
			var l TextLink
			if ok {
				l, ok = textLink(text, dest, end, normalizeSpace(text[from+1:i]))
			}
			if !ok {
				// Not read again from a later ]( within it, whether it
				// runs to the line's end or is no URL with a host:
				// reading each destination once keeps a line of them
				// linear. Its URLs are read as bare ones (TextLinks).
				i = end - 1
				continue
			}
			out = append(out, markdownLink{link: l, from: from, end: end})
			open = open[:0]
			i = end - 1
		}
	}
	return out
}

// destinationEnd returns where the destination of a Markdown link that
// starts at start ends: at the ) that closes its (, or at white space
// (a title follows); false, and where it stopped reading, when the line
// ends first, or a character that cannot be in a URL stands before.
func destinationEnd(text string, start int) (int, bool) {
	depth := 0
	for i := start; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '(':
			depth++
		case r == ')':
			if depth == 0 {
				return i, true
			}
			depth--
		case r == ' ' || r == '\t':
			return i, true
		case stopsURL(r, n):
			return i, false
		}
		i += n
	}
	return len(text), false
}

// nextURL returns the offset of the next http:// or https:// (in any case)
// in text from i on that does not continue a word, or -1.
func nextURL(text string, i int) int {
	for {
		k := strings.Index(text[i:], "://")
		if k < 0 {
			return -1
		}
		k += i
		for _, scheme := range [...]string{"https", "http"} {
			s := k - len(scheme)
			if s >= i && strings.EqualFold(text[s:k], scheme) && (s == 0 || !isSchemeChar(text[s-1])) {
				return s
			}
		}
		i = k + 3
	}
}

// urlAt reports whether an http:// or https:// URL (in any case)
// starts at text[i].
func urlAt(text string, i int) bool {
	return hasPrefixFold(text[i:], "http://") || hasPrefixFold(text[i:], "https://")
}

// isSchemeChar reports whether c may be in a URL's scheme: a URL's scheme
// does not start after one (xhttps://, git+https://).
func isSchemeChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

// stopsURL reports whether r, n bytes of UTF-8, ends a URL written in
// text: white space, a control character, invalid UTF-8, or a character
// that is not in URLs and delimits them (< > " ` \).
func stopsURL(r rune, n int) bool {
	switch r {
	case '<', '>', '"', '`', '\\':
		return true
	}
	return r == utf8.RuneError && n == 1 || unicode.IsSpace(r) || unicode.IsControl(r)
}

// urlEnd returns the end of the URL that starts at start in text, before
// limit: the maximal run TextLinks describes, trimmed, or for a URL in
// angle brackets the run up to the >. It reads the run once, counting its
// brackets, so that trimming a long run of ) costs no more than reading it.
func urlEnd(text string, start, limit int) int {
	end := start
	var count [256]int // of the brackets ( ) [ ] { } in text[start:end]
run:
	for end < limit {
		r, n := utf8.DecodeRuneInString(text[end:limit])
		switch {
		case stopsURL(r, n):
			break run
		case r == ']' && count['['] == count[']']:
			break run // closes no [ of the URL
		case r == '(' || r == ')' || r == '[' || r == ']' || r == '{' || r == '}':
			count[r]++
		}
		end += n
	}
	if start > 0 && text[start-1] == '<' && end < limit && text[end] == '>' {
		return end
	}
	for end > start {
		r, n := utf8.DecodeLastRuneInString(text[start:end])
		switch r {
		case '.', ',', ';', ':', '!', '?', '\'', '*', '_', '~':
		case ')', ']', '}':
			open := byte('(')
			if r != ')' {
				open = byte(r) - 2 // [ ] and { } are two apart in ASCII
			}
			if count[open] >= count[r] {
				return end
			}
			count[r]--
		default:
			if r < utf8.RuneSelf || !unicode.IsPunct(r) {
				return end
			}
		}
		end -= n
	}
	return end
}

// textLink returns the link at text[start:end] named label ("" for the
// URL itself), or false when it is no URL with a host.
func textLink(text string, start, end int, label string) (TextLink, bool) {
	s := text[start:end]
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return TextLink{}, false
	}
	if label == "" {
		label = s
	}
	return TextLink{URL: s, Text: label, Start: start, End: end}, true
}

// addTextLinks adds to c's links those written in the text of its
// content (TextLinks), for a page read as its source text: each text
// node's, each at its node, named by its Markdown label or else by the
// URL as it resolves (the target), so that a URL respelled (a host in
// upper case) is the link it was.
func (c *content) addTextLinks() {
	for _, r := range c.roots {
		tree.Walk(r, func(n *tree.Node) bool {
			switch n.Kind {
			case tree.Text:
				for _, l := range TextLinks(n.Value) {
					href := c.resolve(l.URL)
					text := l.Text
					if text == l.URL {
						text = href
					}
					c.appendLink(n, href, text)
				}
			case tree.Element:
				return n == r || !c.skip(n)
			}
			return false
		})
	}
}
