package crawl

import (
	"errors"
	"testing"
	"time"

	"github.com/vigil-web/vigil/imagedigest"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/pdfdigest"
)

// TestDigestBinary: a PDF, by its media type or its magic, is digested
// without what its generator changes at every run (pdfdigest), and so is
// a PNG, JPEG, GIF or WebP image (imagedigest), two runs alike; a
// document of another type, and a PDF or image that does not parse, are
// digested as their bytes, the latter with the reason.
func TestDigestBinary(t *testing.T) {
	first := crawltest.PDF(crawltest.FirstPDFRun())
	second := crawltest.PDF(crawltest.SecondPDFRun())
	unparsed := []byte("%PDF-1.4\n1 0 obj\n<< /Title (open >>\nendobj\n")
	day1, day2 := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC), time.Date(2026, 11, 2, 9, 30, 15, 250, time.UTC)
	chart := crawltest.ChartPNG(day1, false)
	for _, tc := range []struct {
		name, mediaType string
		body            []byte
		asBytes         bool
		reason          string // the error's, if the body is a PDF or image that does not parse
	}{
		{"image", "image/png", chart, false, ""},
		{"image served as octet-stream", "application/octet-stream", chart, false, ""},
		{"image cut short", "image/png", chart[:45], true, "hashed as bytes: png at byte 33: chunk tIME of 7 bytes runs past the end of the file"},
		{"image type, no image", "image/png", []byte("<html>not found</html>"), true,
			"hashed as bytes: image at byte 0: expected the signature of a PNG, JPEG, GIF or WebP file"},
		{"image of another format", "image/x-icon", []byte("\x00\x00\x01\x00\x01\x00\x10\x10"), true, ""},
		{"PDF", "application/pdf", first, false, ""},
		{"PDF served as an image", "image/png", first, false, ""},
		{"PDF served as octet-stream", "application/octet-stream", first, false, ""},
		{"PDF that does not parse", "application/pdf", unparsed, true, `hashed as bytes: pdf syntax at byte 27: a string that does not end: expected ")"`},
		{"PDF type, no PDF", "application/pdf", []byte("<html>not found</html>"), true, "hashed as bytes: pdf syntax at byte 0: expected %PDF- in the first 1024 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := binaryDigest(tc.mediaType, tc.body)
			if (got == hashBody(tc.body)) != tc.asBytes {
				t.Errorf("digest %s, hash of the bytes %s; want them equal: %v", got, hashBody(tc.body), tc.asBytes)
			}
			if !hashPattern.MatchString(got) {
				t.Errorf("digest %q is no snapshot hash", got)
			}
			if tc.reason == "" && err != nil || tc.reason != "" && (err == nil || err.Error() != tc.reason) {
				t.Errorf("reason %v, want %q", err, tc.reason)
			}
			var se *pdfdigest.SyntaxError
			var fe *imagedigest.FormatError
			if err != nil && !errors.As(err, &se) && !errors.As(err, &fe) {
				t.Errorf("reason %v is no *pdfdigest.SyntaxError nor *imagedigest.FormatError", err)
			}
			if digestBinary(tc.mediaType, tc.body) != got {
				t.Errorf("digestBinary and binaryDigest differ")
			}
		})
	}
	a, _ := binaryDigest("application/pdf", first)
	b, _ := binaryDigest("application/pdf", second)
	if a != b {
		t.Errorf("two runs of a generator digest as %s and %s, want them equal", a, b)
	}
	for _, tc := range []struct {
		name string
		a, b []byte
		same bool
	}{
		{"chart drawn again", chart, crawltest.ChartPNG(day2, false), true},
		{"chart with a pixel changed", chart, crawltest.ChartPNG(day1, true), false},
	} {
		a, _ := binaryDigest("image/png", tc.a)
		b, _ := binaryDigest("image/png", tc.b)
		if (a == b) != tc.same {
			t.Errorf("%s: digests %s and %s; want them equal: %v", tc.name, a, b, tc.same)
		}
	}
}
