package crawl

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/pdfdigest"
)

// TestDigestBinary: a PDF, by its media type or its magic, is digested
// without what its generator changes at every run (pdfdigest), and so is
// a PNG, JPEG, GIF or WebP image (imagedigest), two runs alike; a
// document of another type, and a PDF or image that does not parse, or
// a PDF that opens with a password only, are digested as their bytes,
// with the reason, as is a PDF of which a stream is hashed as its bytes
// (the note).
func TestDigestBinary(t *testing.T) {
	first := crawltest.PDF(crawltest.FirstPDFRun())
	second := crawltest.PDF(crawltest.SecondPDFRun())
	unparsed := []byte("%PDF-1.4\n1 0 obj\n<< /Title (open >>\nendobj\n")
	day1, day2 := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC), time.Date(2026, 11, 2, 9, 30, 15, 250, time.UTC)
	chart := crawltest.ChartPNG(day1, false)
	password := []byte("%PDF-1.7\n1 0 obj\n<< /Filter /Standard /V 5 /R 6 /O <00> /U <" + strings.Repeat("00", 48) + "> /UE <" +
		strings.Repeat("00", 32) + "> /P -4 /CF << /StdCF << /CFM /AESV3 >> >> /StmF /StdCF /StrF /StdCF >>\nendobj\ntrailer\n<< /Encrypt 1 0 R >>\n")
	undecoded := []byte("%PDF-1.5\n8 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /RunLengthDecode /Length 2 >>\nstream\nxx\nendstream\nendobj\n")
	for _, tc := range []struct {
		name, mediaType string
		body            []byte
		asBytes         bool
		note            string // why it is hashed as its bytes, in whole or in part
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
		{"PDF with a user password", "application/pdf", password, true, "hashed as bytes: pdf encrypted: it opens with a user password only"},
		{"PDF with a stream undecoded", "application/pdf", undecoded, false, "hashed in part as bytes: object stream 8 0: filter /RunLengthDecode not decoded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, note := BinaryDigest(tc.mediaType, tc.body)
			if (got == hashBody(tc.body)) != tc.asBytes {
				t.Errorf("digest %s, hash of the bytes %s; want them equal: %v", got, hashBody(tc.body), tc.asBytes)
			}
			if !hashPattern.MatchString(got) {
				t.Errorf("digest %q is no snapshot hash", got)
			}
			if note != tc.note {
				t.Errorf("note %q, want %q", note, tc.note)
			}
		})
	}
	a, _ := BinaryDigest("application/pdf", first)
	b, _ := BinaryDigest("application/pdf", second)
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
		a, _ := BinaryDigest("image/png", tc.a)
		b, _ := BinaryDigest("image/png", tc.b)
		if (a == b) != tc.same {
			t.Errorf("%s: digests %s and %s; want them equal: %v", tc.name, a, b, tc.same)
		}
	}
}

// TestDigestNoteBounded: the note of a PDF of many streams hashed as
// their bytes names the first three and counts the others: a snapshot
// holds a short note a page.
func TestDigestNoteBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("%PDF-1.5\n")
	for i := range 10 {
		b.WriteString(strings.Replace("N 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /RunLengthDecode /Length 2 >>\nstream\nxx\nendstream\nendobj\n", "N", string(rune('0'+i)), 1))
	}
	_, note := BinaryDigest("application/pdf", []byte(b.String()))
	want := "hashed in part as bytes: object stream 0 0: filter /RunLengthDecode not decoded; object stream 1 0: filter /RunLengthDecode not decoded; " +
		"object stream 2 0: filter /RunLengthDecode not decoded; and 7 more"
	if note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	// Past the streams pdfdigest names, the others are counted too.
	b.Reset()
	b.WriteString("%PDF-1.5\n")
	n := pdfdigest.MaxUndecoded + 20
	for i := range n {
		fmt.Fprintf(&b, "%d 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /RunLengthDecode /Length 2 >>\nstream\nxx\nendstream\nendobj\n", i+1)
	}
	if _, note := BinaryDigest("application/pdf", []byte(b.String())); !strings.HasSuffix(note, fmt.Sprintf("; and %d more", n-maxDigestNoteItems)) {
		t.Errorf("note of %d streams %q; want it to count the %d it does not name", n, note, n-maxDigestNoteItems)
	}
}
