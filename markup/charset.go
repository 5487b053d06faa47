package markup

import (
	"bytes"
	"fmt"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
	// UTF-32's: the little-endian one begins as UTF-16's does, which a
	// UTF-16 document would follow with the character U+0000, which no
	// document holds.
	bomUTF32LE = []byte{0xFF, 0xFE, 0x00, 0x00}
	bomUTF32BE = []byte{0x00, 0x00, 0xFE, 0xFF}
)

// overrideLabel returns the charset label in Options.Charset: the value
// itself, or the charset parameter of a Content-Type value.
func overrideLabel(cs string) string {
	cs = strings.TrimSpace(cs)
	if cs == "" || !strings.ContainsAny(cs, "/;") {
		return cs
	}
	_, params, err := mime.ParseMediaType(cs)
	if err != nil {
		// A malformed header: look for charset= by hand.
		i := strings.Index(strings.ToLower(cs), "charset=")
		if i < 0 {
			return ""
		}
		v := cs[i+len("charset="):]
		if j := strings.IndexAny(v, "; "); j >= 0 {
			v = v[:j]
		}
		return strings.Trim(v, `"'`)
	}
	return params["charset"]
}

// decodeBOM decodes data by its byte-order mark, if it has one, and reports
// whether it did: UTF-8, UTF-16 or UTF-32 (which the XML specification
// allows a document, and appendix F tells by its mark; HTML's encoding
// standard has no UTF-32, but a file that begins so is nothing else).
func decodeBOM(data []byte) ([]byte, bool, error) {
	var e encoding.Encoding
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		return data[len(bomUTF8):], true, nil
	case bytes.HasPrefix(data, bomUTF32LE):
		e = utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM)
	case bytes.HasPrefix(data, bomUTF32BE):
		e = utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM)
	case bytes.HasPrefix(data, bomUTF16LE):
		e = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	case bytes.HasPrefix(data, bomUTF16BE):
		e = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	default:
		return data, false, nil
	}
	out, err := decodeWith(e, data)
	return out, true, err
}

// decodeUnmarkedUTF16 decodes a UTF-16 document without a byte-order
// mark, told by its first character other than white space, '<' (the XML
// specification's autodetection, appendix F): "<\x00" is little-endian,
// "\x00<" big-endian. It reports whether it decoded.
func decodeUnmarkedUTF16(data []byte) ([]byte, bool, error) {
	k := 0
	for k+1 < len(data) && (data[k] == 0 && isSpaceByte(data[k+1]) || isSpaceByte(data[k]) && data[k+1] == 0) {
		k += 2
	}
	var e encoding.Encoding
	switch {
	case len(data) >= k+2 && data[k] == '<' && data[k+1] == 0:
		e = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	case len(data) >= k+2 && data[k] == 0 && data[k+1] == '<':
		e = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	default:
		return data, false, nil
	}
	out, err := decodeWith(e, data)
	return out, true, err
}

// isUTF8Name reports whether a canonical charset name means UTF-8, or an
// ASCII subset of it that needs no decoding.
func isUTF8Name(name string) bool {
	switch strings.ToLower(name) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return true
	}
	return false
}

// lookupXMLEncoding finds an encoding by its IANA name, as XML declarations
// use them (ISO-8859-1 is Latin-1 here, not windows-1252 as in HTML),
// falling back to the WHATWG labels.
func lookupXMLEncoding(label string) (encoding.Encoding, string) {
	label = strings.TrimSpace(label)
	if e, err := ianaindex.IANA.Encoding(label); err == nil && e != nil {
		name, _ := ianaindex.IANA.Name(e)
		return e, name
	}
	return charset.Lookup(label)
}

// decodeXML returns data decoded to UTF-8 for the XML parser: by its
// byte-order mark (or as UTF-16 if it has none and its first '<' says so),
// else by Options.Charset, else by the encoding of its XML declaration,
// else as UTF-8. The error for an unknown encoding is a *SyntaxError at the
// declaration.
func decodeXML(data []byte, override string) ([]byte, error) {
	data, ok, err := decodeBOM(data)
	if err != nil || ok {
		return data, err
	}
	// UTF-16 without a byte-order mark, recognised by its first '<' (XML
	// 1.0 appendix F), as Parse recognises it.
	data, ok, err = decodeUnmarkedUTF16(data)
	if err != nil || ok {
		return data, err
	}
	label := overrideLabel(override)
	if label != "" {
		e, name := lookupXMLEncoding(label)
		if e == nil {
			return nil, fmt.Errorf("markup: unknown charset %q in Options.Charset", label)
		}
		if isUTF8Name(name) {
			return data, nil
		}
		return decodeWith(e, data)
	}
	label, off := xmlDeclEncoding(data)
	if label == "" {
		return data, nil
	}
	e, name := lookupXMLEncoding(label)
	if e == nil {
		return nil, syntaxErrorAt(string(data[:off]), off, "unsupported encoding %q in the XML declaration", label)
	}
	if isUTF8Name(name) || strings.HasPrefix(strings.ToLower(name), "utf-16") {
		// A UTF-16 label on bytes that are not UTF-16 (no BOM, no
		// "<\x00?\x00") is wrong; read the bytes as UTF-8.
		return data, nil
	}
	return decodeWith(e, data)
}

// decodeWith decodes data with e. Its error is a *SyntaxError at the start
// of the document, so that every XML parse error carries a position.
func decodeWith(e encoding.Encoding, data []byte) ([]byte, error) {
	out, err := e.NewDecoder().Bytes(data)
	if err != nil {
		return nil, &SyntaxError{Line: 1, Column: 1, Msg: "cannot decode the charset: " + err.Error()}
	}
	return out, nil
}

// XMLDeclEncoding returns the label in the encoding pseudo-attribute of the
// XML declaration at the start of data (after white space), as ParseXML
// reads it, or "" when there is none. The label is as written: callers
// look it up with the rules of their context (ParseXML reads ISO-8859-1
// as Latin-1, as XML does; a fetcher may read it as browsers do).
func XMLDeclEncoding(data []byte) string {
	label, _ := xmlDeclEncoding(data)
	return label
}

// xmlDeclEncoding returns the value of the encoding pseudo-attribute of the
// XML declaration at the start of data, and its byte offset, or "".
func xmlDeclEncoding(data []byte) (string, int) {
	lead := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
	if lead > 0 && lead < 1024 {
		s, off := xmlDeclEncoding(data[lead:])
		if s == "" {
			return "", 0
		}
		return s, off + lead
	}
	if !bytes.HasPrefix(data, []byte("<?xml")) || len(data) < 6 || !isSpaceByte(data[5]) {
		return "", 0
	}
	end := bytes.Index(data, []byte("?>"))
	if end < 0 || end > 1024 {
		return "", 0
	}
	decl := data[:end]
	i := bytes.Index(decl, []byte("encoding"))
	if i < 0 {
		return "", 0
	}
	j := i + len("encoding")
	for j < len(decl) && isSpaceByte(decl[j]) {
		j++
	}
	if j >= len(decl) || decl[j] != '=' {
		return "", 0
	}
	j++
	for j < len(decl) && isSpaceByte(decl[j]) {
		j++
	}
	if j >= len(decl) || (decl[j] != '"' && decl[j] != '\'') {
		return "", 0
	}
	q := decl[j]
	k := bytes.IndexByte(decl[j+1:], q)
	if k < 0 {
		return "", 0
	}
	return string(decl[j+1 : j+1+k]), j + 1
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// XMLDeclarationCharset returns the encoding, and its name, that the XML
// declaration at the start of an HTML document names, when no meta charset
// or http-equiv Content-Type in its first 1024 bytes names one: browsers
// read such a page so (WHATWG HTML, "get an XML encoding"). A UTF-16 label
// means UTF-8, on bytes that are not UTF-16 (those have a byte-order mark),
// and x-user-defined means windows-1252, as for a meta element (WHATWG HTML,
// "prescan a byte stream"). It returns nil when the declaration names no
// known encoding or a meta element decides.
func XMLDeclarationCharset(data []byte) (encoding.Encoding, string) {
	label, _ := xmlDeclEncoding(data)
	if label == "" {
		return nil, ""
	}
	e, name := charset.Lookup(label)
	if e == nil || hasMetaCharset(data[:min(len(data), 1024)]) {
		return nil, ""
	}
	switch {
	case strings.HasPrefix(name, "utf-16"):
		return unicode.UTF8, "utf-8"
	case name == xUserDefined:
		return charmap.Windows1252, "windows-1252"
	}
	return e, name
}

// xUserDefined is the WHATWG name of the charset that maps bytes 0x80 to
// 0xFF to private-use characters. Only a Content-Type means it: a meta
// element or an XML declaration naming it means windows-1252.
const xUserDefined = "x-user-defined"

// hasMetaCharset reports whether head holds a meta element with a charset
// attribute or an http-equiv Content-Type whose content names a charset.
func hasMetaCharset(head []byte) bool {
	_, ok := metaCharsetLabel(head)
	return ok
}

// metaCharsetLabel returns the charset label of the first meta element in
// data with a charset attribute, or with an http-equiv Content-Type whose
// content names a charset, and whether there is one. Markup in comments,
// scripts and other raw text is skipped, as the tokenizer skips it.
func metaCharsetLabel(data []byte) (string, bool) {
	z := html.NewTokenizer(bytes.NewReader(data))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return "", false
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			if string(name) != "meta" {
				continue
			}
			var equiv, set bool
			var label, content string
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				switch string(k) {
				case "charset":
					if !set {
						set, label = true, string(v)
					}
				case "http-equiv":
					equiv = strings.EqualFold(string(v), "content-type")
				case "content":
					content = string(v)
				}
			}
			if set {
				return label, true
			}
			if from, to, ok := charsetParam(content); equiv && ok {
				return strings.Trim(content[from:to], `"'`), true
			}
		}
	}
}

// lateMetaCharset returns the encoding, and its name, that a meta element
// past the first 1024 bytes names (see metaCharsetLabel), for a page that
// names none in them: a browser that meets one while parsing changes the
// encoding (WHATWG HTML, "change the encoding"), a UTF-16 label meaning
// UTF-8 and x-user-defined windows-1252 there too. It returns nil when
// there is none, or it names no known encoding.
func lateMetaCharset(data []byte) (encoding.Encoding, string) {
	label, ok := metaCharsetLabel(data)
	if !ok {
		return nil, ""
	}
	e, name := charset.Lookup(label)
	switch {
	case e == nil:
		return nil, ""
	case strings.HasPrefix(name, "utf-16"):
		return unicode.UTF8, "utf-8"
	case name == xUserDefined:
		return charmap.Windows1252, "windows-1252"
	}
	return e, name
}

// HTMLEncoding returns the encoding of an HTML document, and its name, as
// browsers and the HTML parser choose it: a byte-order mark, then the
// charset of contentType (a Content-Type value, or ""), then a meta charset
// or http-equiv Content-Type in the first 1024 bytes, then the encoding of
// an XML declaration at the start (x-user-defined in either of the last two
// is windows-1252); a document with none of these is UTF-8 if it is valid
// UTF-8, else in the charset of a meta element further on (see
// lateMetaCharset), else windows-1252. A windows-1252 label (iso-8859-1,
// us-ascii) in a meta element or XML declaration on bytes that are valid
// UTF-8 gives UTF-8, unlike browsers (see the package documentation). A
// fetcher that decodes pages itself calls it so that it reads them as the
// parser would.
func HTMLEncoding(data []byte, contentType string) (encoding.Encoding, string) {
	e, name, certain := charset.DetermineEncoding(data, contentType)
	if certain {
		return e, name
	}
	valid := utf8.Valid(data)
	if x, xname := XMLDeclarationCharset(data); x != nil {
		e, name = x, xname
	} else if !valid && !hasMetaCharset(data[:min(len(data), 1024)]) {
		if x, xname := lateMetaCharset(data); x != nil {
			e, name = x, xname
		}
	}
	if name == xUserDefined { // from a meta element
		e, name = charmap.Windows1252, "windows-1252"
	}
	if name == "windows-1252" && valid {
		return unicode.UTF8, "utf-8" // only ASCII in the first 1024 bytes
	}
	return e, name
}

// decodeHTML returns data decoded to UTF-8 for the HTML parser, following the
// HTML rules (a byte-order mark, then Options.Charset, then a meta charset
// or http-equiv Content-Type in the first 1024 bytes, then the encoding of
// an XML declaration at the start; x-user-defined in either of the last two
// is windows-1252, as in browsers); a document with none of these is UTF-8
// if it is valid UTF-8, else in the charset of a meta element further on
// (see lateMetaCharset), else windows-1252. Invalid UTF-8 is replaced with
// U+FFFD.
func decodeHTML(data []byte, override string) ([]byte, error) {
	data, ok, err := decodeBOM(data)
	if err != nil {
		return nil, err
	}
	if !ok {
		contentType := ""
		if label := overrideLabel(override); label != "" {
			if e, _ := charset.Lookup(label); e == nil {
				return nil, fmt.Errorf("markup: unknown charset %q in Options.Charset", label)
			}
			contentType = "text/html; charset=" + label
		}
		e, name := HTMLEncoding(data, contentType)
		if !isUTF8Name(name) {
			if data, err = decodeWith(e, data); err != nil {
				return nil, err
			}
		}
	}
	if !utf8.Valid(data) {
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	return data, nil
}

// DecodeNotASCIICompatible returns data decoded to UTF-8 when it is in a
// charset that is not ASCII-compatible, one in which ASCII text is not
// ASCII bytes: UTF-16 told by a byte-order mark (which beats any label,
// as in Parse), else cs (a label or a Content-Type value, as Options.Charset;
// WHATWG labels) naming UTF-16LE or UTF-16BE, ISO-2022-JP (whose two-byte
// characters are pairs of ASCII bytes) or the replacement encoding. It
// reports whether it decoded; data in any other charset, or in an unknown
// one, is returned as is. A caller that writes ASCII markup around a text
// (an HTML page quoting it) decodes the text so first, then parses the
// page as UTF-8: decoded with the text's charset, the markup would be
// other characters. Bytes that are not in the charset (UTF-16 of an odd
// length) become U+FFFD. UTF-16 without a byte-order mark or a label is
// not told by its first '<', as Parse tells it: a text quoted is not
// markup, and "<\x00" may begin a text in the charset it is labelled in.
func DecodeNotASCIICompatible(data []byte, cs string) ([]byte, bool, error) {
	if bytes.HasPrefix(data, bomUTF16LE) || bytes.HasPrefix(data, bomUTF16BE) {
		return decodeBOM(data)
	}
	if bytes.HasPrefix(data, bomUTF8) {
		return data, false, nil
	}
	label := overrideLabel(cs)
	if label == "" {
		return data, false, nil
	}
	e, name := charset.Lookup(label)
	switch {
	case e == nil:
		return data, false, nil
	case strings.HasPrefix(name, "utf-16"), name == "iso-2022-jp", name == "replacement":
		out, err := decodeWith(e, data)
		return out, err == nil, err
	}
	return data, false, nil
}
