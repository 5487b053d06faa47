package markup_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

func TestParseHTML(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opt  *markup.Options
		want string // the root written as HTML
	}{
		{"minimal", `<p>x`, nil, `<html><head></head><body><p>x</p></body></html>`},
		{"normalize", "<body>\n  <p>  a \n b  </p>\n  <p>c</p>\n</body>", nil, `<html><head></head><body><p>a b</p><p>c</p></body></html>`},
		{"keep", "<body>\n<p> a </p></body>", keep, "<html><head></head><body>\n<p> a </p></body></html>"},
		{"pre preserved", "<pre>\n\n  a\n  b </pre>", nil, "<html><head></head><body><pre>\n\n  a\n  b </pre></body></html>"},
		{"textarea preserved", "<textarea>  a  </textarea>", nil, "<html><head></head><body><textarea>  a  </textarea></body></html>"},
		{"script text", "<script>if (a < b && c) {\n  x()\n}</script>", nil, "<html><head><script>if (a < b && c) {\n  x()\n}</script></head><body></body></html>"},
		{"style text", "<style>a > b { }</style>", nil, "<html><head><style>a > b { }</style></head><body></body></html>"},
		{"void elements", `<p>a<br>b<img src="x.png" alt=""></p>`, nil, `<html><head></head><body><p>a<br>b<img src="x.png" alt=""></p></body></html>`},
		{"escaping", `<p title="&quot;a&amp;b&quot; <c>">1 &lt; 2 &amp;&amp; 3 &gt; 2</p>`, nil, `<html><head></head><body><p title="&quot;a&amp;b&quot; <c>">1 &lt; 2 &amp;&amp; 3 &gt; 2</p></body></html>`},
		{"comments", `<!-- head --><p>x<!-- in --></p>`, nil, `<html><head></head><body><p>x<!-- in --></p></body></html>`},
		{"svg with prefixed attributes", `<svg viewBox="0 0 1 1"><use xlink:href="#a"/><foreignObject><p>x</p></foreignObject></svg>`, nil,
			`<html><head></head><body><svg viewBox="0 0 1 1"><use xlink:href="#a"/><foreignObject><p>x</p></foreignObject></svg></body></html>`},
		{"tables get tbody", `<table><tr><td>1</td></tr></table>`, nil, `<html><head></head><body><table><tbody><tr><td>1</td></tr></tbody></table></body></html>`},
		{"entities", `<p>a&nbsp;b &eacute; &copy</p>`, nil, "<html><head></head><body><p>a\u00a0b é ©</p></body></html>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := markup.ParseHTMLBytes([]byte(tt.in), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := markup.WriteNodeHTML(&b, d.Root, nil); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got  %s\nwant %s", b.String(), tt.want)
			}
			// And it round-trips.
			d2, err := markup.ParseHTMLBytes(b.Bytes(), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := tree.Diff(d.Root, d2.Root, tree.Content); diff != "" {
				t.Errorf("round trip: %s", diff)
			}
		})
	}
}

func TestParseHTMLDocument(t *testing.T) {
	in := `<!-- first --><!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><html lang="en"><body><p>x</p></body></html><!-- last -->`
	d, err := markup.ParseHTMLBytes([]byte(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Doctype != `html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"` {
		t.Errorf("doctype %q", d.Doctype)
	}
	if len(d.Prolog) != 1 || d.Prolog[0].Value != " first " {
		t.Errorf("prolog %v", d.Prolog)
	}
	if v, _ := d.Root.Attr("lang"); d.Root.Name != "html" || v != "en" {
		t.Errorf("root %s lang %q", d.Root.Name, v)
	}
	var b bytes.Buffer
	if err := markup.WriteHTML(&b, d, nil); err != nil {
		t.Fatal(err)
	}
	d2, err := markup.ParseHTMLBytes(b.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := equalDocs(d, d2); diff != "" {
		t.Errorf("round trip: %s\n%s", diff, b.String())
	}
}

// TestHTMLDoctypeQuotes keeps a DOCTYPE identifier holding a quote: it
// is written in the other quote, so that the page written reads back with
// the same DOCTYPE (an identifier holds one kind of quote at most).
func TestHTMLDoctypeQuotes(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"double quotes":  {`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "x">`, `html PUBLIC "-//W3C//DTD HTML 4.01//EN" "x"`},
		"public with \"": {`<!DOCTYPE html PUBLIC 'a"b'>`, `html PUBLIC 'a"b'`},
		"system with \"": {`<!DOCTYPE html PUBLIC "a'b" 'c"d'>`, `html PUBLIC "a'b" 'c"d'`},
		"system only":    {`<!DOCTYPE html SYSTEM 'about:"legacy"'>`, `html SYSTEM 'about:"legacy"'`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			d, err := markup.ParseHTMLBytes([]byte(tt.in+"<p>x</p>"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if d.Doctype != tt.want {
				t.Errorf("doctype %q, want %q", d.Doctype, tt.want)
			}
			var b bytes.Buffer
			if err := markup.WriteHTML(&b, d, nil); err != nil {
				t.Fatal(err)
			}
			d2, err := markup.ParseHTMLBytes(b.Bytes(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := equalDocs(d, d2); diff != "" {
				t.Errorf("round trip: %s\n%s", diff, b.String())
			}
		})
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		in   string
		want markup.Format
	}{
		{`<?xml version="1.0"?><html/>`, markup.XML},
		{"\uFEFF  <!-- c --><?pi x?><a/>", markup.XML},
		{`<!DOCTYPE html><title>x</title>`, markup.HTML},
		{`<!doctype HTML>`, markup.HTML},
		{`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x"><html xmlns="http://www.w3.org/1999/xhtml"/>`, markup.HTML},
		{`<!DOCTYPE note [<!ENTITY a "b">]><note/>`, markup.XML},
		{`<HTML><BODY>`, markup.HTML},
		{"\n<div>x</div>", markup.HTML},
		{`<rss version="2.0"><channel/></rss>`, markup.XML},
		{`<Sysmon schemaversion="4.1"/>`, markup.XML},
		{`<table xmlns="urn:example:tables"><row/></table>`, markup.XML},
		{`<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`, markup.HTML},
		{`<TABLE><TR><TD>x</TD></TR></TABLE>`, markup.HTML},
		{`<p>a<svg><use href="#x"/></svg></p>`, markup.HTML},
		{`<html xmlns:og="http://ogp.me/ns#"><head><meta charset="utf-8"></head></html>`, markup.HTML},
		{`<html xmlns="urn:other"><x/></html>`, markup.XML},
		{`just text`, markup.HTML},
		{``, markup.HTML},
	}
	for _, tt := range tests {
		if got := markup.Detect([]byte(tt.in)); got != tt.want {
			t.Errorf("Detect(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	// XHTML that is not well-formed falls back to HTML in Parse.
	in := `<?xml version="1.0"?><!DOCTYPE html><html><body><p>a<br>b</p></body></html>`
	d, f, err := markup.ParseBytes([]byte(in), nil)
	if err != nil || f != markup.HTML || d.Root.Name != "html" {
		t.Errorf("malformed XHTML: format %v, err %v", f, err)
	}
	// So does an html root detected as XML (a foreign default namespace).
	if d, f, err := markup.ParseBytes([]byte(`<html xmlns="urn:other"><body><p>a<br>b</p></body></html>`), nil); err != nil || f != markup.HTML || d.Root.Name != "html" {
		t.Errorf("malformed html root with a foreign namespace: format %v, err %v", f, err)
	}
	// Other malformed XML stays an error.
	if _, f, err := markup.ParseBytes([]byte(`<?xml version="1.0"?><a><b></a>`), nil); err == nil || f != markup.XML {
		t.Errorf("malformed XML: format %v, err %v", f, err)
	}
}

// TestParseForcedFormat parses as Options.Format says, whatever Detect
// would say.
func TestParseForcedFormat(t *testing.T) {
	in := []byte(`<table><row/></table>`)
	if _, f, err := markup.ParseBytes(in, &markup.Options{Format: markup.HTML}); err != nil || f != markup.HTML {
		t.Errorf("forced HTML: %v, %v", f, err)
	}
	d, f, err := markup.ParseBytes([]byte(`<p><Row/></p>`), &markup.Options{Format: markup.XML})
	if err != nil || f != markup.XML || d.Root.Name != "p" || d.Root.Children[0].Name != "Row" {
		t.Errorf("forced XML: %v, %v", f, err)
	}
	if _, _, err := markup.ParseBytes([]byte(`<p>a<br>b</p>`), &markup.Options{Format: markup.XML}); err == nil {
		t.Error("forced XML on HTML that is not well-formed: no error")
	}
}

// TestParseServedAsHTML reads an XHTML page served as text/html as HTML
// whether it is well-formed or not, so that its versions keep one format;
// a feed served as text/html, and XHTML served otherwise, are still told
// by content.
func TestParseServedAsHTML(t *testing.T) {
	const wellFormed = `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><body><p>a<br/>b</p></body></html>`
	const broken = `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><body><p>a<br>b</p></body></html>`
	const feed = `<?xml version="1.0"?><rss version="2.0"><channel><link>https://example.com/</link></channel></rss>`
	tests := []struct {
		in, mediaType string
		want          markup.Format
	}{
		{wellFormed, "", markup.XML},
		{wellFormed, "text/html", markup.HTML},
		{wellFormed, "Text/HTML; charset=utf-8", markup.HTML},
		{broken, "text/html", markup.HTML},
		{wellFormed, "application/xhtml+xml", markup.XML},
		{`<?xml version="1.0"?><html><body><p>x</p></body></html>`, "text/html", markup.HTML},
		{feed, "text/html", markup.XML},
	}
	for _, tt := range tests {
		_, f, err := markup.ParseBytes([]byte(tt.in), &markup.Options{MediaType: tt.mediaType})
		if err != nil || f != tt.want {
			t.Errorf("%.40q served as %q: format %v, err %v; want %v", tt.in, tt.mediaType, f, err, tt.want)
		}
	}
	// The two versions give the same tree, but for the one change.
	a, _, _ := markup.ParseBytes([]byte(wellFormed), &markup.Options{MediaType: "text/html"})
	b, _, _ := markup.ParseBytes([]byte(strings.Replace(broken, "a<br>b", "a<br>c", 1)), &markup.Options{MediaType: "text/html"})
	var x, y bytes.Buffer
	markup.WriteXML(&x, a, nil)
	markup.WriteXML(&y, b, nil)
	if got, want := y.String(), strings.Replace(x.String(), "a<br/>b", "a<br/>c", 1); got != want {
		t.Errorf("versions read apart:\n%s\n%s", got, want)
	}
	// Format wins.
	if _, f, err := markup.ParseBytes([]byte(wellFormed), &markup.Options{MediaType: "text/html", Format: markup.XML}); err != nil || f != markup.XML {
		t.Errorf("Format XML served as text/html: %v, %v", f, err)
	}
	// The flat parse agrees.
	if _, f, err := markup.ParseFlatBytesOwned([]byte(wellFormed), &markup.Options{MediaType: "text/html"}); err != nil || f != markup.HTML {
		t.Errorf("flat: %v, %v", f, err)
	}
}

// TestHTMLControlCharacters parses HTML with characters XML cannot hold:
// they are replaced, so that the document can be written as XML and its
// deltas as XyDelta.
func TestHTMLControlCharacters(t *testing.T) {
	d, err := markup.ParseHTMLBytes([]byte("<p title=\"a\x02b&#8;\">x\x01y\fz\uFFFEw&#x1b;&#xFFFF;</p><!-- c\x03 -->"), &markup.Options{Whitespace: markup.Keep})
	if err != nil {
		t.Fatal(err)
	}
	p := d.Root.Children[1].Children[0]
	if got := p.Children[0].Value; got != "x\uFFFDy z\uFFFDw\uFFFD\uFFFD" {
		t.Errorf("text %q", got)
	}
	if got, _ := p.Attr("title"); got != "a\uFFFDb\uFFFD" {
		t.Errorf("attribute %q", got)
	}
	var b bytes.Buffer
	if err := markup.WriteXML(&b, d, nil); err != nil {
		t.Errorf("WriteXML: %v", err)
	}
	// C1 controls and the other non-characters are XML characters: kept.
	// A surrogate reference is U+FFFD, as in a browser.
	d, err = markup.ParseHTMLBytes([]byte("<p>a\u0085b&#x9F;c﷐d🿾e&#xD800;f</p>"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Root.Children[1].Children[0].Children[0].Value; got != "a\u0085bŸc﷐d🿾e�f" {
		t.Errorf("text %q", got)
	}
	// Attribute names that differ only by such characters are one name:
	// the first is kept, as the HTML tokenizer keeps the first of
	// duplicates.
	d, err = markup.ParseHTMLBytes([]byte("<p a\x01=1 a\x02=2>x</p>"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := d.Root.Children[1].Children[0]; len(p.Attrs) != 1 || p.Attrs[0].Value != "1" {
		t.Errorf("attributes %v, want one, the first", p.Attrs)
	}
}

// TestHTMLTooDeep refuses HTML nested past the HTML parser's limit with an
// error that says so, but for the formatting tags old pages never close,
// which are kept to as many as the parser takes.
func TestHTMLTooDeep(t *testing.T) {
	in := strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600)
	_, err := markup.ParseHTMLBytes([]byte(in), nil)
	if err == nil || !errors.Is(err, markup.ErrHTMLTooDeep) || !strings.Contains(err.Error(), "nested more than 512 deep") {
		t.Errorf("600 nested divs: %v", err)
	}
	page := "<!DOCTYPE html><html><body>" + strings.Repeat("<font size=2>item <br>", 600) + "<p>end</p></body></html>"
	d, err := markup.ParseHTMLBytes([]byte(page), nil)
	if err != nil {
		t.Fatalf("600 unclosed font tags: %v", err)
	}
	if text := d.Root.Text(); strings.Count(text, "item") != 600 || !strings.Contains(text, "end") {
		t.Errorf("600 unclosed font tags: the text kept is %d items", strings.Count(text, "item"))
	}
}

// TestParseHTMLFragment reads a document whose first element is an HTML
// element and which is not well-formed XML as HTML, whatever the element,
// as it does one whose first element is div or html; malformed XML whose
// root is not an HTML element, or that says it is XML, stays an error with
// its position.
func TestParseHTMLFragment(t *testing.T) {
	for _, in := range []string{
		"<blockquote>Quote one.<br>Quote two.</blockquote>\n",
		"<pre>unclosed\n",
		"<!-- c -->\n<td>a<td>b",
		"<tr><td>x</tr>", "<select><option>a<option>b</select>", "<textarea>x",
		"<strong>a<em>b</strong></em>", "<code>a &amp b</code>", "<dl><dt>a<dd>b</dl>",
		"<button>a<br></button>", "<span>a<input></span>", "<EM>a<br></EM>",
		`<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"></svg>`,
		`<math><mi>x</math>`, `<center><font size=2>x</center>`,
	} {
		for _, flat := range []bool{false, true} {
			var f markup.Format
			var err error
			if flat {
				_, f, err = markup.ParseFlatBytesOwned([]byte(in), nil)
			} else {
				var d *tree.Document
				d, f, err = markup.ParseBytes([]byte(in), nil)
				if err == nil && d.Root.Name != "html" {
					t.Errorf("%q: root %s, want html", in, d.Root.Name)
				}
			}
			if err != nil || f != markup.HTML {
				t.Errorf("%q (flat %v): format %v, err %v; want HTML", in, flat, f, err)
			}
		}
	}
	// Well-formed, the same documents are XML still.
	if d, f, err := markup.ParseBytes([]byte("<blockquote>Quote one.</blockquote>\n"), nil); err != nil || f != markup.XML || d.Root.Name != "blockquote" {
		t.Errorf("well-formed blockquote: format %v, err %v", f, err)
	}
	// Served as XML, a malformed document is refused, whatever its root.
	for _, mt := range []string{"application/xml", "text/xml; charset=utf-8", "application/atom+xml"} {
		_, _, err := markup.ParseBytes([]byte("<blockquote>Quote one.<br>Quote two.</blockquote>"), &markup.Options{MediaType: mt})
		var se *markup.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("malformed blockquote served as %s: %v, want a syntax error", mt, err)
		}
	}
	// Served as text/html, an HTML element is HTML, well-formed or not.
	if _, f, err := markup.ParseBytes([]byte("<blockquote>Quote one.</blockquote>"), &markup.Options{MediaType: "text/html"}); err != nil || f != markup.HTML {
		t.Errorf("blockquote served as text/html: format %v, err %v", f, err)
	}
	for _, in := range []string{
		"<catalog><item></catalog>",                          // not an HTML element
		"<name>a<b></name>",                                  // an HTML attribute name, not an element
		`<?xml version="1.0"?><blockquote><br></blockquote>`, // declared XML
		`<!DOCTYPE pre [<!ENTITY e "x">]><pre>&e;<br></pre>`, // a DOCTYPE that is not html
		`<pre xmlns="urn:example:pre"><br></pre>`,            // a foreign namespace
		"<data><item>1</item>",                               // a common XML root, truncated
		"<menu><item>A & B</item></menu>",                    // a common XML root, a bad entity
	} {
		_, f, err := markup.ParseBytes([]byte(in), nil)
		var se *markup.SyntaxError
		if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 || f != markup.XML {
			t.Errorf("%q: format %v, err %v; want XML and a syntax error with a position", in, f, err)
		}
	}
}

// TestParsedAsHTML: a document an HTML parser read says so
// (tree.Document.HTML), for delta, which leaves out of what stands before
// the root the comment that parser makes of <?xml ...?>; read as XML, a
// comment of that shape is the author's, and the document says nothing.
func TestParsedAsHTML(t *testing.T) {
	const decl = `<?xml version="1.0"?><html><body><p>x</p></body></html>`
	const comment = `<!--?xml version="1.0"?--><r><s>x</s></r>`
	for _, tc := range []struct {
		name  string
		parse func(string) (*tree.Document, error)
		in    string
		html  bool
	}{
		{"ParseHTMLBytes", func(s string) (*tree.Document, error) { return markup.ParseHTMLBytes([]byte(s), nil) }, decl, true},
		{"ParseHTML", func(s string) (*tree.Document, error) { return markup.ParseHTML(strings.NewReader(s), nil) }, decl, true},
		{"ParseXMLBytes", func(s string) (*tree.Document, error) { return markup.ParseXMLBytes([]byte(s), nil) }, comment, false},
		{"ParseXML", func(s string) (*tree.Document, error) { return markup.ParseXML(strings.NewReader(s), nil) }, comment, false},
		{"ParseBytes, forced HTML", func(s string) (*tree.Document, error) {
			d, _, err := markup.ParseBytes([]byte(s), &markup.Options{Format: markup.HTML})
			return d, err
		}, comment, true},
		{"ParseBytes, detected XML", func(s string) (*tree.Document, error) {
			d, _, err := markup.ParseBytes([]byte(s), nil)
			return d, err
		}, comment, false},
	} {
		d, err := tc.parse(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if d.HTML != tc.html {
			t.Errorf("%s: HTML %v, want %v", tc.name, d.HTML, tc.html)
		}
		if len(d.Prolog) != 1 || !tree.IsXMLDeclarationComment(d.Prolog[0]) {
			t.Errorf("%s: prolog %v, want the comment ?xml version=\"1.0\"?", tc.name, d.Prolog)
		}
	}
}
