package imagedigest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

// This file makes the test images: real ones, of Go's encoders, with the
// metadata a generator adds at each run (a date, its software) written
// in as those generators write it.

// run is what one run of an image generator writes: the image and the
// metadata of that run.
type run struct {
	changed     bool   // one pixel of the image changed
	orientation uint16 // Exif Orientation; 0: no Exif
	date        string // "2024:01:01 12:00:00", the run's time
	software    string // the generator's name and version, of any length
}

// firstRun and secondRun are two runs of a generator on the same image:
// their dates and software differ, the latter in length, so that every
// offset after them moves.
var (
	firstRun  = run{orientation: 1, date: "2024:01:01 12:00:00", software: "chartgen 1.0"}
	secondRun = run{orientation: 1, date: "2025:11:30 09:30:15", software: "chartgen 1.0.1 (build 42)"}
)

// picture returns the 16×8 image of a chart, with one pixel changed if
// asked.
func picture(changed bool) *image.Paletted {
	img := image.NewPaletted(image.Rect(0, 0, 16, 8), palette.Plan9)
	for y := range 8 {
		for x := range 16 {
			c := color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
			if y >= 8-x/2 {
				c = color.RGBA{0x20, 0x60, 0xC0, 0xFF}
			}
			img.Set(x, y, c)
		}
	}
	if changed {
		img.Set(3, 2, color.RGBA{0xC0, 0x20, 0x20, 0xFF})
	}
	return img
}

// exifTIFF returns Exif data, a TIFF header and 0th IFD of big-endian
// byte order, with the orientation (none if 0), software and date r says.
func exifTIFF(r run) []byte {
	type entry struct {
		tag, typ uint16
		count    uint32
		value    []byte // of 4 bytes or fewer, inline; else stored after the IFD
	}
	ascii := func(s string) []byte { return append([]byte(s), 0) }
	var entries []entry
	if r.orientation != 0 {
		entries = append(entries, entry{tagOrientation, typeShort, 1, binary.BigEndian.AppendUint16(nil, r.orientation)})
	}
	entries = append(entries,
		entry{0x0131, 2, uint32(len(r.software) + 1), ascii(r.software)}, // Software
		entry{0x0132, 2, 20, ascii(r.date)},                              // DateTime
	)
	b := []byte("MM\x00\x2a\x00\x00\x00\x08")
	b = binary.BigEndian.AppendUint16(b, uint16(len(entries)))
	stored := 8 + 2 + 12*len(entries) + 4
	var values []byte
	for _, e := range entries {
		b = binary.BigEndian.AppendUint16(b, e.tag)
		b = binary.BigEndian.AppendUint16(b, e.typ)
		b = binary.BigEndian.AppendUint32(b, e.count)
		if len(e.value) <= 4 {
			b = append(b, e.value...)
			b = append(b, make([]byte, 4-len(e.value))...)
			continue
		}
		b = binary.BigEndian.AppendUint32(b, uint32(stored+len(values)))
		values = append(values, e.value...)
	}
	b = append(b, 0, 0, 0, 0) // no 1st IFD
	return append(b, values...)
}

// xmpPacket returns the XMP packet r's generator writes.
func xmpPacket(r run) []byte {
	return []byte(`<?xpacket begin="` + "\ufeff" + `" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">` +
		`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/"` +
		` xmp:CreateDate="` + r.date + `" xmp:CreatorTool="` + r.software + `"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`)
}

// chunk is a PNG chunk, or a WebP one: its type (FourCC) and data.
type chunk struct {
	typ  string
	data []byte
}

// pngChunks returns the chunks of PNG file b, which must be well formed.
func pngChunks(t testing.TB, b []byte) []chunk {
	t.Helper()
	var out []chunk
	for at := 8; at < len(b); {
		n := int(binary.BigEndian.Uint32(b[at:]))
		out = append(out, chunk{string(b[at+4 : at+8]), b[at+8 : at+8+n]})
		at += 12 + n
	}
	return out
}

// pngFile writes a PNG file of chunks, each with its CRC.
func pngFile(chunks []chunk) []byte {
	b := []byte(pngSignature)
	for _, c := range chunks {
		b = binary.BigEndian.AppendUint32(b, uint32(len(c.data)))
		b = append(b, c.typ...)
		b = append(b, c.data...)
		b = binary.BigEndian.AppendUint32(b, crc32.Update(crc32.ChecksumIEEE([]byte(c.typ)), crc32.IEEETable, c.data))
	}
	return b
}

// pngRun returns the PNG r writes: image/png's file with, after IHDR,
// a tIME chunk, tEXt, zTXt and iTXt chunks of its date, software and
// XMP as ImageMagick writes them, and, if r has an orientation, an eXIf
// chunk; its IDAT data split in chunks of idat bytes (0: as image/png
// writes it).
func pngRun(t testing.TB, r run, idat int) []byte {
	t.Helper()
	var enc bytes.Buffer
	if err := png.Encode(&enc, picture(r.changed)); err != nil {
		t.Fatal(err)
	}
	chunks := pngChunks(t, enc.Bytes())
	var year, month, day, hour, minute, second int
	if _, err := fmt.Sscanf(r.date, "%d:%d:%d %d:%d:%d", &year, &month, &day, &hour, &minute, &second); err != nil {
		t.Fatal(err)
	}
	tIME := append(binary.BigEndian.AppendUint16(nil, uint16(year)), byte(month), byte(day), byte(hour), byte(minute), byte(second))
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write([]byte("made by " + r.software + " at " + r.date))
	zw.Close()
	meta := []chunk{
		{"tIME", tIME},
		{"tEXt", []byte("date:create\x00" + r.date)},
		{"tEXt", []byte("Software\x00" + r.software)},
		{"zTXt", append([]byte("Comment\x00\x00"), z.Bytes()...)},
		{"iTXt", append([]byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"), xmpPacket(r)...)},
	}
	if r.orientation != 0 {
		meta = append(meta, chunk{"eXIf", exifTIFF(r)})
	}
	out := append([]chunk{chunks[0]}, meta...)
	var data []byte
	for _, c := range chunks[1:] {
		switch {
		case c.typ == "IDAT" && idat > 0:
			data = append(data, c.data...)
		case c.typ == "IEND" && idat > 0:
			for len(data) > idat {
				out = append(out, chunk{"IDAT", data[:idat]})
				data = data[idat:]
			}
			out = append(out, chunk{"IDAT", data}, c)
		default:
			out = append(out, c)
		}
	}
	return pngFile(out)
}

// jpegSegment returns a JPEG marker segment of marker m and data.
func jpegSegment(m byte, data []byte) []byte {
	return append(binary.BigEndian.AppendUint16([]byte{0xFF, m}, uint16(len(data)+2)), data...)
}

// jpegRun returns the JPEG r writes: image/jpeg's file with, after
// SOI, the APP1 Exif segment of its date, software and orientation (if
// any), its XMP in another APP1, an APP13 of Photoshop's resources (an
// IPTC date) and a comment (COM).
func jpegRun(t testing.TB, r run) []byte {
	t.Helper()
	var enc bytes.Buffer
	if err := jpeg.Encode(&enc, picture(r.changed), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	b := enc.Bytes()
	out := append([]byte(nil), b[:2]...)
	if r.orientation != 0 {
		out = append(out, jpegSegment(markerAPP1, append([]byte("Exif\x00\x00"), exifTIFF(r)...))...)
	}
	out = append(out, jpegSegment(markerAPP1, append([]byte(xmpID), xmpPacket(r)...))...)
	iptc := append([]byte("Photoshop 3.0\x008BIM\x04\x04\x00\x00"), binary.BigEndian.AppendUint32(nil, uint32(len(r.date)+5))...)
	iptc = append(append(iptc, 0x1C, 0x02, 0x37, 0x00, byte(len(r.date))), r.date...)
	out = append(out, jpegSegment(markerAPPD, iptc)...)
	out = append(out, jpegSegment(markerCOM, []byte("Generated by "+r.software+" on "+r.date))...)
	return append(out, b[2:]...)
}

// gifRun returns the GIF r writes: image/gif's animation of two frames
// (the picture, then it changed or not) looping loop times (0: forever),
// with a comment extension of its date and an XMP application extension,
// as ImageMagick writes them, after the global colour table; its image
// data re-blocked in sub-blocks of block bytes (0: image/gif's 255).
func gifRun(t testing.TB, r run, loop, block int) []byte {
	t.Helper()
	var enc bytes.Buffer
	anim := &gif.GIF{
		Image:     []*image.Paletted{picture(false), picture(r.changed)},
		Delay:     []int{50, 50},
		LoopCount: loop,
	}
	if err := gif.EncodeAll(&enc, anim); err != nil {
		t.Fatal(err)
	}
	b := enc.Bytes()
	head := 13 + colorTable(b[10])
	out := append([]byte(nil), b[:head]...)
	out = append(out, gifExtension, gifComment)
	out = appendSubBlocks(out, []byte("Generated by "+r.software+" on "+r.date), 255)
	out = append(out, gifExtension, gifApplication, 11)
	out = append(out, "XMP DataXMP"...)
	out = appendSubBlocks(out, xmpPacket(r), 255)
	rest := b[head:]
	if block == 0 {
		return append(out, rest...)
	}
	for at := 0; at < len(rest); {
		switch rest[at] {
		case gifExtension:
			end, _, err := subBlocks(rest, at+2)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, rest[at:end]...)
			at = end
		case gifImage:
			h := at + 10 + colorTable(rest[at+9]) + 1
			end, _, err := subBlocks(rest, h)
			if err != nil {
				t.Fatal(err)
			}
			var data []byte
			for i := h; rest[i] != 0; i += 1 + int(rest[i]) {
				data = append(data, rest[i+1:i+1+int(rest[i])]...)
			}
			out = appendSubBlocks(append(out, rest[at:h]...), data, block)
			at = end
		default:
			return append(out, rest[at:]...)
		}
	}
	return out
}

// appendSubBlocks appends data as GIF sub-blocks of size bytes at most,
// and the block terminator.
func appendSubBlocks(b, data []byte, size int) []byte {
	for len(data) > 0 {
		n := min(len(data), size)
		b = append(append(b, byte(n)), data[:n]...)
		data = data[n:]
	}
	return append(b, 0)
}

// vp8l returns a lossless WebP bitstream (RFC 9649 §3) of a w×h image of
// one colour: no transform, no colour cache, and five prefix codes of
// one symbol each (simple codes), so that each pixel takes no bits.
func vp8l(w, h int, c color.RGBA) []byte {
	var bits uint64
	n := 0
	put := func(v uint64, k int) { bits |= v << n; n += k }
	put(uint64(w-1), 14)
	put(uint64(h-1), 14)
	put(0, 1) // alpha_is_used
	put(0, 3) // version
	put(0, 1) // no transform
	put(0, 1) // no colour cache
	put(0, 1) // no meta prefix codes
	for _, sym := range []byte{c.G, c.R, c.B, c.A, 0} {
		put(1, 1) // simple code
		put(0, 1) // one symbol
		put(1, 1) // of 8 bits
		put(uint64(sym), 8)
	}
	b := []byte{0x2F}
	for i := 0; i < n; i += 8 {
		b = append(b, byte(bits>>i))
	}
	return b
}

// webpFile writes a WebP file of chunks, each padded to an even size.
func webpFile(chunks []chunk) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WEBP")
	for _, c := range chunks {
		b = append(b, c.typ...)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(c.data)))
		b = append(b, c.data...)
		if len(c.data)%2 == 1 {
			b = append(b, 0)
		}
	}
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

// webpRun returns the extended WebP r writes: VP8X, its one-colour
// lossless image (another colour if changed), and, with meta, an EXIF
// chunk (of its orientation, if any, date and software) and an XMP one,
// flagged in VP8X.
func webpRun(r run, meta bool) []byte {
	c := color.RGBA{0x20, 0x60, 0xC0, 0xFF}
	if r.changed {
		c.R = 0xC0
	}
	vp8x := []byte{0, 0, 0, 0, 15, 0, 0, 7, 0, 0} // a 16×8 canvas
	chunks := []chunk{{"VP8X", vp8x}, {"VP8L", vp8l(16, 8, c)}}
	if meta {
		vp8x[0] |= vp8xExif | vp8xXMP
		chunks = append(chunks, chunk{"EXIF", exifTIFF(r)}, chunk{"XMP ", xmpPacket(r)})
	}
	return webpFile(chunks)
}

// TestTestImages: the test images, with their metadata and their data
// split or re-blocked, are images Go's decoders read, of the picture
// they were made of: the sums are of real files.
func TestTestImages(t *testing.T) {
	for _, r := range []run{firstRun, secondRun, with(secondRun, func(r *run) { r.changed, r.orientation = true, 6 })} {
		var want image.Image = picture(r.changed)
		same := func(name string, got image.Image) {
			t.Helper()
			if got.Bounds() != want.Bounds() {
				t.Fatalf("%s: bounds %v, want %v", name, got.Bounds(), want.Bounds())
			}
			for y := range 8 {
				for x := range 16 {
					r1, g1, b1, _ := got.At(x, y).RGBA()
					r2, g2, b2, _ := want.At(x, y).RGBA()
					if r1 != r2 || g1 != g2 || b1 != b2 {
						t.Fatalf("%s: pixel (%d, %d) is %v, want %v", name, x, y, got.At(x, y), want.At(x, y))
					}
				}
			}
		}
		for _, idat := range []int{0, 7} {
			img, err := png.Decode(bytes.NewReader(pngRun(t, r, idat)))
			if err != nil {
				t.Fatalf("png, IDAT of %d: %v", idat, err)
			}
			same("png", img)
		}
		// JPEG is lossy: the file decodes as image/jpeg's without the
		// metadata does.
		var plain bytes.Buffer
		if err := jpeg.Encode(&plain, picture(r.changed), &jpeg.Options{Quality: 90}); err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(bytes.NewReader(jpegRun(t, r)))
		if err != nil {
			t.Fatalf("jpeg: %v", err)
		}
		pictureWant := want
		if want, err = jpeg.Decode(&plain); err != nil {
			t.Fatal(err)
		}
		same("jpeg", img)
		want = pictureWant
		for _, block := range []int{0, 100} {
			anim, err := gif.DecodeAll(bytes.NewReader(gifRun(t, r, 0, block)))
			if err != nil {
				t.Fatalf("gif, blocks of %d: %v", block, err)
			}
			if len(anim.Image) != 2 {
				t.Fatalf("gif: %d frames, want 2", len(anim.Image))
			}
			same("gif", anim.Image[1])
		}
	}
}
