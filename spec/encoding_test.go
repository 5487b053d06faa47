package spec

import (
	"encoding/binary"
	"testing"
	"unicode/utf16"
)

// utf16Bytes encodes s as UTF-16, little- or big-endian, with or without a
// byte order mark.
func utf16Bytes(s string, big, bom bool) []byte {
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	var order binary.ByteOrder = binary.LittleEndian
	if big {
		order = binary.BigEndian
	}
	out := make([]byte, 2*len(units))
	for i, u := range units {
		order.PutUint16(out[2*i:], u)
	}
	return out
}

// TestMistakenText: a literal closed with a typographic quote, or a file
// saved as UTF-16, is told what happened and what to do, where the scanner
// said only "string literal not terminated" or "byte 0x00".
func TestMistakenText(t *testing.T) {
	const src = "Create Sentinel s Using http://a.example Monitor phrase {\"日本語\"}\n"
	const utf16Msg = "f.ssl:1:1: not text: the file looks like UTF-16; a sentinel file is UTF-8 text: save it as UTF-8"
	for name, tc := range map[string]struct {
		src  []byte
		want string
	}{
		"closed with ”": {[]byte("Create Sentinel s Using http://a.example Monitor phrase {\"sold out”}"),
			"f.ssl:1:58: string literal not terminated: found the typographic quote ” at 1:67, but a literal opened with \" ends with \" (or write it in “ and ”)"},
		"closed with ” after 日本": {[]byte("Create Sentinel s Using http://a.example Monitor phrase {\"日本”}"),
			"f.ssl:1:58: string literal not terminated: found the typographic quote ” at 1:61, but a literal opened with \" ends with \" (or write it in “ and ”)"},
		"opened with “, closed with \"": {[]byte("Create Sentinel s Using http://a.example Monitor phrase {“sold out\"}"),
			"f.ssl:1:58: string literal not terminated: found \" at 1:67, but a literal opened with “ ends with ” (or write it in \" and \")"},
		"UTF-16LE with BOM":    {utf16Bytes(src, false, true), utf16Msg},
		"UTF-16BE with BOM":    {utf16Bytes(src, true, true), utf16Msg},
		"UTF-16LE without BOM": {utf16Bytes(src, false, false), utf16Msg},
		"UTF-16BE without BOM": {utf16Bytes(src, true, false), utf16Msg},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("f.ssl", tc.src)
			list, _ := err.(ErrorList)
			if len(list) == 0 || list[0].Error() != tc.want {
				t.Errorf("errors:\n%v\nwant first\n%s", err, tc.want)
			}
		})
	}
}
