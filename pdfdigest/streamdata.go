package pdfdigest

import "bytes"

// streamData returns the bytes of the stream whose keyword stream ends at
// offset at, with dictionary d, and moves l past its endstream: /Length
// bytes if endstream follows them, else (a wrong length, or a reference,
// as Ghostscript writes it) up to the first endstream followed by endobj,
// or without one the first endstream, as readers do. Not the first
// endstream alone: data that holds the word, uncompressed, would be cut
// there, and its rest read as objects, without its comments and white
// space.
func streamData(l *lexer, d value, at int) ([]byte, error) {
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
			for k < len(b) && k < at+n+16 && isSpace(b[k]) {
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
		return nil, syntaxError(at, "a stream's data that does not end: expected endstream")
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
func endstreamEndobj(l *lexer, from int) int {
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
		for k < len(b) && isSpace(b[k]) {
			k++
		}
		if bytes.HasPrefix(b[k:], []byte("endobj")) {
			return from + i
		}
		from += i + len("endstream")
	}
}
