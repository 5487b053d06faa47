package warehouse_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/markup"
)

func TestExtractLinks(t *testing.T) {
	page := `<!DOCTYPE html><html><head><title>t</title></head><body>
<p>See <a href="#staff">our   staff</a>, <a href="/about">About <b>us</b></a>,
<a href="http://www.rxlist.com/cgi/generic/index.html">all RxList monographs</a>,
<a href="mailto:x@example.com">mail</a>, <a name="anchor-only">no href</a>,
<map><area href="https://example.com:443/map" alt="m"></map>
<a HREF="page2.html">next</a></p></body></html>`
	doc, _, err := markup.ParseBytes([]byte(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := warehouse.ExtractLinks(doc, "https://Example.com/dir/index.html")
	want := []vigil.Link{
		{Target: "https://example.com/dir/index.html#staff", Anchor: "our staff", Type: vigil.LinkInterior},
		{Target: "https://example.com/about", Anchor: "About us", Type: vigil.LinkLocal},
		{Target: "http://www.rxlist.com/cgi/generic/index.html", Anchor: "all RxList monographs", Type: vigil.LinkGlobal},
		{Target: "https://example.com/map", Anchor: "", Type: vigil.LinkLocal},
		{Target: "https://example.com/dir/page2.html", Anchor: "next", Type: vigil.LinkLocal},
	}
	if len(got) != len(want) {
		for _, l := range got {
			t.Logf("%+v", l)
		}
		t.Fatalf("%d links, want %d", len(got), len(want))
	}
	for i, w := range want {
		w.Source = "https://example.com/dir/index.html"
		if *got[i] != w {
			t.Errorf("link %d: %+v, want %+v", i, *got[i], w)
		}
	}
	// A template's content is inert: its links are none of the page's.
	doc, _, _ = markup.ParseBytes([]byte(`<html><body><template><a href="t.html">T</a><svg><a xlink:href="ts.html">S</a></svg></template><a href="a.html">A</a></body></html>`), nil)
	got = warehouse.ExtractLinks(doc, "http://example.com/")
	if len(got) != 1 || got[0].Target != "http://example.com/a.html" {
		t.Errorf("links with a template: %+v, want only a.html", got)
	}
	// A noscript's links are none of the page's (intent.HoldsNoLinks),
	// in XHTML too, whose parser reads its content as elements.
	for _, page := range []string{
		`<html><body><noscript><a href="n.html">N</a></noscript><a href="a.html">A</a></body></html>`,
		`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><noscript><a href="n.html">N</a><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="ns.html">S</a></svg></noscript><a href="a.html">A</a></body></html>`,
	} {
		doc, _, _ = markup.ParseBytes([]byte(page), nil)
		got = warehouse.ExtractLinks(doc, "http://example.com/")
		if len(got) != 1 || got[0].Target != "http://example.com/a.html" {
			t.Errorf("links with a noscript: %+v, want only a.html", got)
		}
	}
	// An XML document's own prefixed element is not HTML's template: an
	// XSLT stylesheet's links inside xsl:template are its links.
	doc, _, _ = markup.ParseBytes([]byte(`<?xml version="1.0"?><xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="1.0"><xsl:template match="/"><a href="x.html">X</a></xsl:template></xsl:stylesheet>`), nil)
	got = warehouse.ExtractLinks(doc, "http://example.com/")
	if len(got) != 1 || got[0].Target != "http://example.com/x.html" {
		t.Errorf("links in an xsl:template: %+v, want x.html", got)
	}
	// <base href> moves relative links.
	doc, _, _ = markup.ParseBytes([]byte(`<html><head><base href="http://cdn.example/x/"></head><body><a href="y">y</a></body></html>`), nil)
	got = warehouse.ExtractLinks(doc, "http://example.com/")
	if len(got) != 1 || got[0].Target != "http://cdn.example/x/y" || got[0].Type != vigil.LinkGlobal {
		t.Fatalf("base: %+v", got)
	}
}

func TestPutExtractsLinks(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{ExtractLinks: true})
	v := put(t, w, "http://example.com/", 0, []byte(`<html><body><a href="/a">A</a><a href="http://b.example/">B</a></body></html>`))
	links, err := db.Links(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 2 || links[0].Target != "http://example.com/a" || links[1].Type != vigil.LinkGlobal || links[0].Source != "http://example.com/" {
		t.Fatalf("links %+v", links)
	}
}

// TestExtractLinksIDN: a link to a host spelt in Unicode, or
// percent-encoded in UTF-8, is the link to its ASCII (punycode) form, the
// one every stored URL holds; the page's own URL and its <base href> may
// be spelt so too. Such links were dropped: vigil.CanonicalURL refuses a
// host that is not ASCII. A host IDNA refuses is left out, as other
// invalid hrefs are.
func TestExtractLinksIDN(t *testing.T) {
	const source = "http://xn--bcher-kva.example/dir/"
	tests := []struct {
		name, page, pageURL string
		want                []vigil.Link
	}{
		{
			name: "hrefs",
			page: `<a href="http://bücher.example/a">a</a><a href="http://b%C3%BCcher.example/b#f">b</a>
<a href="//BÜCHER.example:8080/c">c</a><a href="https://ñandú.example/">d</a>
<a href="http://bücher-.example/">refused</a><a href="http://-bücher.example/">refused</a><a href="e">e</a>`,
			pageURL: source,
			want: []vigil.Link{
				{Target: "http://xn--bcher-kva.example/a", Anchor: "a", Type: vigil.LinkLocal},
				{Target: "http://xn--bcher-kva.example/b#f", Anchor: "b", Type: vigil.LinkLocal},
				{Target: "http://xn--bcher-kva.example:8080/c", Anchor: "c", Type: vigil.LinkGlobal},
				{Target: "https://xn--and-6ma2c.example/", Anchor: "d", Type: vigil.LinkGlobal},
				{Target: "http://xn--bcher-kva.example/dir/e", Anchor: "e", Type: vigil.LinkLocal},
			},
		},
		{
			name:    "page URL in Unicode",
			page:    `<a href="/a">a</a><a href="#top">top</a>`,
			pageURL: "http://Bücher.example/dir/",
			want: []vigil.Link{
				{Target: "http://xn--bcher-kva.example/a", Anchor: "a", Type: vigil.LinkLocal},
				{Target: "http://xn--bcher-kva.example/dir/#top", Anchor: "top", Type: vigil.LinkInterior},
			},
		},
		{
			name:    "base in Unicode",
			page:    `<html><head><base href="http://bücher.example/x/"></head><body><a href="y">y</a></body></html>`,
			pageURL: source,
			want: []vigil.Link{
				{Target: "http://xn--bcher-kva.example/x/y", Anchor: "y", Type: vigil.LinkLocal},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, _, err := markup.ParseBytes([]byte(tt.page), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := warehouse.ExtractLinks(doc, tt.pageURL)
			for _, l := range got {
				t.Logf("%+v", *l)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d links, want %d", len(got), len(tt.want))
			}
			for i, w := range tt.want {
				w.Source = source
				if *got[i] != w {
					t.Errorf("link %d: %+v, want %+v", i, *got[i], w)
				}
			}
		})
	}
}

// TestExtractLinksHostDNSRefuses: a link whose host DNS refuses
// (spec.CheckHostName: an empty label, a label over 63 bytes, a name over
// 253) is left out, as one whose host IDNA refuses is: no resource can be
// stored under it, and no fetch can reach it. A name with an empty label
// at its end ("127.0.0.1..", "a.example..") was keyed, and so followed,
// as the name without its dots.
func TestExtractLinksHostDNSRefuses(t *testing.T) {
	const source = "http://a.example/dir/"
	page := `<a href="http://a..example/x">empty label</a>
<a href="http://a.example../y">empty label at the end</a>
<a href="http://127.0.0.1../z">an address with an empty label at the end</a>
<a href="http://` + strings.Repeat("x", 64) + `.example/">long label</a>
<a href="http://` + strings.Repeat(strings.Repeat("y", 50)+".", 5) + `example/">long name</a>
<a href="http://a.example./ok">an absolute name</a>
<a href="http://` + strings.Repeat("x", 63) + `.example/">a label of 63 bytes</a>
<a href="ok2">relative</a>`
	doc, _, err := markup.ParseBytes([]byte(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range warehouse.ExtractLinks(doc, source) {
		got = append(got, l.Target)
	}
	want := []string{"http://a.example/ok", "http://" + strings.Repeat("x", 63) + ".example/", "http://a.example/dir/ok2"}
	if !slices.Equal(got, want) {
		t.Errorf("links %q, want %q", got, want)
	}
}

// TestExtractTextLinks: the links of a document read as its source text
// are the http(s) URLs written in its text (intent.TextLinks), labelled
// by their Markdown label or else by the URL as written, and the href
// and src its tags write relative, labelled by their target, canonical as
// ExtractLinks's targets (a Unicode host in punycode, the fragment kept),
// a host DNS or IDNA refuses left out; a page's own <pre> of URLs is not
// read as text, and ExtractLinks gives it none.
func TestExtractTextLinks(t *testing.T) {
	const source = "https://example.com/llms.txt"
	text := "# Docs\nhttps://Example.com:443/a#x\n- [The  guide](https://example.com/guide): how\n" +
		"http://a..example/x http://-bücher.example/ http://bücher.example/b.\nrelative.html mailto:x@example.com\n" +
		"<https://example.com/llms.txt#top>\n"
	want := []vigil.Link{
		{Source: source, Target: "https://example.com/a#x", Anchor: "https://Example.com:443/a#x", Type: vigil.LinkLocal},
		{Source: source, Target: "https://example.com/guide", Anchor: "The guide", Type: vigil.LinkLocal},
		{Source: source, Target: "http://xn--bcher-kva.example/b", Anchor: "http://bücher.example/b", Type: vigil.LinkGlobal},
		{Source: source, Target: "https://example.com/llms.txt#top", Anchor: "https://example.com/llms.txt#top", Type: vigil.LinkInterior},
	}
	for _, tc := range []struct {
		name, body, contentType string
		want                    []vigil.Link
	}{
		{"served as text", text, "text/plain", want},
		{"HTML that does not parse", strings.Repeat("<div>", 600) + text + strings.Repeat("</div>", 600), "text/html", want},
		{"a page's own pre", "<pre>" + text + "</pre>", "text/html", nil},
		// JSON with its slashes escaped, and www. without a scheme: their
		// targets canonical as any, a host IDNA refuses left out.
		{"JSON with escaped slashes", `{"a":"https:\/\/Example.com:443\/a#x","b":"http:\/\/-b\u00fccher.example\/","c":["http:\/\/b\u00fccher.example\/b"]}`, "application/json", []vigil.Link{
			{Source: source, Target: "https://example.com/a#x", Anchor: "https://Example.com:443/a#x", Type: vigil.LinkLocal},
			{Source: source, Target: "http://xn--bcher-kva.example/b", Anchor: "http://bücher.example/b", Type: vigil.LinkGlobal},
		}},
		// JSON that escapes letters outside ASCII, not slashes (Python's
		// json.dumps): no link to the host cut at the escape (https://b).
		{"JSON with escaped letters", `{"a":"https://b\u00fccher.example/b?x=1\u0026y=2"}`, "application/json", []vigil.Link{
			{Source: source, Target: "https://xn--bcher-kva.example/b?x=1&y=2", Anchor: "https://bücher.example/b?x=1&y=2", Type: vigil.LinkGlobal},
		}},
		{"www", "Mirror: www.Example.com/a. Or *www.-bücher.example* (www.bücher.example/b)\nxwww.example.com\n", "text/plain", []vigil.Link{
			{Source: source, Target: "http://www.example.com/a", Anchor: "http://www.Example.com/a", Type: vigil.LinkGlobal},
			{Source: source, Target: "http://www.xn--bcher-kva.example/b", Anchor: "http://www.bücher.example/b", Type: vigil.LinkGlobal},
		}},
		// www. in JSON with its slashes escaped, and a Markdown link to
		// a www. host, named by its label.
		// The hrefs of a and area elements a text's tags write relative
		// (HTML read as text, markup in a JSON string), resolved against
		// the page or the text's base element and named by their
		// target, among its absolute URLs in the order they are written
		// (intent.SourceLinks): the links of the page had it parsed, not
		// an img's, a script's or a stylesheet's address, nor the base
		// element's href.
		{"relative links of HTML read as text", strings.Repeat("<div>", 600) + `<a href="/a">A</a> <img src="img/b.png"> <script src="/s.js"></script> <link rel=stylesheet href="/c.css"> <area href="/map">` +
			"\n" + `<a href="https://Example.com/c">C</a> <a href="#top">Top</a> <a href="mailto:x@example.com">M</a>` + strings.Repeat("</div>", 600), "text/html", []vigil.Link{
			{Source: source, Target: "https://example.com/a", Anchor: "https://example.com/a", Type: vigil.LinkLocal},
			{Source: source, Target: "https://example.com/map", Anchor: "https://example.com/map", Type: vigil.LinkLocal},
			{Source: source, Target: "https://example.com/c", Anchor: "https://Example.com/c", Type: vigil.LinkLocal},
			{Source: source, Target: "https://example.com/llms.txt#top", Anchor: "https://example.com/llms.txt#top", Type: vigil.LinkInterior},
		}},
		{"relative links in JSON, against a base", `{"html":"<base href='https://cdn.example/x/'><a href='y.html'>Y</a>"}`, "application/json", []vigil.Link{
			{Source: source, Target: "https://cdn.example/x/y.html", Anchor: "https://cdn.example/x/y.html", Type: vigil.LinkGlobal},
		}},
		// An img's, a script's or a stylesheet's address written
		// absolute is no link either, as it is none of the page
		// parsed, while the same URL in prose or an a's href is.
		{"absolute addresses of resources in HTML read as text", strings.Repeat("<div>", 600) + `<img src="https://cdn.example/i.png"> <script src="https://cdn.example/s.js"></script> <link rel=stylesheet href="https://cdn.example/c.css">` +
			` <a href="https://cdn.example/d">D</a> see https://cdn.example/i.png` + strings.Repeat("</div>", 600), "text/html", []vigil.Link{
			{Source: source, Target: "https://cdn.example/d", Anchor: "https://cdn.example/d", Type: vigil.LinkGlobal},
			{Source: source, Target: "https://cdn.example/i.png", Anchor: "https://cdn.example/i.png", Type: vigil.LinkGlobal},
		}},
		{"www in JSON and Markdown", `{"u":"www.b\u00fccher.example\/b\/c","d":"- [The guide](www.example.com/guide)"}`, "application/json", []vigil.Link{
			{Source: source, Target: "http://www.xn--bcher-kva.example/b/c", Anchor: "http://www.bücher.example/b/c", Type: vigil.LinkGlobal},
			{Source: source, Target: "http://www.example.com/guide", Anchor: "The guide", Type: vigil.LinkGlobal},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, readAsText, err := warehouse.ReadBody([]byte(tc.body), "utf-8", tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			// What Put stores: the text's links for a body read as
			// text, the elements' for a page.
			links := warehouse.ExtractLinks(doc, source)
			if readAsText != nil {
				links = warehouse.ExtractTextLinks(doc, source)
			}
			var got []vigil.Link
			for _, l := range links {
				got = append(got, *l)
			}
			if (readAsText != nil) != (tc.want != nil) || !slices.Equal(got, tc.want) {
				t.Errorf("read as text: %v; links\n%+v\nwant\n%+v", readAsText, got, tc.want)
			}
		})
	}
}

// TestPutExtractsTextLinks: Put, extracting links, stores those of a body
// read as its source text (ExtractTextLinks), served as text or HTML that
// does not parse, and none for a page's <pre> of URLs: a text page had
// none, its body not even read.
func TestPutExtractsTextLinks(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{ExtractLinks: true})
	for i, tc := range []struct {
		contentType, body string
		want              []string
	}{
		{"text/plain; charset=utf-8", "https://example.com/a\n[B](http://b.example/)\n", []string{"https://example.com/a", "http://b.example/"}},
		{"application/json", `{"next": "https://example.com/page2"}`, []string{"https://example.com/page2"}},
		{"application/json", `{"next":"https:\/\/example.com\/page3","home":"www.example.com"}`, []string{"https://example.com/page3"}},
		{"text/plain", "See www.example.com/page4.", []string{"http://www.example.com/page4"}},
		{"text/html", strings.Repeat("<div>", 600) + " https://example.com/c " + strings.Repeat("</div>", 600), []string{"https://example.com/c"}},
		{"text/html", "<pre>https://example.com/d</pre>", nil},
	} {
		v, err := w.Put(ctx, &warehouse.Fetch{URL: "https://example.com/list", FetchedAt: t0.Add(time.Duration(i) * time.Hour),
			Status: 200, ContentType: vigil.MediaType(tc.contentType), Charset: "utf-8", Body: []byte(tc.body)})
		if err != nil {
			t.Fatal(err)
		}
		links, err := db.Links(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range links {
			got = append(got, l.Target)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s %q: links %q, want %q", tc.contentType, tc.body[:min(len(tc.body), 40)], got, tc.want)
		}
	}
}
