package markup_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

func TestWriteXMLEscaping(t *testing.T) {
	d := &tree.Document{}
	d.Root = d.NewElement("r")
	d.Root.SetAttr("a", "<&\"'>\t\n\r")
	for _, v := range []string{"a<b&c>d]]>e\r", "ctl\x01\x0c\uFFFE"} {
		d.Root.AppendChild(d.NewText(v))
		d.Root.AppendChild(d.NewNode(tree.Comment, "", "x--y-"))
	}
	d.Root.AppendChild(d.NewNode(tree.ProcInst, "pi", "a?>b"))
	var b bytes.Buffer
	if err := markup.WriteXML(&b, d, nil); err != nil {
		t.Fatal(err)
	}
	want := `<r a="&lt;&amp;&quot;'>&#9;&#10;&#13;">a&lt;b&amp;c&gt;d]]&gt;e&#13;<!--x- -y- -->ctl` + "\uFFFD\uFFFD\uFFFD" + `<!--x- -y- --><?pi a? >b?></r>`
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
	d2, err := markup.ParseXMLBytes(b.Bytes(), keep)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := d2.Root.Attr("a"); v != "<&\"'>\t\n\r" || d2.Root.Children[0].Value != "a<b&c>d]]>e\r" {
		t.Errorf("re-parsed attribute %q, text %q", v, d2.Root.Children[0].Value)
	}
}

// TestWriteXMLCharsXMLCannotHold: a tree built by hand may hold what no
// parse gives, bytes that are not UTF-8 and control characters in a
// comment, a processing instruction or the DOCTYPE; each is written as
// U+FFFD, as in text, so that the output parses.
func TestWriteXMLCharsXMLCannotHold(t *testing.T) {
	d := &tree.Document{Doctype: `r SYSTEM "s` + "\x01\""}
	d.Root = d.NewElement("r")
	d.Prolog = []*tree.Node{d.NewNode(tree.Comment, "", "c\x02\uFFFF")}
	d.Root.SetAttr("a", "v\xff")
	d.Root.AppendChild(d.NewText("t\xed\xa0\x80"))
	d.Root.AppendChild(d.NewNode(tree.ProcInst, "pi", "p\x1b\xc3"))
	var b bytes.Buffer
	if err := markup.WriteXML(&b, d, nil); err != nil {
		t.Fatal(err)
	}
	const r = "\uFFFD"
	want := `<!DOCTYPE r SYSTEM "s` + r + `"><!--c` + r + r + `--><r a="v` + r + `">t` + r + r + r + "<?pi p" + r + r + "?></r>"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	if _, err := markup.ParseXMLBytes(b.Bytes(), keep); err != nil {
		t.Errorf("the output does not parse: %v", err)
	}
	for _, name := range []string{"a\xff", "a\uFFFE"} {
		d.Root.Name = name
		if err := markup.WriteXML(&b, d, nil); !errors.Is(err, markup.ErrNotXML) {
			t.Errorf("element name %q: err = %v, want ErrNotXML", name, err)
		}
	}
}

func TestWriteXMLIndent(t *testing.T) {
	in := `<?xml version="1.0" encoding="ISO-8859-1"?><!--c--><a x="1"><b>text <i>mixed</i></b><c/><d><e/></d></a>`
	d, err := markup.ParseXMLBytes([]byte(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := markup.WriteXML(&b, d, &markup.WriteOptions{Indent: "  "}); err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="UTF-8"?>
<!--c-->
<a x="1">
  <b>text <i>mixed</i></b>
  <c/>
  <d>
    <e/>
  </d>
</a>
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// Normalize drops the added white space again.
	d2, err := markup.ParseXMLBytes(b.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := tree.Diff(d.Root, d2.Root, tree.Content); diff != "" {
		t.Error(diff)
	}
	b.Reset()
	if err := markup.WriteXML(&b, d, &markup.WriteOptions{OmitProlog: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "<a x=") {
		t.Errorf("OmitProlog: %s", b.String())
	}
}

// TestWriteIndentPreserve writes indented documents whose white space is
// content below some element (xml:space="preserve", an HTML pre): nothing
// is indented there, since a parse would keep the added white space as
// text, so the indented document parses back to the same tree.
func TestWriteIndentPreserve(t *testing.T) {
	for _, tc := range []struct {
		in   string
		html bool
	}{
		{`<r><a xml:space="preserve"><b>x</b><c/></a><d><e/></d></r>`, false},
		{`<a><b xml:space="preserve"><c>x</c><d>y</d></b><e><f/></e></a>`, false},
		{`<a xml:space="preserve"><b xml:space="default"><c/><d/></b><e/></a>`, false},
		{`<html><body><pre><div><b>a</b><b>b</b></div></pre><div><p>x</p></div></body></html>`, true},
		{`<html xmlns="http://www.w3.org/1999/xhtml"><body><pre><code><b>a</b><b>b</b></code></pre><div><p>x</p></div></body></html>`, false},
		{`<r xmlns:h="http://www.w3.org/1999/xhtml"><h:pre><h:code><h:b>a</h:b></h:code></h:pre><s><t/></s></r>`, false},
		// A prefix rebound below, then back in scope: the second pre is XHTML's.
		{`<r xmlns:h="http://www.w3.org/1999/xhtml"><s xmlns:h="urn:x"><h:pre><h:b>a</h:b><h:c/></h:pre></s><h:pre><h:b>a</h:b><h:c/></h:pre></r>`, false},
	} {
		parse := func(b []byte) *tree.Document {
			t.Helper()
			var d *tree.Document
			var err error
			if tc.html {
				d, err = markup.ParseHTML(bytes.NewReader(b), nil)
			} else {
				d, err = markup.ParseXMLBytes(b, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		d := parse([]byte(tc.in))
		var b bytes.Buffer
		write := markup.WriteXML
		if tc.html {
			write = markup.WriteHTML
		}
		if err := write(&b, d, &markup.WriteOptions{Indent: "  "}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "\n  ") {
			t.Errorf("%s: nothing indented:\n%s", tc.in, b.String())
		}
		if diff := tree.Diff(d.Root, parse(b.Bytes()).Root, tree.Content); diff != "" {
			t.Errorf("%s: written indented\n%s\nparses back otherwise: %s", tc.in, b.String(), diff)
		}
	}
}

func TestWriteNodeXML(t *testing.T) {
	d, err := markup.ParseXMLBytes([]byte(`<r xmlns:p="u"><p:a k="v">x<b/></p:a></r>`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := markup.WriteNodeXML(&b, d.Root.Children[0], nil); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != `<p:a k="v">x<b/></p:a>` {
		t.Errorf("got %s", got)
	}
	if err := markup.WriteXML(&b, &tree.Document{}, nil); err == nil {
		t.Error("WriteXML of an empty document: no error")
	}
}

// TestWriteNodeXMLIndentInPre: a subtree written on its own with
// indentation is written compactly where its place keeps white space as
// content (inside an XHTML pre, or xml:space="preserve", above it), as the
// whole document would be; elsewhere it is indented.
func TestWriteNodeXMLIndentInPre(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"XHTML pre", `<html xmlns="http://www.w3.org/1999/xhtml"><body><pre><code><b>a</b><b>b</b></code></pre></body></html>`,
			`<code><b>a</b><b>b</b></code>`},
		{"prefixed XHTML pre", `<r xmlns:h="http://www.w3.org/1999/xhtml"><h:pre><h:code><h:b>a</h:b><h:b>b</h:b></h:code></h:pre></r>`,
			`<h:code><h:b>a</h:b><h:b>b</h:b></h:code>`},
		{"xml:space preserve", `<r xml:space="preserve"><code><b>a</b><b>b</b></code></r>`,
			`<code><b>a</b><b>b</b></code>`},
		{"pre in another namespace", `<r xmlns:h="urn:h"><h:pre><h:code><h:b>a</h:b><h:b>b</h:b></h:code></h:pre></r>`,
			"<h:code>\n  <h:b>a</h:b>\n  <h:b>b</h:b>\n</h:code>"},
		{"XHTML div", `<html xmlns="http://www.w3.org/1999/xhtml"><body><div><code><b>a</b><b>b</b></code></div></body></html>`,
			"<code>\n  <b>a</b>\n  <b>b</b>\n</code>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := markup.ParseXMLBytes([]byte(tc.in), nil)
			if err != nil {
				t.Fatal(err)
			}
			n := d.Root
			for n.Name != "code" && n.Name != "h:code" {
				n = n.Children[0]
			}
			var b bytes.Buffer
			if err := markup.WriteNodeXML(&b, n, &markup.WriteOptions{Indent: "  "}); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestWriteXMLBadName(t *testing.T) {
	d, err := markup.ParseHTMLBytes([]byte(`<p><a href="#x"</a>y</p>`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err = markup.WriteXML(&b, d, nil)
	if !errors.Is(err, markup.ErrNotXML) || !strings.Contains(err.Error(), "/html[1]/body[1]/p[1]/a[1]") {
		t.Fatalf("err = %v", err)
	}
	if err := markup.WriteHTML(&b, d, nil); err != nil {
		t.Fatal(err)
	}
}

// TestWriteHTMLDeclaresUTF8: a page read in another charset is written in
// UTF-8, and its meta elements say so.
func TestWriteHTMLDeclaresUTF8(t *testing.T) {
	in := "<html><head><meta charset=\"iso-8859-1\"><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"></head><body>caf\xe9</body></html>"
	d, err := markup.ParseHTMLBytes([]byte(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := markup.WriteHTML(&b, d, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, `<meta charset="utf-8">`) || !strings.Contains(out, `content="text/html; charset=utf-8"`) || !strings.Contains(out, "café") {
		t.Errorf("output:\n%s", out)
	}
	again, err := markup.ParseHTMLBytes(b.Bytes(), nil)
	if err != nil || !strings.Contains(again.Root.Text(), "café") {
		t.Errorf("read back: %v, %q", err, again.Root.Text())
	}
	// Read back, it is the same tree: the parser's tree says utf-8 too,
	// so that a patched page is the version a next delta applies to.
	if diff := tree.Diff(d.Root, again.Root, tree.Content); diff != "" {
		t.Errorf("written and read again, the page differs: %s", diff)
	}
	// The charset parameter found as a browser finds it, and only it.
	for in, want := range map[string]string{
		"text/html; charset = latin1":            "text/html; charset = utf-8",
		"text/html;CHARSET='latin1'":             "text/html;CHARSET=utf-8",
		"\u212A\u212A text/html; charset=latin1": "\u212A\u212A text/html; charset=utf-8",
		"text/html; foocharset=latin1":           "text/html; foocharset=latin1",
		"text/html":                              "text/html",
		"text/html; charset=UTF-8":               "text/html; charset=UTF-8",
	} {
		d, _ := markup.ParseHTMLBytes([]byte(`<meta http-equiv="content-type" content="`+in+`">`), &markup.Options{Charset: "utf-8"})
		var b bytes.Buffer
		if err := markup.WriteHTML(&b, d, nil); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), `content="`+want+`"`) {
			t.Errorf("content %q written as %s, want %q", in, b.String(), want)
		}
	}
}

// TestWriteXMLPITarget: a processing instruction's target is a name, and
// xml (in any case) is reserved; a tree built by hand may hold any
// string there, which is ErrNotXML, as for element and attribute names,
// rather than output that does not parse.
func TestWriteXMLPITarget(t *testing.T) {
	for _, target := range []string{"", "p\x01", "p\xff", "a b", "p?>", "xml", "XmL"} {
		d := &tree.Document{}
		d.Root = d.NewElement("r")
		d.Root.AppendChild(d.NewNode(tree.ProcInst, target, "v"))
		var b bytes.Buffer
		if err := markup.WriteXML(&b, d, nil); !errors.Is(err, markup.ErrNotXML) {
			t.Errorf("target %q: err = %v, output %q, want ErrNotXML", target, err, b.String())
		}
	}
	for _, target := range []string{"xml-stylesheet", "php", "x:y"} {
		d := &tree.Document{}
		d.Root = d.NewElement("r")
		d.Root.AppendChild(d.NewNode(tree.ProcInst, target, "v"))
		var b bytes.Buffer
		if err := markup.WriteXML(&b, d, nil); err != nil {
			t.Fatalf("target %q: %v", target, err)
		}
		if _, err := markup.ParseXMLBytes(b.Bytes(), keep); err != nil {
			t.Errorf("target %q: the output %q does not parse: %v", target, b.String(), err)
		}
	}
}

// TestWriteHTMLDoctypeEndsWhereItShould: an HTML tokenizer ends a DOCTYPE
// at its first >, so a DOCTYPE read from XML with an internal subset, or
// a quoted identifier holding a >, is written as HTML without what would
// have come out as the page's text or markup before the root.
func TestWriteHTMLDoctypeEndsWhereItShould(t *testing.T) {
	for _, tc := range []struct{ doctype, want string }{
		{`html`, `<!DOCTYPE html>`},
		{`html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd"`, `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd">`},
		{`doc SYSTEM "d.dtd" [<!ENTITY e "<b>x</b>">]`, `<!DOCTYPE doc SYSTEM "d.dtd">`},
		{`doc [<!ATTLIST doc id ID #IMPLIED>]`, `<!DOCTYPE doc>`},
		{`doc SYSTEM "a><script>alert(1)</script>"`, `<!DOCTYPE doc>`},
	} {
		d := &tree.Document{Doctype: tc.doctype, Root: &tree.Node{Kind: tree.Element, Name: "doc"}}
		var b bytes.Buffer
		if err := markup.WriteHTML(&b, d, nil); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(b.String(), tc.want+"<doc>") || strings.Contains(b.String(), "script") {
			t.Errorf("DOCTYPE %q written as HTML:\n%s\nwant it to start %s", tc.doctype, b.String(), tc.want)
		}
		again, err := markup.ParseHTMLBytes(b.Bytes(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if text := again.Root.Text(); text != "" {
			t.Errorf("DOCTYPE %q: read back, the page has text %q", tc.doctype, text)
		}
	}
}
