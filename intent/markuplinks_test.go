package intent

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestMarkupRefs: the URLs written relative in the href and src
// attributes of a text's tags, and a base element's href; no href= outside
// a tag, no absolute URL (TextLinks reads those), no value that cannot be
// a URL as written.
func TestMarkupRefs(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // url@start, "base " before a base href
	}{
		{"double quoted", `<a href="/a">A</a>`, []string{"/a@9"}},
		{"single quoted", `<a href='b'>`, []string{"b@9"}},
		{"unquoted", `<a href=c/d>x</a>`, []string{"c/d@8"}},
		{"spaces around =", `<img alt="" src = "i.png" >`, []string{"i.png@19"}},
		{"case", `<A HREF="/e">`, []string{"/e@9"}},
		{"xlink", `<use xlink:href="#icon"/>`, []string{"#icon@17"}},
		{"over lines", "<a class=\"x\"\n   href=\"/f\"\n>F</a>", []string{"/f@22"}},
		{"character references", `<a href="/g?a=1&amp;b=2">`, []string{"/g?a=1&b=2@9"}},
		// A reference without its ";" that a letter, a digit or "=" follows
		// is no reference in an attribute (a query's &sect=3, &lt=5), as
		// an HTML parser reads it; it is one at the value's end.
		{"references in a query", `<a href="/s?p=2&sect=3&lt=5&notit=1&amp;x=1&copy">`, []string{"/s?p=2&sect=3&lt=5&notit=1&x=1©@9"}},
		{"scheme-relative", `<script src="//cdn.example/s.js"></script>`, []string{"//cdn.example/s.js@13"}},
		{"two in a tag, then another", `<a href="/h" data-src="x" src="/i"><link href="/j">`, []string{"/h@9", "/i@31", "/j@47"}},
		{"base", `<base href="https://b.example/d/"><a href="k">`, []string{"base https://b.example/d/@12", "k@43"}},
		{"absolute", `<a href="https://x.example/a">`, nil},
		{"other schemes", `<a href="mailto:a@x.example">m</a><a href="javascript:go()">`, nil},
		{"prose", `Write href="/a" for a link, or src=/b.`, nil},
		{"between tags", `<code>href="/a"</code>`, nil},
		{"not a tag", `a < b href="/a" > c, 1<2 src="/b"`, nil},
		{"doctype, comment, declaration", `<?xml href="/a"?><!DOCTYPE x href="/b"><!-- -->`, nil},
		// The tokenizer reads no tag in a comment, a bogus comment (up to
		// its ">") or the text of a raw text element (up to its end tag,
		// in any case): a link commented out, or written in a script's
		// string, is none, as it is none of the page parsed.
		{"in a comment", `<!-- <a href="/a"> --><a href="/b">`, []string{"/b@31"}},
		{"comment to the end", `<!-- <a href="/a">`, nil},
		{"comment ended by --!>", `<!-- <a href="/a"> --!><a href="/b">`, []string{"/b@32"}},
		{"empty comments", `<!--><a href="/a"><!---><a href="/b">`, []string{"/a@14", "/b@33"}},
		{"bogus comment", `<![CDATA[<a href="/a">]]><a href="/b">`, []string{"/b@34"}},
		{"in a script", `<script src="/s.js">w('<img src="/a.png">')</script><img src="/b.png">`, []string{"/s.js@13", "/b.png@62"}},
		{"in a title, its end tag in another case", `<TITLE><a href="/a"></Title ><a href="/b">`, []string{"/b@38"}},
		{"raw text to the end", `<textarea><a href="/a"></textareax><a href="/b">`, nil},
		{"escaped in JSON", `{"html":"<a href=\"/a\">A</a>"}`, nil},
		{"template", `<a href="{{ .URL }}">`, nil},
		{"white space in the value", `<a href="/a b">`, nil},
		{"empty", `<a href="" src=' '>`, nil},
		{"unclosed quote ends the text", `<a href="/a>A</a> <a href="/b">`, nil},
		{"unclosed tag", `<a href="/a"`, []string{"/a@9"}},
		{"no value", `<a href>x</a><a href=`, nil},
		// A template's content is inert, and a base in svg or math is an
		// SVG or MathML element, as a parsed page reads them (PageBase,
		// walkHTMLElements, content.skip): no link nor base in a
		// template, no base in foreign content but in its HTML
		// integration points; an a in svg or math is a link there too.
		{"in a template", `<template><a href="/a"><img src="/i.png"><base href="/t/"></template><a href="/b">`, []string{"/b@78"}},
		{"nested templates", `<TEMPLATE><template></template><a href="/a"></Template><a href="/b">`, []string{"/b@64"}},
		{"base in svg", `<svg><base href="/s/"></svg><base href="/h/">`, []string{"base /h/@40"}},
		{"base in math", `<math><base href="/m/"></math><a href="x">`, []string{"x@39"}},
		{"base in a foreignObject", `<svg><foreignObject><base href="/f/"></foreignObject></svg>`, []string{"base /f/@32"}},
		{"base after svg's foreignObject closed", `<svg><foreignObject></foreignObject><base href="/s/"></svg>`, nil},
		{"base in mtext", `<math><mtext><base href="/t/"></mtext></math>`, []string{"base /t/@25"}},
		{"base in html annotation-xml", `<math><annotation-xml encoding="text/html"><base href="/x/"></annotation-xml></math>`, []string{"base /x/@55"}},
		{"base in other annotation-xml", `<math><annotation-xml encoding="image/svg+xml"><base href="/x/"></annotation-xml></math>`, nil},
		{"base in the foreignObject of an annotation-xml's svg", `<math><annotation-xml encoding="image/svg+xml"><svg><foreignObject><base href="/x/">`, []string{"base /x/@79"}},
		{"base in the mi of an annotation-xml's svg", `<math><annotation-xml><svg><mi><base href="/x/">`, nil},
		{"base in the foreignObject of an annotation-xml's mrow's svg", `<math><annotation-xml><mrow><svg><foreignObject><base href="/x/">`, nil},
		{"link in svg", `<svg><a href="/s"><text>S</text></a></svg>`, []string{"/s@14"}},
		{"self-closing svg", `<svg/><base href="/h/">`, []string{"base /h/@18"}},
		{"template in svg", `<svg><template><a href="/s"></template></svg>`, []string{"/s@24"}},
		{"nested svg", `<svg><svg></svg><base href="/s/"></svg><base href="/h/">`, []string{"base /h/@51"}},
		{"svg in math", `<math><svg></svg><base href="/m/"></math>`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range markupRefs(tc.text) {
				s := fmt.Sprintf("%s@%d", r.url, r.start)
				if r.base {
					s = "base " + s
				}
				if r.start < 0 || r.end > len(tc.text) || r.start > r.end {
					t.Errorf("%s: bounds %d:%d out of the text", s, r.start, r.end)
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("markupRefs(%q)\n= %q\nwant %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestTextPageRelativeLinks: on a page read as its source text, a link
// written relative in a tag is a link, resolved against the page's address
// or the text's base element, at the line where it is written, among the
// absolute URLs of the text in the order they are written.
func TestTextPageRelativeLinks(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           []string
	}{
		{"added", "<ul>\n<li><a href=\"/a\">A</a>\n</ul>\n", "<ul>\n<li><a href=\"/a\">A</a>\n<li><a\n href=\"b\">B</a> https://y.example/c\n</ul>\n",
			[]string{"+ link added: https://x.example/dir/b", "+ link added: https://y.example/c"}},
		{"against the base element", "<base href=\"https://cdn.example/d/\">\n", "<base href=\"https://cdn.example/d/\">\n<img src=\"e.png\">\n",
			[]string{"+ link added: https://cdn.example/d/e.png"}},
		{"relative written absolute is no change", "<a href=\"/a\">A</a>\n", "<a href=\"https://x.example/a\">A</a>\n", nil},
		{"prose", "Use a link.\n", "Use href=\"/a\" for a link.\n", nil},
		{"references in a query", "<a href=\"/s?p=1\">1</a>\n", "<a href=\"/s?p=1\">1</a>\n<a href=\"/s?p=2&sect=3&lt=5\">2</a>\n",
			[]string{"+ link added: https://x.example/s?p=2&sect=3&lt=5"}},
		{"commented out, or in a script", "<p>a</p>\n", "<p>a</p>\n<!-- <a href=\"/b\">B</a> -->\n<script>var u = '<img src=\"/c.png\">';</script>\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPair(textPage(t, tc.old), textPage(t, tc.new), nil, nil)
			p.OldURL, p.NewURL = "https://x.example/dir/page", "https://x.example/dir/page"
			p.OldReadAsText, p.NewReadAsText = true, true
			r, err := p.Evaluate(monitor(t, "all links"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range r.AllChanges() {
				got = append(got, c.Line())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("changes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func FuzzMarkupRefs(f *testing.F) {
	for _, s := range []string{
		`<a href="/a">A</a><img src='b.png'><base href="https://x.example/">`,
		"<a\nclass=x\nhref = /c >\n<link href=\"//d.example/e\"/>",
		`<a href="/a`, `<a href=`, `<a =x href=y/>`, `{"h":"<a href=\"/a\">"}`,
		`<!-- <a href="/a"> --!><!--><script src="/s">'<img src="/i">'</SCRIPT ><![CDATA[<a href="/c">]]><title>`,
		`<math><annotation-xml encoding="image/svg+xml"><svg><foreignObject><base href="/x/"></foreignObject></svg></annotation-xml><annotation-xml encoding="text/html"><svg><a href="/y">`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end := 0
		for _, r := range markupRefs(s) {
			if r.start < end || r.end > len(s) || r.start >= r.end {
				t.Fatalf("ref %+v is not within %q, or not after the one before (ending at %d)", r, s, end)
			}
			end = r.end
			if r.url == "" || strings.ContainsAny(r.url, " \t\n\f\r\"'<>\\{}`") {
				t.Fatalf("ref %q is empty or holds what no URL written holds", r.url)
			}
			// With a scheme: a base element's href, or a resource's
			// address written absolute, recorded for where it is.
			if u, err := url.Parse(r.url); err != nil || (u.Scheme != "" && !r.base && !r.absolute) {
				t.Fatalf("ref %q is not a relative URL (%v)", r.url, err)
			}
			if r.absolute && (!r.resource || r.base) {
				t.Fatalf("ref %+v is absolute but no resource's address", r)
			}
		}
	})
}

// TestMarkupRefsDeepTags: tagScope follows no more than maxForeignDepth
// tags open, svg, math and template among them, so that a text of such
// tags never closed costs each end tag a bounded search: here 2^17 of
// each, followed each, took minutes (and failed go test's -timeout).
func TestMarkupRefsDeepTags(t *testing.T) {
	const n = 1 << 17
	for open, links := range map[string]int{"<svg>": 1, "<math>": 1, "<math><annotation-xml><svg>": 1, "<template>": 0} {
		text := strings.Repeat(open, n) + strings.Repeat("</g>", n) + `<a href="/deep">`
		// A template's links are none; an a in svg or math is one.
		if refs := markupRefs(text); len(refs) != links || links == 1 && refs[0].url != "/deep" {
			t.Errorf("%s: %+v, want %d link /deep", open, refs, links)
		}
	}
}
