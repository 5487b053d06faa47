package warehouse_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/tree"
)

var update = flag.Bool("update", false, "rewrite testdata/tree-reading.golden")

// readingInputs are bodies whose trees pin down how the warehouse reads
// stored versions, with their content types and charsets: the corpus in
// testdata, and the cases where a reading could change unnoticed.
func readingInputs(t *testing.T) []struct{ name, contentType, charset, body string } {
	t.Helper()
	var in []struct{ name, contentType, charset, body string }
	root := filepath.Join("..", "..", "testdata", "corpus")
	err := filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		ct := map[string]string{".html": "text/html", ".xml": "application/xml"}[filepath.Ext(path)]
		if ct == "" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		in = append(in, struct{ name, contentType, charset, body string }{filepath.ToSlash(rel), ct, "", string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const xhtml = `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head>` +
		`<body><table><tr><td>a<br/>b</td></tr></table><script>if (a &lt; b) go();</script><p>  two   spaces  </p></body></html>`
	in = append(in, []struct{ name, contentType, charset, body string }{
		{"xhtml as text/html", "text/html", "utf-8", xhtml},
		{"xhtml as application/xhtml+xml", "application/xhtml+xml", "utf-8", xhtml},
		{"xhtml without a content type", "", "", xhtml},
		{"xhtml with a pre as application/xhtml+xml", "application/xhtml+xml", "utf-8", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><pre>  a  b
  c</pre></body></html>`},
		{"xml with entities, CDATA, a PI", "application/xml", "", `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "é"><!ATTLIST r id ID #IMPLIED>]><r id="x"><?pi data?><a>&e;<![CDATA[<b>]]></a><!-- c --></r>`},
		{"html in windows-1252", "text/html", "windows-1252", "<html><body><p>caf\xe9</p><pre>  kept  </pre></body></html>"},
		{"html with an XML declaration's charset", "text/html", "", "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><html><body>\x93\xfa\x96{</body></html>"},
		{"a feed as text/html", "text/html", "", `<?xml version="1.0"?><rss version="2.0"><channel><link>https://example.com/</link></channel></rss>`},
		{"plain text", "text/plain", "utf-8", "just\ttext\n\nand more"},
		{"an HTML fragment as text/html", "text/html", "", "<strong>Price</strong>"},
		{"HTML nested past the HTML parser's limit", "text/html", "utf-8", strings.Repeat("<div>", 600) + "a < b" + strings.Repeat("</div>", 600)},
		{"XML that is not well-formed as application/xml", "application/xml", "", "<r><a>x</r>"},
		{"XML that is not well-formed, in lines", "application/xml", "", "<r>\n  <a>x</r>\n\nlast"},
		{"JSON", "application/json", "", "{\n  \"a\": \"<b> & c\",\n  \"d\": [1, 2]\n}\n"},
		{"a feed as text/plain", "text/plain", "", "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>t</title></channel></rss>\n"},
		{"a body in an unknown charset", "text/html", "x-no-such-charset", "<p>x</p>"},
		{"UTF-16LE text", "text/plain", "utf-16le", utf16Text("caf\u00e9 <b>\nline 2\n", false, false)},
		{"ISO-2022-JP text", "text/plain", "iso-2022-jp", "a\x1b$B$\"!<\x1b(B<b>\n"},
	}...)
	return in
}

// TestTreeReading guards treeReading: it fails when ParseBody reads one of
// readingInputs into another tree than testdata/tree-reading.golden records
// for the current reading. If the change is meant, bump treeReading in
// reading.go (stored tree deltas of the earlier reading are then checked
// before use) and rewrite the golden file with -update.
func TestTreeReading(t *testing.T) {
	const golden = "testdata/tree-reading.golden"
	var b strings.Builder
	fmt.Fprintf(&b, "reading %d\n", warehouse.TreeReading)
	for _, in := range readingInputs(t) {
		doc, err := warehouse.ParseBody([]byte(in.body), in.charset, in.contentType)
		if err != nil {
			fmt.Fprintf(&b, "%s\terror\t%s\n", in.name, err)
			continue
		}
		fmt.Fprintf(&b, "%s\t%s\n", in.name, fingerprint(doc))
	}
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	gotLines, wantLines := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
	if gotLines[0] != wantLines[0] {
		t.Fatalf("treeReading is %s, the golden file's %s: rewrite it with go test ./internal/warehouse -run TestTreeReading -update",
			gotLines[0], wantLines[0])
	}
	if b.String() != string(want) {
		for k := range max(len(gotLines), len(wantLines)) {
			g, w := "", ""
			if k < len(gotLines) {
				g = gotLines[k]
			}
			if k < len(wantLines) {
				w = wantLines[k]
			}
			if g != w {
				t.Errorf("read otherwise than under %s:\n got  %s\n want %s", wantLines[0], g, w)
			}
		}
		t.Fatal("the warehouse reads stored bodies into other trees: if that is meant, bump treeReading in reading.go " +
			"and rewrite the golden file with go test ./internal/warehouse -run TestTreeReading -update")
	}
}

// TestParseBodyReadsSource: a body that does not parse is read as its
// source, the text of a <pre>, decoded from its charset when one is
// known; one that parses is not. ReadBody reads the same tree and returns
// the parse error of a body read as its source.
func TestParseBodyReadsSource(t *testing.T) {
	deep := strings.Repeat("<div>", 600) + "a < b & c" + strings.Repeat("</div>", 600)
	tests := map[string]struct {
		body, charset, contentType string
		want                       string // the source text, "" for a body read as a page
	}{
		"nested past the HTML parser's limit": {deep, "utf-8", "text/html", deep},
		"a first line kept":                   {"\n\n" + deep, "", "text/html", "\n\n" + deep},
		"in its charset":                      {deep + "caf\xe9", "windows-1252", "text/html", deep + "café"},
		"XML that is not well-formed":         {"<r><a>x</r>", "", "application/xml", "<r><a>x</r>"},
		"an unknown charset":                  {"<p>x</p>", "x-no-such-charset", "text/html", "<p>x</p>"},
		"a page that parses":                  {"<p>x</p>", "utf-8", "text/html", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			doc, err := warehouse.ParseBody([]byte(tc.body), tc.charset, tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if got := sourceText(doc); got != tc.want {
				t.Errorf("source text %.80q, want %.80q", got, tc.want)
			}
			// ReadBody reads the same tree and tells why it is the source.
			rdoc, readAsText, err := warehouse.ReadBody([]byte(tc.body), tc.charset, tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if fingerprint(rdoc) != fingerprint(doc) {
				t.Error("ReadBody's tree differs from ParseBody's")
			}
			if (readAsText != nil) != (tc.want != "") {
				t.Errorf("ReadBody readAsText = %v, want an error: %v", readAsText, tc.want != "")
			}
		})
	}
}

// utf16Text returns s in UTF-16, little-endian or big-endian, with its
// byte-order mark if bom.
func utf16Text(s string, bigEndian, bom bool) string {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	b := make([]byte, 0, 2*len(units))
	for _, u := range units {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return string(b)
}

// TestSourceCharsetNotASCII: a body read as its source in a charset in
// which ASCII is not ASCII bytes (UTF-16, by its label or its byte-order
// mark; ISO-2022-JP, whose two-byte characters are pairs of ASCII bytes) is
// decoded before the ASCII page around it is written, so that its text is
// its characters, not nothing; one in an ASCII-compatible charset reads
// as before, and UTF-16 of an odd length reads without panicking, its last
// byte U+FFFD.
func TestSourceCharsetNotASCII(t *testing.T) {
	const text = "caf\u00e9 <b> & \"q\"\nline 2\n"
	deep := strings.Repeat("<div>", 600) + "a" + strings.Repeat("</div>", 600)
	tests := []struct {
		name, body, charset, contentType string
		want                             string
		page                             bool // ReadBody reads it as a page: ReadSource alone reads its source
	}{
		{"UTF-16LE labelled", utf16Text(text, false, false), "utf-16le", "text/plain; charset=utf-16le", text, false},
		{"UTF-16LE labelled utf-16", utf16Text(text, false, false), "utf-16", "text/plain", text, false},
		{"UTF-16LE with a byte-order mark and its label", utf16Text(text, false, true), "utf-16le", "text/plain", text, true},
		{"UTF-16LE with a byte-order mark, no label", utf16Text(text, false, true), "", "text/plain", text, true},
		{"UTF-16BE labelled", utf16Text(text, true, false), "utf-16be", "text/plain", text, false},
		{"UTF-16BE with a byte-order mark, no label", utf16Text(text, true, true), "", "application/json", text, true},
		{"a byte-order mark beats the label", utf16Text(text, true, true), "windows-1252", "text/plain", text, true},
		{"HTML with a byte-order mark that does not parse", utf16Text(deep, false, true), "", "text/html", deep, false},
		{"a charset label in a Content-Type value", utf16Text(text, false, false), "text/plain; charset=UTF-16LE", "text/plain", text, false},
		{"UTF-16LE of an odd length", utf16Text("ab", false, false) + "c", "utf-16le", "text/plain", "ab\uFFFD", false},
		{"a lone byte in UTF-16BE", "x", "utf-16be", "text/plain", "\uFFFD", false},
		{"ISO-2022-JP", "a\x1b$B$\"!<\x1b(B<b>\n", "iso-2022-jp", "text/plain", "a\u3042\u30fc<b>\n", false},
		{"windows-1252 as before", "caf\xe9 <b> & \"q\"\n", "windows-1252", "text/plain", text[:len(text)-len("line 2\n")], false},
		{"Shift_JIS as before", "\x93\xfa\x96{ <b>\n", "shift_jis", "text/plain", "\u65e5\u672c <b>\n", false},
		{"UTF-8 as before", text, "utf-8", "text/plain", text, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, readAsText, err := warehouse.ReadBody([]byte(tc.body), tc.charset, tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if (readAsText == nil) != tc.page {
				t.Errorf("ReadBody readAsText = %v, want it read as a page: %v", readAsText, tc.page)
			}
			if got := sourceText(doc); !tc.page && got != tc.want {
				t.Errorf("ReadBody source text %.80q, want %.80q", got, tc.want)
			}
			src, err := warehouse.ReadSource([]byte(tc.body), tc.charset)
			if err != nil {
				t.Fatal(err)
			}
			if got := sourceText(src); got != tc.want {
				t.Errorf("ReadSource source text %.80q, want %.80q", got, tc.want)
			}
		})
	}
}

// TestReadSource: ReadSource reads a body that parses as its source text,
// the tree ReadBody reads one that does not parse into (the text of one
// <pre>, its first line kept, in its charset).
func TestReadSource(t *testing.T) {
	for name, tc := range map[string]struct{ body, charset, want string }{
		"a feed":            {"<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<id>https://blog.example/</id>\n</feed>\n", "utf-8", "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<id>https://blog.example/</id>\n</feed>\n"},
		"a first line kept": {"\n<p>x</p>", "", "\n<p>x</p>"},
		"in its charset":    {"<p>caf\xe9</p>", "windows-1252", "<p>café</p>"},
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := warehouse.ReadSource([]byte(tc.body), tc.charset)
			if err != nil {
				t.Fatal(err)
			}
			if got := sourceText(doc); got != tc.want {
				t.Errorf("source text %q, want %q", got, tc.want)
			}
		})
	}
}

// fingerprint hashes everything of a document that a delta addresses.
func fingerprint(d *tree.Document) string {
	h := sha256.New()
	fmt.Fprintf(h, "doctype %q\n", d.Doctype)
	for _, n := range d.Prolog {
		writeNode(h, n, 0)
	}
	writeNode(h, d.Root, 0)
	for _, n := range d.Epilog {
		writeNode(h, n, 0)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}

func writeNode(h hash.Hash, n *tree.Node, depth int) {
	fmt.Fprintf(h, "%d %d %q %q", depth, n.Kind, n.Name, n.Value)
	for _, a := range n.Attrs {
		fmt.Fprintf(h, " %q=%q", a.Name, a.Value)
	}
	h.Write([]byte{'\n'})
	for _, c := range n.Children {
		writeNode(h, c, depth+1)
	}
}

// TestReadBodyServedAsText: a body served as text that is not markup is
// read as its source, and ReadBody says so (ReadAsTextReason: "served as"
// and its media type), as it says why a body that does not parse is; one
// served as text that begins as markup is parsed, and is a page if it
// parses.
func TestReadBodyServedAsText(t *testing.T) {
	tests := map[string]struct {
		body, contentType string
		want              string // ReadAsTextReason of readAsText, or its start
	}{
		"text/plain":          {"a\nb\n", "text/plain", "served as text/plain"},
		"with its parameters": {"a\nb\n", "Text/Plain; charset=utf-8", "served as text/plain"},
		"JSON":                {"{\"a\": 1}\n", "application/json", "served as application/json"},
		"JSON of a vendor":    {"{}", "application/problem+json", "served as application/problem+json"},
		"CSS":                 {"p { color: red }", "text/css", "served as text/css"},
		// Every JavaScript and NDJSON alias is text, as the fetcher keeps
		// it (vigil.IsTextMediaType): application/ecmascript was parsed
		// as HTML, its lines one text and "<b>" a tag.
		"ECMAScript":                  {"var a = '<b>';\nvar c;\n", "application/ecmascript", "served as application/ecmascript"},
		"ECMAScript of old":           {"var a;\n", "Application/X-ECMAScript", "served as application/x-ecmascript"},
		"JavaScript of old":           {"var a;\n", "application/x-javascript", "served as application/x-javascript"},
		"NDJSON":                      {"{}\n{}\n", "application/ndjson", "served as application/ndjson"},
		"JSON of an image type":       {"{}", "image/vnd.example+json", "served as image/vnd.example+json"},
		"XSLT":                        {"<x/>", "text/xsl", ""},
		"a malformed type":            {"a\nb\n", "text/plain/x", ""},
		"an empty body":               {"", "text/plain", "served as text/plain"},
		"a feed served as text":       {"<rss><channel/></rss>", "text/plain", ""},
		"HTML served as text":         {"\xef\xbb\xbf \n<p>x</p>", "text/plain", ""},
		"HTML":                        {"a\nb\n", "text/html", ""},
		"markup served as text, deep": {strings.Repeat("<div>", 600) + "x", "text/plain", "parse HTML: elements nested more than 512 deep"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, readAsText, err := warehouse.ReadBody([]byte(tc.body), "", tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if got := warehouse.ReadAsTextReason(readAsText); !strings.HasPrefix(got, tc.want) || (got == "") != (tc.want == "") {
				t.Errorf("read as text for %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSourceLeavesOutByteOrderMark: a body read as its source that begins
// with a UTF-8 byte-order mark is read without it, and as UTF-8, as the
// markup parsers read one and a browser shows one: its first line is not
// a text that begins with U+FEFF, which no phrase or word starts with.
func TestSourceLeavesOutByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	deep := strings.Repeat("<div>", 600) + "x"
	tests := map[string]struct {
		body, charset, contentType string
		want                       string
	}{
		"text/plain":                    {bom + "hello\nworld\n", "", "text/plain", "hello\nworld\n"},
		"text/plain, a first newline":   {bom + "\nhello\n", "utf-8", "text/plain", "\nhello\n"},
		"in UTF-8 whatever the charset": {bom + "café\n", "windows-1252", "text/plain", "café\n"},
		"a page that does not parse":    {bom + deep, "utf-8", "text/html", deep},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			doc, err := warehouse.ParseBody([]byte(tc.body), tc.charset, tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if got := sourceText(doc); got != tc.want {
				t.Errorf("source text %.60q, want %.60q", got, tc.want)
			}
		})
	}
}

// FuzzReadSourceUTF16: a text in UTF-16, labelled as such, reads as its
// source into the tree the same text in UTF-8 reads into; and ReadBody
// reads any body in any of a few charsets without an error.
func FuzzReadSourceUTF16(f *testing.F) {
	for _, s := range []string{"", "x", "café <b> & \"q\"\n", "<p>x</p>", "\n\nline\r\n\x00\x01", "\U0001F600 \u65e5\u672c", "\xff\xfe", "\uFEFFx"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, bigEndian bool) {
		for _, cs := range []string{"utf-16le", "utf-16be", "iso-2022-jp", "windows-1252", "shift_jis", ""} {
			if _, _, err := warehouse.ReadBody([]byte(s), cs, "text/plain"); err != nil {
				t.Fatalf("ReadBody in %q: %v", cs, err)
			}
		}
		text := strings.ToValidUTF8(s, "\uFFFD")
		want, err := warehouse.ReadSource([]byte(text), "utf-8")
		if err != nil {
			t.Fatal(err)
		}
		label := map[bool]string{false: "utf-16le", true: "utf-16be"}[bigEndian]
		got, err := warehouse.ReadSource([]byte(utf16Text(text, bigEndian, false)), label)
		if err != nil {
			t.Fatal(err)
		}
		if fingerprint(got) != fingerprint(want) {
			t.Fatalf("source text %q, in UTF-8 %q", sourceText(got), sourceText(want))
		}
	})
}
