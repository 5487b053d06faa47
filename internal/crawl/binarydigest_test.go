package crawl

import (
	"errors"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/pdfdigest"
)

// TestDigestBinary: a PDF, by its media type or its magic, is digested
// without what its generator changes at every run (pdfdigest), two runs
// alike; a document that is no PDF, and a PDF that does not parse, are
// digested as their bytes, the latter with the reason.
func TestDigestBinary(t *testing.T) {
	first := crawltest.PDF(crawltest.FirstPDFRun())
	second := crawltest.PDF(crawltest.SecondPDFRun())
	unparsed := []byte("%PDF-1.4\n1 0 obj\n<< /Title (open >>\nendobj\n")
	for _, tc := range []struct {
		name, mediaType string
		body            []byte
		asBytes         bool
		reason          string // the error's, if the body is a PDF that does not parse
	}{
		{"image", "image/png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), true, ""},
		{"PDF", "application/pdf", first, false, ""},
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
			if err != nil && !errors.As(err, &se) {
				t.Errorf("reason %v is no *pdfdigest.SyntaxError", err)
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
}
