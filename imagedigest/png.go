package imagedigest

import (
	"encoding/binary"
	"hash/crc32"
)

// pngSignature is the 8 bytes a PNG file begins with (ISO/IEC 15948 §5.2).
const pngSignature = "\x89PNG\r\n\x1a\n"

// pngLeftOut are the chunks a PNG's sum leaves out: its last
// modification time and its text (titles, comments, the software, the
// dates ImageMagick writes as date:create and date:modify, XMP packets in
// iTXt). eXIf is read apart: its Orientation alone is kept.
var pngLeftOut = map[string]bool{"tIME": true, "tEXt": true, "zTXt": true, "iTXt": true}

// pngChunk is a chunk of a PNG file: its type, its data, and where its
// length field is in the file.
type pngChunk struct {
	typ  string
	data []byte
	at   int
	next int // the offset of the next chunk
}

// pngChunkAt reads the chunk at offset at of b: its length, type, data
// and CRC, which it checks.
func pngChunkAt(b []byte, at int) (pngChunk, error) {
	if len(b)-at < 12 {
		return pngChunk{}, formatError(PNG, at, "expected a chunk of 12 bytes at least, found %d bytes to the end of the file (no IEND)", len(b)-at)
	}
	n := binary.BigEndian.Uint32(b[at:])
	typ := b[at+4 : at+8]
	for _, c := range typ {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return pngChunk{}, formatError(PNG, at+4, "expected a chunk type of 4 ASCII letters, found %q", typ)
		}
	}
	if n > 1<<31-1 || uint64(n) > uint64(len(b)-at-12) {
		return pngChunk{}, formatError(PNG, at, "chunk %s of %d bytes runs past the end of the file", typ, n)
	}
	data := b[at+8 : at+8+int(n)]
	crc := crc32.Update(crc32.ChecksumIEEE(typ), crc32.IEEETable, data)
	if want := binary.BigEndian.Uint32(b[at+8+int(n):]); crc != want {
		return pngChunk{}, formatError(PNG, at+8+int(n), "chunk %s: expected the CRC of its type and data, %08x, found %08x", typ, crc, want)
	}
	return pngChunk{typ: string(typ), data: data, at: at, next: at + 12 + int(n)}, nil
}

// png writes the normal form of PNG file b: its signature and each chunk
// up to IEND but those pngLeftOut names, a run of IDAT chunks as one
// record of their data, and of eXIf the Orientation alone. What follows
// IEND is left out.
func (d *digest) png(b []byte) error {
	d.record("PNG", b[:len(pngSignature)])
	first := true
	for at := len(pngSignature); ; {
		c, err := pngChunkAt(b, at)
		if err != nil {
			return err
		}
		if first && (c.typ != "IHDR" || len(c.data) != 13) {
			return formatError(PNG, at, "expected IHDR of 13 bytes first, found %s of %d", c.typ, len(c.data))
		}
		first = false
		switch {
		case c.typ == "IEND":
			d.record("IEND")
			return nil
		case c.typ == "IDAT":
			next, err := d.pngIDAT(b, c)
			if err != nil {
				return err
			}
			at = next
			continue
		case c.typ == "eXIf":
			tiff, skip := tiffData(c.data)
			o, err := orientation(tiff, at+8+skip, PNG)
			if err != nil {
				return err
			}
			d.orientationRecord(o)
		case !pngLeftOut[c.typ]:
			d.record(c.typ, c.data)
		}
		at = c.next
	}
}

// pngIDAT writes the run of IDAT chunks that begins with c as one record
// of their data, concatenated, so that an encoder that splits the same
// zlib stream elsewhere writes the same record; it returns the offset of
// the chunk after the run.
func (d *digest) pngIDAT(b []byte, c pngChunk) (int, error) {
	n, end := 0, c.at
	for {
		next, err := pngChunkAt(b, end)
		if err != nil {
			return 0, err
		}
		if next.typ != "IDAT" {
			break
		}
		n += len(next.data)
		end = next.next
	}
	d.head("IDAT", n)
	for at := c.at; at < end; {
		k := int(binary.BigEndian.Uint32(b[at:])) // read and checked above
		d.h.Write(b[at+8 : at+8+k])
		at += 12 + k
	}
	return end, nil
}
