package imagedigest

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// JPEG markers (ITU-T T.81 Table B.1) Sum treats apart.
const (
	markerSOI  = 0xD8
	markerEOI  = 0xD9
	markerSOS  = 0xDA
	markerRST0 = 0xD0
	markerRST7 = 0xD7
	markerTEM  = 0x01
	markerAPP1 = 0xE1
	markerAPPD = 0xED // APP13: Photoshop's image resources, IPTC among them
	markerCOM  = 0xFE
)

// The identifiers an APP1 segment's data begins with.
const (
	exifID        = "Exif\x00" // then a pad byte, 0 as a rule
	xmpID         = "http://ns.adobe.com/xap/1.0/\x00"
	xmpExtensorID = "http://ns.adobe.com/xmp/extension/\x00"
)

// jpeg writes the normal form of JPEG file b: each marker segment up to
// EOI, with each scan's entropy-coded data, but comments (COM), XMP
// (APP1) and Photoshop's resources (APP13), and of Exif (APP1) the
// Orientation alone. What follows EOI is left out.
func (d *digest) jpeg(b []byte) error {
	d.record("JPEG")
	at := 2 // after SOI
	for {
		if at >= len(b) {
			return formatError(JPEG, at, "expected a marker, found the end of the file (no EOI)")
		}
		if b[at] != 0xFF {
			return formatError(JPEG, at, "expected a marker (0xFF), found 0x%02X", b[at])
		}
		start := at
		for at < len(b) && b[at] == 0xFF { // fill bytes
			at++
		}
		if at >= len(b) {
			return formatError(JPEG, start, "expected a marker, found the end of the file (no EOI)")
		}
		m := b[at]
		at++
		name := fmt.Sprintf("FF%02X", m)
		switch {
		case m == markerEOI:
			d.record(name)
			return nil
		case m == 0x00 || m == markerSOI:
			return formatError(JPEG, start, "expected a marker, found 0xFF%02X", m)
		case m == markerTEM || markerRST0 <= m && m <= markerRST7:
			d.record(name) // no length, no data
			continue
		}
		if len(b)-at < 2 {
			return formatError(JPEG, at, "segment %s: expected its length, found the end of the file", name)
		}
		n := int(binary.BigEndian.Uint16(b[at:]))
		if n < 2 || at+n > len(b) {
			return formatError(JPEG, at, "segment %s of length %d runs past the end of the file at byte %d", name, n, len(b))
		}
		data := b[at+2 : at+n]
		dataAt := at + 2
		at += n
		switch {
		case m == markerCOM || m == markerAPPD:
		case m == markerAPP1 && len(data) >= 6 && string(data[:5]) == exifID:
			o, err := orientation(data[6:], dataAt+6, JPEG)
			if err != nil {
				return err
			}
			d.orientationRecord(o)
		case m == markerAPP1 && (bytes.HasPrefix(data, []byte(xmpID)) || bytes.HasPrefix(data, []byte(xmpExtensorID))):
		case m == markerSOS:
			d.record(name, data)
			end, err := scanEnd(b, at)
			if err != nil {
				return err
			}
			d.record("scan", b[at:end])
			at = end
		default:
			d.record(name, data)
		}
	}
}

// scanEnd returns the offset of the marker that ends the entropy-coded
// data beginning at offset at of b: the first 0xFF followed by neither 0
// (a stuffed byte), a restart marker, nor another 0xFF (a fill byte).
func scanEnd(b []byte, at int) (int, error) {
	for i := at; ; {
		k := bytes.IndexByte(b[i:], 0xFF)
		if k < 0 || i+k+1 >= len(b) {
			return 0, formatError(JPEG, at, "the scan's data that begins here does not end: no marker after it")
		}
		i += k
		switch m := b[i+1]; {
		case m == 0x00 || markerRST0 <= m && m <= markerRST7:
			i += 2
		case m == 0xFF:
			// A fill byte, or the first of a marker's.
			j := i + 1
			for j < len(b) && b[j] == 0xFF {
				j++
			}
			if j < len(b) && (b[j] == 0x00 || markerRST0 <= b[j] && b[j] <= markerRST7) {
				i = j + 1
				continue
			}
			return i, nil
		default:
			return i, nil
		}
	}
}
