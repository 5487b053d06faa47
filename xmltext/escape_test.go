package xmltext_test

import (
	"encoding/xml"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-web/vigil/xmltext"
)

func TestEscape(t *testing.T) {
	replace := xmltext.Options{Replace: true}
	hex := xmltext.Options{HexRefs: true}
	hexGT := xmltext.Options{HexRefs: true, EscapeGT: true}
	for name, c := range map[string]struct {
		ctx  xmltext.Context
		opt  xmltext.Options
		in   string
		want string
	}{
		"text markup":          {xmltext.Text, replace, `a<b&c>d]]>e"f'`, `a&lt;b&amp;c&gt;d]]&gt;e"f'`},
		"text white space":     {xmltext.Text, replace, "a\tb\nc\r\nd", "a\tb\nc&#13;\nd"},
		"text hex":             {xmltext.Text, hex, "a\r\nb", "a&#xD;\nb"},
		"text controls":        {xmltext.Text, replace, "a\x00b\x01\x0c\x1f", "a\uFFFDb\uFFFD\uFFFD\uFFFD"},
		"text non-characters":  {xmltext.Text, replace, "\uFFFEx\uFFFF\uFFFD\uFFEF", "\uFFFDx\uFFFD\uFFFD\uFFEF"},
		"text invalid UTF-8":   {xmltext.Text, replace, "a\xffb\xed\xa0\x80c\xef\xbf", "a\uFFFDb\uFFFD\uFFFD\uFFFDc\uFFFD\uFFFD"},
		"text non-ASCII":       {xmltext.Text, replace, "déjà 漢字 🙂 \u0085", "déjà 漢字 🙂 \u0085"},
		"text empty":           {xmltext.Text, replace, "", ""},
		"attr markup":          {xmltext.Attr, replace, `a<b&c>d"e'`, `a&lt;b&amp;c>d&quot;e'`},
		"attr white space":     {xmltext.Attr, replace, "a\tb\nc\rd e", "a&#9;b&#10;c&#13;d e"},
		"attr hex":             {xmltext.Attr, hex, "a\tb\nc\rd>", "a&#x9;b&#xA;c&#xD;d>"},
		"attr escape >":        {xmltext.Attr, hexGT, "a>b", "a&gt;b"},
		"attr controls":        {xmltext.Attr, replace, "\x01\uFFFF", "\uFFFD\uFFFD"},
		"raw keeps everything": {xmltext.Raw, replace, "a<b&c>d\"\t\n\r", "a<b&c>d\"\t\n\r"},
		"raw controls":         {xmltext.Raw, replace, "a\x02\uFFFE\xc0", "a\uFFFD\uFFFD\uFFFD"},
	} {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			if err := xmltext.NewEscaper(c.ctx, c.opt).Escape(&b, c.in); err != nil {
				t.Fatal(err)
			}
			if b.String() != c.want {
				t.Errorf("Escape(%q) = %q, want %q", c.in, b.String(), c.want)
			}
		})
	}
}

// TestEscapeRefuses: without Replace, the first character XML cannot hold
// is a *CharError, with the text before it written.
func TestEscapeRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		in      string
		written string
		want    xmltext.CharError
		msg     string
	}{
		"NUL":          {"ab\x00c", "ab", xmltext.CharError{Offset: 2, Rune: 0}, "character U+0000 at byte 2 is not allowed in XML"},
		"U+FFFF":       {"é\uFFFF", "é", xmltext.CharError{Offset: 2, Rune: 0xFFFF}, "character U+FFFF at byte 2 is not allowed in XML"},
		"invalid byte": {"ab\x80", "ab", xmltext.CharError{Offset: 2, Rune: utf8.RuneError}, "invalid UTF-8 at byte 2"},
		"surrogate":    {"\xed\xb0\x80", "", xmltext.CharError{Offset: 0, Rune: utf8.RuneError}, "invalid UTF-8 at byte 0"},
	} {
		t.Run(name, func(t *testing.T) {
			for _, ctx := range []xmltext.Context{xmltext.Text, xmltext.Attr, xmltext.Raw} {
				var b strings.Builder
				err := xmltext.NewEscaper(ctx, xmltext.Options{}).Escape(&b, c.in)
				var ce *xmltext.CharError
				if !errors.As(err, &ce) || *ce != c.want || err.Error() != c.msg {
					t.Errorf("context %d: Escape(%q) = %v, want %v", ctx, c.in, err, c.msg)
				}
				if b.String() != c.written {
					t.Errorf("context %d: Escape(%q) wrote %q, want %q", ctx, c.in, b.String(), c.written)
				}
				if err := xmltext.Check(c.in); err == nil || err.Error() != c.msg {
					t.Errorf("Check(%q) = %v, want %v", c.in, err, c.msg)
				}
			}
		})
	}
	if err := xmltext.Check("a\t\n\r\uFFFD\U0010FFFF"); err != nil {
		t.Errorf("Check of XML characters: %v", err)
	}
}

func TestIsChar(t *testing.T) {
	for r, want := range map[rune]bool{0: false, '\t': true, '\n': true, '\r': true, 0x1f: false, ' ': true, 0xD7FF: true, 0xD800: false, 0xDFFF: false, 0xE000: true, 0xFFFD: true, 0xFFFE: false, 0xFFFF: false, 0x10000: true, 0x10FFFF: true, 0x110000: false, -1: false} {
		if got := xmltext.IsChar(r); got != want {
			t.Errorf("IsChar(%U) = %v, want %v", r, got, want)
		}
	}
}

// FuzzEscape checks that a conforming parser reads every escaped string
// back as written, in text and in an attribute value, and that Check
// agrees with the refusing escaper.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "a<b&c>d\"e'f", "]]>", "\t\n\r \r\n", "\x00\x1f", "\uFFFE\uFFFF\uFFFD", "\xff\xed\xa0\x80", "déjà 漢字 🙂"} {
		f.Add(s)
	}
	text := xmltext.NewEscaper(xmltext.Text, xmltext.Options{HexRefs: true})
	attr := xmltext.NewEscaper(xmltext.Attr, xmltext.Options{})
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		b.WriteString(`<a v="`)
		errAttr := attr.Escape(&b, s)
		b.WriteString(`">`)
		errText := text.Escape(&b, s)
		b.WriteString(`</a>`)
		errCheck := xmltext.Check(s)
		if (errAttr == nil) != (errCheck == nil) || (errText == nil) != (errCheck == nil) {
			t.Fatalf("escapers say %v and %v, Check says %v", errAttr, errText, errCheck)
		}
		if errCheck != nil {
			return
		}
		var el struct {
			V    string `xml:"v,attr"`
			Text string `xml:",chardata"`
		}
		if err := xml.Unmarshal([]byte(b.String()), &el); err != nil {
			t.Fatalf("%q does not parse: %v", b.String(), err)
		}
		if el.V != s || el.Text != s {
			t.Errorf("%q read back as attribute %q and text %q, want %q", b.String(), el.V, el.Text, s)
		}
	})
}
