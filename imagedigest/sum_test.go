package imagedigest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/sums.golden and the seed corpus of FuzzSum")

// with returns r changed by edit.
func with(r run, edit func(*run)) run { edit(&r); return r }

// samePairs are pairs of files of one format that hash the same, or not.
func samePairs(t *testing.T) []struct {
	name string
	a, b []byte
	same bool
} {
	first, second := firstRun, secondRun
	changed := with(second, func(r *run) { r.changed = true })
	turned := with(second, func(r *run) { r.orientation = 6 })
	noExif := with(second, func(r *run) { r.orientation = 0 })
	// exifHeaded returns the PNG of r with its eXIf chunk's data after
	// JPEG's "Exif\0\0", as some writers put it (and WebP's EXIF).
	exifHeaded := func(r run) []byte {
		cs := pngChunks(t, pngRun(t, r, 0))
		for i, c := range cs {
			if c.typ == "eXIf" {
				cs[i].data = append([]byte(exifID+"\x00"), c.data...)
			}
		}
		return pngFile(cs)
	}
	return []struct {
		name string
		a, b []byte
		same bool
	}{
		{"png generated again", pngRun(t, first, 0), pngRun(t, second, 0), true},
		{"png IDAT split elsewhere", pngRun(t, first, 0), pngRun(t, second, 7), true},
		{"png IDAT split in two ways", pngRun(t, first, 5), pngRun(t, second, 11), true},
		{"png orientation 1 or none", pngRun(t, first, 0), pngRun(t, noExif, 0), true},
		{"png pixel changed", pngRun(t, first, 0), pngRun(t, changed, 0), false},
		{"png orientation changed", pngRun(t, first, 0), pngRun(t, turned, 0), false},
		{"png Exif after Exif\\0\\0", pngRun(t, first, 0), exifHeaded(second), true},
		{"png Exif after Exif\\0\\0, orientation changed", pngRun(t, first, 0), exifHeaded(turned), false},
		{"jpeg generated again", jpegRun(t, first), jpegRun(t, second), true},
		{"jpeg orientation 1 or none", jpegRun(t, first), jpegRun(t, noExif), true},
		{"jpeg pixel changed", jpegRun(t, first), jpegRun(t, changed), false},
		{"jpeg orientation changed", jpegRun(t, first), jpegRun(t, turned), false},
		{"gif generated again", gifRun(t, first, 0, 0), gifRun(t, second, 0, 0), true},
		{"gif data re-blocked", gifRun(t, first, 0, 0), gifRun(t, second, 0, 100), true},
		{"gif pixel changed", gifRun(t, first, 0, 0), gifRun(t, changed, 0, 0), false},
		{"gif loop count changed", gifRun(t, first, 0, 0), gifRun(t, second, 3, 0), false},
		{"webp generated again", webpRun(first, true), webpRun(second, true), true},
		{"webp metadata or none", webpRun(first, true), webpRun(noExif, false), true},
		{"webp pixel changed", webpRun(first, true), webpRun(changed, true), false},
		{"webp orientation changed", webpRun(first, true), webpRun(turned, true), false},
	}
}

// TestSum: two runs of a generator on one image, whose dates, software,
// comments, XMP (and so the offsets after them, and a WebP's RIFF size)
// differ, and whose PNG IDAT or GIF data are split elsewhere, hash the
// same; a changed pixel, Exif Orientation or GIF loop count hashes
// otherwise.
func TestSum(t *testing.T) {
	for _, tc := range samePairs(t) {
		t.Run(tc.name, func(t *testing.T) {
			if bytes.Equal(tc.a, tc.b) {
				t.Fatalf("the two files are the same bytes: the case tests nothing")
			}
			a, b := sumBoth(t, tc.a, tc.b)
			if (a == b) != tc.same {
				t.Errorf("sums %x and %x; want them equal: %v", a, b, tc.same)
			}
		})
	}
}

// sumBoth returns the sums of two files, failing the test if either
// has none.
func sumBoth(t *testing.T, x, y []byte) (a, b [32]byte) {
	t.Helper()
	a, err := Sum(x)
	if err != nil {
		t.Fatalf("first: %v", err)
	}
	b, err = Sum(y)
	if err != nil {
		t.Fatalf("second: %v", err)
	}
	return a, b
}

// goldenFiles are the files whose sums testdata/sums.golden records.
func goldenFiles(t *testing.T) map[string][]byte {
	return map[string][]byte{
		"png":  pngRun(t, firstRun, 0),
		"jpeg": jpegRun(t, firstRun),
		"gif":  gifRun(t, firstRun, 0, 0),
		"webp": webpRun(firstRun, true),
	}
}

// TestSumGolden: the sums of one file of each format are those of
// testdata/sums.golden. A crawl stores them: a sum that changes must
// come with a new revision of the crawl's image digest kind (the prefix
// its hashes carry), or every image is a change at the first crawl
// after the upgrade (go test ./imagedigest -run TestSumGolden -update
// writes them again).
func TestSumGolden(t *testing.T) {
	path := filepath.Join("testdata", "sums.golden")
	files := goldenFiles(t)
	var got strings.Builder
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for name := range files {
			if !yield(name) {
				return
			}
		}
	}) {
		sum, err := Sum(files[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fmt.Fprintf(&got, "%s %s\n", name, hex.EncodeToString(sum[:]))
	}
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("sums:\n%s\nwant (%s):\n%s", got.String(), path, want)
	}
}

// TestSumErrors: a file that is no image, or whose structure does not
// parse, is a *FormatError that says where and what, and a zero sum.
func TestSumErrors(t *testing.T) {
	p := pngRun(t, firstRun, 0)
	j := jpegRun(t, firstRun)
	g := gifRun(t, firstRun, 0, 0)
	w := webpRun(firstRun, true)
	badCRC := bytes.Clone(p)
	badCRC[8+8+13] ^= 1 // IHDR's CRC
	badExif := pngFile([]chunk{pngChunks(t, p)[0], {"eXIf", []byte("XX\x00\x2a\x00\x00\x00\x08")}, {"IEND", nil}})
	longOrientation := jpegSegment(markerAPP1, []byte("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x04\x00\x00\x00\x01\x00\x00\x00\x06"))
	longOrientation = append(append([]byte{0xFF, 0xD8}, longOrientation...), 0xFF, 0xD9)
	sos := bytes.Index(j, []byte{0xFF, markerSOS})
	scan := sos + 2 + int(j[sos+2])<<8 + int(j[sos+3]) // after the SOS segment
	dqt := bytes.Index(j, []byte{0xFF, 0xDB})
	bigRIFF := bytes.Clone(w)
	bigRIFF[4]++
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"no image", []byte("<html>not found</html>"), "image at byte 0: expected the signature of a PNG, JPEG, GIF or WebP file"},
		{"empty", nil, "image at byte 0: expected the signature of a PNG, JPEG, GIF or WebP file"},
		{"png signature alone", p[:8], "png at byte 8: expected a chunk of 12 bytes at least, found 0 bytes to the end of the file (no IEND)"},
		{"png cut in IHDR", p[:20], "png at byte 8: chunk IHDR of 13 bytes runs past the end of the file"},
		{"png without IEND", p[:len(p)-12], fmt.Sprintf("png at byte %d: expected a chunk of 12 bytes at least, found 0 bytes to the end of the file (no IEND)", len(p)-12)},
		{"png CRC", badCRC, "png at byte 29: chunk IHDR: expected the CRC of its type and data, c7a88fa5, found c6a88fa5"},
		{"png IEND first", pngFile([]chunk{{"IEND", nil}}), "png at byte 8: expected IHDR of 13 bytes first, found IEND of 0"},
		{"png chunk type", []byte(pngSignature + "\x00\x00\x00\x00IH\x00R\x00\x00\x00\x00"), `png at byte 12: expected a chunk type of 4 ASCII letters, found "IH\x00R"`},
		{"png chunk past the end", []byte(pngSignature + "\x00\x00\x01\x00IHDR\x00\x00\x00\x00"), "png at byte 8: chunk IHDR of 256 bytes runs past the end of the file"},
		{"png Exif byte order", badExif, `png at byte 41: Exif data: expected the byte order II or MM, found "XX"`},
		{"jpeg cut in its scan", j[:len(j)-10], fmt.Sprintf("jpeg at byte %d: the scan's data that begins here does not end: no marker after it", scan)},
		{"jpeg cut in a segment", j[:dqt+10], fmt.Sprintf("jpeg at byte %d: segment FFDB of length 132 runs past the end of the file at byte %d", dqt+2, dqt+10)},
		{"jpeg SOI alone", j[:3], "jpeg at byte 2: expected a marker, found the end of the file (no EOI)"},
		{"jpeg segment past the end", []byte("\xFF\xD8\xFF\xDB\x01\x00\x00"), "jpeg at byte 4: segment FFDB of length 256 runs past the end of the file at byte 7"},
		{"jpeg no marker", []byte("\xFF\xD8\xFF\xDB\x00\x02x"), "jpeg at byte 6: expected a marker (0xFF), found 0x78"},
		{"jpeg orientation of type LONG", longOrientation, "jpeg at byte 22: Exif Orientation of type 4 and count 1: expected one SHORT (type 3)"},
		{"gif without trailer", g[:len(g)-1], fmt.Sprintf("gif at byte %d: expected a block, found the end of the file (no trailer)", len(g)-1)},
		{"gif header alone", g[:6], "gif at byte 6: expected a header and logical screen descriptor of 13 bytes, found 6"},
		{"gif sub-block past the end", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00\x21\xFE\x09abc"), "gif at byte 15: a data sub-block of 9 bytes runs past the end of the file"},
		{"gif unknown block", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00\x00"), "gif at byte 13: expected an extension (0x21), an image (0x2C) or the trailer (0x3B), found 0x00"},
		{"webp RIFF size past the end", bigRIFF, fmt.Sprintf("webp at byte 4: the RIFF size %d runs past the end of the file at byte %d", len(w)-7, len(w))},
		{"webp chunk past the RIFF form", webpFile([]chunk{{"VP8L", []byte("\x2F\x00")}})[:20], "webp at byte 4: the RIFF size 14 runs past the end of the file at byte 20"},
		{"webp RIFF size below its form type", []byte("RIFF\x00\x00\x00\x00WEBPVP8L\x02\x00\x00\x00\x2F\x00"),
			"webp at byte 4: the RIFF size 0 is less than the 4 bytes of its form type WEBP"},
		{"webp empty RIFF form", []byte("RIFF\x04\x00\x00\x00WEBP"), "webp at byte 12: expected a chunk, found the end of the RIFF form"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum, err := Sum(tc.b)
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a *FormatError", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			if sum != [32]byte{} {
				t.Errorf("sum %x with an error, want zero", sum)
			}
		})
	}
}

// TestFormat: Format tells the four formats by their signatures, and
// nothing else.
func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{pngRun(t, firstRun, 0), PNG},
		{jpegRun(t, firstRun), JPEG},
		{gifRun(t, firstRun, 0, 0), GIF},
		{webpRun(firstRun, false), WebP},
		{[]byte("GIF87a"), GIF},
		{[]byte("RIFF\x00\x00\x00\x00WAVE"), ""},
		{[]byte("%PDF-1.7"), ""},
		{nil, ""},
	} {
		if got := Format(tc.b); got != tc.want {
			t.Errorf("Format(%.12q) = %q, want %q", tc.b, got, tc.want)
		}
	}
}
