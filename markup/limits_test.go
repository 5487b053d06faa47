package markup_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

func TestBinaryInput(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(r.UintN(256))
	}
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10")
	noNUL := bytes.Clone(random)
	for i, c := range noNUL {
		if c == 0 {
			noNUL[i] = 1
		}
	}
	gzip := []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xcb\x48\xcd\xc9\xc9\x07\x00")
	elf := []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00")
	for name, in := range map[string][]byte{"random": random, "random without NUL": noNUL, "png": png, "gzip": gzip, "elf": elf,
		"nul": make([]byte, 100), "xml then binary": append([]byte("<a>"), png...)} {
		t.Run(name, func(t *testing.T) {
			_, err := markup.ParseXMLBytes(in, nil)
			var se *markup.SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 {
				t.Fatalf("ParseXML: err = %v, want a *SyntaxError", err)
			}
			if _, err := markup.ParseHTMLBytes(in, nil); err != nil {
				t.Fatalf("ParseHTML: %v (HTML parses anything)", err)
			}
			if _, _, err := markup.ParseBytes(in, nil); err != nil && !errors.As(err, &se) {
				t.Fatalf("Parse: %v", err)
			}
			// CheckBinary tells it is not text.
			if err := markup.CheckBinary(in); !errors.Is(err, markup.ErrBinary) {
				t.Fatalf("CheckBinary: %v, want ErrBinary", err)
			}
		})
	}
}

// lazyReader yields n bytes of a document "<a>xxxx..." without holding them.
type lazyReader struct{ n, off int64 }

func (r *lazyReader) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	k := int64(len(p))
	if k > r.n-r.off {
		k = r.n - r.off
	}
	for i := range p[:k] {
		p[i] = 'x'
	}
	if r.off == 0 && k >= 3 {
		copy(p, "<a>")
	}
	r.off += k
	return int(k), nil
}

func TestMaxBytes(t *testing.T) {
	const twoGB = 2 << 30
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := &lazyReader{n: twoGB}
	_, err := markup.ParseXML(r, &markup.Options{MaxBytes: 1 << 20})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, markup.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if !strings.Contains(err.Error(), "1048576 bytes") {
		t.Errorf("error does not state the limit: %v", err)
	}
	if r.off > 1<<20+64<<10 {
		t.Errorf("read %d bytes of a 2 GB input with a 1 MiB limit", r.off)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("allocated %d bytes to refuse the input", grew)
	}
	for _, parse := range []func(io.Reader, *markup.Options) error{
		func(r io.Reader, o *markup.Options) error { _, err := markup.ParseHTML(r, o); return err },
		func(r io.Reader, o *markup.Options) error { _, _, err := markup.Parse(r, o); return err },
	} {
		if err := parse(&lazyReader{n: twoGB}, &markup.Options{MaxBytes: 1 << 20}); !errors.Is(err, markup.ErrTooLarge) {
			t.Errorf("err = %v, want ErrTooLarge", err)
		}
	}
	// A reader that knows its length, and a file, are refused before any
	// read.
	if _, err := markup.ParseXML(strings.NewReader("<a>too long</a>"), &markup.Options{MaxBytes: 10}); !errors.Is(err, markup.ErrTooLarge) {
		t.Errorf("strings.Reader: err = %v", err)
	}
	if _, err := markup.ParseXMLBytes([]byte("<a>too long</a>"), &markup.Options{MaxBytes: 10}); !errors.Is(err, markup.ErrTooLarge) {
		t.Errorf("bytes: err = %v", err)
	}
	path := filepath.Join(t.TempDir(), "big.xml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(twoGB); err != nil { // sparse: no disk used
		t.Skipf("cannot make a sparse file: %v", err)
	}
	if _, err := markup.ParseXML(f, nil); !errors.Is(err, markup.ErrTooLarge) {
		t.Errorf("2 GB file with the default limit: err = %v", err)
	}
	// Exactly at the limit is accepted.
	if _, err := markup.ParseXML(&lazyReader{n: 100}, &markup.Options{MaxBytes: 100}); err == nil || errors.Is(err, markup.ErrTooLarge) {
		t.Errorf("at the limit: err = %v, want a syntax error (unclosed <a>)", err)
	}
}

func TestDeepNesting(t *testing.T) {
	const depth = 100_000
	var b strings.Builder
	for range depth {
		b.WriteString("<a>")
	}
	b.WriteString("bottom")
	for range depth {
		b.WriteString("</a>")
	}
	d, err := markup.ParseXMLBytes([]byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := d.Root
	got := 1
	for len(n.Children) == 1 && n.Children[0].Kind == tree.Element {
		n = n.Children[0]
		got++
	}
	if got != depth || n.Children[0].Value != "bottom" {
		t.Fatalf("depth %d, leaf %v", got, n.Children)
	}
	var out bytes.Buffer
	if err := markup.WriteXML(&out, d, nil); err != nil {
		t.Fatal(err)
	}
	if out.String() != b.String() {
		t.Fatal("written deep document differs from the input")
	}
	if err := markup.WriteXML(io.Discard, d, &markup.WriteOptions{Indent: " "}); err != nil {
		t.Fatal(err)
	}
	if err := markup.WriteHTML(io.Discard, d, nil); err != nil {
		t.Fatal(err)
	}
	_, err = markup.ParseXMLBytes([]byte(b.String()), &markup.Options{MaxDepth: 1000})
	var se *markup.SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "deeper than the limit of 1000") || se.Column != 3001 {
		t.Errorf("MaxDepth 1000: err = %v", err)
	}
}

// TestDeepPrefixedPre: the writer tells whether a prefixed pre is XHTML's
// without looking up its prefix's declaration through every ancestor, so
// that writing a document of 100 000 nested ones, in another namespace or
// in XHTML's, is linear in its depth.
func TestDeepPrefixedPre(t *testing.T) {
	const depth = 100_000
	for _, uri := range []string{"urn:x", "http://www.w3.org/1999/xhtml"} {
		in := `<r xmlns:x="` + uri + `">` + strings.Repeat("<x:pre>", depth) + "a" + strings.Repeat("</x:pre>", depth) + "</r>"
		d, err := markup.ParseXMLBytes([]byte(in), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := markup.WriteXML(&out, d, &markup.WriteOptions{OmitProlog: true}); err != nil {
			t.Fatal(err)
		}
		if out.String() != in {
			t.Fatalf("%s: written deep document differs from the input", uri)
		}
		if err := markup.WriteXML(io.Discard, d, &markup.WriteOptions{Indent: " "}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDeepHTML(t *testing.T) {
	// x/net/html refuses more than 512 open elements; the conversion to a
	// tree and the writer are iterative.
	in := strings.Repeat("<span>", 500) + "x"
	d, err := markup.ParseHTMLBytes([]byte(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := markup.WriteHTML(io.Discard, d, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := markup.ParseHTMLBytes([]byte(in), &markup.Options{MaxDepth: 100}); err == nil || !strings.Contains(err.Error(), "deeper than the limit of 100") {
		t.Errorf("MaxDepth 100: err = %v", err)
	}
	deep := strings.Repeat("<div>", 100_000)
	if _, err := markup.ParseHTMLBytes([]byte(deep), nil); err == nil {
		t.Error("100 000 nested divs: no error")
	}
}

func TestBillionLaughs(t *testing.T) {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n")
	prev := "lol"
	for i := 1; i <= 9; i++ {
		name := "lol" + string(rune('0'+i))
		b.WriteString(" <!ENTITY " + name + " \"" + strings.Repeat("&"+prev+";", 10) + "\">\n")
		prev = name
	}
	b.WriteString("]>\n<lolz>&lol9;</lolz>")
	for _, where := range []string{"text", "attribute"} {
		in := b.String()
		if where == "attribute" {
			in = strings.Replace(in, "<lolz>&lol9;</lolz>", `<lolz a="&lol9;"/>`, 1)
		}
		_, err := markup.ParseXMLBytes([]byte(in), nil)
		var se *markup.SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, "possible entity bomb") || se.Line != 14 {
			t.Errorf("%s: err = %v", where, err)
		}
	}
	// A small limit refuses a modest expansion; a larger one allows it.
	// Each reference costs its length plus 32.
	in := `<!DOCTYPE a [<!ENTITY e "0123456789">]><a>&e;&e;&e;</a>`
	if _, err := markup.ParseXMLBytes([]byte(in), &markup.Options{MaxEntityExpansion: 125}); err == nil {
		t.Error("MaxEntityExpansion 125: no error for 3 references of 10 bytes")
	}
	if _, err := markup.ParseXMLBytes([]byte(in), &markup.Options{MaxEntityExpansion: 126}); err != nil {
		t.Errorf("MaxEntityExpansion 126: %v", err)
	}
}

// TestTextIsNotBinary parses text with the few control characters real
// documents hold, and UTF-16 with and without a byte-order mark, which has
// NUL bytes until it is decoded.
func TestTextIsNotBinary(t *testing.T) {
	utf16 := func(s string, big bool) []byte {
		var b []byte
		for _, c := range s {
			if big {
				b = append(b, 0, byte(c))
			} else {
				b = append(b, byte(c), 0)
			}
		}
		return b
	}
	for name, in := range map[string][]byte{
		"form feed and tab":           []byte("<p>a\fb\tc</p>"),
		"a stray control":             []byte("<p>a\x01b</p><p>" + strings.Repeat("text ", 10) + "</p>"),
		"ISO-2022-JP escapes":         []byte("<p>\x1b$B$3$s\x1b(B</p>"),
		"UTF-16LE with BOM":           append([]byte("\xff\xfe"), utf16("<r>x</r>", false)...),
		"UTF-16BE without BOM":        utf16("<r>x</r>", true),
		"UTF-16LE without BOM":        utf16("<?xml version='1.0'?><r>x</r>", false),
		"UTF-16BE, white space first": utf16("\n  <r>x</r>", true),
	} {
		if err := markup.CheckBinary(in); err != nil {
			t.Errorf("%s: CheckBinary: %v", name, err)
		}
		d, _, err := markup.ParseBytes(in, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if strings.HasPrefix(name, "UTF-16") && d.Root.Name != "r" {
			t.Errorf("%s: root %q, want r", name, d.Root.Name)
		}
	}
}
