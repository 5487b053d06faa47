package pdfdigest

import (
	"bytes"
	"compress/lzw"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestSumFilters: an object stream and a metadata stream under each
// filter chain Sum decodes (FlateDecode with the PNG and TIFF predictors,
// LZWDecode of either early change, ASCIIHexDecode, ASCII85Decode) are
// read: two runs hash the same, their dates left out, and a changed title
// (in the object stream) hashes otherwise; none of them is undecoded.
func TestSumFilters(t *testing.T) {
	var names []string
	for name := range testFilters {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			r1, r2 := firstPDFRun(), secondPDFRun()
			r1.ObjectStreams, r2.ObjectStreams = true, true
			r1.Filter, r2.Filter = name, name
			r3 := r2
			r3.Title = "Report 2"
			res1, err := SumResult(writePDF(r1), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res1.Undecoded) > 0 {
				t.Errorf("undecoded: %q, want none", res1.Undecoded)
			}
			h2, h3 := mustSum(t, writePDF(r2), nil), mustSum(t, writePDF(r3), nil)
			if res1.Sum != h2 {
				t.Errorf("two runs hash %x and %x, want them equal", res1.Sum, h2)
			}
			if h2 == h3 {
				t.Errorf("a changed title hashes the same, %x", h2)
			}
		})
	}
}

// TestSumUndecoded: an object stream Sum does not decode is hashed as
// its bytes, and SumResult says which and why.
func TestSumUndecoded(t *testing.T) {
	objStm := func(dict, data string) []byte {
		return []byte("%PDF-1.5\n8 0 obj\n<< /Type /ObjStm /N 1 /First 4 " + dict + " /Length " +
			strconv.Itoa(len(data)) + " >>\nstream\n" + data + "\nendstream\nendobj\n")
	}
	flateData := string(flate([]byte("6 0 << /CreationDate (D:2024) >>")))
	for _, tc := range []struct {
		name string
		pdf  []byte
		opt  *Options
		want string
	}{
		{"unknown filter", objStm("/Filter /JBIG2Decode", "xx"), nil, "object stream 8 0: filter /JBIG2Decode not decoded"},
		{"unknown predictor", objStm("/Filter /FlateDecode /DecodeParms << /Predictor 3 >>", flateData), nil,
			"object stream 8 0: /Predictor 3 not decoded"},
		{"bad bits", objStm("/Filter /FlateDecode /DecodeParms << /Predictor 12 /BitsPerComponent 3 >>", flateData), nil,
			"object stream 8 0: /BitsPerComponent 3 not decoded"},
		{"corrupt flate", objStm("/Filter /FlateDecode", "not zlib"), nil, "object stream 8 0: FlateDecode: zlib: invalid header"},
		{"bad hex", objStm("/Filter /ASCIIHexDecode", "4g>"), nil, `object stream 8 0: ASCIIHexDecode: "g" at byte 1 is no hex digit`},
		{"past the cap", objStm("/Filter /FlateDecode", flateData), &Options{InflateCap: 8}, "object stream 8 0: past the inflate cap of 8 bytes"},
		{"parameters by reference", objStm("/Filter /FlateDecode /DecodeParms 9 0 R",
			string(flate(pngEncode([]byte("6 0 << /CreationDate (D:2024) >>"), 5, 1, 0)))), nil,
			"object stream 8 0: /DecodeParms 9 0 R by reference not decoded"},
		{"parameters by reference in an array", objStm("/Filter [/FlateDecode] /DecodeParms [9 0 R]",
			string(flate(pngEncode([]byte("6 0 << /CreationDate (D:2024) >>"), 5, 1, 0)))), nil,
			"object stream 8 0: /DecodeParms 9 0 R by reference not decoded"},
		{"a filter's name of control and invalid bytes", objStm("/Filter /Fl\x1bc\x07\xff", "xx"), nil,
			`object stream 8 0: filter /Fl\x1bc\a\xff not decoded`},
		{"a filter's name cut within a character", objStm("/Filter /"+strings.Repeat("é", 20), "xx"), nil,
			`object stream 8 0: filter /` + strings.Repeat("é", 15) + `\xc3... not decoded`},
		{"objects that do not parse", objStm("/Filter /FlateDecode", string(flate([]byte("6 0 << /A (")))), nil,
			"object stream 8 0: its objects do not parse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := SumResult(tc.pdf, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(res.Undecoded, "; "); got != tc.want {
				t.Errorf("undecoded %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLZWDecode: lzwDecode reads what compress/lzw writes (early change
// 0, codes up to 12 bits and the clear codes of a full table) and what
// lzwEncode writes with either early change, and stops at the cap.
func TestLZWDecode(t *testing.T) {
	var text bytes.Buffer
	for i := range 3000 {
		text.WriteString(strconv.Itoa(i*i%7919) + " obj ")
	}
	gifLZW := func(b []byte) []byte {
		var gif bytes.Buffer
		zw := lzw.NewWriter(&gif, lzw.MSB, 8)
		zw.Write(b)
		zw.Close()
		return gif.Bytes()
	}
	// Bytes of every value: text under the PNG predictor.
	binary := pngEncode(text.Bytes(), 7, 1, -1)
	for _, tc := range []struct {
		name  string
		data  []byte
		early int
	}{
		{"compress/lzw", gifLZW(text.Bytes()), 0},
		{"compress/lzw, binary", gifLZW(binary), 0},
		{"early change 1, binary", lzwEncode(binary, 1), 1},
		{"early change 1", lzwEncode(text.Bytes(), 1), 1},
		{"early change 0", lzwEncode(text.Bytes(), 0), 0},
		{"repeated byte", lzwEncode(bytes.Repeat([]byte{'a'}, 5000), 1), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := text.Bytes()
			switch {
			case tc.name == "repeated byte":
				want = bytes.Repeat([]byte{'a'}, 5000)
			case strings.HasSuffix(tc.name, "binary"):
				want = binary
			}
			got, err := lzwDecode(tc.data, tc.early, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("decoded %d bytes, want %d: %.80q", len(got), len(want), got)
			}
			if _, err := lzwDecode(tc.data, tc.early, 100); err != errPastCap {
				t.Errorf("under a cap of 100 bytes: %v, want errPastCap", err)
			}
		})
	}
}

// TestPredictors: the TIFF predictor at 1, 4 and 16 bits a component,
// a PNG row shorter than the others, and PNG pixels of a number of bits
// that is not a multiple of 8, decode as ISO 32000-1 §7.4.4.4
// and the TIFF 6.0 specification have it.
func TestPredictors(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    predictor
		in   []byte
		want []byte
	}{
		// 1 bit, 8 columns: each bit the sum of it and those before,
		// mod 2: 1,0,0,1,... differences give 1,1,1,0,...
		{"tiff 1 bit", predictor{kind: 2, colors: 1, bpc: 1, columns: 8}, []byte{0b10010000}, []byte{0b11100000}},
		{"tiff 4 bits", predictor{kind: 2, colors: 1, bpc: 4, columns: 4}, []byte{0x11, 0xf2}, []byte{0x12, 0x13}},
		{"tiff 16 bits", predictor{kind: 2, colors: 1, bpc: 16, columns: 2}, []byte{0x01, 0xff, 0x00, 0x02}, []byte{0x01, 0xff, 0x02, 0x01}},
		{"tiff 8 bits, 2 colors, 2 rows", predictor{kind: 2, colors: 2, bpc: 8, columns: 2}, []byte{1, 2, 1, 1, 5, 6, 255, 0},
			[]byte{1, 2, 2, 3, 5, 6, 4, 6}},
		{"png short last row", predictor{kind: 12, colors: 1, bpc: 8, columns: 3}, []byte{0, 1, 2, 3, 2, 1, 1}, []byte{1, 2, 3, 2, 3}},
		{"png sub 16 bits", predictor{kind: 11, colors: 1, bpc: 16, columns: 2}, []byte{1, 0, 1, 0, 2}, []byte{0, 1, 0, 3}},
		// 3 components of 4 bits: a pixel of 12 bits, 2 bytes to its
		// left neighbour, rounded up as poppler, pdf.js and pdfcpu have it.
		{"png sub 12-bit pixels", predictor{kind: 11, colors: 3, bpc: 4, columns: 2}, []byte{1, 0x12, 0x34, 0x05}, []byte{0x12, 0x34, 0x17}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.p.decode(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Errorf("decoded %x, want %x", got, tc.want)
			}
		})
	}
}

// FuzzDecodeFilters: the decoders of filter.go, lzw.go and predictor.go
// never panic on any data and parameters, and keep to their limit: an
// LZW stream decodes to at most the cap it is given, a predictor's output
// is no longer than its input. Its seeds are data each one reads.
func FuzzDecodeFilters(f *testing.F) {
	objects := []byte("1 0 << /Type /Catalog >> 2 0 << /CreationDate (D:20240101) >>")
	f.Add(lzwEncode(objects, 1), uint8(1), uint8(0), uint8(1), uint8(3), uint8(4))
	f.Add(lzwEncode(objects, 0), uint8(0), uint8(4), uint8(3), uint8(5), uint8(3))
	f.Add(pngEncode(objects, 5, 3, -1), uint8(1), uint8(7), uint8(3), uint8(5), uint8(3))
	f.Add(tiffEncode(objects, 7, 2), uint8(1), uint8(1), uint8(2), uint8(7), uint8(3))
	f.Add(asciiHex(objects), uint8(1), uint8(0), uint8(1), uint8(1), uint8(3))
	f.Add(ascii85Encode(objects), uint8(1), uint8(0), uint8(1), uint8(1), uint8(3))
	kinds := []int{1, 2, 10, 11, 12, 13, 14, 15}
	bpcs := []int{1, 2, 4, 8, 16}
	f.Fuzz(func(t *testing.T, data []byte, early, kind, colors, columns, bpc uint8) {
		const limit = 1 << 16
		if out, err := lzwDecode(data, int(early%2), limit); err == nil && len(out) > limit {
			t.Fatalf("LZW: %d bytes past the cap of %d", len(out), limit)
		}
		pr := predictor{kind: kinds[int(kind)%len(kinds)], colors: int(colors)%8 + 1, bpc: bpcs[int(bpc)%len(bpcs)], columns: int(columns) + 1}
		if out, err := pr.decode(append([]byte(nil), data...)); err == nil && len(out) > len(data) {
			t.Fatalf("predictor %+v: %d bytes of %d", pr, len(out), len(data))
		}
		if out, err := asciiHexDecode(data); err == nil && len(out) > len(data)/2+1 {
			t.Fatalf("ASCIIHexDecode: %d bytes of %d", len(out), len(data))
		}
		if out, err := ascii85Decode(data, limit); err == nil && len(out) > 4*len(data)+8 {
			t.Fatalf("ASCII85Decode: %d bytes of %d", len(out), len(data))
		}
	})
}

// TestSumUndecodedBounded: a file of many streams Sum leaves as their
// bytes names the first MaxUndecoded and counts the others
// (Result.UndecodedMore), so that what SumResult keeps of a hostile file
// of a million tiny streams stays small.
func TestSumUndecodedBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("%PDF-1.5\n")
	const n = MaxUndecoded + 50
	for i := range n {
		fmt.Fprintf(&b, "%d 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /JBIG2Decode /Length 2 >>\nstream\nxx\nendstream\nendobj\n", i+1)
	}
	res, err := SumResult([]byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Undecoded) != MaxUndecoded || res.UndecodedMore != n-MaxUndecoded ||
		res.Undecoded[0] != "object stream 1 0: filter /JBIG2Decode not decoded" {
		t.Errorf("%d undecoded named (first %q), %d more; want %d named and %d more", len(res.Undecoded), res.Undecoded[0], res.UndecodedMore, MaxUndecoded, n-MaxUndecoded)
	}
}
