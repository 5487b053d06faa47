package intent

import (
	"encoding/json"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// textPage returns the tree the warehouse reads a body served as text
// into (warehouse.ReadBody): an HTML page whose body is one <pre> with
// one text node a line, each with the newline that ends it.
func textPage(t testing.TB, text string) *tree.Document {
	t.Helper()
	d, _, err := markup.ParseBytes([]byte("<!DOCTYPE html><html><body><pre>\n"+html.EscapeString(text)+"</pre></body></html>"), nil)
	if err != nil {
		t.Fatal(err)
	}
	pre := d.Root.Children[1].Children[0]
	if pre.Name != "pre" || len(pre.Children) > 1 {
		t.Fatalf("not a text page: %q", text)
	}
	pre.Children = nil
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		pre.Children = append(pre.Children, &tree.Node{Kind: tree.Text, Value: line, Parent: pre})
		text = text[len(line):]
	}
	return d
}

// TestTextLinks: the links written in a line of text are its absolute
// http and https URLs, trimmed of the punctuation around them as
// autolinkers trim it, and the destinations of its Markdown links,
// named by their labels.
func TestTextLinks(t *testing.T) {
	type link struct{ url, text string } // text "" for the URL itself
	for _, tc := range []struct {
		name, line string
		want       []link
	}{
		{"bare", "https://example.com/a", []link{{"https://example.com/a", ""}}},
		{"end of a sentence", "See https://example.com/a.", []link{{"https://example.com/a", ""}}},
		{"list", "https://example.com/a, https://example.com/b; http://example.com/c:", []link{{"https://example.com/a", ""}, {"https://example.com/b", ""}, {"http://example.com/c", ""}}},
		{"question and exclamation", "Is it https://example.com/a? Yes: https://example.com/b!", []link{{"https://example.com/a", ""}, {"https://example.com/b", ""}}},
		{"in parentheses", "(see https://example.com/a)", []link{{"https://example.com/a", ""}}},
		{"balanced parentheses kept", "https://en.wikipedia.org/wiki/Mercury_(planet)", []link{{"https://en.wikipedia.org/wiki/Mercury_(planet)", ""}}},
		{"balanced in parentheses", "(see https://en.wikipedia.org/wiki/Mercury_(planet)).", []link{{"https://en.wikipedia.org/wiki/Mercury_(planet)", ""}}},
		{"in brackets", "[https://example.com/a]", []link{{"https://example.com/a", ""}}},
		{"IPv6 host", "http://[2001:db8::1]:8080/a", []link{{"http://[2001:db8::1]:8080/a", ""}}},
		{"angle brackets", "<https://example.com/a>", []link{{"https://example.com/a", ""}}},
		{"angle brackets keep what they hold", "<https://example.com/a.>, <https://example.com/(b>", []link{{"https://example.com/a.", ""}, {"https://example.com/(b", ""}}},
		{"angle bracket not closed", "<https://example.com/a. more", []link{{"https://example.com/a", ""}}},
		{"query and fragment", "https://example.com/search?q=a+b&lang=en#results.", []link{{"https://example.com/search?q=a+b&lang=en#results", ""}}},
		{"URL in a query", "https://a.example/r?to=https://b.example/x", []link{{"https://a.example/r?to=https://b.example/x", ""}}},
		{"upper-case scheme", "HTTPS://EXAMPLE.COM/A and Http://example.com/b", []link{{"HTTPS://EXAMPLE.COM/A", ""}, {"Http://example.com/b", ""}}},
		{"other schemes", "ftp://example.com/a mailto:x@example.com file:///etc/passwd ws://example.com/ javascript:alert(1)", nil},
		{"scheme inside a word", "xhttps://example.com/a git+https://example.com/b", nil},
		{"no host", "https:// and https:///a and http://:80/", nil},
		{"Unicode host", "http://bücher.example/a", []link{{"http://bücher.example/a", ""}}},
		{"quoted", `"url": "https://example.com/a", 'https://example.com/b'`, []link{{"https://example.com/a", ""}, {"https://example.com/b", ""}}},
		{"emphasis and code", "**https://example.com/a** `https://example.com/b` _https://example.com/c_", []link{{"https://example.com/a", ""}, {"https://example.com/b", ""}, {"https://example.com/c", ""}}},
		{"Unicode punctuation", "「https://example.com/a」。 https://example.com/b…", []link{{"https://example.com/a", ""}, {"https://example.com/b", ""}}},
		{"no-break space", "https://example.com/a\u00a0next", []link{{"https://example.com/a", ""}}},
		{"backslash", `https://example.com/a\nhttps://example.com/b https://example.com/c\xhttps://example.com/d`, []link{{"https://example.com/a", ""}, {"https://example.com/b", ""}, {"https://example.com/c", ""}}},
		{"CRLF", "Sitemap: https://example.com/sitemap.xml\r\n", []link{{"https://example.com/sitemap.xml", ""}}},
		{"Markdown link", "- [Docs](https://example.com/docs): the docs", []link{{"https://example.com/docs", "Docs"}}},
		{"Markdown link with a title", `[Docs](https://example.com/docs "The docs")`, []link{{"https://example.com/docs", "Docs"}}},
		{"Markdown link to a URL", "[https://example.com/a](https://example.com/a)", []link{{"https://example.com/a", ""}}},
		{"Markdown label with a URL", "[see https://a.example/](https://b.example/)", []link{{"https://b.example/", "see https://a.example/"}}},
		{"Markdown image", "![logo](https://example.com/logo.png)", []link{{"https://example.com/logo.png", "logo"}}},
		{"Markdown nested brackets", "[a [b] c](https://example.com/x_(y)) after", []link{{"https://example.com/x_(y)", "a [b] c"}}},
		{"Markdown empty label", "[](https://example.com/a)", []link{{"https://example.com/a", ""}}},
		{"Markdown and bare", "https://a.example/ [B](https://b.example/) https://c.example/", []link{{"https://a.example/", ""}, {"https://b.example/", "B"}, {"https://c.example/", ""}}},
		{"Markdown link not closed", "[Docs](https://example.com/docs", []link{{"https://example.com/docs", ""}}},
		{"Markdown reference definition", "[docs]: https://example.com/docs", []link{{"https://example.com/docs", ""}}},
		{"a URL cut at a line break", "https://example.com/very/long\n/path/rest\n", []link{{"https://example.com/very/long", ""}}},
		{"label across lines", "[Do\ncs](https://example.com/docs)", []link{{"https://example.com/docs", ""}}},
		// JSON with its slashes escaped (PHP's json_encode): a URL whose
		// scheme is followed by :\/\/ is read with its \/ (and \u002f)
		// as /, up to the closing quote or any other escape.
		{"JSON escaped slashes", `{"url":"https:\/\/example.com\/a\/b"}`, []link{{"https://example.com/a/b", ""}}},
		{"JSON escaped slashes, several", `{"a":"http:\/\/a.example\/x","b":["https:\/\/b.example\/y?q=1&r=2#f"]}`, []link{{"http://a.example/x", ""}, {"https://b.example/y?q=1&r=2#f", ""}}},
		{"JSON escaped \\u002f", `"https:\/\/example.com\u002fa\u002Fb"`, []link{{"https://example.com/a/b", ""}}},
		{"JSON escaped, stops at an escaped quote", `"see \"https:\/\/example.com\/a\" here"`, []link{{"https://example.com/a", ""}}},
		{"JSON escaped, stops at \\n", `"https:\/\/example.com\/a\nhttps:\/\/example.com\/b"`, []link{{"https://example.com/a", ""}, {"https://example.com/b", ""}}},
		{"JSON escaped, after \\t, not after \\\\n", `"a\thttps:\/\/a.example\/x" "\\nhttps:\/\/b.example\/y" "\\\rhttps:\/\/c.example\/z"`, []link{{"https://a.example/x", ""}, {"https://c.example/z", ""}}},
		{"JSON escaped letters", `{"a":"https:\/\/b\u00fccher.example\/caf\u00E9\/\ud83d\ude00\/\u0627"}`, []link{{"https://bücher.example/café/😀/ا", ""}}},
		{"JSON escaped, stops at other \\u", `"https:\/\/a.example\/x\u003cy" "https:\/\/b.example\/\u3002" "https:\/\/c.example\/\ud83d" "https:\/\/d.example\/\u00a0" "https:\/\/e.example\/\u002"`,
			[]link{{"https://a.example/x", ""}, {"https://b.example/", ""}, {"https://c.example/", ""}, {"https://d.example/", ""}, {"https://e.example/", ""}}},
		{"JSON escaped, stops at \\u0022", `"https:\/\/example.com\/a\u0022"`, []link{{"https://example.com/a", ""}}},
		{"JSON escaped, stops at an escaped backslash", `"https:\/\/example.com\\/a"`, []link{{"https://example.com", ""}}},
		{"JSON escaped, trimmed as any URL", `"See https:\/\/example.com\/a. Or (https:\/\/en.wikipedia.org\/wiki\/Mercury_(planet))."`, []link{{"https://example.com/a", ""}, {"https://en.wikipedia.org/wiki/Mercury_(planet)", ""}}},
		{"JSON escaped and not", `"https://a.example/x", "https:\/\/b.example\/y"`, []link{{"https://a.example/x", ""}, {"https://b.example/y", ""}}},
		{"JSON escaped, no host", `"https:\/\/\/a" "https:\/\/"`, nil},
		{"JSON escaped, other schemes and words", `"ftp:\/\/example.com\/a" "xhttps:\/\/example.com\/b" "https:\/example.com" "https:\\/\\/example.com"`, nil},
		{"an escaped slash in plain text", `https://example.com\/a`, []link{{"https://example.com", ""}}},
		// JSON with its slashes unescaped but its other characters
		// escaped (Python's json.dumps escapes every letter outside
		// ASCII, Go's json.Marshal an &): the escapes an escaped URL
		// reads but \/ are read, so that no host or query is cut at
		// one to name another resource (https://b, ?q=a).
		{"JSON \\u escapes in a plain URL", `{"a":"https://b\u00fccher.example/caf\u00e9/\ud83d\ude00", "b":"https://example.com/s?q=a\u0026lang=en"}`,
			[]link{{"https://bücher.example/café/😀", ""}, {"https://example.com/s?q=a&lang=en", ""}}},
		{"JSON \\u0026 in an escaped URL", `"https:\/\/example.com\/s?q=a\u0026lang=en"`, []link{{"https://example.com/s?q=a&lang=en", ""}}},
		{"plain URL, stops at other escapes", `"https://a.example/x\u0022" "https://b.example/\u002fy" "https://c.example/\u3002" "https://d.example/\ud83d"`,
			[]link{{"https://a.example/x", ""}, {"https://b.example/", ""}, {"https://c.example/", ""}, {"https://d.example/", ""}}},
		// JSON's \n before an unescaped URL separates it as before an
		// escaped one (every JSON encoder escapes a line break).
		{"JSON \\n before a plain URL", `{"body":"See:\nhttps://a.example/x\n\thttps://b.example/y \\nhttps://c.example/z"}`,
			[]link{{"https://a.example/x", ""}, {"https://b.example/y", ""}}},
		// As the \u escape of a character that is in no scheme (Go's
		// json.Marshal writes <p>https://... as \u003cp\u003ehttps://...),
		// not that of one that is, nor an escaped backslash and a u.
		{"JSON \\u escape before a URL", `"\u003cp\u003ehttps://a.example/x\u003c/p\u003e \u003chttps:\/\/b.example\/y" "\u0041https://c.example/" "\\u003ehttps://d.example/"`,
			[]link{{"https://a.example/x", ""}, {"https://b.example/y", ""}}},
		// GitHub's extended www autolinks: www. at a line's start, after
		// white space or * _ ~ (, followed by a valid domain (a period in
		// it, no underscore in its last two segments) is an http URL.
		{"www", "www.example.com", []link{{"http://www.example.com", ""}}},
		{"www with a path, in a sentence", "Visit www.commonmark.org/help for more information.", []link{{"http://www.commonmark.org/help", ""}}},
		{"www trimmed", "Visit www.commonmark.org. Visit www.commonmark.org/a.b.", []link{{"http://www.commonmark.org", ""}, {"http://www.commonmark.org/a.b", ""}}},
		{"www in parentheses", "(www.google.com/search?q=Markup+(business))) and (www.example.com)", []link{{"http://www.google.com/search?q=Markup+(business)", ""}, {"http://www.example.com", ""}}},
		{"www after emphasis", "*www.a.example* _www.b.example_ ~www.c.example~", []link{{"http://www.a.example", ""}, {"http://www.b.example", ""}, {"http://www.c.example", ""}}},
		{"www at a line's start and after a tab", "x\nwww.a.example/p\twww.b.example", []link{{"http://www.a.example/p", ""}, {"http://www.b.example", ""}}},
		{"www with a port, a query and a Unicode host", "www.example.com:8080/a?b=c#d www.bücher.example", []link{{"http://www.example.com:8080/a?b=c#d", ""}, {"http://www.bücher.example", ""}}},
		{"www among URLs", "https://a.example/ www.b.example [C](https://c.example/) www.d.example", []link{{"https://a.example/", ""}, {"http://www.b.example", ""}, {"https://c.example/", "C"}, {"http://www.d.example", ""}}},
		{"www underscores", "www._a.b.example www.a_b.example www.a.b_c www.a_b.example.", []link{{"http://www._a.b.example", ""}}},
		{"www inside a word or after other characters", "xwww.example.com .www.example.com \"www.example.com\" <www.example.com> /www.example.com", nil},
		{"no www", "example.com www. www.example www.example. www..example.com WWW.EXAMPLE.COM", nil},
		// A Markdown link to a www. host is named by its label, as one to
		// an http(s) URL is; a destination that is no valid www. domain
		// is no Markdown link.
		{"Markdown link to a www", "[Docs](www.example.com/docs)", []link{{"http://www.example.com/docs", "Docs"}}},
		{"Markdown link to a www, with a title and punctuation", `- [a b](www.a.example/x.) and [c](www.b.example "t"), [d](www.c.example/(e))`,
			[]link{{"http://www.a.example/x.", "a b"}, {"http://www.b.example", "c"}, {"http://www.c.example/(e)", "d"}}},
		{"Markdown link to no www domain", "[a](www.example) [b](www.a_b.example) [c](wwwx.a.example) [d](www..a.example)", nil},
		{"Markdown link to a www, escaped", `[a](www.example.com\/x)`, []link{{"http://www.example.com/x", ""}}},
		// A www. URL in JSON reads its escapes as an http(s) one does: its
		// \u escapes of letters outside ASCII (in its host too) and
		// \u0026, and when its first slash is escaped (www.example.org\/,
		// as PHP's json_encode writes it) its \/ as /, and it may then
		// start a JSON string ("www.example.org\/a", as "https:\/\/..."
		// may): an escaped slash tells it is JSON. An escaped line break or
		// tab, or the \u escape of white space or of * _ ~ (, before it
		// is what it stands for.
		{"JSON www with escaped slashes", `{"url":"www.example.org\/path\/a?b=c\u0026d=e","t":"see www.b.example\/x\/y."}`,
			[]link{{"http://www.example.org/path/a?b=c&d=e", ""}, {"http://www.b.example/x/y", ""}}},
		{"JSON www with a port", `["www.example.org:8080\/a"]`, []link{{"http://www.example.org:8080/a", ""}}},
		{"JSON www with escaped letters", `"www.b\u00fccher.example\/caf\u00e9" "Visit www.b\u00fccher.example now"`,
			[]link{{"http://www.bücher.example/café", ""}, {"http://www.bücher.example", ""}}},
		{"JSON www after escapes", `"a\nwww.a.example\/x\twww.b.example/y \u0028www.c.example\/z\u0029 \u003ewww.d.example\/ \\nwww.e.example\/"`,
			[]link{{"http://www.a.example/x", ""}, {"http://www.b.example/y", ""}, {"http://www.c.example/z", ""}}},
		{"JSON www, stops at other escapes", `"www.a.example\/x\"y" "www.b.example\/\u3002" www.c.example/d\/e www.d.example/\u002fz`,
			[]link{{"http://www.a.example/x", ""}, {"http://www.b.example/", ""}, {"http://www.c.example/d", ""}, {"http://www.d.example/", ""}}},
		{"a quoted www without an escaped slash", `"www.example.org" "www.example.org/a" "www.example.org\u002fa" "www.a_b.example\/a"`, nil},
		{"www in a URL or a label", "https://example.com/(www.a.example) [see www.b.example](https://c.example/)", []link{{"https://example.com/(www.a.example)", ""}, {"https://c.example/", "see www.b.example"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []link
			for _, l := range TextLinks(tc.line) {
				if written := tc.line[l.Start:l.End]; written != l.URL && unescapeURL(written) != l.URL && "http://"+unescapeURL(written) != l.URL {
					t.Errorf("%q at [%d:%d] is not the URL %q", tc.line[l.Start:l.End], l.Start, l.End, l.URL)
				}
				text := l.Text
				if text == l.URL {
					text = ""
				}
				got = append(got, link{l.URL, text})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("TextLinks(%q) = %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}

// TestTextPageLinks: the links of a page read as its source text are the
// URLs in its lines, compared as the links of a page are (resolved
// against the page's address, the host by its key): a URL added among
// others is one link added, the others unchanged, and a respelled host
// is no change. Those of a page's <pre> are not links.
func TestTextPageLinks(t *testing.T) {
	const page = "https://example.com/llms.txt"
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	base := lines("# Example", "https://example.com/a", "https://example.com/b", "https://example.com/c")
	for _, tc := range []struct {
		name                 string
		old, new             *tree.Document
		oldAsText, newAsText bool
		want                 []string // Line of each change
	}{
		{"a URL added in the middle", textPage(t, base), textPage(t, lines("# Example", "https://example.com/a", "https://example.com/x", "https://example.com/b", "https://example.com/c")),
			true, true, []string{"+ link added: https://example.com/x"}},
		{"a URL removed", textPage(t, base), textPage(t, lines("# Example", "https://example.com/a", "https://example.com/c")),
			true, true, []string{"- link removed: https://example.com/b"}},
		{"added and removed", textPage(t, base), textPage(t, lines("# Example", "https://example.com/b", "https://example.com/c", "https://example.com/d")),
			true, true, []string{"- link removed: https://example.com/a", "+ link added: https://example.com/d"}},
		{"other text changed", textPage(t, base), textPage(t, lines("# Example, updated", "https://example.com/a", "https://example.com/b", "https://example.com/c")),
			true, true, nil},
		{"CRLF lines", textPage(t, base), textPage(t, strings.ReplaceAll(base, "\n", "\r\n")), true, true, nil},
		{"a URL cut at a line break", textPage(t, lines("https://example.com/long/path")), textPage(t, lines("https://example.com/long", "/path")),
			true, true, []string{"~ link changed: https://example.com/long/path -> https://example.com/long"}},
		{"host respelled", textPage(t, lines("http://bücher.example/a", "HTTPS://Example.COM:443/b")), textPage(t, lines("http://xn--bcher-kva.example/a", "https://example.com/b")),
			true, true, nil},
		{"another Unicode host", textPage(t, lines("http://bücher.example/a")), textPage(t, lines("http://büchern.example/a")),
			true, true, []string{"~ link changed: http://xn--bcher-kva.example/a -> http://xn--bchern-3ya.example/a"}},
		{"Markdown label changed", textPage(t, lines("- [Docs](https://example.com/docs)")), textPage(t, lines("- [Guide](https://example.com/docs)")),
			true, true, []string{"~ link changed: Docs -> Guide (https://example.com/docs)"}},
		{"a page read as text, then as a page", textPage(t, lines("https://example.com/a")),
			parseDoc(t, `<html><body><p><a href="https://example.com/a">https://example.com/a</a> <a href="/b">B</a></p></body></html>`),
			true, false, []string{"+ link added: https://example.com/b"}},
		// A page's own <pre>, and a page's text, hold no links: only a
		// page read as text has them.
		{"a page's pre", parseDoc(t, "<html><body><pre>\nhttps://example.com/a\nhttps://example.com/b\n</pre></body></html>"),
			parseDoc(t, "<html><body><pre>\nhttps://example.com/a\nhttps://example.com/x\nhttps://example.com/b\n</pre></body></html>"), false, false, nil},
		{"a text page not said to be one", textPage(t, base), textPage(t, lines("https://example.com/x")), false, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPair(tc.old, tc.new, nil, nil)
			p.OldURL, p.NewURL = page, page
			p.OldReadAsText, p.NewReadAsText = tc.oldAsText, tc.newAsText
			r, err := p.Evaluate(monitor(t, "all links"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range r.AllChanges() {
				got = append(got, c.Line())
			}
			if !slices.Equal(got, tc.want) || r.Matched != (len(tc.want) > 0) {
				t.Errorf("matched %v, changes\n%q\nwant\n%q", r.Matched, got, tc.want)
			}
		})
	}
}

// TestTextPageLinkPlaces: a link of a page read as text is placed at the
// line it is written in, and its position is its ordinal among the page's
// links, as a page's links are: the URL added second is link 2 of the
// new version, in the <pre>'s third line.
func TestTextPageLinkPlaces(t *testing.T) {
	old := textPage(t, "Links\nhttps://example.com/a\nhttps://example.com/b\n")
	new := textPage(t, "Links\nhttps://example.com/a\nsee https://example.com/x and https://example.com/y\nhttps://example.com/b\n")
	p := NewPair(old, new, nil, nil)
	p.OldReadAsText, p.NewReadAsText = true, true
	r, err := p.Evaluate(monitor(t, "all links"))
	if err != nil {
		t.Fatal(err)
	}
	type place struct {
		op         Operation
		href, text string
		pos        int
		path, ctx  string
	}
	var got []place
	for _, c := range r.Changes {
		got = append(got, place{c.Op, c.Link.NewHref, c.Link.NewText, c.NewPos, c.NewPath, c.Link.Context})
	}
	const line, pre = "/html[1]/body[1]/pre[1]/text()[3]", "/html[1]/body[1]/pre[1]"
	want := []place{
		{Insert, "https://example.com/x", "https://example.com/x", 2, line, pre},
		{Insert, "https://example.com/y", "https://example.com/y", 3, line, pre},
	}
	if !slices.Equal(got, want) {
		t.Errorf("changes\n%+v\nwant\n%+v", got, want)
	}
}

// TestTextPageLinksInScope: a link change type scoped, or with regions
// ignored, looks at the links of the text in its scope, as at a page's.
func TestTextPageLinksInScope(t *testing.T) {
	old := textPage(t, "https://example.com/a\n")
	new := textPage(t, "https://example.com/a\nhttps://example.com/b\n")
	for _, tc := range []struct {
		clause  string
		matched bool
	}{
		{`all links In css "pre"`, true},
		{`all links In css "p"`, false},
		{`all links Ignore css "pre"`, false},
	} {
		p := NewPair(old, new, nil, nil)
		p.OldReadAsText, p.NewReadAsText = true, true
		r, err := p.Evaluate(monitor(t, tc.clause))
		if err != nil {
			t.Fatal(err)
		}
		if r.Matched != tc.matched {
			t.Errorf("%s: matched %v, want %v", tc.clause, r.Matched, tc.matched)
		}
	}
}

// TestTextPageGolden compares the link records of each pair of text pages
// under testdata/textpages (NAME-old.txt, NAME-new.txt, read as text at
// https://example.com/NAME) with testdata/golden/textpage-NAME.json; run
// with -update to rewrite them.
func TestTextPageGolden(t *testing.T) {
	olds, _ := filepath.Glob(filepath.Join("testdata", "textpages", "*-old.txt"))
	if len(olds) == 0 {
		t.Fatal("no text pages in testdata/textpages")
	}
	for _, oldFile := range olds {
		name := strings.TrimSuffix(filepath.Base(oldFile), "-old.txt")
		t.Run(name, func(t *testing.T) {
			read := func(file string) *tree.Document {
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				return textPage(t, string(b))
			}
			p := NewPair(read(oldFile), read(filepath.Join("testdata", "textpages", name+"-new.txt")), nil, nil)
			p.OldURL, p.NewURL = "https://example.com/"+name, "https://example.com/"+name
			p.OldReadAsText, p.NewReadAsText = true, true
			r, err := p.Evaluate(monitor(t, "all links"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			if err := validateJSON(t, loadSchema(t), got); err != nil {
				t.Errorf("records do not follow the schema: %v", err)
			}
			golden := filepath.Join("testdata", "golden", "textpage-"+name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./intent -run TextPageGolden -update)", err)
			}
			if string(got) != string(want) {
				t.Errorf("records differ from %s (run with -update after checking the change):\n%s", golden, got)
			}
		})
	}
}

// TestTextLinksLongLine: a line of many Markdown destinations that are no
// links (no host, a bad escape), each holding the next, is read once, as
// a line of links that are: reading each such destination again from
// every ]( within it took time quadratic in the line (8 000 of them, a
// 112 KB line, took 5 s; this 1 MB line, minutes). The URL after them is
// found.
func TestTextLinksLongLine(t *testing.T) {
	const n = 1 << 16
	for _, tc := range []struct{ name, link string }{
		{"no host", "[a](http:///x"},
		{"bad escape", "[a](http://%zz/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := strings.Repeat(tc.link, n) + strings.Repeat(")", n) + " https://ok.example/"
			got := TextLinks(line)
			if len(got) != 1 || got[0].URL != "https://ok.example/" {
				t.Errorf("%d links, want https://ok.example/ only: %.3v", len(got), got)
			}
		})
	}
}

// TestTextLinksLongLineWWW: a line of many www. that follow an underscore
// in one domain whose last segments hold one (_www.a_www.a...), none of
// them a link, is read once: checking each one's domain anew took time
// quadratic in the line, as it did cmark-gfm's (GHSA-29g3-96g3-jg6c).
// And a line of many links of one kind, then one of each other kind, is
// searched once for each: searching the rest of the line for the other
// kinds after each link took time quadratic in it. The links are found.
func TestTextLinksLongLineWWW(t *testing.T) {
	const n = 1 << 17
	for _, tc := range []struct {
		name, line string
		want       int // links
		last       []string
	}{
		{"underscores", strings.Repeat("_www.a", n) + " https://ok.example/", 1, []string{"https://ok.example/"}},
		{"underscores and dots", "www." + strings.Repeat("a_www.", n) + "a_b.c", 0, nil},
		{"bare URLs, then the others", strings.Repeat("http://a.b ", n) + `"https:\/\/c.example\/d" www.e.example`, n + 2,
			[]string{"https://c.example/d", "http://www.e.example"}},
		{"www, then the others", strings.Repeat("www.a.b ", n) + `"https:\/\/c.example\/d" https://e.example/`, n + 2,
			[]string{"https://c.example/d", "https://e.example/"}},
		{"quoted www, escaped and not", strings.Repeat(`"www.a.b" "www.c.d\/e" \u0028www.b\u00fccher.f\/g `, n), 2 * n,
			[]string{"http://www.c.d/e", "http://www.bücher.f/g"}},
		{"escaped, then the others", strings.Repeat(`"http:\/\/a.b"`, n) + " https://c.example/d www.e.example", n + 2,
			[]string{"https://c.example/d", "http://www.e.example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := TextLinks(tc.line)
			var last []string
			for _, l := range got[max(0, len(got)-len(tc.last)):] {
				last = append(last, l.URL)
			}
			if len(got) != tc.want || !slices.Equal(last, tc.last) {
				t.Errorf("%d links ending with %q, want %d ending with %q", len(got), last, tc.want, tc.last)
			}
		})
	}
}

// FuzzTextLinks: TextLinks never panics, and every link it finds is an
// absolute http(s) URL with a host, written at the offsets it gives,
// without white space, after the links before it.
func FuzzTextLinks(f *testing.F) {
	for _, s := range []string{
		"see https://example.com/a.",
		"(https://en.wikipedia.org/wiki/Mercury_(planet)).",
		"<https://example.com/a.> [Docs](https://example.com/docs \"t\") ![x](http://[::1]/a)",
		"[a [b] c](https://example.com/x_(y)) https://a.example/r?to=https://b.example/x",
		"「https://bücher.example/a」。\r\nhttps://\n](https://x.example/",
		"[[[[](https://x.example/)]]]((((https://y.example/))))",
		`{"url":"https:\/\/example.com\/a\/b","n":"\"http:\/\/x.example\u002fy\u0022\\/"}`,
		`https:\/\/\/a https:\/\/[::1]\/a] (https:\/\/a.example\/b_(c)). https://a.example\/b`,
		`"https:\/\/b\u00fccher.example\/\ud83d\ude00\ud83d\/\u3002\u00a0\U002F\u002"`,
		"www.example.com (www.a.example/b_(c)). *www._a.b.example* xwww.a.b www.a_b.c www.example www.bücher.example:80/",
		"_www.a_www.a_www.a_www.a www.a.b.c_d.e_ [www.a.b](www.c.d)",
		`{"a":"https://b\u00fccher.example/?x\u0026y\u0022\nhttps://c.example/\ud83d\ude00\u002f \\nhttps://d.example\u00e9@e.example"}`,
		`{"u":"www.b\u00fccher.example:80\/a\/b\u0026c\"","v":"\nwww.a.example\/\u0028www.b_c.d\/ \\twww.e.f\/"} "www.x.y/\/z"`,
		`[a](www.example.com/b) [c](www.d_e.f/g) [h](www.i.j "k") [l](www.m.n\/o) [p](www.q.r/s`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end := 0
		for _, l := range TextLinks(s) {
			if l.Start < end || l.End > len(s) || l.Start >= l.End {
				t.Fatalf("link %+v is not within %q, or not after the one before (ending at %d)", l, s, end)
			}
			if written := s[l.Start:l.End]; l.URL != written && l.URL != unescapeURL(written) && l.URL != "http://"+unescapeURL(written) {
				t.Fatalf("link %+v is not the URL written at its offsets in %q: %q", l, s, written)
			}
			end = l.End
			if strings.ContainsFunc(l.URL, func(r rune) bool { return r <= ' ' || r == '\\' }) {
				t.Fatalf("link %q holds white space or a backslash", l.URL)
			}
			u, err := url.Parse(l.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
				t.Fatalf("link %q is not an absolute http(s) URL with a host (%v)", l.URL, err)
			}
			if l.Text == "" {
				t.Fatalf("link %q has no text", l.URL)
			}
		}
	})
}
