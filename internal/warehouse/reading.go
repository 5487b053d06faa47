package warehouse

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// treeReading numbers the ways this package has read stored bodies into
// trees: ParseBody and the markup parsers under it. A stored tree delta
// holds the number it was built under (see stampTreeDelta); one built
// under another is checked against both versions as read now before it is
// used. Bump it with any change that reads some body into another tree,
// so that deltas stored before the change are not trusted:
// TestTreeReading fails until the number and its golden file agree.
//
//	1: until XHTML served as text/html was read as HTML (markup.Options.MediaType).
//	2: until HTML text kept the white space between inline content ("Alpha <b>x</b> beta").
//	3: until a fragment beginning with an HTML element (<strong>, <td>...) served as text/html was read as HTML.
//	4: until a body that does not parse (nested past the HTML parser's limit, XML that is not well-formed) was read as its source (sourceDocument).
//	5: until XHTML read as XML kept the white space of its pre, textarea, script and style as HTML does.
//	6: since.
const treeReading = 6

// treeStampPrefix starts the stamp of a stored tree delta; the reading
// number and a newline follow. A compressed delta never starts with a NUL.
const treeStampPrefix = "\x00vigil tree reading "

// ParseBody reads a version's body into the tree the warehouse keeps of
// it: the one tree of the body that the monitor compares, and that
// Document, Diff and every view of a diff show. The body is parsed by
// content (markup.Parse), but an html document served as text/html as
// HTML (see markup.Options.MediaType), and in charset, unless empty,
// whatever the document declares. A body that does not parse (nested
// past the HTML parser's limit, XML served as XML that is not
// well-formed, a charset no one knows) is read as its source, the text of
// a <pre> (sourceDocument), so that every version has a tree to compare
// and show. The error is for a body larger than the parsers take
// (markup.ErrTooLarge). A caller that hands Put a delta (Fetch.Delta)
// reads the older version with it, so that the delta fits Document's
// tree.
func ParseBody(body []byte, charset, contentType string) (*tree.Document, error) {
	doc, _, err := ReadBody(body, charset, contentType)
	return doc, err
}

// ReadBody is ParseBody that also tells why a body was read as its source:
// readAsText is the parse error of a body that did not parse (and whose
// tree is its source text in a <pre>), nil for a body that parsed. The
// tree and err are ParseBody's. A caller shows readAsText to say why a
// version's tree is its source text (a crawled page without links, a
// diff of text).
func ReadBody(body []byte, charset, contentType string) (doc *tree.Document, readAsText, err error) {
	doc, _, err = markup.ParseBytes(body, &markup.Options{Charset: charset, MediaType: contentType})
	if err == nil || errors.Is(err, markup.ErrTooLarge) {
		return doc, nil, err
	}
	src, serr := sourceDocument(body, charset)
	if serr != nil {
		return nil, nil, fmt.Errorf("%w (nor can it be read as text: %v)", err, serr)
	}
	return src, err, nil
}

// ReadAsTextReason is the reason ReadBody's readAsText gives, in words (the
// parse error without the parser's package name), "" for nil: what
// vigil.Version.ReadAsText holds.
func ReadAsTextReason(readAsText error) string {
	if readAsText == nil {
		return ""
	}
	return strings.TrimPrefix(readAsText.Error(), "markup: ")
}

// sourceDocument is the tree of a body read as its source: an HTML page
// whose body holds a <pre> with the body's text, decoded from charset if
// it names one, else as the HTML parser tells the charset of a page. The
// text is the whole body, white space kept.
func sourceDocument(body []byte, charset string) (*tree.Document, error) {
	const head, tail = "<!DOCTYPE html><html><body><pre>\n", "</pre></body></html>"
	// The page is written once, into a buffer of its exact size: a body of
	// hundreds of megabytes is not copied to a string, escaped into
	// another and copied again into a buffer grown by doubling. The parse
	// still allocates some three times the page (the HTML tokenizer grows
	// its buffer by doubling to hold the one text token).
	n := len(head) + len(body) + len(tail)
	for _, c := range body {
		if e := htmlEscapes[c]; e != "" {
			n += len(e) - 1
		}
	}
	page := make([]byte, 0, n)
	page = append(page, head...) // the parser drops a newline right after <pre>: the body's own first line stays
	for len(body) > 0 {
		i := bytes.IndexAny(body, `<>&'"`)
		if i < 0 {
			page = append(page, body...)
			break
		}
		page = append(page, body[:i]...)
		page = append(page, htmlEscapes[body[i]]...)
		body = body[i+1:]
	}
	page = append(page, tail...)
	// The body passed the size check; its escaped text may be longer.
	opt := &markup.Options{Charset: charset, MaxBytes: max(int64(len(page)), markup.DefaultMaxBytes)}
	doc, err := markup.ParseHTMLBytes(page, opt)
	if err != nil && charset != "" {
		opt.Charset = "" // a charset no one knows: as the parser tells
		doc, err = markup.ParseHTMLBytes(page, opt)
	}
	return doc, err
}

// htmlEscapes holds what html.EscapeString writes for each byte it
// escapes.
var htmlEscapes = [256]string{'<': "&lt;", '>': "&gt;", '&': "&amp;", '\'': "&#39;", '"': "&#34;"}

// parse is ParseBody for a stored version.
func parse(body []byte, v *vigil.Version) (*tree.Document, error) {
	return ParseBody(body, v.Charset, v.ContentType)
}

// stampTreeDelta prefixes a stored tree delta with the current reading.
func stampTreeDelta(compressed []byte) []byte {
	stamp := treeStampPrefix + strconv.Itoa(treeReading) + "\n"
	return append([]byte(stamp), compressed...)
}

// unstampTreeDelta returns a stored tree delta without its stamp and the
// reading it was built under: 1 for a delta stored before stamps were.
func unstampTreeDelta(stored []byte) ([]byte, int) {
	rest, ok := bytes.CutPrefix(stored, []byte(treeStampPrefix))
	if !ok {
		return stored, 1
	}
	num, rest, ok := bytes.Cut(rest, []byte("\n"))
	n, err := strconv.Atoi(string(num))
	if !ok || err != nil {
		return stored, 0 // not a reading anyone wrote: never trusted
	}
	return rest, n
}

// checkStoredDelta reports, as an error, whether d, a stored delta built
// under an earlier reading, leads from the older version's tree as read now
// to the newer one's: applying and reading the newer body costs less than
// a diff, and a delta that merely applies may still insert what was read
// otherwise then (an escaped script, a CDATA section).
func checkStoredDelta(older []byte, a *vigil.Version, newer []byte, b *vigil.Version, d *delta.Delta) error {
	from, err := parse(older, a)
	if err != nil {
		return err
	}
	from.AssignXIDs()
	got, err := delta.Apply(from, d)
	if err != nil {
		return err
	}
	want, err := parse(newer, b)
	if err != nil {
		return err
	}
	if diff := documentDiff(got, want); diff != "" {
		return fmt.Errorf("the delta does not lead to version %d as read now: %s", b.ID, diff)
	}
	return nil
}

// documentDiff describes the first difference in content between two
// documents, their DOCTYPEs and what stands before and after the root
// included, or returns "".
func documentDiff(a, b *tree.Document) string {
	if a.Doctype != b.Doctype {
		return fmt.Sprintf("DOCTYPE %q != %q", a.Doctype, b.Doctype)
	}
	for _, part := range []struct {
		name string
		x, y []*tree.Node
	}{{"prolog", a.Prolog, b.Prolog}, {"epilog", a.Epilog, b.Epilog}} {
		if len(part.x) != len(part.y) {
			return fmt.Sprintf("%s of %d nodes != %d", part.name, len(part.x), len(part.y))
		}
		for k := range part.x {
			if diff := tree.Diff(part.x[k], part.y[k], tree.Content); diff != "" {
				return part.name + ": " + diff
			}
		}
	}
	return tree.Diff(a.Root, b.Root, tree.Content)
}
