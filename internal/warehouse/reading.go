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
//	6: until a body read as its source was one text node, not one a line (splitLines), and one served as text (text/plain, JSON) was read as HTML.
//	7: until a body read as its source in a charset that is not ASCII-compatible (UTF-16 by its label or byte-order mark, ISO-2022-JP) was decoded before the ASCII page around it was written (markup.DecodeNotASCIICompatible).
//	8: until a comment before the root shaped like an XML declaration (<!--?xml ...?-->) in a version read as XML was in its deltas (the tree was the same: the delta left the comment out).
//	9: since.
const treeReading = 9

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
// and show; so is a body served as text that is not markup (text/plain,
// JSON, CSS...: ServedAsText), as a browser shows it, unless it begins
// with "<" or a UTF-16 byte-order mark (looksLikeMarkup). The text of the
// <pre> is one text node a line (runs of lines past maxSourceNodes
// lines: splitLines), so that a change of one line is a change of one
// node. The error is for a body larger than the parsers take
// (markup.ErrTooLarge). A caller that hands Put a delta (Fetch.Delta)
// reads the older version with it, so that the delta fits Document's
// tree.
func ParseBody(body []byte, charset, contentType string) (*tree.Document, error) {
	doc, _, err := ReadBody(body, charset, contentType)
	return doc, err
}

// ReadBody is ParseBody that also tells why a body was read as its source
// (its tree is its source text in a <pre>): readAsText is the parse error
// of a body that did not parse, or for a body served as text that is not
// markup "served as" and its media type (text/plain, application/json),
// nil for a body read as a page. The tree and err are ParseBody's. A caller shows readAsText to say why a
// version's tree is its source text (a crawled page without links, a
// diff of text).
func ReadBody(body []byte, charset, contentType string) (doc *tree.Document, readAsText, err error) {
	if ServedAsText(contentType) && !looksLikeMarkup(body) {
		if doc, err = ReadSource(body, charset); err != nil {
			return nil, nil, err
		}
		return doc, servedAs(contentType), nil
	}
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

// ReadSource reads body as its source text, as ReadBody reads one that
// does not parse (an HTML page whose <pre> holds the text, one text node
// a line), whatever its type: a caller comparing a version read as markup
// with one read as text reads the markup one so too, to compare like with
// like (intent.Pair.OldSource). The error is for a body larger than the
// parsers take (markup.ErrTooLarge), or one that cannot be decoded.
func ReadSource(body []byte, charset string) (*tree.Document, error) {
	if int64(len(body)) > markup.DefaultMaxBytes {
		return nil, fmt.Errorf("markup: input larger than the limit of %d bytes (Options.MaxBytes): %w", markup.DefaultMaxBytes, markup.ErrTooLarge)
	}
	return sourceDocument(body, charset)
}

// ReadAsTextReason is the reason ReadBody's readAsText gives, in words (the
// parse error without the parser's package name, or "served as
// text/plain"), "" for nil: what vigil.Version.ReadAsText holds.
func ReadAsTextReason(readAsText error) string {
	if readAsText == nil {
		return ""
	}
	return strings.TrimPrefix(readAsText.Error(), "markup: ")
}

// ServedAsText reports whether a media type, or a Content-Type value, is
// one of text that is not markup: text by vigil.IsTextMediaType, the rule
// the fetcher keeps bodies by (text/plain, text/css, text/csv, JSON, every
// JavaScript and NDJSON alias...), that is not markup by
// vigil.IsMarkupMediaType (HTML, XML). A body served so is read as its
// source (sourceDocument), as a browser shows it, and not as HTML, which
// would collapse its lines into one text and read "<x>" in it as a tag.
func ServedAsText(mediaType string) bool {
	return vigil.IsTextMediaType(mediaType) && !vigil.IsMarkupMediaType(mediaType)
}

// servedAs is ReadBody's readAsText for a body served as text that is
// read as its source: "served as" and its media type, as the version
// keeps it (vigil.MediaType: lower case, without parameters).
func servedAs(contentType string) error {
	return errors.New(vigil.ReadAsTextServedAs + vigil.MediaType(contentType))
}

// textReason returns the reason (ReadAsTextReason) a fetch's body, whose
// version is v, is read as its source text when that is known without
// parsing it: for a body served as text that is not markup, and for one
// that is not read at all ("": a failed fetch, an empty body, a body of
// another type). known is false for a body that must be parsed to tell.
func textReason(body []byte, v *vigil.Version) (reason string, known bool) {
	switch {
	case !readable(v) || len(body) == 0:
		return "", true
	case ServedAsText(v.ContentType) && !looksLikeMarkup(body):
		return ReadAsTextReason(servedAs(v.ContentType)), true
	}
	return "", false
}

// looksLikeMarkup reports whether a body served as text is markup all
// the same, read as it was before text was read as its source: one that
// begins with "<" after white space and a UTF-8 byte-order mark (an XML
// file or an HTML page served as text/plain, as raw file hosts serve
// them), or with a UTF-16 byte-order mark, which the markup parsers
// decode.
func looksLikeMarkup(body []byte) bool {
	if bytes.HasPrefix(body, []byte{0xFE, 0xFF}) || bytes.HasPrefix(body, []byte{0xFF, 0xFE}) {
		return true
	}
	body = bytes.TrimLeft(bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF")), " \t\r\n\f")
	return len(body) > 0 && body[0] == '<'
}

// sourceDocument is the tree of a body read as its source: an HTML page
// whose body holds a <pre> with the body's text, decoded from charset if
// it names one, else as the HTML parser tells the charset of a page; a
// body that begins with a byte-order mark is in the charset it tells,
// read without the mark, as the markup parsers and browsers read it. A
// body in a charset that is not ASCII-compatible (UTF-16, ISO-2022-JP:
// markup.DecodeNotASCIICompatible) is decoded before it is written into
// the page, which is ASCII. The text is the
// whole body, white space kept, one text node a line (splitLines), so
// that a change of one line is a change of one node.
func sourceDocument(body []byte, charset string) (*tree.Document, error) {
	const head, tail = "<!DOCTYPE html><html><body><pre>\n", "</pre></body></html>"
	if b, ok := bytes.CutPrefix(body, []byte("\xEF\xBB\xBF")); ok {
		// Within the page, the mark would be a character of the text.
		body, charset = b, "utf-8"
	}
	// The page around the body is ASCII: a body in a charset in which it
	// is not (UTF-16, ISO-2022-JP) is decoded first, and the page read as
	// UTF-8.
	if b, ok, err := markup.DecodeNotASCIICompatible(body, charset); err != nil {
		return nil, fmt.Errorf("warehouse: decoding a body read as its source: %w", err)
	} else if ok {
		body, charset = b, "utf-8"
	}
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
	if err != nil {
		return nil, err
	}
	if pre := sourcePre(doc); pre != nil {
		splitLines(pre)
	}
	return doc, nil
}

// sourcePre returns the <pre> of a page sourceDocument wrote, or nil if
// the parse made something else of it.
func sourcePre(doc *tree.Document) *tree.Node {
	if doc.Root == nil || len(doc.Root.Children) != 2 {
		return nil
	}
	body := doc.Root.Children[1]
	if body.Kind != tree.Element || body.Name != "body" || len(body.Children) != 1 {
		return nil
	}
	if pre := body.Children[0]; pre.Kind == tree.Element && pre.Name == "pre" {
		return pre
	}
	return nil
}

// maxSourceNodes bounds the text nodes splitLines makes of one text: a
// log of millions of lines would otherwise be millions of nodes, each
// some hundred bytes and each a node for the tree differ to match.
const maxSourceNodes = 1 << 16

// splitLines replaces the one text node of pre by one text node a line,
// each with the newline that ends it, so that their texts put together
// are the text (and share its memory). A text of more lines than
// maxSourceNodes is cut into runs of lines instead, each ending after a
// line whose hash has its low bits set (a cut of the content, as rsync
// cuts a file), with as many bits as keep the expected number of runs at
// half maxSourceNodes: a line inserted or deleted changes the run it is
// in, not every run after it. Should the cuts still be too many (the
// same line, whose hash happens to cut, repeated), every few are joined.
// The number of bits follows the number of lines: a version whose text
// crosses maxSourceNodes lines, or a power of two above (131 072,
// 262 144, ...), either way, is cut anew, and its diff shows most of the
// text's nodes changed, once (a cut that followed the lines alone could
// not stay bounded).
func splitLines(pre *tree.Node) {
	if len(pre.Children) != 1 || pre.Children[0].Kind != tree.Text {
		return
	}
	text := pre.Children[0].Value
	ends := lineEnds(text)
	if len(ends) <= 1 {
		return
	}
	nodes := make([]tree.Node, len(ends))
	kids := make([]*tree.Node, len(ends))
	start := 0
	for i, end := range ends {
		nodes[i] = tree.Node{Kind: tree.Text, Value: text[start:end], Parent: pre}
		kids[i] = &nodes[i]
		start = end
	}
	pre.Children = kids
}

// lineEnds returns the offsets in text where each of splitLines's nodes
// ends, the last len(text).
func lineEnds(text string) []int {
	lines := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines++
	}
	if lines <= maxSourceNodes {
		ends := make([]int, 0, lines)
		for start := 0; start < len(text); {
			end := len(text)
			if k := strings.IndexByte(text[start:], '\n'); k >= 0 {
				end = start + k + 1
			}
			ends = append(ends, end)
			start = end
		}
		return ends
	}
	// Bits enough to keep the expected runs at most half maxSourceNodes:
	// one more each time the lines pass a power of two from
	// maxSourceNodes on (two at maxSourceNodes + 1 lines).
	mask := uint32(1)
	for lines > maxSourceNodes/2*int(mask+1) {
		mask = mask<<1 | 1
	}
	ends := make([]int, 0, lines/int(mask+1)+1)
	for start := 0; start < len(text); {
		end := len(text)
		if k := strings.IndexByte(text[start:], '\n'); k >= 0 {
			end = start + k + 1
		}
		if end == len(text) || lineHash(text[start:end])&mask == mask {
			ends = append(ends, end)
		}
		start = end
	}
	if len(ends) > maxSourceNodes {
		every := (len(ends) + maxSourceNodes - 1) / maxSourceNodes
		kept := ends[:0]
		for i := every - 1; i < len(ends); i += every {
			kept = append(kept, ends[i])
		}
		if kept[len(kept)-1] != len(text) {
			kept = append(kept, len(text))
		}
		ends = kept
	}
	return ends
}

// lineHash is the 32-bit FNV-1a hash of a line: the same in every
// process, as the cuts of a stored version must be.
func lineHash(line string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(line); i++ {
		h ^= uint32(line[i])
		h *= 16777619
	}
	return h
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
// documents, their DOCTYPEs (and where they stand) and what stands before
// and after the root included, or returns "".
func documentDiff(a, b *tree.Document) string {
	if a.Doctype != b.Doctype {
		return fmt.Sprintf("DOCTYPE %q != %q", a.Doctype, b.Doctype)
	}
	if a.Doctype != "" {
		_, x, _ := a.SplitProlog()
		_, y, _ := b.SplitProlog()
		if len(x) != len(y) {
			return fmt.Sprintf("DOCTYPE after %d prolog nodes != %d", len(x), len(y))
		}
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
