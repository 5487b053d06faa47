package pdfdigest

import (
	"fmt"
	"testing"
)

// TestSumReferenceSpace: a reference, N G R, is its three tokens, as every
// other value is: a writer that puts other white space or a comment
// between them, or around a reference in an array or a dictionary, writes
// the same file, in an object, a trailer or an object stream. White space
// in a string, or in a stream's data, is still hashed.
func TestSumReferenceSpace(t *testing.T) {
	pdf := func(catalog, trailer string) string {
		return "%PDF-1.4\n1 0 obj\n" + catalog + "\nendobj\ntrailer\n" + trailer + "\n"
	}
	objStm := func(objects string) string {
		data := "1 0 " + objects
		return fmt.Sprintf("%%PDF-1.5\n8 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(data), data)
	}
	stream := func(data string) string {
		return fmt.Sprintf("%%PDF-1.4\n4 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(data), data)
	}
	const catalog, trailer = "<< /Type /Catalog /Pages 2 0 R /Kids [3 0 R 4 0 R] >>", "<< /Root 1 0 R /Size 5 >>"
	for _, tc := range []struct {
		name string
		a, b string
		same bool
	}{
		{"two spaces", pdf(catalog, trailer), pdf("<< /Type /Catalog /Pages 2  0  R /Kids [3 0 R 4 0 R] >>", trailer), true},
		{"an end of line", pdf(catalog, trailer), pdf("<< /Type /Catalog /Pages 2 0\nR /Kids [3\r\n0 R 4 0 R] >>", trailer), true},
		{"a tab and a comment", pdf(catalog, trailer), pdf("<< /Type /Catalog /Pages 2\t0 % the pages\nR /Kids [3 0 R 4 0 R] >>", trailer), true},
		{"around references in an array", pdf(catalog, trailer), pdf("<< /Type /Catalog /Pages 2 0 R /Kids [\n  3 0 R\n  4 0 R\n] >>", trailer), true},
		{"in the trailer", pdf(catalog, trailer), pdf(catalog, "<<\n/Root 1  0\nR\n/Size 5\n>>"), true},
		{"in an object stream", objStm(catalog), objStm("<< /Type /Catalog /Pages 2\n0 R /Kids [3  0  R 4 0\tR] >>"), true},
		{"another object", pdf(catalog, trailer), pdf("<< /Type /Catalog /Pages 2 0 R /Kids [3 0 R 5 0 R] >>", trailer), false},
		{"another generation", pdf(catalog, trailer), pdf("<< /Type /Catalog /Pages 2 1 R /Kids [3 0 R 4 0 R] >>", trailer), false},
		{"in a string", pdf("<< /Title (2 0 R) >>", trailer), pdf("<< /Title (2  0 R) >>", trailer), false},
		{"in a hex string", pdf("<< /Title <32 30> >>", trailer), pdf("<< /Title <32  30> >>", trailer), false},
		{"in a stream", stream("/Im1 Do 2 0 R"), stream("/Im1 Do 2  0 R"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.a == tc.b {
				t.Fatal("the test's two PDFs are the same bytes")
			}
			ha, hb := mustSum(t, []byte(tc.a), nil), mustSum(t, []byte(tc.b), nil)
			if (ha == hb) != tc.same {
				t.Errorf("hashes %x and %x; want them equal: %v\n%s\n%s", ha, hb, tc.same, tc.a, tc.b)
			}
		})
	}
}
