package imagedigest

import (
	"bytes"
	"encoding/binary"
)

// tagOrientation is the Exif tag of the image's orientation (TIFF 6.0
// tag 274, in the 0th IFD): which way the viewer turns or flips the
// pixels to show them.
const tagOrientation = 0x0112

// typeShort is the TIFF field type of a 16-bit unsigned integer.
const typeShort = 3

// orientation returns the Orientation tag of the Exif data tiff (a TIFF
// header and its 0th IFD, as PNG's eXIf chunk, a JPEG's APP1 segment
// after "Exif\0\0" and WebP's EXIF chunk hold it), 1 if there is none;
// base is tiff's offset in the file of format f, for the errors. Only
// the 0th IFD is read, and only its entries' tags: no value is followed
// to where it is stored.
func orientation(tiff []byte, base int, f string) (uint16, error) {
	if len(tiff) < 8 {
		return 0, formatError(f, base, "Exif data of %d bytes: expected a TIFF header of 8", len(tiff))
	}
	var order binary.ByteOrder
	switch string(tiff[:2]) {
	case "II":
		order = binary.LittleEndian
	case "MM":
		order = binary.BigEndian
	default:
		return 0, formatError(f, base, "Exif data: expected the byte order II or MM, found %q", tiff[:2])
	}
	if m := order.Uint16(tiff[2:]); m != 42 {
		return 0, formatError(f, base+2, "Exif data: expected the TIFF magic number 42, found %d", m)
	}
	ifd := order.Uint32(tiff[4:])
	if ifd < 8 || uint64(ifd)+2 > uint64(len(tiff)) {
		return 0, formatError(f, base+4, "Exif data: the 0th IFD's offset %d is outside its %d bytes", ifd, len(tiff))
	}
	n := int(order.Uint16(tiff[ifd:]))
	entries := int(ifd) + 2
	if entries+12*n > len(tiff) {
		return 0, formatError(f, base+int(ifd), "Exif data: the 0th IFD's %d entries run past its %d bytes", n, len(tiff))
	}
	for i := range n {
		e := tiff[entries+12*i:]
		if order.Uint16(e) != tagOrientation {
			continue
		}
		if typ, count := order.Uint16(e[2:]), order.Uint32(e[4:]); typ != typeShort || count != 1 {
			return 0, formatError(f, base+entries+12*i, "Exif Orientation of type %d and count %d: expected one SHORT (type 3)", typ, count)
		}
		return order.Uint16(e[8:]), nil
	}
	return 1, nil
}

// orientationRecord writes the record of an Exif Orientation, unless it
// is 1, the default, which a file without one shows as well.
func (d *digest) orientationRecord(o uint16) {
	if o != 1 {
		d.record("Orientation", binary.BigEndian.AppendUint16(nil, o))
	}
}

// tiffData returns the TIFF header and IFDs of an Exif chunk's data (PNG's
// eXIf, WebP's EXIF), and their offset in it: the data, or what follows
// JPEG's "Exif\0\0" where a writer put it first, as some do.
func tiffData(data []byte) ([]byte, int) {
	if len(data) >= 6 && bytes.HasPrefix(data, []byte(exifID)) {
		return data[6:], 6
	}
	return data, 0
}
