package pdfdigest

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
)

// normalizer writes the normal form of a PDF: its tokens, a space after
// each, the values left out written as "*".
type normalizer struct {
	w          *bufio.Writer
	budget     int // bytes left to inflate
	inflateCap int // the budget at first, for a message
	hint       int // offset of a linearized file's hint stream, or -1
	// undecoded says which object and metadata streams were hashed as
	// their bytes, and why (Result.Undecoded).
	undecoded []string
	// undecodedMore counts those past MaxUndecoded.
	undecodedMore int
	// crypt decrypts an encrypted file's strings and streams; nil for a
	// file in the clear.
	crypt *decrypter
}

// Keys whose values are left out, by the dictionary that holds them.
var (
	dateKeys      = map[string]bool{"CreationDate": true, "ModDate": true}
	trailerKeys   = map[string]bool{"CreationDate": true, "ModDate": true, "ID": true, "Prev": true, "XRefStm": true}
	streamKeys    = map[string]bool{"CreationDate": true, "ModDate": true, "Length": true, "DL": true}
	xrefKeys      = map[string]bool{"CreationDate": true, "ModDate": true, "Length": true, "DL": true, "ID": true, "Prev": true, "XRefStm": true, "W": true}
	objStmKeys    = map[string]bool{"CreationDate": true, "ModDate": true, "Length": true, "DL": true, "First": true}
	linearizeKeys = map[string]bool{"CreationDate": true, "ModDate": true, "L": true, "H": true, "E": true, "T": true}
)

// file writes the normal form of the file b.
func (n *normalizer) file(b []byte) error {
	l := &lexer{b: b}
	for {
		l.values = 0
		t, err := l.next()
		if err != nil {
			return err
		}
		switch {
		case t.kind == tokenEOF:
			return nil
		case t.kind == tokenStray || t.kind == tokenDictClose || t.kind == tokenArrayClose:
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
			n.value(v, trailerKeys)
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
		n.value(v, dateKeys)
	}
}

func isInt(l *lexer, t token) bool {
	_, ok := l.integer(t)
	return ok
}

// object writes indirect object num gen, whose "N G obj" began at offset
// at, up to its endobj.
func (n *normalizer) object(l *lexer, at, num, gen int) error {
	t, err := l.next()
	if err != nil {
		return err
	}
	v, err := l.value(t, 0)
	if err != nil {
		return err
	}
	n.token(strconv.AppendInt(nil, int64(num), 10), strconv.AppendInt(nil, int64(gen), 10), []byte("obj"))
	encryptDict := n.crypt != nil && num == n.crypt.num && gen == n.crypt.gen
	if typ, _ := v.get("Type"); n.crypt != nil && !encryptDict && !typ.nameIs("XRef") {
		// A cross-reference stream's dictionary, as the trailer, is
		// in the clear.
		var ok bool
		if v, ok = n.crypt.decryptStrings(v, num, gen); !ok {
			n.noteUndecoded("object %d %d: a string that does not decrypt", num, gen)
		}
	}
	save := l.pos
	t, err = l.next()
	if err != nil {
		return err
	}
	if !l.is(t, "stream") {
		l.pos = save
		keys := dateKeys
		if encryptDict {
			keys = encryptKeys
		}
		if _, ok := v.get("Linearized"); ok {
			keys = linearizeKeys
			if h, ok := v.get("H"); ok && h.kind == arrayValue && len(h.items) > 0 {
				if off, ok := h.items[0].integer(); ok {
					n.hint = off
				}
			}
		}
		n.value(v, keys)
	} else {
		if v.kind != dictValue {
			return syntaxError(t.start, "expected a dictionary before stream")
		}
		data, err := streamData(l, v, t.end)
		if err != nil {
			return err
		}
		n.stream(v, data, num, gen, at == n.hint)
	}
	save = l.pos
	if t, err := l.next(); err != nil || !l.is(t, "endobj") {
		l.pos = save // a missing endobj is forgiven, as readers do
	}
	n.token([]byte("endobj"))
	return nil
}

// stream writes a stream: its dictionary, and its bytes, but for those
// left out (a cross-reference stream's, a hint stream's) and those read
// (an object stream's objects, a metadata stream's packet masked).
func (n *normalizer) stream(d value, data []byte, num, gen int, hint bool) {
	typ, _ := d.get("Type")
	if n.crypt != nil && !typ.nameIs("XRef") && (n.crypt.metadata || !typ.nameIs("Metadata")) && !ownCryptFilter(d) {
		plain, ok := n.crypt.decrypt(n.crypt.stm, num, gen, data)
		if ok {
			data = plain
		} else {
			n.noteUndecoded("stream %d %d: does not decrypt", num, gen)
		}
	}
	switch {
	case typ.nameIs("XRef"):
		n.value(d, xrefKeys)
		n.token([]byte("stream"), []byte("*"))
		return
	case hint:
		n.value(d, streamKeys)
		n.token([]byte("stream"), []byte("*"))
		return
	case typ.nameIs("ObjStm"):
		objects, why := n.objectStream(d, data)
		if why == "" {
			n.value(d, objStmKeys)
			n.token([]byte("objects"))
			n.w.Write(objects)
			return
		}
		n.noteUndecoded("object stream %d %d: %s", num, gen, why)
	case typ.nameIs("Metadata"):
		if _, filtered := d.get("Filter"); filtered {
			plain, why := n.decode(d, data)
			if why != "" {
				n.noteUndecoded("metadata stream %d %d: %s", num, gen, why)
			} else {
				data = plain
			}
		}
	}
	n.value(d, streamKeys)
	data = maskXMP(data)
	n.token([]byte("stream"), strconv.AppendInt(nil, int64(len(data)), 10))
	n.w.Write(data)
	n.w.WriteByte(' ')
}

// objectStream returns the normal form of an object stream's objects:
// each one's number and value; or why not, if it does not decode or
// parse.
func (n *normalizer) objectStream(d value, data []byte) ([]byte, string) {
	const unparsed = "its objects do not parse"
	plain, why := n.decode(d, data)
	if why != "" {
		return nil, why
	}
	nv, _ := d.get("N")
	fv, _ := d.get("First")
	count, ok1 := nv.integer()
	first, ok2 := fv.integer()
	if !ok1 || !ok2 || first > len(plain) {
		return nil, unparsed
	}
	var out bytes.Buffer
	sub := &normalizer{w: bufio.NewWriter(&out), hint: -1}
	header := &lexer{b: plain[:first]}
	next := first
	for range count {
		nt, err1 := header.next()
		ot, err2 := header.next()
		num, ok1 := header.integer(nt)
		off, ok2 := header.integer(ot)
		// Each object after the one before, so that the stream is
		// read once, not once an object.
		if err1 != nil || err2 != nil || !ok1 || !ok2 || off > len(plain)-first || first+off < next {
			return nil, unparsed
		}
		objects := &lexer{b: plain, pos: first + off}
		t, err := objects.next()
		if err != nil {
			return nil, unparsed
		}
		v, err := objects.value(t, 0)
		if err != nil {
			return nil, unparsed
		}
		next = objects.pos
		sub.token(strconv.AppendInt(nil, int64(num), 10))
		sub.value(v, dateKeys)
	}
	if sub.w.Flush() != nil {
		return nil, unparsed
	}
	return out.Bytes(), ""
}

// value writes v, the values of the keys of a dictionary v in leave
// written as "*"; in a dictionary within it, the dates'.
func (n *normalizer) value(v value, leave map[string]bool) {
	switch v.kind {
	case scalarValue:
		n.token(withoutSubsetTag(v.raw))
	case refValue:
		num, gen := v.refTokens()
		n.token(num, gen, []byte("R"))
	case arrayValue:
		n.token([]byte("["))
		for _, it := range v.items {
			n.value(it, dateKeys)
		}
		n.token([]byte("]"))
	case dictValue:
		n.token([]byte("<<"))
		for i := 0; i+1 < len(v.items); i += 2 {
			n.token(v.items[i].raw)
			key := nameText(v.items[i].raw)
			if leave[key] || key == "M" && isDate(v.items[i+1]) {
				n.token([]byte("*"))
				continue
			}
			if key == "Encrypt" && v.items[i+1].kind == dictValue {
				// The trailer's, direct.
				n.value(v.items[i+1], encryptKeys)
				continue
			}
			n.value(v.items[i+1], dateKeys)
		}
		n.token([]byte(">>"))
	}
}

// isDate reports whether v is a date string, (D:...): the value of an
// annotation's or a signature's /M, which a generator sets at every run
// as it does the Info dictionary's dates. Another value of a key /M is
// hashed.
func isDate(v value) bool {
	return v.kind == scalarValue && bytes.HasPrefix(v.raw, []byte("(D:"))
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
func (n *normalizer) token(toks ...[]byte) {
	for _, t := range toks {
		n.w.Write(t)
		n.w.WriteByte(' ')
	}
}

// noteUndecoded notes a stream or object hashed as its bytes, and why
// (Result.Undecoded): the first MaxUndecoded named, the others counted.
func (n *normalizer) noteUndecoded(format string, args ...any) {
	if len(n.undecoded) == MaxUndecoded {
		n.undecodedMore++
		return
	}
	n.undecoded = append(n.undecoded, fmt.Sprintf(format, args...))
}
