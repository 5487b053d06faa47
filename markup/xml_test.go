package markup_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// writeRoot returns the compact XML of d's root element.
func writeRoot(t *testing.T, d *tree.Document) string {
	t.Helper()
	var b bytes.Buffer
	if err := markup.WriteNodeXML(&b, d.Root, nil); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var keep = &markup.Options{Whitespace: markup.Keep}

func TestParseXML(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opt  *markup.Options
		want string // the root, written compactly
	}{
		{"empty element", `<a/>`, nil, `<a/>`},
		{"attributes both quotes", `<a x="1" y='2 "q"'/>`, nil, `<a x="1" y="2 &quot;q&quot;"/>`},
		{"predefined entities", `<a t="&lt;&amp;&gt;&apos;&quot;">&lt;&amp;&gt;&apos;&quot;</a>`, nil, `<a t="&lt;&amp;>'&quot;">&lt;&amp;&gt;'"</a>`},
		{"character references", `<a>&#65;&#x42;&#x1F600;</a>`, nil, "<a>AB\U0001F600</a>"},
		{"CDATA merges with text", `<a>x <![CDATA[<y>&]]> z</a>`, nil, `<a>x &lt;y&gt;&amp; z</a>`},
		{"CDATA alone", `<a><![CDATA[ ]]]]><![CDATA[>]]></a>`, keep, `<a> ]]&gt;</a>`},
		{"comment splits text", `<a>x<!--c-->y</a>`, nil, `<a>x<!--c-->y</a>`},
		{"processing instruction", `<a><?pi some data?><?empty?></a>`, nil, `<a><?pi some data?><?empty?></a>`},
		{"namespaces kept as written", `<r xmlns="u" xmlns:p="v"><p:a p:x="1"/></r>`, nil, `<r xmlns="u" xmlns:p="v"><p:a p:x="1"/></r>`},
		{"xml prefix predeclared", `<a xml:lang="en"/>`, nil, `<a xml:lang="en"/>`},
		{"normalize drops blank text", "<a>\n  <b> x </b>\n  <c/>\n</a>", nil, `<a><b>x</b><c/></a>`},
		{"normalize collapses runs", "<a>  x \t\n  y  </a>", nil, `<a>x y</a>`},
		{"mixed content keeps word spaces", "<p>Hello <b>big</b>  world, <i>again</i>\n and more.</p>", nil, `<p>Hello <b>big</b> world, <i>again</i> and more.</p>`},
		{"blank between elements in mixed content", "<p>a <b>x</b>\n  <i>y</i></p>", nil, `<p>a <b>x</b> <i>y</i></p>`},
		{"blank between elements on one line", "<p><b>x</b> <i>y</i></p>", nil, `<p><b>x</b> <i>y</i></p>`},
		{"blank with a line break by reference dropped", "<a>\n\t<b>x</b>&#13;<c/>\n</a>", nil, `<a><b>x</b><c/></a>`},
		{"word spaces of tabs and line breaks", "<p>a\t<b>x</b>\n y</p>", nil, `<p>a <b>x</b> y</p>`},
		{"blank at an element's ends dropped", "<p> <b> x </b> </p>", nil, `<p><b>x</b></p>`},
		{"comments are not word spaces", "<p>a <!--c--> b <?pi?> <b>c</b></p>", nil, `<p>a<!--c-->b<?pi?><b>c</b></p>`},
		{"keep keeps everything", "<a>\n  <b> x </b>\n</a>", keep, "<a>\n  <b> x </b>\n</a>"},
		{"xml:space preserve", "<a><p xml:space=\"preserve\">  x  <q> y </q><r xml:space=\"default\"> z  z </r></p></a>", nil,
			"<a><p xml:space=\"preserve\">  x  <q> y </q><r xml:space=\"default\">z z</r></p></a>"},
		{"XHTML pre keeps white space", "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><pre>  a\n  b <b> x </b>\n</pre><p>  c  d </p></body></html>", nil,
			"<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><pre>  a\n  b <b> x </b>\n</pre><p>c d</p></body></html>"},
		{"XHTML pre under a prefix", "<r xmlns:h=\"http://www.w3.org/1999/xhtml\"><h:pre> a  b </h:pre><h:p> a  b </h:p></r>", nil,
			"<r xmlns:h=\"http://www.w3.org/1999/xhtml\"><h:pre> a  b </h:pre><h:p>a b</h:p></r>"},
		{"pre outside XHTML normalised", "<r><pre> a  b </pre><s xmlns=\"urn:x\"><textarea> c  d </textarea></s></r>", nil,
			"<r><pre>a b</pre><s xmlns=\"urn:x\"><textarea>c d</textarea></s></r>"},
		{"XHTML pre inside another default namespace normalised", "<html xmlns=\"http://www.w3.org/1999/xhtml\"><svg xmlns=\"http://www.w3.org/2000/svg\"><pre> a  b </pre></svg><pre> a  b </pre></html>", nil,
			"<html xmlns=\"http://www.w3.org/1999/xhtml\"><svg xmlns=\"http://www.w3.org/2000/svg\"><pre>a b</pre></svg><pre> a  b </pre></html>"},
		{"xml:space default inside an XHTML pre", "<html xmlns=\"http://www.w3.org/1999/xhtml\"><pre><b xml:space=\"default\"> a  b </b></pre></html>", nil,
			"<html xmlns=\"http://www.w3.org/1999/xhtml\"><pre><b xml:space=\"default\">a b</b></pre></html>"},
		{"xml:space preserve keeps blank text", "<a xml:space=\"preserve\">\n <k>func</k> <f>main</f>\n</a>", nil, "<a xml:space=\"preserve\">\n <k>func</k> <f>main</f>\n</a>"},
		{"line ends normalised", "<a>x\r\ny\rz</a>", keep, "<a>x\ny\nz</a>"},
		{"char ref CR kept", "<a>x&#13;</a>", keep, "<a>x&#13;</a>"},
		{"attribute value normalisation", "<a x=\"1\t2\n3\" y=\"&#9;&#10;\"/>", nil, `<a x="1 2 3" y="&#9;&#10;"/>`},
		{"greater-than in text", `<a>]]&gt; ]] ></a>`, nil, `<a>]]&gt; ]] &gt;</a>`},
		{"white space in tags", "<a  x = \"1\"\n></a >", nil, `<a x="1"/>`},
		{"non-ASCII names and text", `<société ville="Zürich">été</société>`, nil, `<société ville="Zürich">été</société>`},
		{"internal entity", `<!DOCTYPE a [<!ENTITY e "E&#38;#38;">]><a x="&e;">&e;-&e;</a>`, nil, `<a x="E&amp;">E&amp;-E&amp;</a>`},
		{"entity with markup", `<!DOCTYPE a [<!ENTITY b "<b>&c;</b>"><!ENTITY c "C">]><a>x&b;y</a>`, nil, `<a>x<b>C</b>y</a>`},
		{"nested entities", `<!DOCTYPE a [<!ENTITY x "1&y;"><!ENTITY y "2&z;"><!ENTITY z "3">]><a t="&x;">&x;</a>`, nil, `<a t="123">123</a>`},
		{"first declaration binds", `<!DOCTYPE a [<!ENTITY e "1"><!ENTITY e "2">]><a>&e;</a>`, nil, `<a>1</a>`},
		{"XHTML knows HTML entities", `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html>a&nbsp;b&eacute;</html>`, nil, "<html>a\u00a0bé</html>"},
		{"BOM", "\uFEFF<a>x</a>", nil, `<a>x</a>`},
		{"white space before the XML declaration", "\n  <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\xe9</a>", nil, `<a>é</a>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := markup.ParseXMLBytes([]byte(tt.in), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := writeRoot(t, d); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestParseXMLDocument(t *testing.T) {
	in := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- before -->
<!DOCTYPE people [
  <!ELEMENT people (person*)>
  <!ATTLIST person id ID #REQUIRED name CDATA #IMPLIED>
  <!ATTLIST item code ID #IMPLIED kind (a|b) "a">
  <!ATTLIST note ref IDREF #IMPLIED>
  <!ENTITY ext SYSTEM "http://example.com/never-fetched">
  <!-- a comment in the subset -->
  <?pi in the subset?>
]>
<?style sheet?>
<people><person id="p1"/></people>
<!-- after --><?after?>
`
	d, err := markup.ParseXMLBytes([]byte(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Prolog) != 3 || d.Prolog[0].Kind != tree.ProcInst || d.Prolog[0].Name != "xml" ||
		d.Prolog[0].Value != `version="1.0" encoding="UTF-8" standalone="yes"` ||
		d.Prolog[1].Kind != tree.Comment || d.Prolog[1].Value != " before " ||
		d.Prolog[2].Name != "style" || d.Prolog[2].Value != "sheet" {
		t.Errorf("prolog = %+v", d.Prolog)
	}
	if len(d.Epilog) != 2 || d.Epilog[0].Value != " after " || d.Epilog[1].Name != "after" {
		t.Errorf("epilog = %+v", d.Epilog)
	}
	if !strings.HasPrefix(d.Doctype, "people [\n  <!ELEMENT") || !strings.HasSuffix(d.Doctype, "]") {
		t.Errorf("doctype = %q", d.Doctype)
	}
	if len(d.IDAttrs) != 2 || d.IDAttrs["person"] != "id" || d.IDAttrs["item"] != "code" {
		t.Errorf("IDAttrs = %v", d.IDAttrs)
	}
	var b bytes.Buffer
	if err := markup.WriteXML(&b, d, nil); err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><!-- before --><!DOCTYPE ` + d.Doctype + `><?style sheet?><people><person id="p1"/></people><!-- after --><?after?>`
	if b.String() != want {
		t.Errorf("WriteXML:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestParseXMLErrors keeps each malformed input with the position and the
// message expected for it.
func TestParseXMLErrors(t *testing.T) {
	tests := []struct {
		name, in string
		pos      string // "line:column"
		msg      string // a substring of the message
	}{
		{"empty", ``, "1:1", "expected a root element"},
		{"only space", "  \n ", "2:2", "expected a root element"},
		{"unclosed", "<a>\n<b>", "2:4", "expected </b> to close <b> opened at line 2, column 1"},
		{"mismatched end tag", "<a>\n  <b></c></a>", "2:6", "end tag </c> does not match the start tag <b> at line 2, column 3: expected </b>"},
		{"end tag without start", "<a></a></b>", "1:8", "end tag </b> without a matching start tag"},
		{"two roots", "<a/>\n<b/>", "2:1", "second root element <b>"},
		{"text before root", "x<a/>", "1:1", "text is not allowed before the root element"},
		{"text after root", "<a/>\n  tail", "2:3", "text is not allowed after the root element"},
		{"duplicate attribute", `<a x="1" y="2" x="3"/>`, "1:16", "duplicate attribute x in <a>"},
		{"unquoted attribute", `<a x=1/>`, "1:6", "expected a quoted value for the attribute x"},
		{"attribute without value", `<a x/>`, "1:5", "expected '=' after the attribute name x"},
		{"no space between attributes", `<a x="1"y="2"/>`, "1:9", "expected white space, '>' or '/>'"},
		{"less-than in attribute", `<a x="<"/>`, "1:7", "'<' is not allowed in an attribute value"},
		{"unterminated attribute", `<a x="1`, "1:8", "expected the closing quote"},
		{"unterminated start tag", `<a x="1"`, "1:9", "unexpected end of input in the start tag <a>"},
		{"bad name", `<1a/>`, "1:2", "expected an element name after '<', found '1'"},
		{"lone less-than", "<a>1 < 2</a>", "1:7", "expected an element name after '<', found ' '"},
		{"lone ampersand", "<a>1 & 2</a>", "1:7", "expected an entity name or '#' after '&'"},
		{"entity without semicolon", "<a>&amp</a>", "1:8", "expected ';' after the entity reference &amp"},
		{"undefined entity", "<a>&nbsp;</a>", "1:4", "undefined entity &nbsp;"},
		{"bad char ref", "<a>&#xZ;</a>", "1:7", "expected a hexadecimal digit"},
		{"char ref to NUL", "<a>&#0;</a>", "1:4", "&#0; refers to a character not allowed in XML"},
		{"char ref too big", "<a>&#x110000;</a>", "1:4", "not allowed in XML"},
		{"CDATA end in text", "<a>x]]>y</a>", "1:5", "']]>' is not allowed in text"},
		{"unterminated comment", "<a><!-- x", "1:10", "expected '-->'"},
		{"double hyphen in comment", "<a><!-- x -- y --></a>", "1:11", "'--' is not allowed inside a comment"},
		{"unterminated CDATA", "<a><![CDATA[x", "1:14", "expected ']]>'"},
		{"CDATA outside root", "<![CDATA[x]]><a/>", "1:1", "CDATA section outside the root element"},
		{"unterminated PI", "<a><?pi x", "1:10", "expected '?>'"},
		{"XML declaration late", "<!--c--><?xml version=\"1.0\"?><a/>", "1:9", "XML declaration is allowed only at the very start"},
		{"XML declaration in the root", "<a><?xml version=\"1.0\"?></a>", "1:4", "XML declaration is allowed only at the very start"},
		{"reserved PI target", "<a><?XmL x?></a>", "1:6", "target XmL is reserved"},
		{"XML declaration without version", `<?xml encoding="UTF-8"?><a/>`, "1:6", `expected version="1.0"`},
		{"bad after <!", "<a><!x></a>", "1:4", "expected '<!--', '<![CDATA[' or '<!DOCTYPE' after '<!'"},
		{"undeclared prefix", "<a>\n <p:b/></a>", "2:2", "undeclared namespace prefix p in the element <p:b>"},
		{"undeclared attribute prefix", `<a q:x="1"/>`, "1:1", "undeclared namespace prefix q in the attribute q:x of <a>"},
		{"prefix out of scope", `<a><b xmlns:p="u"/><p:c/></a>`, "1:20", "undeclared namespace prefix p"},
		{"bad qualified name", `<a:/>`, "1:1", "a: is not a valid qualified name"},
		{"one attribute under two prefixes", `<r xmlns:a="u" xmlns:b="u" a:k="1" b:k="2"/>`, "1:1", `attributes a:k and b:k of <r> have one name: k in the namespace "u"`},
		{"one attribute under a rebound prefix", `<r xmlns:a="u"><s xmlns:b="u" a:k="1" b:k="2"/></r>`, "1:16", `attributes a:k and b:k of <s> have one name`},
		{"XML version 2", `<?xml version="2.0"?><a/>`, "1:16", `XML version "2.0" is not supported: expected 1.0`},
		{"XML version unquoted", `<?xml version=1.0?><a/>`, "1:15", `expected a quoted version number`},
		{"XML version quote unclosed", `<?xml version="1.0?><a b="c"/>`, "1:15", `expected the closing quote of the XML declaration's version`},
		{"XML version quotes mismatched", `<?xml version='1.0"?><a b='c'/>`, "1:15", `expected the closing quote of the XML declaration's version`},
		{"DOCTYPE after root", "<a/><!DOCTYPE a>", "1:5", "the DOCTYPE must come before the root element"},
		{"two DOCTYPEs", "<!DOCTYPE a><!DOCTYPE a><a/>", "1:13", "second DOCTYPE"},
		{"unterminated DOCTYPE", "<!DOCTYPE a [<!ENTITY e 'x'>", "1:29", "expected ']'"},
		{"bad declaration", "<!DOCTYPE a [<!FOO>]><a/>", "1:14", "expected a markup declaration"},
		{"external entity", `<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>`, "1:58", "external entity &e; is not expanded"},
		{"recursive entity", `<!DOCTYPE a [<!ENTITY e "x&f;"><!ENTITY f "&e;">]><a>&e;</a>`, "1:54", "entity &e; refers to itself"},
		{"entity with unclosed element", `<!DOCTYPE a [<!ENTITY e "<b>">]><a>&e;</b></a>`, "1:36", "element <b> is not closed within the entity's replacement text"},
		{"less-than via entity in attribute", `<!DOCTYPE a [<!ENTITY e "&#60;">]><a x="&e;"/>`, "1:41", "'<' in the replacement text of entity &e;"},
		{"NUL byte", "<a>x\x00</a>", "1:5", "invalid character U+0000"},
		{"control character", "<a>\n\x01</a>", "2:1", "invalid character U+0001"},
		{"invalid UTF-8", "<a>é\xff</a>", "1:5", "invalid UTF-8 byte 0xFF"},
		{"U+FFFE", "<a>\uFFFE</a>", "1:4", "invalid character U+FFFE"},
		{"unknown encoding", `<?xml version="1.0" encoding="x-nonsense"?><a/>`, "1:31", `unsupported encoding "x-nonsense"`},
		{"column counts characters", "<été>\n  <b>é</c>", "2:7", "end tag </c> does not match"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := markup.ParseXMLBytes([]byte(tt.in), nil)
			if err == nil {
				t.Fatalf("no error; root %v", d.Root.Name)
			}
			var se *markup.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *SyntaxError: %v", err, err)
			}
			want := tt.pos + ": "
			got := strings.TrimPrefix(err.Error(), "line ")
			got = strings.Replace(got, ", column ", ":", 1)
			if !strings.HasPrefix(got, want) || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("error %q\nwant at %s containing %q", err, tt.pos, tt.msg)
			}
		})
	}
}

func TestManyAttributes(t *testing.T) {
	var b strings.Builder
	b.WriteString("<a")
	for i := range 5000 {
		b.WriteString(" a" + strings.Repeat("x", i%7) + string(rune('A'+i%26)) + strings.Repeat("y", i/182) + `="1"`)
	}
	d, err := markup.ParseXMLBytes([]byte(b.String()+"/>"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Root.Attrs) != 5000 {
		t.Fatalf("%d attributes", len(d.Root.Attrs))
	}
	_, err = markup.ParseXMLBytes([]byte(b.String()+` aA="2"/>`), nil)
	if err == nil || !strings.Contains(err.Error(), "duplicate attribute aA") {
		t.Fatalf("err = %v", err)
	}
}

func TestReferenceOutsideRoot(t *testing.T) {
	for _, in := range []string{`<!DOCTYPE a [<!ENTITY e "<a/>">]>&e;`, "&amp;<a/>", "<a/>&#65;"} {
		_, err := markup.ParseXMLBytes([]byte(in), nil)
		if err == nil || !strings.Contains(err.Error(), "text is not allowed") {
			t.Errorf("%s: err = %v", in, err)
		}
	}
}

// TestParseBytesOwned checks that parsing a buffer handed over gives the
// same document as parsing a copy, for XML, HTML and a document with CRLF
// line ends (which the parser rewrites into a buffer of its own).
func TestParseBytesOwned(t *testing.T) {
	for _, in := range []string{
		`<?xml version="1.0"?><a x="1"><b>text &amp; more</b><!-- c --><?pi data?></a>`,
		"<a>\r\n<b>line</b>\r\n</a>",
		`<!DOCTYPE html><html><body><p>Hello <b>world</b></p></body></html>`,
	} {
		want, wantFormat, err := markup.ParseBytes([]byte(in), nil)
		if err != nil {
			t.Fatalf("ParseBytes(%q): %v", in, err)
		}
		got, format, err := markup.ParseBytesOwned([]byte(in), nil)
		if err != nil {
			t.Fatalf("ParseBytesOwned(%q): %v", in, err)
		}
		if format != wantFormat || !tree.Equal(got.Root, want.Root) {
			t.Errorf("ParseBytesOwned(%q) = %s %s, want %s %s", in, format, writeRoot(t, got), wantFormat, writeRoot(t, want))
		}
	}
	if _, _, err := markup.ParseBytesOwned([]byte(`<?xml version="1.0"?><a><b></a>`), nil); err == nil {
		t.Error("ParseBytesOwned accepted a malformed document")
	}
}
