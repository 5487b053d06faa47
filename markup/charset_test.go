package markup_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/vigil-web/vigil/markup"
)

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var out []byte
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// utf32Bytes encodes s as UTF-32 with its byte-order mark.
func utf32Bytes(s string, bigEndian bool) []byte {
	var out []byte
	for _, r := range "\uFEFF" + s {
		if bigEndian {
			out = append(out, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
		} else {
			out = append(out, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
	}
	return out
}

func TestCharsetXML(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		opt  *markup.Options
		want string
	}{
		{"ISO-8859-1 declared", []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r t=\"caf\xe9\">\xe9t\xe9 \x80</r>"), nil, "<r t=\"café\">été \u0080</r>"},
		{"windows-1252 declared", []byte("<?xml version='1.0' encoding='windows-1252'?><r>\x80</r>"), nil, "<r>€</r>"},
		{"UTF-16LE with BOM", utf16Bytes(`<?xml version="1.0" encoding="UTF-16"?><r>été ✓</r>`, false, true), nil, "<r>été ✓</r>"},
		{"UTF-16BE with BOM", utf16Bytes(`<r>été ✓</r>`, true, true), nil, "<r>été ✓</r>"},
		{"UTF-16LE without BOM", utf16Bytes(`<?xml version="1.0" encoding="UTF-16"?><r>é</r>`, false, false), nil, "<r>é</r>"},
		{"UTF-16LE without BOM or declaration", utf16Bytes(`<r>é</r>`, false, false), nil, "<r>é</r>"},
		{"UTF-16BE without BOM, white space first", utf16Bytes("\n <?xml version=\"1.0\" encoding=\"UTF-16\"?><r>é</r>", true, false), nil, "<r>é</r>"},
		{"UTF-8 BOM", []byte("\xef\xbb\xbf<r>é</r>"), nil, "<r>é</r>"},
		{"UTF-16 label on UTF-8 bytes", []byte(`<?xml version="1.0" encoding="UTF-16"?><r>é</r>`), nil, "<r>é</r>"},
		{"override label", []byte("<r>\xe9</r>"), &markup.Options{Charset: "ISO-8859-1"}, "<r>é</r>"},
		{"override Content-Type beats declaration", []byte("<?xml version=\"1.0\" encoding=\"UTF-8\"?><r>\xe9</r>"), &markup.Options{Charset: "application/xml; charset=iso-8859-1"}, "<r>é</r>"},
		{"BOM beats override", []byte("\xef\xbb\xbf<r>é</r>"), &markup.Options{Charset: "ISO-8859-1"}, "<r>é</r>"},
		{"UTF-8 BOM beats the declaration", []byte("\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>é</r>"), nil, "<r>é</r>"},
		{"UTF-16 BOM beats the declaration", utf16Bytes(`<?xml version="1.0" encoding="ISO-8859-1"?><r>é</r>`, false, true), nil, "<r>é</r>"},
		// It was called binary: a NUL byte at line 1, column 1.
		{"UTF-32LE with BOM", utf32Bytes(`<?xml version="1.0" encoding="UTF-32"?><r>été ✓ 𝄞</r>`, false), nil, "<r>été ✓ 𝄞</r>"},
		{"UTF-32BE with BOM", utf32Bytes(`<r>été ✓ 𝄞</r>`, true), nil, "<r>été ✓ 𝄞</r>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := markup.ParseXMLBytes(tt.in, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := writeRoot(t, d); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			// Parse detects UTF-16 too.
			d, f, err := markup.ParseBytes(tt.in, tt.opt)
			if err != nil || f != markup.XML || writeRoot(t, d) != tt.want {
				t.Errorf("Parse: format %v, err %v", f, err)
			}
		})
	}
	// Undeclared Latin-1 is invalid UTF-8: an error with its position.
	_, err := markup.ParseXMLBytes([]byte("<a>\n caf\xe9</a>"), nil)
	var se *markup.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Column != 5 {
		t.Errorf("invalid UTF-8: err = %v, want line 2, column 5", err)
	}
	if _, err := markup.ParseXMLBytes([]byte("<a/>"), &markup.Options{Charset: "no-such-charset"}); err == nil {
		t.Error("unknown Options.Charset: no error")
	}
}

// lateHead is the start of a page whose first 1024 bytes name no charset.
var lateHead = "<!DOCTYPE html><html><head><script>" + strings.Repeat("var a = 1;\n", 110) + "</script>"

func TestCharsetHTML(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		opt  *markup.Options
		want string // text of the body
	}{
		{"meta charset windows-1252", []byte("<!DOCTYPE html><html><head><meta charset=\"windows-1252\"><title>t</title></head><body>\x93caf\xe9\x94 \x80</body></html>"), nil, "\u201ccafé\u201d €"},
		{"http-equiv", []byte("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\"></head><body>\xe9</body></html>"), nil, "é"},
		{"no declaration, valid UTF-8", []byte("<p>" + string(make([]byte, 0)) + "plain ascii for a while, then é</p>"), nil, "plain ascii for a while, then é"},
		{"no declaration, not UTF-8", []byte("<p>caf\xe9</p>"), nil, "café"},
		{"override Content-Type", []byte("<meta charset=utf-8><p>caf\xe9</p>"), &markup.Options{Charset: "text/html; charset=windows-1252"}, "café"},
		{"UTF-16LE BOM", utf16Bytes("<p>été</p>", false, true), nil, "été"},
		{"invalid UTF-8 replaced", []byte("<meta charset=utf-8><p>a\xffb</p>"), nil, "a\uFFFDb"},
		// An XML declaration's encoding counts where no meta charset says
		// otherwise, as in browsers; a UTF-16 label on bytes that are not
		// UTF-16 means UTF-8.
		{"XML declaration", []byte("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><html><body>\x93\xfa\x96{</body></html>"), nil, "日本"},
		{"XML declaration and meta", []byte("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><html><head><meta charset=\"utf-8\"></head><body>日本</body></html>"), nil, "日本"},
		{"XML declaration, UTF-16 label", []byte("<?xml version=\"1.0\" encoding=\"UTF-16\"?><html><body>été</body></html>"), nil, "été"},
		{"XML declaration, meta iso-8859-1", []byte("<?xml version=\"1.0\" encoding=\"utf-8\"?><html><head><meta charset=\"iso-8859-1\"></head><body>caf\xe9</body></html>"), nil, "café"},
		{"XML declaration with spaces", []byte("<?xml version=\"1.0\" encoding = \"Shift_JIS\"?><html><body>\x93\xfa\x96{</body></html>"), nil, "日本"},
		// A meta element or XML declaration naming x-user-defined means
		// windows-1252, as in browsers; only a Content-Type means it.
		{"meta x-user-defined", []byte("<meta charset=\"x-user-defined\"><p>caf\xe9 \x80</p>"), nil, "café €"},
		{"http-equiv x-user-defined", []byte("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=x-user-defined\"><p>caf\xe9</p>"), nil, "café"},
		{"XML declaration x-user-defined", []byte("<?xml version=\"1.0\" encoding=\"x-user-defined\"?><html><body>caf\xe9</body></html>"), nil, "café"},
		{"override x-user-defined", []byte("<p>caf\xe9</p>"), &markup.Options{Charset: "x-user-defined"}, "caf\uf7e9"},
		// A meta element past the first 1024 bytes counts when nothing
		// before it names a charset and the page is not UTF-8: a browser
		// meeting it changes the encoding.
		{"late meta charset", []byte(lateHead + "<meta charset=\"shift_jis\"></head><body>\x93\xfa\x96{</body></html>"), nil, "日本"},
		{"late http-equiv", []byte(lateHead + "<meta http-equiv=\"content-type\" content=\"text/html; charset='windows-1251'\"></head><body>\xcf\xf0\xe8\xe2\xe5\xf2</body></html>"), nil, "Привет"},
		{"late meta in the body", []byte(lateHead + "</head><body>\x93\xfa<meta charset=shift_jis>\x96{</body></html>"), nil, "日本"},
		{"late meta x-user-defined", []byte(lateHead + "<meta charset=\"x-user-defined\"></head><body>caf\xe9</body></html>"), nil, "café"},
		{"late meta, UTF-8 page", []byte(lateHead + "<meta charset=\"shift_jis\"></head><body>日本</body></html>"), nil, "日本"},
		{"late meta in a comment or a script", []byte(lateHead + "<!-- <meta charset=shift_jis> --><script>'<meta charset=shift_jis>'</script></head><body>caf\xe9</body></html>"), nil, "café"},
		{"early meta before a late one", []byte("<meta charset=windows-1251>" + lateHead + "<meta charset=\"shift_jis\"></head><body>\xcf\xf0\xe8\xe2\xe5\xf2</body></html>"), nil, "Привет"},
		{"XML declaration under an override", []byte("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><html><body>caf\xe9</body></html>"), &markup.Options{Charset: "windows-1252"}, "café"},
		{"UTF-8 BOM beats meta", []byte("\xef\xbb\xbf<meta charset=\"iso-8859-2\"><p>café</p>"), nil, "café"},
		{"UTF-16 BOM beats meta", utf16Bytes(`<meta charset="iso-8859-2"><p>café</p>`, false, true), nil, "café"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := markup.ParseHTMLBytes(tt.in, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			body := d.Root.Children[len(d.Root.Children)-1]
			if body.Name != "body" || body.Text() != tt.want {
				t.Errorf("body %s text %q, want %q", body.Name, body.Text(), tt.want)
			}
			// Parse, which takes the byte-order mark off first, decodes alike.
			opt := markup.Options{Format: markup.HTML}
			if tt.opt != nil {
				opt.Charset = tt.opt.Charset
			}
			d, _, err = markup.ParseBytes(tt.in, &opt)
			if err != nil {
				t.Fatal(err)
			}
			if body := d.Root.Children[len(d.Root.Children)-1]; body.Text() != tt.want {
				t.Errorf("Parse: body text %q, want %q", body.Text(), tt.want)
			}
		})
	}
}

// TestDecodeNotASCIICompatible: a text in a charset that is not
// ASCII-compatible (UTF-16 by its byte-order mark or its label; ISO-2022-JP; the replacement encoding) is decoded to UTF-8, a
// byte-order mark beating the label; one in an ASCII-compatible charset,
// an unknown one or none is returned as is.
func TestDecodeNotASCIICompatible(t *testing.T) {
	const text = "café <b>"
	tests := []struct {
		name, data, charset string
		want                string
		decoded             bool
	}{
		{"UTF-16LE labelled", string(utf16Bytes(text, false, false)), "utf-16le", text, true},
		{"UTF-16BE labelled", string(utf16Bytes(text, true, false)), "UTF-16BE", text, true},
		{"utf-16 is little-endian", string(utf16Bytes(text, false, false)), "utf-16", text, true},
		{"a label in a Content-Type value", string(utf16Bytes(text, true, false)), "text/plain; charset=utf-16be", text, true},
		{"a UTF-16LE byte-order mark", string(utf16Bytes(text, false, true)), "", text, true},
		{"a UTF-16BE byte-order mark beats the label", string(utf16Bytes(text, true, true)), "utf-16le", text, true},
		{"UTF-16 not told by its first '<'", "<\x00b\x00", "", "<\x00b\x00", false},
		{"an odd length", string(utf16Bytes("ab", false, false)) + "c", "utf-16le", "ab\uFFFD", true},
		{"ISO-2022-JP", "a\x1b$B$\"!<\x1b(B<b>", "iso-2022-jp", "a\u3042\u30fc<b>", true},
		{"the replacement encoding", "abc", "iso-2022-kr", "\uFFFD", true},
		{"windows-1252", "caf\xe9 <b>", "windows-1252", "caf\xe9 <b>", false},
		{"Shift_JIS", "\x93\xfa\x96{", "shift_jis", "\x93\xfa\x96{", false},
		{"a UTF-8 byte-order mark", "\xEF\xBB\xBFx", "utf-16le", "\xEF\xBB\xBFx", false},
		{"an unknown charset", "x", "x-no-such-charset", "x", false},
		{"no charset", "x", "", "x", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, decoded, err := markup.DecodeNotASCIICompatible([]byte(tc.data), tc.charset)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want || decoded != tc.decoded {
				t.Errorf("got %q, %v; want %q, %v", got, decoded, tc.want, tc.decoded)
			}
		})
	}
}
