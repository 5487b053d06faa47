package imagedigest

import (
	"bytes"
	"image/color"
	"testing"
)

// TestSumKept: what changes how the pixels are shown, and which Sum
// keeps (package doc, "What is kept"), is a change: two files of the
// same generator's run that differ in it alone hash otherwise. A PNG's
// transparency, palette, gamma and colour profile; a JPEG's ICC profile
// (APP2) and Adobe colour transform (APP14); a GIF's ICC profile; a
// WebP's ICC profile.
func TestSumKept(t *testing.T) {
	png := pngRun(t, firstRun, 0)
	// withPNG returns png with the chunks edit makes of its own.
	withPNG := func(edit func([]chunk) []chunk) []byte {
		cs := pngChunks(t, png)
		cp := make([]chunk, len(cs))
		for i, c := range cs {
			cp[i] = chunk{c.typ, append([]byte(nil), c.data...)}
		}
		return pngFile(edit(cp))
	}
	// afterIHDR inserts c after IHDR.
	afterIHDR := func(c chunk) func([]chunk) []chunk {
		return func(cs []chunk) []chunk { return append([]chunk{cs[0], c}, cs[1:]...) }
	}
	// before inserts c before the first chunk of type typ.
	before := func(typ string, c chunk) func([]chunk) []chunk {
		return func(cs []chunk) []chunk {
			for i := range cs {
				if cs[i].typ == typ {
					return append(cs[:i:i], append([]chunk{c}, cs[i:]...)...)
				}
			}
			t.Fatalf("no %s chunk", typ)
			return nil
		}
	}
	paletteEdited := func(cs []chunk) []chunk {
		for _, c := range cs {
			if c.typ == "PLTE" {
				c.data[0] ^= 0xFF
				return cs
			}
		}
		t.Fatal("no PLTE chunk")
		return nil
	}

	jpg := jpegRun(t, firstRun)
	// withSegment returns jpg with segment inserted after SOI.
	withSegment := func(segment []byte) []byte {
		return append(append(append([]byte(nil), jpg[:2]...), segment...), jpg[2:]...)
	}
	icc := func(b byte) []byte { return append([]byte("ICC_PROFILE\x00\x01\x01"), bytes.Repeat([]byte{b}, 64)...) }
	adobe := func(transform byte) []byte { return []byte{'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, transform} }

	gf := gifRun(t, firstRun, 0, 0)
	// withGIFExtension returns gf with an application extension of id
	// and data after its global colour table.
	withGIFExtension := func(id string, data []byte) []byte {
		head := 13 + colorTable(gf[10])
		out := append([]byte(nil), gf[:head]...)
		out = append(append(out, gifExtension, gifApplication, 11), id...)
		out = appendSubBlocks(out, data, 255)
		return append(out, gf[head:]...)
	}

	webp := func(profile []byte) []byte {
		vp8x := []byte{0x20, 0, 0, 0, 15, 0, 0, 7, 0, 0} // ICC flagged, a 16×8 canvas
		return webpFile([]chunk{{"VP8X", vp8x}, {"ICCP", profile}, {"VP8L", vp8l(16, 8, color.RGBA{0x20, 0x60, 0xC0, 0xFF})}})
	}

	for _, tc := range []struct {
		name string
		a, b []byte
	}{
		{"png tRNS", withPNG(before("IDAT", chunk{"tRNS", []byte{0}})), withPNG(before("IDAT", chunk{"tRNS", []byte{0x80}}))},
		{"png tRNS or none", png, withPNG(before("IDAT", chunk{"tRNS", []byte{0}}))},
		{"png PLTE", png, withPNG(paletteEdited)},
		{"png gAMA", withPNG(afterIHDR(chunk{"gAMA", []byte{0, 0, 0xB1, 0x8F}})), withPNG(afterIHDR(chunk{"gAMA", []byte{0, 1, 0x86, 0xA0}}))},
		{"png iCCP", withPNG(afterIHDR(chunk{"iCCP", []byte("icc\x00\x00x1")})), withPNG(afterIHDR(chunk{"iCCP", []byte("icc\x00\x00x2")}))},
		{"jpeg ICC profile", withSegment(jpegSegment(0xE2, icc(1))), withSegment(jpegSegment(0xE2, icc(2)))},
		{"jpeg Adobe transform", withSegment(jpegSegment(0xEE, adobe(0))), withSegment(jpegSegment(0xEE, adobe(1)))},
		{"gif ICC profile", withGIFExtension("ICCRGBG1012", icc(1)), withGIFExtension("ICCRGBG1012", icc(2))},
		{"gif ICC profile or none", gf, withGIFExtension("ICCRGBG1012", icc(1))},
		{"webp ICC profile", webp(icc(1)), webp(icc(2))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := sumBoth(t, tc.a, tc.b)
			if a == b {
				t.Errorf("both hash %x, want them to differ", a)
			}
		})
	}
}
