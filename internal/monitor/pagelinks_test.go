package monitor

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestHTMLLinkKeys: the keys htmlLinkKeys reads from a page's tokens, its
// plain hrefs joined as strings, are those of the links
// warehouse.ExtractLinks finds in the page's tree, canonical and without
// their fragments, each once, the page itself left out; and so are those
// of a feed served as text/html, read from its tree.
func TestHTMLLinkKeys(t *testing.T) {
	const page = "http://Example.com:80/docs/guide/index.html"
	tests := []struct {
		name, body string
		want       int    // distinct targets other than the page
		charset    string // the version's, utf-8 if none
	}{
		{"relative and absolute paths", `<a href="a.html">a</a><a href="/top.html">t</a><a href="sub/b.html?x=1&amp;y=2">b</a>`, 3, ""},
		{"fragments, the page itself, duplicates", `<a href="#top">t</a><a href="index.html#s">i</a><a href="a.html#x">a</a><a href="a.html">a</a><a href="">e</a>`, 1, ""},
		{"dot segments and empty query", `<a href="../up.html">u</a><a href="./here.html">h</a><a href="a/../b.html">b</a><a href="q.html?">q</a>`, 4, ""},
		{"other hosts and schemes", `<a href="//other.example/x">o</a><a href="HTTPS://Other.Example:443/y">y</a><a href="mailto:a@b.c">m</a><a href="javascript:void(0)">j</a>`, 2, ""},
		{"percent-encoding and odd characters", `<a href="%7Euser/a%2fb.html">p</a><a href="a b.html">s</a><a href="caf%C3%A9.html">c</a><a href="x:y.html">c</a>`, 3, ""},
		{"a base element", `<head><base href="/other/dir/"></head><a href="a.html">a</a><a href="/abs.html">b</a>`, 2, ""},
		// The base is the one the page's views and stored links take
		// (intent.PageBase): the first base element with an href, and
		// the page's address for one that is not http or https.
		{"an ftp base", `<html><head><base href="ftp://files.example/"></head><body><a href="a.html">a</a><a href="/b.html">b</a></body></html>`, 2, "-"},
		{"a javascript base", `<html><head><base href="javascript:void(0)"></head><body><a href="a.html">a</a></body></html>`, 1, "-"},
		{"the first base with an href", `<html><head><base target="_top"><base href="/x/"><base href="/y/"></head><body><a href="a.html">a</a><a href="b.html">b</a></body></html>`, 2, "-"},
		{"an ftp base, then an http one", `<html><head><base href="ftp://files.example/"><base href="http://other.example/"></head><body><a href="a.html">a</a></body></html>`, 1, "-"},
		{"area and xlink", `<map><area href="area.html"></map><svg><a xlink:href="svg.html"><text>s</text></a><use xlink:href="#icon"/></svg>`, 2, ""},
		{"links in scripts and comments are none", `<script>var s = '<a href="no.html">';</script><!-- <a href="no2.html"> --><a href="yes.html">y</a>`, 1, ""},
		{"upper-case tags and attributes", `<A HREF="Up.html">u</A>`, 1, ""},
		// A template's content is inert: its links and base are none of
		// the page's, scanned or read from the tree; a base in svg is an
		// SVG element, which the tree passes over.
		{"links in a template are none", `<template><a href="t.html">t</a><base href="/t/"></template><a href="a.html">a</a>`, 1, ""},
		{"a base in svg is none", `<svg><base href="/svg/"></base></svg><a href="a.html">a</a><a href="../b.html">b</a>`, 2, ""},
		{"UTF-8", "<a href=\"caf\xc3\xa9.html\">c</a><a href=\"caf%C3%A9.html\">same</a>", 1, ""},
		{"ISO-8859-1, labelled", "<a href=\"caf\xe9.html\">c</a><a href=\"caf%C3%A9.html\">same</a><a href=\"b.html\">b</a>", 2, "iso-8859-1"},
		{"ISO-8859-1 in a meta element", "<meta charset=\"iso-8859-1\"><a href=\"caf\xe9.html\">c</a><a href=\"caf%C3%A9.html\">same</a>", 1, "-"},
		{"windows-1252, valid UTF-8 bytes", "<a href=\"caf\xc3\xa9.html\">c</a>", 1, "windows-1252"},
		{"hosts DNS refuses are none", `<a href="http://127.0.0.1../x">e</a><a href="http://a..example/">d</a><a href="http://ok.example/">o</a>`, 1, ""},
		{"UTF-16", "\xff\xfe<\x00a\x00 \x00h\x00r\x00e\x00f\x00=\x00x\x00>\x00", 1, "-"},
		// A feed served as text/html (or with no type) is read as XML,
		// and its links are its feed links (intent.FeedLinks), which
		// the scan of a and area tags does not see.
		{"an RSS feed", `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>http://example.com/</link>` +
			`<item><title>a</title><link>http://example.com/a.html</link><enclosure url="/b.mp3"/></item></channel></rss>`, 3, "-"},
		{"an Atom feed", `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.com/posts/"><link href="/"/>` +
			`<entry><title>a</title><link href="a.html"/></entry><entry><link href="b.html"/></entry></feed>`, 3, "-"},
		{"a prefixed Atom feed after a stylesheet", `<?xml version="1.0"?><?xml-stylesheet href="/f.xsl"?><a:feed xmlns:a="http://www.w3.org/2005/Atom">` +
			`<a:entry><a:link href="http://example.com/a.html"/></a:entry></a:feed>`, 1, "-"},
		// An XHTML page with an XML declaration is scanned (TestXHTMLScanned),
		// as is a page of HTML that starts with one; this one, with a
		// base element, is read from its tree.
		{"XHTML with an XML declaration", `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">` +
			`<html xmlns="http://www.w3.org/1999/xhtml"><head><base href="/docs/"/></head><body><a href="a.html">a</a><p><a href="/b">b</a></p></body></html>`, 2, "-"},
		{"HTML with an XML declaration", `<?xml version="1.0"?><html><body><a href=a.html>a</a><br><a href=/b>b</a></body></html>`, 2, "-"},
	}
	canon, err := vigil.CanonicalURL(page)
	if err != nil {
		t.Fatal(err)
	}
	self := pageKey(canon)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, charset := "<html><body>"+tt.body+"</body></html>", tt.charset
			switch charset {
			case "":
				charset = "utf-8"
			case "-": // none: the body says
				body, charset = tt.body, ""
			}
			doc, _, err := warehouse.ReadBody([]byte(body), charset, "text/html")
			if err != nil {
				t.Fatal(err)
			}
			var want []uint64
			for _, l := range warehouse.ExtractLinks(doc, page) {
				if c, err := vigil.CanonicalURL(l.Target); err == nil {
					want = append(want, pageKey(c))
				}
			}
			want = sortedKeys(want, self)
			got, ok := htmlLinkKeys([]byte(body), charset, page, self)
			if !ok { // read from the tree, as linkKeys does
				got = treeLinkKeys(doc, page, self, false)
			}
			if !slices.Equal(got, want) {
				t.Errorf("keys %v, want those of ExtractLinks %v", got, want)
			}
			if len(got) != tt.want {
				t.Errorf("%d targets, want %d", len(got), tt.want)
			}
		})
	}
}

// TestXHTMLScanned: an XHTML page, or a page of HTML, that starts with an
// XML declaration is scanned for its links, not parsed into a tree on
// every check; a feed (any prefix, after a DOCTYPE or processing
// instruction) is read from its tree, and so is a page with a base
// element with an href (the tree tells which base it takes).
func TestXHTMLScanned(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		tree       bool
	}{
		{"XHTML", `<?xml version="1.0" encoding="iso-8859-1"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x"><html xmlns="http://www.w3.org/1999/xhtml"><body><a href="/a">a</a></body></html>`, false},
		{"HTML", `<?xml version="1.0"?><html><body><a href=/a>a</a><br></body></html>`, false},
		{"a base element", `<html><head><base href="/docs/"></head><body><a href="a">a</a></body></html>`, true},
		{"a base element without an href", `<html><head><base target="_top"></head><body><a href="a">a</a></body></html>`, false},
		{"XML, no feed", `<?xml version="1.0"?><catalog><a href="/a">a</a></catalog>`, false},
		{"RSS 0.91", `<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "x"><rss version="0.91"><channel/></rss>`, true},
		{"RSS after a byte order mark, in windows-1252", "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<rss version=\"2.0\"><channel/></rss>", true},
		{"RSS 1.0", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>`, true},
		{"Atom, prefixed", `<?xml version="1.0"?><?xml-stylesheet href="x"?><!-- c --><a:feed xmlns:a="http://www.w3.org/2005/Atom"/>`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := htmlLinkKeys([]byte(tc.body), "", "http://example.com/", 0); ok == tc.tree {
				t.Errorf("scanned %v, want %v", ok, !tc.tree)
			}
		})
	}
}

// TestMovedImportance: an estimate is stored again only once it moved by
// importanceChange from what is stored, or none is.
func TestMovedImportance(t *testing.T) {
	tests := []struct {
		stored, est float64
		want        bool
	}{
		{0, 0.01, true},
		{0, 0, false},
		{0.01, 0.01, false},
		{0.01, 0.01 * (1 + importanceChange/2), false},
		{0.01, 0.01 * (1 - importanceChange/2), false},
		{0.01, 0.01 * (1 + 2*importanceChange), true},
		{0.01, 0.01 * (1 - 2*importanceChange), true},
		{0.5, 0, true},
	}
	for _, tt := range tests {
		if got := movedImportance(tt.stored, tt.est); got != tt.want {
			t.Errorf("movedImportance(%v, %v) = %v, want %v", tt.stored, tt.est, got, tt.want)
		}
	}
}
