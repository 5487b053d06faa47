package imagedigest

import "encoding/binary"

// VP8X flags (the WebP container's extended header) that say metadata
// follows: Exif and XMP. A sum leaves them out with the chunks.
const (
	vp8xExif = 0x08
	vp8xXMP  = 0x04
)

// webp writes the normal form of WebP file b (RIFF, RFC 9649): each
// chunk of the RIFF form, its FourCC and data, but XMP, and of EXIF the
// Orientation alone; VP8X without its Exif and XMP flags. The RIFF
// size, which moves with the metadata's, is left out, and so is what
// follows the RIFF form.
func (d *digest) webp(b []byte) error {
	d.record("WEBP")
	size := binary.LittleEndian.Uint32(b[4:])
	if uint64(size) > uint64(len(b)-8) {
		return formatError(WebP, 4, "the RIFF size %d runs past the end of the file at byte %d", size, len(b))
	}
	if size < 4 {
		return formatError(WebP, 4, "the RIFF size %d is less than the 4 bytes of its form type WEBP", size)
	}
	end := 8 + int(size)
	if end == 12 {
		return formatError(WebP, 12, "expected a chunk, found the end of the RIFF form")
	}
	for at := 12; at < end; {
		if end-at < 8 {
			return formatError(WebP, at, "expected a chunk header of 8 bytes, found %d to the end of the RIFF form", end-at)
		}
		fourCC := string(b[at : at+4])
		n := binary.LittleEndian.Uint32(b[at+4:])
		if uint64(n) > uint64(end-at-8) {
			return formatError(WebP, at+4, "chunk %q of %d bytes runs past the end of the RIFF form at byte %d", fourCC, n, end)
		}
		data := b[at+8 : at+8+int(n)]
		switch fourCC {
		case "XMP ":
		case "EXIF":
			tiff, skip := tiffData(data)
			o, err := orientation(tiff, at+8+skip, WebP)
			if err != nil {
				return err
			}
			d.orientationRecord(o)
		case "VP8X":
			if len(data) < 10 {
				return formatError(WebP, at, "chunk VP8X of %d bytes: expected 10", n)
			}
			d.record(fourCC, []byte{data[0] &^ (vp8xExif | vp8xXMP)}, data[1:])
		default:
			d.record(fourCC, data)
		}
		at += 8 + int(n) + int(n&1) // and the pad byte of an odd size
	}
	return nil
}
