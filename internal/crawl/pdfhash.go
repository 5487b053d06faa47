package crawl

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
)

// pdfInflateCap bounds the bytes inflated from a PDF's object and
// metadata streams, all of them together: above it a stream is hashed
// compressed. A crawl's body is at most 20 MiB (the fetcher's cap).
const pdfInflateCap = 64 << 20

// pdfHeaderWindow is how far into a file the %PDF- header may come
// (readers accept a few bytes of junk before it).
const pdfHeaderWindow = 1024

// digestBinary returns the Hash of a binary document's body (a page the
// fetcher does not return as text: vigil.FetchRequest.DigestBinary): of a
// PDF, by its media type or its %PDF- magic, its hash without what a
// generator changes at every run (hashPDF); of another document, or a PDF
// that does not parse, the hash of its bytes.
func digestBinary(mediaType string, body []byte) string {
	if mediaType == "application/pdf" || bytes.HasPrefix(body, []byte("%PDF-")) {
		if sum, ok := hashPDF(body, pdfInflateCap); ok {
			return "sha256:" + hex.EncodeToString(sum[:])
		}
	}
	return hashBody(body)
}

// hashPDF returns the SHA-256 of PDF b without what a generator changes at
// every run, inflating at most inflateCap bytes; false if b does not parse
// as a PDF. A PDF generated per request (an invoice, a report, a page
// printed to PDF) is written anew at every check: same pages, new dates.
// So that a site crawl does not report it changed each time, the hash
// leaves out:
//
//   - the values of /CreationDate and /ModDate, in any dictionary: the
//     Info dictionary's, and an embedded file's parameters; and of /M
//     where it is a date string, (D:...): an annotation's, a signature's;
//   - the tag of a font subset's name (ABCDEF in /ABCDEF+Helvetica),
//     which some generators draw at random;
//   - the trailer's /ID array, the file's identifier, new at every run
//     (and, in a cross-reference stream's dictionary, which stands for the
//     trailer, too);
//   - XMP metadata packets (<?xpacket begin ... <?xpacket end ...?>, and
//     <x:xmpmeta ... </x:xmpmeta> outside one) in any stream: they repeat
//     the dates and identifiers, and also the title, author and
//     keywords, which the Info dictionary holds too, except in a PDF 2.0
//     file that keeps them in XMP alone: there a new title is no change;
//   - what moves when those change length: the cross-reference table (its
//     offsets), the startxref value, the contents of cross-reference
//     streams (/Type /XRef), the offsets a trailer or a cross-reference
//     stream names (/Prev, /XRefStm) and the widths of the latter's fields
//     (/W), each stream's /Length (its bytes are hashed, and so their
//     length), an object stream's offsets (/First, and the offsets of its
//     header: the object numbers are kept), and a linearized file's
//     offsets and length (/L, /H, /E, /T) and its hint stream.
//
// Everything else is hashed: each object's number, every token of its
// value (white space and comments between tokens aside), each stream's
// bytes. A compressed object stream (/Type /ObjStm, /Filter /FlateDecode,
// where the Info dictionary sits in files of PDF 1.5 and later) and a
// compressed metadata stream are inflated, under pdfInflateCap bytes over
// the file, and their objects and packets read as the file's are; one
// that does not inflate, or past the cap, is hashed as its bytes. A file
// that does not parse this way (an unterminated string or dictionary, a
// stream without endstream, no %PDF- header) is hashed as its bytes:
// never an error that loses the page, but each run a change. So is, in
// effect, an encrypted file (/Encrypt): its strings and streams are
// hashed as read, encrypted under a key drawn from its /ID and, with AES,
// vectors drawn at random, new at every run.
//
// It is written by hand: the standard library reads no PDF, a service
// such as the crawl imports no other module (CONTRIBUTING's layers), and
// of the PDF modules Vigil could take (pdfcpu, go-pdfium, fpdf, pdfsign)
// none hashes a PDF normalised: pdfcpu, which reads one, would be an
// adapter's dependency, its whole reader for what a scan of the syntax
// does. It reads the file's syntax
// (pdfsyntax.go), not its cross-reference table: it goes through the
// objects in the order they are written, so a file whose table is wrong,
// as many are, hashes as well as one whose table is right.
func hashPDF(b []byte, inflateCap int) ([sha256.Size]byte, bool) {
	var sum [sha256.Size]byte
	if i := bytes.Index(b[:min(len(b), pdfHeaderWindow)], []byte("%PDF-")); i < 0 {
		return sum, false
	}
	h := sha256.New()
	n := &pdfNormalizer{w: bufio.NewWriterSize(h, 32<<10), budget: inflateCap, hint: -1}
	if err := n.file(b); err != nil {
		return sum, false
	}
	if err := n.w.Flush(); err != nil {
		return sum, false // a hash's Write does not fail
	}
	h.Sum(sum[:0])
	return sum, true
}

// pdfNormalizer writes the normal form of a PDF: its tokens, a space after
// each, the values left out written as "*".
type pdfNormalizer struct {
	w      *bufio.Writer
	budget int // bytes left to inflate
	hint   int // offset of a linearized file's hint stream, or -1
}

// Keys whose values are left out, by the dictionary that holds them.
var (
	pdfDateKeys      = map[string]bool{"CreationDate": true, "ModDate": true}
	pdfTrailerKeys   = map[string]bool{"CreationDate": true, "ModDate": true, "ID": true, "Prev": true, "XRefStm": true}
	pdfStreamKeys    = map[string]bool{"CreationDate": true, "ModDate": true, "Length": true, "DL": true}
	pdfXRefKeys      = map[string]bool{"CreationDate": true, "ModDate": true, "Length": true, "DL": true, "ID": true, "Prev": true, "XRefStm": true, "W": true}
	pdfObjStmKeys    = map[string]bool{"CreationDate": true, "ModDate": true, "Length": true, "DL": true, "First": true}
	pdfLinearizeKeys = map[string]bool{"CreationDate": true, "ModDate": true, "L": true, "H": true, "E": true, "T": true}
)

// file writes the normal form of the file b.
func (n *pdfNormalizer) file(b []byte) error {
	l := &pdfLexer{b: b}
	for {
		l.values = 0
		t, err := l.next()
		if err != nil {
			return err
		}
		switch {
		case t.kind == pdfEOF:
			return nil
		case t.kind == pdfStray || t.kind == pdfDictClose || t.kind == pdfArrayClose:
			// Junk between objects, written as it is.
			n.token(l.text(t))
			continue
		case l.is(t, "xref"):
			// The table: subsection headers and entries, numbers and f
			// or n, up to the trailer.
			n.token([]byte("xref"))
			for {
				save := l.pos
				e, err := l.next()
				if _, num := l.integer(e); err != nil || !num && !l.is(e, "f") && !l.is(e, "n") {
					l.pos = save
					break
				}
			}
			continue
		case l.is(t, "startxref"):
			n.token([]byte("startxref"))
			save := l.pos
			if e, err := l.next(); err != nil || !isInt(l, e) {
				l.pos = save
			}
			continue
		case l.is(t, "trailer"):
			d, err := l.next()
			if err != nil {
				return err
			}
			v, err := l.value(d, 0)
			if err != nil {
				return err
			}
			n.token([]byte("trailer"))
			n.value(v, pdfTrailerKeys)
			continue
		}
		if num, ok := l.integer(t); ok {
			save := l.pos
			g, err1 := l.next()
			o, err2 := l.next()
			if gen, ok := l.integer(g); ok && err1 == nil && err2 == nil && l.is(o, "obj") {
				if err := n.object(l, t.start, num, gen); err != nil {
					return err
				}
				continue
			}
			l.pos = save
		}
		v, err := l.value(t, 0)
		if err != nil {
			return err
		}
		n.value(v, pdfDateKeys)
	}
}

func isInt(l *pdfLexer, t pdfToken) bool {
	_, ok := l.integer(t)
	return ok
}

// object writes indirect object num gen, whose "N G obj" began at offset
// at, up to its endobj.
func (n *pdfNormalizer) object(l *pdfLexer, at, num, gen int) error {
	t, err := l.next()
	if err != nil {
		return err
	}
	v, err := l.value(t, 0)
	if err != nil {
		return err
	}
	n.token(strconv.AppendInt(nil, int64(num), 10), strconv.AppendInt(nil, int64(gen), 10), []byte("obj"))
	save := l.pos
	t, err = l.next()
	if err != nil {
		return err
	}
	if !l.is(t, "stream") {
		l.pos = save
		keys := pdfDateKeys
		if _, ok := v.get("Linearized"); ok {
			keys = pdfLinearizeKeys
			if h, ok := v.get("H"); ok && h.kind == pdfArray && len(h.items) > 0 {
				if off, ok := h.items[0].integer(); ok {
					n.hint = off
				}
			}
		}
		n.value(v, keys)
	} else {
		if v.kind != pdfDict {
			return fmt.Errorf("%w: a stream at byte %d without a dictionary", errPDFSyntax, t.start)
		}
		data, err := streamData(l, v, t.end)
		if err != nil {
			return err
		}
		n.stream(v, data, at == n.hint)
	}
	save = l.pos
	if t, err := l.next(); err != nil || !l.is(t, "endobj") {
		l.pos = save // a missing endobj is forgiven, as readers do
	}
	n.token([]byte("endobj"))
	return nil
}

// streamData returns the bytes of the stream whose keyword stream ends at
// offset at, with dictionary d, and moves l past its endstream: /Length
// bytes if endstream follows them, else (a wrong length, or a reference,
// as Ghostscript writes it) up to the first endstream followed by endobj,
// or without one the first endstream, as readers do. Not the first
// endstream alone: data that holds the word, uncompressed, would be cut
// there, and its rest read as objects, without its comments and white
// space.
func streamData(l *pdfLexer, d pdfValue, at int) ([]byte, error) {
	b := l.b
	switch {
	case bytes.HasPrefix(b[at:], []byte("\r\n")):
		at += 2
	case at < len(b) && (b[at] == '\n' || b[at] == '\r'):
		at++
	}
	if length, ok := d.get("Length"); ok {
		if n, ok := length.integer(); ok && n <= len(b)-at {
			// A few bytes of white space before endstream, not a
			// scan of the file's.
			k := at + n
			for k < len(b) && k < at+n+16 && pdfSpace(b[k]) {
				k++
			}
			if bytes.HasPrefix(b[k:], []byte("endstream")) {
				l.pos = k + len("endstream")
				return b[at : at+n], nil
			}
		}
	}
	i := bytes.Index(b[at:], []byte("endstream"))
	if i < 0 {
		return nil, fmt.Errorf("%w: a stream at byte %d without endstream", errPDFSyntax, at)
	}
	if j := endstreamEndobj(l, at+i); j >= 0 {
		i = j - at
	}
	l.pos = at + i + len("endstream")
	data := b[at : at+i]
	if bytes.HasSuffix(data, []byte("\r\n")) {
		return data[:len(data)-2], nil
	}
	return bytes.TrimSuffix(bytes.TrimSuffix(data, []byte("\n")), []byte("\r")), nil
}

// endstreamEndobj returns the offset of the first endstream from offset
// from that endobj follows, white space between them, or -1. Where there
// is none, it notes so in l (noStreamEnd): the streams are read in the
// file's order, so that a file of many streams without one is scanned
// once, not once a stream.
func endstreamEndobj(l *pdfLexer, from int) int {
	if l.noStreamEnd > 0 && from >= l.noStreamEnd {
		return -1
	}
	b, start := l.b, from
	for {
		i := bytes.Index(b[from:], []byte("endstream"))
		if i < 0 {
			l.noStreamEnd = start
			return -1
		}
		k := from + i + len("endstream")
		for k < len(b) && pdfSpace(b[k]) {
			k++
		}
		if bytes.HasPrefix(b[k:], []byte("endobj")) {
			return from + i
		}
		from += i + len("endstream")
	}
}

// stream writes a stream: its dictionary, and its bytes, but for those
// left out (a cross-reference stream's, a hint stream's) and those read
// (an object stream's objects, a metadata stream's packet masked).
func (n *pdfNormalizer) stream(d pdfValue, data []byte, hint bool) {
	typ, _ := d.get("Type")
	switch {
	case typ.nameIs("XRef"):
		n.value(d, pdfXRefKeys)
		n.token([]byte("stream"), []byte("*"))
		return
	case hint:
		n.value(d, pdfStreamKeys)
		n.token([]byte("stream"), []byte("*"))
		return
	case typ.nameIs("ObjStm"):
		if objects, ok := n.objectStream(d, data); ok {
			n.value(d, pdfObjStmKeys)
			n.token([]byte("objects"))
			n.w.Write(objects)
			return
		}
	case typ.nameIs("Metadata"):
		if plain, ok := n.inflate(d, data); ok {
			data = plain
		}
	}
	n.value(d, pdfStreamKeys)
	data = maskXMP(data)
	n.token([]byte("stream"), strconv.AppendInt(nil, int64(len(data)), 10))
	n.w.Write(data)
	n.w.WriteByte(' ')
}

// objectStream returns the normal form of an object stream's objects:
// each one's number and value; false if it does not inflate or parse.
func (n *pdfNormalizer) objectStream(d pdfValue, data []byte) ([]byte, bool) {
	plain, ok := n.inflate(d, data)
	if !ok {
		return nil, false
	}
	nv, _ := d.get("N")
	fv, _ := d.get("First")
	count, ok1 := nv.integer()
	first, ok2 := fv.integer()
	if !ok1 || !ok2 || first > len(plain) {
		return nil, false
	}
	var out bytes.Buffer
	sub := &pdfNormalizer{w: bufio.NewWriter(&out), hint: -1}
	header := &pdfLexer{b: plain[:first]}
	next := first
	for range count {
		nt, err1 := header.next()
		ot, err2 := header.next()
		num, ok1 := header.integer(nt)
		off, ok2 := header.integer(ot)
		// Each object after the one before, so that the stream is
		// read once, not once an object.
		if err1 != nil || err2 != nil || !ok1 || !ok2 || off > len(plain)-first || first+off < next {
			return nil, false
		}
		objects := &pdfLexer{b: plain, pos: first + off}
		t, err := objects.next()
		if err != nil {
			return nil, false
		}
		v, err := objects.value(t, 0)
		if err != nil {
			return nil, false
		}
		next = objects.pos
		sub.token(strconv.AppendInt(nil, int64(num), 10))
		sub.value(v, pdfDateKeys)
	}
	if sub.w.Flush() != nil {
		return nil, false
	}
	return out.Bytes(), true
}

// inflate returns a stream's bytes inflated, if its only filter is
// FlateDecode without parameters and they inflate within the budget left,
// which they take from.
func (n *pdfNormalizer) inflate(d pdfValue, data []byte) ([]byte, bool) {
	filter, _ := d.get("Filter")
	if filter.kind == pdfArray && len(filter.items) == 1 {
		filter = filter.items[0]
	}
	if _, parms := d.get("DecodeParms"); !filter.nameIs("FlateDecode") || parms || n.budget <= 0 {
		return nil, false
	}
	zr, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, false
	}
	plain, err := io.ReadAll(io.LimitReader(zr, int64(n.budget)+1))
	n.budget -= len(plain)
	if err != nil || n.budget < 0 {
		return nil, false
	}
	return plain, true
}

// value writes v, the values of the keys of a dictionary v in leave
// written as "*"; in a dictionary within it, the dates'.
func (n *pdfNormalizer) value(v pdfValue, leave map[string]bool) {
	switch v.kind {
	case pdfScalar:
		n.token(withoutSubsetTag(v.raw))
	case pdfRef:
		n.token(v.raw)
	case pdfArray:
		n.token([]byte("["))
		for _, it := range v.items {
			n.value(it, pdfDateKeys)
		}
		n.token([]byte("]"))
	case pdfDict:
		n.token([]byte("<<"))
		for i := 0; i+1 < len(v.items); i += 2 {
			n.token(v.items[i].raw)
			key := pdfNameText(v.items[i].raw)
			if leave[key] || key == "M" && isPDFDate(v.items[i+1]) {
				n.token([]byte("*"))
				continue
			}
			n.value(v.items[i+1], pdfDateKeys)
		}
		n.token([]byte(">>"))
	}
}

// isPDFDate reports whether v is a date string, (D:...): the value of an
// annotation's or a signature's /M, which a generator sets at every run
// as it does the Info dictionary's dates. Another value of a key /M is
// hashed.
func isPDFDate(v pdfValue) bool {
	return v.kind == pdfScalar && bytes.HasPrefix(v.raw, []byte("(D:"))
}

// withoutSubsetTag returns a name of a font subset, /ABCDEF+Helvetica,
// without its tag, six capital letters, as /*+Helvetica; other tokens as
// they are. Some generators (iText, OpenPDF, and so JasperReports) draw
// the tag at random at every run; the subset's glyphs are in its font
// program, a stream, hashed.
func withoutSubsetTag(raw []byte) []byte {
	if len(raw) < 9 || raw[0] != '/' || raw[7] != '+' {
		return raw
	}
	for _, c := range raw[1:7] {
		if c < 'A' || c > 'Z' {
			return raw
		}
	}
	return append([]byte("/*"), raw[7:]...)
}

// token writes tokens, a space after each.
func (n *pdfNormalizer) token(toks ...[]byte) {
	for _, t := range toks {
		n.w.Write(t)
		n.w.WriteByte(' ')
	}
}

// XMP packets' bounds.
var (
	xpacketBegin = []byte("<?xpacket begin")
	xpacketEnd   = []byte("<?xpacket end")
	xmpmetaBegin = []byte("<x:xmpmeta")
	xmpmetaEnd   = []byte("</x:xmpmeta>")
)

// maskXMP returns data with each XMP packet in it replaced by "<?xpacket?>",
// and each x:xmpmeta element outside one by "<x:xmpmeta/>". A packet
// without its end is kept.
func maskXMP(data []byte) []byte {
	data = maskBetween(data, xpacketBegin, xpacketEnd, []byte("?>"), []byte("<?xpacket?>"))
	return maskBetween(data, xmpmetaBegin, xmpmetaEnd, nil, []byte("<x:xmpmeta/>"))
}

// maskBetween replaces with mark each run of data from begin to end and,
// if close is not nil, to the first close after end.
func maskBetween(data, begin, end, close, mark []byte) []byte {
	if !bytes.Contains(data, begin) {
		return data
	}
	var out []byte
	for {
		i := bytes.Index(data, begin)
		if i < 0 {
			break
		}
		j := bytes.Index(data[i:], end)
		if j < 0 {
			break
		}
		stop := i + j + len(end)
		if close != nil {
			k := bytes.Index(data[stop:], close)
			if k < 0 {
				break
			}
			stop += k + len(close)
		}
		out = append(append(out, data[:i]...), mark...)
		data = data[stop:]
	}
	return append(out, data...)
}
