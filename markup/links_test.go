package markup

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestHTMLLinks: the hrefs of a and area elements and xlink:href of any
// element, in document order and decoded, and the base hrefs apart; none
// from scripts, comments, other attributes or elements.
func TestHTMLLinks(t *testing.T) {
	tests := []struct {
		name, body  string
		hrefs, base []string
	}{
		{"anchors and areas", `<p><a href="a.html">a</a> <area href="/b.html"> <a name="x">no href</a></p>`, []string{"a.html", "/b.html"}, nil},
		{"character references decoded", `<a href="q?x=1&amp;y=2">q</a><a href=' spaced '>s</a>`, []string{"q?x=1&y=2", " spaced "}, nil},
		{"case of tags and attributes", `<A HREF="Up.html">u</A><AREA Href=x>`, []string{"Up.html", "x"}, nil},
		{"bases in order", `<head><base href="/one/"><base target="_top"><base href="two/"></head><a href="a">a</a>`, []string{"a"}, []string{"/one/", "two/"}},
		{"xlink on any element, href first on an anchor", `<svg><a xlink:href="s.html">s</a><use xlink:href="#i"/><a href="h" xlink:href="x">both</a></svg>`, []string{"s.html", "#i", "h"}, nil},
		{"not links", `<script>document.write('<a href="no1">')</script><!-- <a href="no2"> --><link href="style.css"><img src="i.png"><style>a[href="no3"]{}</style><textarea><a href="no4"></textarea>`, nil, nil},
		// A template's content is inert: its links and bases are none
		// of the page's.
		{"template", `<template><a href="t.html">t</a><base href="/t/"><svg><a xlink:href="ts.html"/></svg></template><a href="a.html">a</a>`, []string{"a.html"}, nil},
		{"nested templates", `<TEMPLATE><template></template><a href="t.html">t</a></Template><a href="a.html">a</a>`, []string{"a.html"}, nil},
		{"self-closing template", `<template/><a href="t.html">t</a></template><a href="a.html">a</a>`, []string{"a.html"}, nil},
		{"end tag without a template", `</template><a href="a.html">a</a><template><area href="t"></template><a href="b">b</a>`, []string{"a.html", "b"}, nil},
		{"a body cut short", `<a href="a.html">a</a><a href="b.ht`, []string{"a.html"}, nil},
		{"nothing", ``, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hrefs, base := HTMLLinks([]byte(tt.body))
			if !slices.Equal(hrefs, tt.hrefs) || !slices.Equal(base, tt.base) {
				t.Errorf("HTMLLinks = %q, bases %q; want %q, bases %q", hrefs, base, tt.hrefs, tt.base)
			}
		})
	}
}

// tokenizerLinks is HTMLLinks read with golang.org/x/net/html's
// tokenizer, the reading HTMLLinks follows.
func tokenizerLinks(b []byte) (hrefs, bases []string) {
	z := html.NewTokenizer(bytes.NewReader(b))
	templates := 0 // the template elements open, whose content is inert
	for {
		switch z.Next() {
		case html.ErrorToken:
			return hrefs, bases
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "template" && templates > 0 {
				templates--
			}
			continue
		case html.StartTagToken, html.SelfClosingTagToken:
		default:
			continue
		}
		name, more := z.TagName()
		if string(name) == "template" {
			templates++
			continue
		}
		if templates > 0 {
			continue
		}
		anchor := string(name) == "a" || string(name) == "area"
		isBase := string(name) == "base"
		var href, xlink string
		var hasHref, hasXlink bool
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			switch {
			case (anchor || isBase) && !hasHref && string(k) == "href":
				href, hasHref = string(v), true
			case !hasXlink && string(k) == "xlink:href":
				xlink, hasXlink = string(v), true
			}
		}
		switch {
		case isBase:
			if hasHref {
				bases = append(bases, href)
			}
		case anchor && hasHref:
			hrefs = append(hrefs, href)
		case hasXlink:
			hrefs = append(hrefs, xlink)
		}
	}
}

// linkPages are pages on which HTMLLinks reads what the tokenizer does:
// the seeds of FuzzHTMLLinks.
var linkPages = []string{
	`<!DOCTYPE html><html><head><title>T <a href="no">x</a></title><base href="/b/"></head><body><a href=a.html>a</a></body></html>`,
	`<a href = "spaced.html" >s</a><a href=unquoted.html>u</a><a href='single.html'>q</a><a href=x.html/>self</a>`,
	`<a href="one" href="two">first of twice</a><a HREF="c" xlink:href="d">both</a><a data-href="no">no</a>`,
	`<!--> <a href="after-empty-comment"> --> <!---> <a href="after-other"> <!-- a -- b --!> <a href="after-bang">`,
	`<!-- never ended <a href="no">`,
	`<script type="text/javascript">if (a</b) { x = '<a href="no">'; }</script ><a href="yes">`,
	`<style>a[href="no"] { }</STYLE><a href="yes"><textarea><a href="no"></textarea foo><a href="y2">`,
	`<xmp><a href="no"></xmp><noscript><a href="no"></noscript><iframe><a href="no"></iframe><a href="y">`,
	`<plaintext><a href="no">`,
	`<?php echo '<a href="no">' ?><a href="y"></p></a href="no"><a/href="slash">`,
	`<a href="&lt;&#x41;&amp&quot;&nbsp;&copy">refs</a><area shape=rect href=&amp;x>`,
	`< a href="no"><a\thref="tab"><a` + "\n" + `href="nl">`,
	`<svg><A XLINK:HREF="#top"/><image xlink:href="img.svg"/></svg>`,
	`<a href="cut`,
	`<a href=`,
	`<a`,
	`<`,
	`<base href="x"><base href=y><base>`,
	`<a =href="eq">x</a><a href="v" =x>y</a>`,
	`<title/><a href="in-title">`,
	`<a href="é/ü.html">utf-8</a>`,
	"<noſcript><a href=\"long-s\"></noſcript><a xlin\u212A:href=\"kelvin\">k</a>", // only ASCII letters fold
	`<a href="/a&#x;b">no digits</a><a href="/c&#xzz;">`,
	`<template><a href="no"><base href="no"></template><a href="y"><template><template></template><a href="no"></template ><a href="y2">`,
	`</template><a href="y"><template/><script></template></script><a href="no"></TEMPLATE><a href="y2">`,
}

// TestHTMLLinksAsTokenizer: on linkPages, HTMLLinks reads what the
// tokenizer reads.
func TestHTMLLinksAsTokenizer(t *testing.T) {
	for _, p := range linkPages {
		hrefs, bases := HTMLLinks([]byte(p))
		wantHrefs, wantBases := tokenizerLinks([]byte(p))
		if !slices.Equal(hrefs, wantHrefs) || !slices.Equal(bases, wantBases) {
			t.Errorf("%q:\nHTMLLinks %q, bases %q\ntokenizer %q, bases %q", p, hrefs, bases, wantHrefs, wantBases)
		}
	}
}

// FuzzHTMLLinks: HTMLLinks reads what the tokenizer reads, on pages
// without a script that holds comments (whose escapes the tokenizer
// follows and HTMLLinks does not).
func FuzzHTMLLinks(f *testing.F) {
	for _, p := range linkPages {
		f.Add([]byte(p))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.Contains(bytes.ToLower(b), []byte("<script")) && bytes.Contains(b, []byte("<!--")) {
			return
		}
		hrefs, bases := HTMLLinks(b)
		wantHrefs, wantBases := tokenizerLinks(b)
		if !slices.Equal(hrefs, wantHrefs) || !slices.Equal(bases, wantBases) {
			t.Errorf("%q:\nHTMLLinks %q, bases %q\ntokenizer %q, bases %q", b, hrefs, bases, wantHrefs, wantBases)
		}
	})
}

// TestUnescapeAttr: an attribute value's character references are read
// as the tokenizer reads them in an attribute, where a named one without
// its ";" that a letter, a digit or "=" follows is none (a query's
// &sect=3), and not as html.UnescapeString reads text.
func TestUnescapeAttr(t *testing.T) {
	for _, v := range []string{
		"/s?p=2&sect=3&lt=5&notit=1", "/g?a=1&amp;b=2", "&copy", "&copy;2024", "a&amp", "&#x2F;a&#47;b", "&#x;&#X;&#;&#xg1", "&#12a",
		"&lang=en&lang;", "&", "a & b", "&unknown;", "x\r\ny\x00",
	} {
		z := html.NewTokenizer(strings.NewReader(`<a href="` + v + `">`))
		z.Next()
		_, want, _ := z.TagAttr()
		if got := UnescapeAttr(v); got != string(want) {
			t.Errorf("UnescapeAttr(%q) = %q, the tokenizer reads %q", v, got, want)
		}
	}
}
