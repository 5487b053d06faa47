package markup

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/vigil-web/vigil/tree"
)

// Parse reads a document from r, tells XML from HTML with Detect, and parses
// it with ParseXML or ParseHTML; a document detected as XML that is not
// well-formed is parsed as HTML when it is XHTML or its first element is an
// HTML element (see Detect). When successive versions of one document are compared, a caller
// that knows how the document was served says so in Options.MediaType: an
// XHTML page served as text/html that stops being well-formed in one
// version would otherwise change format, and every node with it.
func Parse(r io.Reader, opt *Options) (*tree.Document, Format, error) {
	o := opt.resolved()
	data, err := readInput(r, o.MaxBytes)
	if err != nil {
		return nil, 0, err
	}
	return parseAny(data, true, o)
}

// ParseBytes is Parse on a byte slice. It does not modify or retain b.
func ParseBytes(b []byte, opt *Options) (*tree.Document, Format, error) {
	o := opt.resolved()
	if err := checkSize(b, o.MaxBytes); err != nil {
		return nil, 0, err
	}
	return parseAny(b, false, o)
}

// ParseBytesOwned is ParseBytes for a caller that hands b over: the
// document may keep b (its texts and names point into it), so the caller
// must not modify b afterwards. It saves copying the input, which is as
// large as the input: a command that reads a file to parse it needs only
// one copy of it in memory.
func ParseBytesOwned(b []byte, opt *Options) (*tree.Document, Format, error) {
	o := opt.resolved()
	if err := checkSize(b, o.MaxBytes); err != nil {
		return nil, 0, err
	}
	return parseAny(b, true, o)
}

// ParseFlatBytesOwned is ParseBytesOwned building a tree.Flat, the form
// the diff works on: XML is parsed straight into it, HTML (which
// golang.org/x/net/html parses into its own tree) is flattened after. The
// parse reads b without copying it, and the Flat copies what it keeps (its
// values are one string), so b can be freed once the Flat is built.
func ParseFlatBytesOwned(b []byte, opt *Options) (*tree.Flat, Format, error) {
	o := opt.resolved()
	if err := checkSize(b, o.MaxBytes); err != nil {
		return nil, 0, err
	}
	data, f, fallback, err := detectInput(b, &o)
	if err != nil {
		return nil, 0, err
	}
	if f == XML {
		flat, err := parseXMLFlat(data, true, o)
		if !readAsHTML(err, fallback) {
			return flat, f, err
		}
	}
	d, err := parseHTML(data, o)
	if err != nil {
		return nil, 0, err
	}
	flat, _ := tree.FlattenDocument(d)
	return flat, HTML, nil
}

// parseAny detects the format of data and parses it; owned says whether
// data belongs to the parser.
func parseAny(data []byte, owned bool, o Options) (*tree.Document, Format, error) {
	data, f, fallback, err := detectInput(data, &o)
	if err != nil {
		return nil, 0, err
	}
	if f == XML {
		d, err := parseXML(data, owned, o)
		if !readAsHTML(err, fallback) {
			return d, f, err
		}
	}
	d, err := parseHTML(data, o)
	return d, HTML, err
}

// detectInput decodes an input by its byte-order mark, or a UTF-16 one by
// its first character, and detects its format. A byte-order mark beats any
// other declaration of the charset: once the input is decoded, o.Charset
// says UTF-8, so that neither its XML declaration nor a meta charset decodes
// it a second time. fallback reports whether an input detected as XML is
// read as HTML if it is not well-formed (see detect).
func detectInput(data []byte, o *Options) ([]byte, Format, bool, error) {
	// A UTF-16 document is decoded first so that Detect sees characters.
	decoded, bom, err := decodeBOM(data)
	if err != nil {
		return nil, 0, false, err
	}
	if !bom {
		decoded, bom, err = decodeUnmarkedUTF16(data)
		if err != nil {
			return nil, 0, false, err
		}
	}
	if bom {
		data = decoded
		o.Charset = "utf-8"
	}
	if o.Format == XML || o.Format == HTML {
		return data, o.Format, false, nil
	}
	f, fallback := detect(data)
	if f == XML && fallback && servedAsHTML(o.MediaType) {
		f = HTML
	}
	if servedAsXML(o.MediaType) {
		// A document its server says is XML is refused when malformed,
		// whatever its root: one broken answer of an XML API read as HTML
		// would show every node as changed.
		fallback = false
	}
	return data, f, fallback, nil
}

// servedAsXML reports whether a media type, or a Content-Type value, is an
// XML one (application/xml, text/xml, or a +xml suffix), XHTML excepted.
func servedAsXML(mediaType string) bool {
	t, _, _ := strings.Cut(mediaType, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	return t == "application/xml" || t == "text/xml" || strings.HasSuffix(t, "+xml") && t != "application/xhtml+xml"
}

// servedAsHTML reports whether a media type, or a Content-Type value, is
// text/html.
func servedAsHTML(mediaType string) bool {
	t, _, _ := strings.Cut(mediaType, ";")
	return strings.EqualFold(strings.TrimSpace(t), "text/html")
}

// CheckBinary returns an error wrapping ErrBinary if data is not text: a
// NUL byte among its first 8 000 bytes (after decoding UTF-16, told by a
// byte-order mark or by its first character '<'), or more than one byte in
// twenty there, and sixteen at least, that are control characters text
// does not hold (not tab, newline, carriage return, form feed or the
// escape of ISO-2022 charsets): a stray one in a short page is a slip, not
// a binary file. The parsers do not call it: a browser shows a page served
// as HTML with a NUL in it, and so does ParseHTML. A caller that is handed
// a file of unknown kind, as vigil diff is, calls it first.
func CheckBinary(data []byte) error {
	// Only the head is looked at, and so decoded: UTF-16 takes two bytes a
	// character, or four (an even count, so no unit is cut).
	data = data[:min(len(data), 4*binarySniff)]
	if decoded, bom, err := decodeBOM(data); err == nil && bom {
		data = decoded
	} else if decoded, ok, err := decodeUnmarkedUTF16(data); err == nil && ok {
		data = decoded
	}
	head := data[:min(len(data), binarySniff)]
	if k := bytes.IndexByte(head, 0); k >= 0 {
		line, col := position(string(head[:k+1]), k)
		return fmt.Errorf("markup: a NUL byte at line %d, column %d: %w", line, col, ErrBinary)
	}
	controls := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b {
			controls++
		}
	}
	if controls >= 16 && controls*20 > len(head) {
		return fmt.Errorf("markup: %d control characters in the first %d bytes: %w", controls, len(head), ErrBinary)
	}
	return nil
}

// binarySniff is how many bytes of an input are searched for a NUL byte,
// the mark of a binary file (as git and grep tell them).
const binarySniff = 8000

// readAsHTML reports whether an input detected as XML must be read as HTML
// after all: XHTML, or a document that begins with an HTML element, that is
// not well-formed is read as a browser would. fallback is what detect
// reported.
func readAsHTML(xmlErr error, fallback bool) bool {
	var se *SyntaxError
	return xmlErr != nil && fallback && errors.As(xmlErr, &se)
}

// commonHTML lists element names that, as the first element of a document
// without an XML declaration, mean HTML.
var commonHTML = map[string]bool{
	"html": true, "head": true, "body": true, "title": true, "meta": true,
	"link": true, "script": true, "style": true, "base": true, "div": true,
	"p": true, "span": true, "a": true, "table": true, "form": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"ul": true, "ol": true, "li": true, "br": true, "img": true,
	"header": true, "footer": true, "nav": true, "main": true,
	"section": true, "article": true, "iframe": true, "noscript": true,
	"frameset": true, "center": true, "font": true, "b": true, "i": true,
}

// Detect tells whether a document is XML or HTML from its first bytes (in
// UTF-8, or in an ASCII-compatible charset; a UTF-16 document must be
// decoded first). The rule, after an optional UTF-8 byte-order mark,
// white space and comments:
//
//   - an XML declaration ("<?xml ") or any other processing instruction
//     means XML;
//   - a DOCTYPE means HTML if its root element name is "html" in any case
//     (HTML5 and XHTML doctypes alike), and XML otherwise;
//   - a first element named html in any case, or one of the common HTML
//     elements (head, body, div, p, table, ...), means HTML, unless its
//     start tag declares a namespace other than XHTML's; any other first
//     element means XML;
//   - anything else (text first, an empty input) means HTML, which parses
//     anything.
//
// Parse adds three rules. XHTML (an html DOCTYPE or root element, after an
// XML declaration or not) that is not well-formed is parsed as HTML, as a
// browser does with a page served as text/html. So is a document with
// neither an XML declaration (nor any other processing instruction) nor a
// DOCTYPE, whose first element is another HTML element (blockquote, pre,
// td, strong, svg, ...: an element of the HTML standard, current or
// obsolete, in any case) with no namespace but XHTML's, SVG's or MathML's,
// when it is not well-formed: an HTML fragment, which Detect cannot tell
// from XML by its first tag. Malformed XML whose first element is not an
// HTML element (<catalog>), or that declares itself XML, stays a
// *SyntaxError. And both kinds are parsed as HTML, well-formed or not,
// when Options.MediaType says the document was served as text/html.
func Detect(b []byte) Format {
	f, _ := detect(b)
	return f
}

// detect implements Detect and also reports, as fallback, whether a
// document it finds XML is read as HTML if it is not well-formed (or is
// served as text/html): when its DOCTYPE or first element is named html, or
// when, with no processing instruction and no DOCTYPE before it, its first
// element is an HTML element (htmlElement) with no foreign namespace.
func detect(b []byte) (f Format, fallback bool) {
	b = bytes.TrimPrefix(b, bomUTF8)
	f = 0
	for {
		b = bytes.TrimLeft(b, " \t\r\n\f")
		switch {
		case bytes.HasPrefix(b, []byte("<!--")):
			k := bytes.Index(b[4:], []byte("-->"))
			if k < 0 {
				return or(f, HTML), false
			}
			b = b[4+k+3:]
			continue
		case bytes.HasPrefix(b, []byte("<?")):
			f = XML
			k := bytes.Index(b, []byte("?>"))
			if k < 0 {
				return XML, false
			}
			b = b[k+2:]
			continue
		case len(b) >= 9 && strings.EqualFold(string(b[:9]), "<!DOCTYPE"):
			rest := bytes.TrimLeft(b[9:], " \t\r\n\f")
			if strings.EqualFold(leadingName(rest), "html") {
				return or(f, HTML), true
			}
			return XML, false
		case len(b) > 1 && b[0] == '<':
			name := strings.ToLower(leadingName(b[1:]))
			if name == "" || (commonHTML[name] && !foreignNamespace(b)) {
				return or(f, HTML), name == "html"
			}
			// An html root is HTML again if it is not well-formed, and so
			// is an HTML fragment that nothing says is XML.
			fragment := f == 0 && htmlElement(name) && !foreignNamespace(b, svgNamespace, mathMLNamespace)
			return XML, name == "html" || fragment
		}
		return or(f, HTML), false
	}
}

// foreignNamespace reports whether the start tag at the beginning of b
// declares a default namespace other than XHTML's, or than one of also:
// <table xmlns="urn:x"> is XML. Prefixed declarations
// (xmlns:og="http://ogp.me/ns#") are common in HTML pages and say nothing of
// the format.
func foreignNamespace(b []byte, also ...string) bool {
	end := bytes.IndexByte(b, '>')
	if end < 0 {
		end = min(len(b), 4096)
	}
	tag := b[:end]
	for {
		k := bytes.Index(tag, []byte("xmlns"))
		if k < 0 {
			return false
		}
		rest := bytes.TrimLeft(tag[k+len("xmlns"):], " \t\r\n")
		if len(rest) > 0 && rest[0] == '=' {
			if bytes.Contains(rest, []byte(xhtmlNamespace)) {
				return false
			}
			for _, ns := range also {
				if bytes.Contains(rest, []byte(ns)) {
					return false
				}
			}
			return true
		}
		tag = tag[k+len("xmlns"):]
	}
}

// The namespaces of the elements an HTML parser builds.
const (
	xhtmlNamespace  = "http://www.w3.org/1999/xhtml"
	svgNamespace    = "http://www.w3.org/2000/svg"
	mathMLNamespace = "http://www.w3.org/1998/Math/MathML"
)

// htmlElement reports whether name (lower case) is the name of an element
// of HTML: of the HTML standard's index of elements, of its obsolete
// elements that the HTML parser still treats apart (center, font, xmp,
// ...), or svg and math, the roots of the foreign content it reads. It is
// not atom.Lookup alone, which knows attribute names too (name, type,
// content): a malformed XML document with such a root is XML.
func htmlElement(name string) bool {
	a := atom.Lookup([]byte(name))
	return htmlElements[a] && !commonXMLRoot[a]
}

// commonXMLRoot are HTML elements whose names XML documents often give
// their roots (<data>, <menu>, <title>...): a malformed document beginning
// with one is refused as XML, not read as an HTML fragment.
var commonXMLRoot = map[atom.Atom]bool{
	atom.Data: true, atom.Menu: true, atom.Source: true, atom.Title: true, atom.Summary: true,
	atom.Time: true, atom.Image: true, atom.Map: true, atom.Object: true, atom.Param: true,
	atom.Track: true, atom.Slot: true, atom.Search: true, atom.Output: true, atom.Meter: true,
	atom.Label: true, atom.Option: true, atom.Form: true, atom.Link: true, atom.Meta: true,
	atom.Head: true, atom.Body: true, atom.Main: true, atom.Section: true, atom.Header: true,
	atom.Footer: true, atom.Address: true, atom.Template: true,
}

// htmlElements lists the elements htmlElement knows.
var htmlElements = map[atom.Atom]bool{
	// The HTML standard's index of elements.
	atom.A: true, atom.Abbr: true, atom.Address: true, atom.Area: true,
	atom.Article: true, atom.Aside: true, atom.Audio: true, atom.B: true,
	atom.Base: true, atom.Bdi: true, atom.Bdo: true, atom.Blockquote: true,
	atom.Body: true, atom.Br: true, atom.Button: true, atom.Canvas: true,
	atom.Caption: true, atom.Cite: true, atom.Code: true, atom.Col: true,
	atom.Colgroup: true, atom.Data: true, atom.Datalist: true, atom.Dd: true,
	atom.Del: true, atom.Details: true, atom.Dfn: true, atom.Dialog: true,
	atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Em: true,
	atom.Embed: true, atom.Fieldset: true, atom.Figcaption: true,
	atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true,
	atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Head: true, atom.Header: true, atom.Hgroup: true, atom.Hr: true,
	atom.Html: true, atom.I: true, atom.Iframe: true, atom.Img: true,
	atom.Input: true, atom.Ins: true, atom.Kbd: true, atom.Label: true,
	atom.Legend: true, atom.Li: true, atom.Link: true, atom.Main: true,
	atom.Map: true, atom.Mark: true, atom.Menu: true, atom.Meta: true,
	atom.Meter: true, atom.Nav: true, atom.Noscript: true, atom.Object: true,
	atom.Ol: true, atom.Optgroup: true, atom.Option: true, atom.Output: true,
	atom.P: true, atom.Param: true, atom.Picture: true, atom.Pre: true,
	atom.Progress: true, atom.Q: true, atom.Rp: true, atom.Rt: true,
	atom.Ruby: true, atom.S: true, atom.Samp: true, atom.Script: true,
	atom.Search: true, atom.Section: true, atom.Select: true, atom.Slot: true,
	atom.Small: true, atom.Source: true, atom.Span: true, atom.Strong: true,
	atom.Style: true, atom.Sub: true, atom.Summary: true, atom.Sup: true,
	atom.Table: true, atom.Tbody: true, atom.Td: true, atom.Template: true,
	atom.Textarea: true, atom.Tfoot: true, atom.Th: true, atom.Thead: true,
	atom.Time: true, atom.Title: true, atom.Tr: true, atom.Track: true,
	atom.U: true, atom.Ul: true, atom.Var: true, atom.Video: true,
	atom.Wbr: true,
	// Obsolete elements the HTML parser still knows.
	atom.Acronym: true, atom.Applet: true, atom.Basefont: true,
	atom.Bgsound: true, atom.Big: true, atom.Blink: true, atom.Center: true,
	atom.Command: true, atom.Dir: true, atom.Font: true, atom.Frame: true,
	atom.Frameset: true, atom.Image: true, atom.Isindex: true,
	atom.Keygen: true, atom.Listing: true, atom.Marquee: true,
	atom.Menuitem: true, atom.Nobr: true, atom.Noembed: true,
	atom.Noframes: true, atom.Plaintext: true, atom.Rb: true, atom.Rtc: true,
	atom.Strike: true, atom.Tt: true, atom.Xmp: true,
	// The roots of foreign content.
	atom.Svg: true, atom.Math: true,
}

// or returns f if it is set and g otherwise.
func or(f, g Format) Format {
	if f != 0 {
		return f
	}
	return g
}

// leadingName returns the name at the start of b: up to white space, '>',
// '/' or '['.
func leadingName(b []byte) string {
	i := 0
	for i < len(b) && i < 256 {
		c := b[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '>' || c == '/' || c == '[' {
			break
		}
		i++
	}
	return string(b[:i])
}
