package imagedigest

// GIF blocks (GIF89a, Appendix A) and extension labels.
const (
	gifExtension   = 0x21
	gifImage       = 0x2C
	gifTrailer     = 0x3B
	gifComment     = 0xFE
	gifApplication = 0xFF
)

// gifKeptApplications are the application extensions a GIF's sum keeps,
// by their identifier and authentication code: the loop count of an
// animation (Netscape's, and AnimExts' for the same), which a browser
// plays, and an ICC profile, which a viewer may apply to the colours.
// Others (XMP, ImageMagick's 8BIM and IPTC profiles, an editor's own
// data) are read by their application alone.
var gifKeptApplications = map[string]bool{"NETSCAPE2.0": true, "ANIMEXTS1.0": true, "ICCRGBG1012": true}

// gif writes the normal form of GIF file b: its header, logical screen
// descriptor and global colour table, each image (its descriptor, local
// colour table and code size, then its data's sub-blocks as one record,
// concatenated) and each extension but comments and the application
// extensions gifKeptApplications does not name. What follows the
// trailer is left out.
func (d *digest) gif(b []byte) error {
	if len(b) < 13 {
		return formatError(GIF, len(b), "expected a header and logical screen descriptor of 13 bytes, found %d", len(b))
	}
	at := 13 + colorTable(b[10])
	if at > len(b) {
		return formatError(GIF, 13, "the global colour table runs past the end of the file")
	}
	d.record("GIF", b[:at])
	for {
		if at >= len(b) {
			return formatError(GIF, at, "expected a block, found the end of the file (no trailer)")
		}
		switch b[at] {
		case gifTrailer:
			d.record("trailer")
			return nil
		case gifExtension:
			if at+2 > len(b) {
				return formatError(GIF, at, "expected an extension's label, found the end of the file")
			}
			end, _, err := subBlocks(b, at+2)
			if err != nil {
				return err
			}
			if keepExtension(b[at+1], b[at+2:end]) {
				d.record("extension", b[at+1:end])
			}
			at = end
		case gifImage:
			if at+10 > len(b) {
				return formatError(GIF, at, "expected an image descriptor of 10 bytes, found %d", len(b)-at)
			}
			head := at + 10 + colorTable(b[at+9]) + 1 // and the LZW code size
			if head > len(b) {
				return formatError(GIF, at+10, "the image's local colour table and code size run past the end of the file")
			}
			d.record("image", b[at:head])
			end, n, err := subBlocks(b, head)
			if err != nil {
				return err
			}
			d.head("data", n)
			for i := head; b[i] != 0; i += 1 + int(b[i]) {
				d.h.Write(b[i+1 : i+1+int(b[i])])
			}
			at = end
		default:
			return formatError(GIF, at, "expected an extension (0x21), an image (0x2C) or the trailer (0x3B), found 0x%02X", b[at])
		}
	}
}

// colorTable returns the size in bytes of the colour table a logical
// screen or image descriptor's packed field declares: none, or 3×2^(N+1).
func colorTable(packed byte) int {
	if packed&0x80 == 0 {
		return 0
	}
	return 3 << (packed&7 + 1)
}

// subBlocks reads the data sub-blocks that begin at offset at of b, up
// to their terminator, and returns the offset after it and the length of
// their data.
func subBlocks(b []byte, at int) (end, n int, err error) {
	for i := at; ; {
		if i >= len(b) {
			return 0, 0, formatError(GIF, at, "the data sub-blocks that begin here do not end: no block terminator")
		}
		size := int(b[i])
		if size == 0 {
			return i + 1, n, nil
		}
		if i+1+size > len(b) {
			return 0, 0, formatError(GIF, i, "a data sub-block of %d bytes runs past the end of the file", size)
		}
		n += size
		i += 1 + size
	}
}

// keepExtension reports whether an extension of label, whose sub-blocks
// are blocks, is kept: all but comments and the application extensions
// gifKeptApplications does not name.
func keepExtension(label byte, blocks []byte) bool {
	switch label {
	case gifComment:
		return false
	case gifApplication:
		id := blocks[1:min(len(blocks), 1+int(blocks[0]), 12)]
		return gifKeptApplications[string(id)]
	}
	return true
}
