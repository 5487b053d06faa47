package crawltest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"time"
)

// ChartPNG returns the PNG a chart generator draws at moment at: the
// image of a small bar chart (one pixel of it changed, if asked), as
// image/png encodes it, with the moment written after IHDR as a tIME
// chunk and a tEXt date:create, as ImageMagick writes them. Two moments
// give two files of the same pixels.
func ChartPNG(at time.Time, changed bool) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 12, 8))
	for y := range 8 {
		for x := range 12 {
			c := color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
			if y >= 8-x/2 {
				c = color.RGBA{0x20, 0x60, 0xC0, 0xFF}
			}
			img.Set(x, y, c)
		}
	}
	if changed {
		img.Set(2, 1, color.RGBA{0xC0, 0x20, 0x20, 0xFF})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // of a bytes.Buffer: never
	}
	at = at.UTC()
	tIME := binary.BigEndian.AppendUint16(nil, uint16(at.Year()))
	tIME = append(tIME, byte(at.Month()), byte(at.Day()), byte(at.Hour()), byte(at.Minute()), byte(at.Second()))
	const ihdrEnd = 8 + 12 + 13 // the signature, then IHDR
	out := append([]byte(nil), b.Bytes()[:ihdrEnd]...)
	out = pngChunk(out, "tIME", tIME)
	out = pngChunk(out, "tEXt", []byte("date:create\x00"+at.Format(time.RFC3339Nano)))
	return append(out, b.Bytes()[ihdrEnd:]...)
}

// pngChunk appends a PNG chunk of type typ and data, with its CRC, to b.
func pngChunk(b []byte, typ string, data []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.Update(crc32.ChecksumIEEE([]byte(typ)), crc32.IEEETable, data))
}
