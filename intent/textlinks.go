package intent

import (
	"cmp"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// TextLink is a link written in plain text (TextLinks): an absolute http
// or https URL, written at text[Start:End].
type TextLink struct {
	// URL is the link's target: the URL as written, but for one written
	// from www., which has http:// before it, and one written in JSON,
	// whose escapes TextLinks reads are read (its \/ are /).
	URL string
	// Text is the label of a Markdown link ([label](URL)), white space
	// normalised, else the URL.
	Text string
	// Start and End are the byte offsets in the text of the URL as
	// written.
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
//
// Two more ways of writing a URL are read. A URL whose scheme is followed
// by an escaped separator, "https:\/\/", is one written in a JSON string
// with its slashes escaped (PHP's json_encode and many APIs write them
// so): its \/ and \u002f are read as /, the \u escapes of characters
// outside ASCII that are no white space or punctuation as those (PHP
// writes bücher as b\u00fccher) and \u0026 as & (Go writes & so), and
// any other escape (\" \n \u0022 \u003c \\) ends it as a backslash ends
// any URL, so that the URL of {"url":"https:\/\/example.com\/a"} is
// https://example.com/a, never one holding a backslash. A URL without
// such a separator is read as above, a backslash ending it, but that it
// reads the same \u escapes, but for those of /: JSON that escapes its
// letters and not its slashes (Python's json.dumps writes
// "https://b\u00fccher.example/") links to https://bücher.example/, not
// to a host cut at the escape (https://b). In both, an escaped line
// break or tab (\n \r \t \b \f) before the scheme separates it as white
// space does (every JSON encoder escapes a line break:
// "See:\nhttps://example.com/a" links to https://example.com/a), and so
// does the \u escape of a character that is in no scheme (Go writes
// <p>https://... as \u003cp\u003ehttps://...).
// And, as GitHub's Markdown finds its extended www autolinks, "www." at
// the start of a line or after white space or one of * _ ~ ( , followed by
// a valid domain (letters, digits, _ and -, in segments separated by
// periods, at least one period after the www., no _ in the last two
// segments), starts a URL that runs and is trimmed as the others, whose
// target is http:// and it: "Visit www.example.com/a." links to
// http://www.example.com/a. Neither xwww.example.com, nor WWW.EXAMPLE.COM
// (GitHub's www. is in lower case), nor a domain without its www., nor
// www.example (no period after the www.) is one. Such a URL reads JSON's
// escapes as an http:// one does (its domain's too: www.b\u00fccher.example),
// and as an escaped one does when the slash after its domain (and port)
// is escaped, www.example.org\/a, which tells a JSON string with its
// slashes escaped: it may then start after the " that opens the string,
// so that {"url":"www.example.org\/a"} links to http://www.example.org/a
// (a quoted www. with no escaped slash is none, as in GitHub's Markdown).
// An escaped line break, tab or form feed before it (\n \r \t \f), or the
// \u escape of white space or of * _ ~ (, is what it stands for. A
// Markdown link whose destination starts with such a www. domain,
// [label](www.example.org/a), is named by its label as the others.
func TextLinks(text string) []TextLink {
	md := markdownLinks(text)
	sc := urlScanner{text: text}
	var out []TextLink
	for i := 0; ; {
		k, kind := sc.next(i)
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
		end := urlEnd(text, k, limit, kind)
		if l, ok := textLink(text, k, end, kind, ""); ok {
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
// line with an absolute http(s) URL or a www. domain (wwwDomain), in
// order; nested brackets in the label are its text.
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
			if i+1 >= len(text) || text[i+1] != '(' {
				continue
			}
			kind := plainURL
			if !urlAt(text, dest) {
				// The domain run is read once a destination: no run
				// holds the ]( of another.
				if !strings.HasPrefix(text[dest:], "www.") || !wwwDomain(text, readDomainRun(text, dest+len("www.")), dest+len("www.")) {
					continue
				}
				kind = wwwURL
			}
			end, ok := destinationEnd(text, dest)
			var l TextLink
			if ok {
				l, ok = textLink(text, dest, end, kind, normalizeSpace(text[from+1:i]))
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

// urlKind is how a URL TextLinks reads is written.
type urlKind int

const (
	plainURL   urlKind = iota // http:// or https://
	escapedURL                // http:\/\/ or https:\/\/, in a JSON string
	wwwURL                    // www., for http://www.
	// escapedWWW is a www. whose domain is followed by \/, in a JSON
	// string with its slashes escaped; urlScanner finds it as a wwwURL
	// (it has no mark of its own).
	escapedWWW
)

// urlMarks are the marks urlScanner searches a text for, by kind: the
// separator after a URL's scheme, or the www. that starts it.
var urlMarks = [...]string{plainURL: "://", escapedURL: `:\/\/`, wwwURL: "www."}

// urlScanner finds where the URLs of a text start (next). It keeps the
// next URL of each kind it found, so that the text is searched once for
// each kind however many URLs of another it holds, and the domain run
// it read last, so that a run's www. are checked in constant time each.
type urlScanner struct {
	text string
	// at is the start of the next URL of each kind found, -1 when there
	// is none; one before the offset next searches from is stale.
	at       [len(urlMarks)]int
	searched [len(urlMarks)]bool // whether at holds a result (the kind was searched for)
	run      domainRun           // the run of domain characters wwwAt read last
	// wwwEscaped tells that the www. URL at at[wwwURL] is an escapedWWW.
	wwwEscaped bool
}

// next returns the offset of the next URL in the text from i on, and its
// kind, or -1: an http:// or https:// (in any case), or the same with
// its slashes escaped, that does not continue a word, or a www. followed
// by a valid domain where GitHub's autolinks may start (an escapedWWW
// when the slash after it is escaped). The i of each call is at least
// that of the one before.
func (s *urlScanner) next(i int) (int, urlKind) {
	best, kind := -1, plainURL
	for k := range urlMarks {
		if !s.searched[k] || s.at[k] >= 0 && s.at[k] < i {
			s.at[k], s.searched[k] = s.find(urlKind(k), i), true
		}
		if s.at[k] >= 0 && (best < 0 || s.at[k] < best) {
			best, kind = s.at[k], urlKind(k)
		}
	}
	if kind == wwwURL && s.wwwEscaped {
		kind = escapedWWW
	}
	return best, kind
}

// find returns the offset of the next URL of kind in the text from i on,
// or -1.
func (s *urlScanner) find(kind urlKind, i int) int {
	mark := urlMarks[kind]
	for j := i; ; {
		k := strings.Index(s.text[j:], mark)
		if k < 0 {
			return -1
		}
		k += j
		if kind == wwwURL {
			if ok, escaped := s.wwwAt(k); ok {
				s.wwwEscaped = escaped
				return k
			}
		} else if start := schemeBefore(s.text, k, i); start >= 0 {
			return start
		}
		j = k + len(mark) // no mark overlaps itself
	}
}

// schemeBefore returns where the scheme http or https (in any case) that
// ends at text[k] starts, from i on, when it does not continue a word, or
// -1. A \n, \r, \t, \b or \f before it (in a JSON string, whether or not
// its slashes are escaped) separates it, as the character it stands for,
// and so does the \u escape of a character that is in no scheme.
func schemeBefore(text string, k, i int) int {
	for _, scheme := range [...]string{"https", "http"} {
		s := k - len(scheme)
		if s >= i && strings.EqualFold(text[s:k], scheme) && (s == 0 || !isSchemeChar(text[s-1]) || jsonEscapeBefore(text, s)) {
			return s
		}
	}
	return -1
}

// jsonEscapeBefore reports whether text[:s] ends with the JSON escape of
// a control character, \n \r \t \b or \f, or the \u escape of a
// character that is in no scheme (\u003e): the letter after an odd run of
// backslashes (an even one is backslashes escaped).
func jsonEscapeBefore(text string, s int) bool {
	return escapeBefore(text, s, "nrtbf", func(r rune) bool { return r >= utf8.RuneSelf || !isSchemeChar(byte(r)) })
}

// escapeBefore reports whether text[:s] ends with a JSON escape \c, c one
// of letters, or a \u escape of a character stands reports true of: the
// letter or \u after an odd run of backslashes (an even one is
// backslashes escaped).
func escapeBefore(text string, s int, letters string, stands func(rune) bool) bool {
	e := s - 2 // the backslash
	if s >= 6 {
		if r, ok := hexEscape(text[s-6 : s]); ok && stands(r) {
			e = s - 6
		}
	}
	if e < 0 || e == s-2 && !strings.ContainsRune(letters, rune(text[s-1])) {
		return false
	}
	b := e
	for b >= 0 && text[b] == '\\' {
		b--
	}
	return (e-b)%2 == 1
}

// wwwAt reports whether the www. at text[k:] starts an extended www
// autolink as GitHub's Markdown finds them: at the start of a line or
// after white space or one of * _ ~ ( (or a JSON escape of one:
// wwwEscapeBefore), and followed by a valid domain (wwwDomain), and
// whether the slash after its domain and port is escaped (\/), which
// tells a JSON string with its slashes escaped: such a www. may also
// start after the " that opens the string.
func (s *urlScanner) wwwAt(k int) (ok, escaped bool) {
	quoted := false
	if k > 0 {
		switch s.text[k-1] {
		case ' ', '\t', '\n', '\v', '\f', '\r', '*', '_', '~', '(':
		case '"':
			quoted = true
		default:
			if !wwwEscapeBefore(s.text, k) {
				return false, false
			}
		}
	}
	d := k + len("www.")
	if d >= len(s.text) || s.text[d] == '.' {
		return false, false
	}
	if d < s.run.start || d >= s.run.end {
		s.run = readDomainRun(s.text, d)
	}
	if !wwwDomain(s.text, s.run, d) {
		return false, false
	}
	escaped = slashEscapedAfter(s.text, s.run.end)
	return escaped || !quoted, escaped
}

// wwwEscapeBefore reports whether text[:k] ends with the JSON escape of a
// character a www. autolink may follow: \n \r \t \f, or the \u escape of
// white space or of * _ ~ (.
func wwwEscapeBefore(text string, k int) bool {
	return escapeBefore(text, k, "nrtf", func(r rune) bool {
		return r == '*' || r == '_' || r == '~' || r == '(' || unicode.IsSpace(r)
	})
}

// wwwDomain reports whether the domain from text[d] on, in run r (read
// from d or before it), is a valid domain for a www. autolink: letters,
// digits, _ and -, in segments separated by periods, its first not
// empty, at least one period, no _ in the last two segments; the periods
// and _ that end it end a sentence or an emphasis.
func wwwDomain(text string, r domainRun, d int) bool {
	if d >= len(text) || text[d] == '.' || r.end == d || r.lastDot < d || r.underLast {
		return false // not a domain character, no period, or a _ in the last segment
	}
	return r.lastUnder < max(r.prevDot+1, d) // none in the one before
}

// slashEscapedAfter reports whether the text after a domain that ends at
// text[end] (a port, :digits, may follow it) starts with an escaped
// slash, \/.
func slashEscapedAfter(text string, end int) bool {
	if end < len(text) && text[end] == ':' {
		end++
		for end < len(text) && text[end] >= '0' && text[end] <= '9' {
			end++
		}
	}
	return strings.HasPrefix(text[end:], `\/`)
}

// domainRun is a run of a text's domain characters (letters, digits,
// _ - and ., and the JSON escapes of letters and digits outside ASCII:
// \u00fc), text[start:end], and what tells whether the domain from
// any offset in it on is valid (urlScanner.wwwAt), its trailing periods
// and _ left out (they end a sentence or an emphasis): its last period
// and the one before (-1 for none), its last _ before its last period
// (-1 for none), and whether a _ follows its last period.
type domainRun struct {
	start, end       int
	lastDot, prevDot int
	lastUnder        int
	underLast        bool
}

// readDomainRun reads the run of domain characters of text from start.
func readDomainRun(text string, start int) domainRun {
	r := domainRun{start: start, end: start, lastDot: -1, prevDot: -1, lastUnder: -1}
	cur, under := r, -1 // as read so far; under is its last _
	for r.end < len(text) {
		c, n := utf8.DecodeRuneInString(text[r.end:])
		if c == '\\' {
			n, c = jsonEscape(text[r.end:], false)
			if n == 0 {
				return r
			}
		}
		switch {
		case c == '.':
			cur.prevDot, cur.lastDot, cur.lastUnder = cur.lastDot, r.end, under
		case c == '_':
			under = r.end
		case isDomainRune(c):
			// The domain runs up to here: what is read so far is its own.
			r.lastDot, r.prevDot, r.lastUnder = cur.lastDot, cur.prevDot, cur.lastUnder
			r.underLast = under > cur.lastDot
		default:
			return r
		}
		r.end += n
	}
	return r
}

// isDomainRune reports whether r may be in a segment of a domain that
// www. starts, other than _: a letter, a digit or -.
func isDomainRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-'
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
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
// angle brackets the run up to the >. The run of an escaped one (JSON's
// https:\/\/) reads the escapes jsonEscape reads, that of an http:// or
// https:// one those but the escapes of /, and either ends at another;
// as none of them stands for a character trimmed or counted, and each
// ends with one that is neither, its trimming reads it as written. The
// run of a www. one reads those of an http:// one, or of an escaped one
// when it is one (escapedWWW). It reads the run once, counting its
// brackets, so that trimming a long run of ) costs no more than reading it.
func urlEnd(text string, start, limit int, kind urlKind) int {
	end := start
	var count [256]int // of the brackets ( ) [ ] { } in text[start:end]
run:
	for end < limit {
		if text[end] == '\\' {
			n, _ := jsonEscape(text[end:limit], kind == escapedURL || kind == escapedWWW)
			if n == 0 {
				break // another escape ends it, as a backslash ends any URL
			}
			end += n
			continue
		}
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

// jsonEscape returns the length of the JSON escape that starts s and
// the character it stands for, when a URL may hold it: an escaped / (\/
// or \u002f) when slash is true (a URL with its slashes escaped), an &
// (\u0026: Go's json.Marshal escapes it), or a character outside ASCII
// that is no white space or punctuation (\u00e9, or a surrogate pair:
// PHP's json_encode and Python's json.dumps escape them), so never a
// character that stops a URL or that urlEnd trims or counts; else 0.
func jsonEscape(s string, slash bool) (int, rune) {
	if slash && strings.HasPrefix(s, `\/`) {
		return 2, '/'
	}
	r, ok := hexEscape(s)
	if !ok {
		return 0, 0
	}
	n := 6
	if utf16.IsSurrogate(r) {
		r2, ok := hexEscape(s[n:])
		if r = utf16.DecodeRune(r, r2); !ok || r == utf8.RuneError {
			return 0, 0
		}
		n += 6
	}
	if r == '/' && slash || r == '&' || r >= utf8.RuneSelf && unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.IsPunct(r) {
		return n, r
	}
	return 0, 0
}

// hexEscape returns the code unit of the \uXXXX that starts s.
func hexEscape(s string) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// unescapeURL returns a URL as urlEnd delimits one, its escapes
// (jsonEscape's, the only ones it holds) read.
func unescapeURL(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		n, r := jsonEscape(s[i:], true)
		if n == 0 {
			return b.String() // not one urlEnd reads
		}
		b.WriteRune(r)
		s = s[i+n:]
	}
}

// textLink returns the link of kind at text[start:end] named label (""
// for the URL itself), or false when it is no URL with a host.
func textLink(text string, start, end int, kind urlKind, label string) (TextLink, bool) {
	s := unescapeURL(text[start:end]) // the escapes urlEnd read
	if kind == wwwURL || kind == escapedWWW {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return TextLink{}, false
	}
	if label == "" {
		label = s
	}
	return TextLink{URL: s, Text: label, Start: start, End: end}, true
}

// addTextLinks adds to c's links those written in the text of each of
// its roots, for a page read as its source text (sourceLinks): the
// absolute URLs of each text node, named by their Markdown label or else
// by the URL as it resolves (the target), so that a URL respelled (a host
// in upper case) is the link it was; and the URLs written relative in the
// href and src attributes of the tags of its text, named by their target.
// Each is at the text node where it starts, in the order they are written.
func (c *content) addTextLinks() {
	for _, r := range c.roots {
		for _, l := range sourceLinks(r, c.base, c.skip) {
			href := l.URL()
			c.appendLink(l.Node, href, cmp.Or(l.Label, href))
		}
	}
}
