package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/andybalholm/brotli"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"

	"github.com/vigil-web/vigil/markup"
)

// decodeContent undoes the Content-Encoding of raw (codings applied in the
// order listed, so undone in reverse), refusing a result larger than limit:
// a decompression bomb fails after limit bytes, without being expanded.
func decodeContent(raw []byte, contentEncoding string, limit int64) ([]byte, error) {
	codings := strings.Split(strings.ToLower(contentEncoding), ",")
	body := raw
	for i := len(codings) - 1; i >= 0; i-- {
		coding := strings.TrimSpace(codings[i])
		var r io.Reader
		var err error
		switch coding {
		case "", "identity":
			continue
		case "gzip", "x-gzip":
			r, err = gzip.NewReader(bytes.NewReader(body))
		case "deflate":
			// RFC 9110 deflate is zlib; some servers send raw deflate.
			if zr, zerr := zlib.NewReader(bytes.NewReader(body)); zerr == nil {
				r = zr
			} else {
				r = flate.NewReader(bytes.NewReader(body))
			}
		case "br":
			r = brotli.NewReader(bytes.NewReader(body))
		default:
			return nil, fmt.Errorf("%w: unknown content coding %q", ErrEncoding, coding)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrEncoding, coding, err)
		}
		out, err := readCapped(r, limit)
		if err != nil {
			if errorsIsTooLarge(err) {
				return nil, fmt.Errorf("%w: %s body expands past %d bytes (decompression bomb?)", ErrTooLarge, coding, limit)
			}
			return nil, fmt.Errorf("%w: %s: %v", ErrEncoding, coding, err)
		}
		body = out
	}
	return body, nil
}

func errorsIsTooLarge(err error) bool {
	return err != nil && strings.Contains(err.Error(), ErrTooLarge.Error())
}

// looksBinary reports whether the start of a body holds NUL bytes, which no
// text document in an ASCII-compatible charset has. A body in UTF-16,
// told by its byte-order mark or by label (the Content-Type's charset, a
// page without a mark served as charset=utf-16le), is judged once
// decoded: every ASCII character of it is a NUL byte and another.
func looksBinary(body []byte, label string) bool {
	head := body[:min(len(body), 1024)]
	if bytes.HasPrefix(head, []byte{0xFE, 0xFF}) || bytes.HasPrefix(head, []byte{0xFF, 0xFE}) {
		return false // UTF-16 with a byte order mark
	}
	if label != "" {
		if enc, name := charset.Lookup(label); enc != nil && strings.HasPrefix(name, "utf-16") {
			decoded, err := enc.NewDecoder().Bytes(head[:len(head)&^1])
			if err != nil {
				return true
			}
			head = decoded
		}
	}
	return bytes.IndexByte(head, 0) >= 0
}

// toUTF8 converts body to UTF-8 from its charset, found as a browser finds
// it: a byte-order mark, else the declared label (the Content-Type's
// charset), else the one detected (markup.HTMLEncoding for a page: a meta
// charset, an XML declaration, a meta further on; the XML declaration for
// XML, else UTF-8). A label no one knows, in the header as in a meta or an
// XML declaration, is passed over as if it were absent: the page is read
// in the charset found next, not refused (README: a page in a charset no
// one knows is read as its source text).
func toUTF8(body []byte, mediaType, label string) ([]byte, string, error) {
	var enc encoding.Encoding
	name := ""
	if hasBOM(body) {
		enc, name, _ = charset.DetermineEncoding(body, "")
	} else if label != "" {
		enc, name = charset.Lookup(label) // nil for a label no one knows
	}
	if enc == nil {
		if strings.Contains(mediaType, "xml") && !strings.Contains(mediaType, "html") {
			enc, name = xmlEncoding(body)
		} else {
			// As the HTML parser reads a page (and browsers do): a meta
			// charset, an XML declaration, a meta further on.
			enc, name = markup.HTMLEncoding(body, mediaType)
		}
	}
	if enc == unicode.UTF8 || name == "utf-8" {
		if !utf8.Valid(body) {
			body = bytes.ToValidUTF8(body, []byte("\uFFFD"))
		}
		return bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF")), "utf-8", nil
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return nil, "", fmt.Errorf("%w: decoding %s: %v", ErrCharset, name, err)
	}
	return out, name, nil
}

// hasBOM reports whether body begins with a UTF-8 or UTF-16 byte-order
// mark, which beats any label (as in browsers and markup.Parse).
func hasBOM(body []byte) bool {
	return bytes.HasPrefix(body, []byte("\xEF\xBB\xBF")) ||
		bytes.HasPrefix(body, []byte{0xFE, 0xFF}) || bytes.HasPrefix(body, []byte{0xFF, 0xFE})
}

// xmlEncoding returns the encoding of an XML document without a
// byte-order mark: the label of its XML declaration as markup reads the
// declaration, looked up as browsers do (WHATWG labels: ISO-8859-1 is
// windows-1252), else UTF-8, the encoding of XML that declares none; so is
// that of a declaration whose label no one knows.
func xmlEncoding(body []byte) (encoding.Encoding, string) {
	label := markup.XMLDeclEncoding(body)
	if label == "" {
		return unicode.UTF8, "utf-8"
	}
	e, name := charset.Lookup(label)
	switch {
	case e == nil:
		return unicode.UTF8, "utf-8"
	case strings.HasPrefix(name, "utf-16"):
		// A UTF-16 label on a body without a byte-order mark (one with
		// NUL bytes is refused as binary before): the bytes are not
		// UTF-16, as ParseXML reads them too.
		return unicode.UTF8, "utf-8"
	}
	return e, name
}
