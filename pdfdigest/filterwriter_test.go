package pdfdigest

import (
	"bytes"
	"compress/zlib"
	"encoding/ascii85"
	"encoding/hex"
	"fmt"
	"strings"
)

// testFilters are the encodings encodeStream writes, by name: each the
// stream dictionary's /Filter and /DecodeParms, and a function that
// encodes the data as they decode it.
var testFilters = map[string]struct {
	dict   string
	encode func([]byte) []byte
}{
	"flate": {"/Filter /FlateDecode", flate},
	"none":  {"", func(b []byte) []byte { return b }},
	// PNG predictors: 10 to 14 put one row filter on every row, 15
	// (optimum) draws one a row; here each row takes the next of the
	// five, so that every one is read.
	"flate-png-none":  {"/Filter /FlateDecode /DecodeParms << /Predictor 10 /Columns 5 /Colors 3 >>", pngThenFlate(5, 3, 0)},
	"flate-png-sub":   {"/Filter /FlateDecode /DecodeParms << /Predictor 11 /Columns 5 /Colors 3 >>", pngThenFlate(5, 3, 1)},
	"flate-png-up":    {"/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>", pngThenFlate(4, 1, 2)},
	"flate-png-avg":   {"/Filter /FlateDecode /DecodeParms << /Predictor 13 /Columns 5 /Colors 3 /BitsPerComponent 8 >>", pngThenFlate(5, 3, 3)},
	"flate-png-paeth": {"/Filter /FlateDecode /DecodeParms << /Predictor 14 /Columns 5 /Colors 3 >>", pngThenFlate(5, 3, 4)},
	"flate-png-optimum": {"/Filter [/FlateDecode] /DecodeParms [<< /Predictor 15 /Columns 7 /Colors 2 >>]",
		pngThenFlate(7, 2, -1)},
	"flate-tiff": {"/Filter /FlateDecode /DecodeParms << /Predictor 2 /Columns 7 /Colors 2 >>", func(b []byte) []byte { return flate(tiffEncode(b, 7, 2)) }},
	"lzw":        {"/Filter /LZWDecode", func(b []byte) []byte { return lzwEncode(b, 1) }},
	"lzw-early0": {"/Filter /LZWDecode /DecodeParms << /EarlyChange 0 >>", func(b []byte) []byte { return lzwEncode(b, 0) }},
	"lzw-png": {"/Filter /LZWDecode /DecodeParms << /Predictor 12 /Columns 6 >>",
		func(b []byte) []byte { return lzwEncode(pngEncode(b, 6, 1, 2), 1) }},
	"ahx":       {"/Filter /ASCIIHexDecode", asciiHex},
	"a85-flate": {"/Filter [/A85 /FlateDecode]", func(b []byte) []byte { return ascii85Encode(flate(b)) }},
	"ahx-flate-png": {"/Filter [/ASCIIHexDecode /FlateDecode] /DecodeParms [null << /Predictor 12 /Columns 8 >>]",
		func(b []byte) []byte { return asciiHex(flate(pngEncode(b, 8, 1, 2))) }},
}

// encodeStream returns the dictionary entries and the data of a stream
// of data encoded by the testFilters encoding name.
func encodeStream(name string, data []byte) (dict string, encoded []byte) {
	f, ok := testFilters[name]
	if !ok {
		panic("no test filter " + name)
	}
	return f.dict, f.encode(data)
}

func flate(b []byte) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	return z.Bytes()
}

func pngThenFlate(columns, colors, filter int) func([]byte) []byte {
	return func(b []byte) []byte { return flate(pngEncode(b, columns, colors, filter)) }
}

// pngEncode returns b under the PNG predictor of rows of columns samples
// of colors 8-bit components, each row filtered by filter (0 None, 1 Sub,
// 2 Up, 3 Average, 4 Paeth), or, if filter is -1, by each in turn. A
// last row shorter than the others is encoded as far as it goes.
func pngEncode(b []byte, columns, colors, filter int) []byte {
	rowLen, bpp := columns*colors, colors
	var out []byte
	prev := make([]byte, rowLen)
	for row := 0; len(b) > 0; row++ {
		cur := b[:min(rowLen, len(b))]
		b = b[len(cur):]
		f := filter
		if f < 0 {
			f = row % 5
		}
		out = append(out, byte(f))
		for i, x := range cur {
			var a, c byte
			if i >= bpp {
				a, c = cur[i-bpp], prev[i-bpp]
			}
			up := prev[i]
			var p byte
			switch f {
			case 1:
				p = a
			case 2:
				p = up
			case 3:
				p = byte((int(a) + int(up)) / 2)
			case 4:
				p = paeth(a, up, c)
			}
			out = append(out, x-p)
		}
		copy(prev, cur)
	}
	return out
}

// tiffEncode returns b under TIFF predictor 2 of rows of columns
// samples of colors 8-bit components.
func tiffEncode(b []byte, columns, colors int) []byte {
	out := make([]byte, len(b))
	rowLen := columns * colors
	for i := range b {
		if i%rowLen >= colors {
			out[i] = b[i] - b[i-colors]
		} else {
			out[i] = b[i]
		}
	}
	return out
}

// lzwEncode returns b LZW-encoded as PDF's LZWDecode reads it (ISO
// 32000-1 §7.4.4): codes of 9 to 12 bits, most significant bit first, a
// clear-table code first and an end-of-data code last; early is the
// /EarlyChange value.
func lzwEncode(b []byte, early int) []byte {
	var out []byte
	var acc uint64
	nacc := 0
	width := 9
	emit := func(code int) {
		acc = acc<<width | uint64(code)
		nacc += width
		for nacc >= 8 {
			out = append(out, byte(acc>>(nacc-8)))
			nacc -= 8
		}
	}
	var table map[string]int
	next, emitted := 0, 0
	reset := func() {
		emit(256)
		table, next, emitted, width = map[string]int{}, 258, 0, 9
	}
	// The decoder reads a code with the table one entry short of the
	// encoder's (it adds an entry when it reads the code after).
	code := func(w string) int {
		if len(w) == 1 {
			return int(w[0])
		}
		return table[w]
	}
	send := func(w string) {
		size := next
		if emitted > 0 {
			size = next - 1
		}
		for width < 12 && size+early >= 1<<width {
			width++
		}
		emit(code(w))
		emitted++
	}
	reset()
	w := ""
	for _, c := range b {
		wc := w + string([]byte{c})
		if _, ok := table[wc]; ok || len(wc) == 1 {
			w = wc
			continue
		}
		send(w)
		table[wc] = next
		next++
		w = string([]byte{c})
		if next >= 4000 {
			send(w)
			reset()
			w = ""
		}
	}
	if w != "" {
		send(w)
	}
	size := next
	if emitted > 0 {
		size = next - 1
	}
	for width < 12 && size+early >= 1<<width {
		width++
	}
	emit(257)
	if nacc > 0 {
		out = append(out, byte(acc<<(8-nacc)))
	}
	return out
}

func asciiHex(b []byte) []byte {
	// Lines of 64 digits, as writers wrap them.
	h := hex.EncodeToString(b)
	var s strings.Builder
	for len(h) > 64 {
		s.WriteString(h[:64] + "\n")
		h = h[64:]
	}
	s.WriteString(h + ">")
	return []byte(s.String())
}

func ascii85Encode(b []byte) []byte {
	out := make([]byte, ascii85.MaxEncodedLen(len(b)))
	n := ascii85.Encode(out, b)
	return fmt.Appendf(nil, "%s~>", out[:n])
}
