package pdfdigest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSum hashes the PDFs real generators wrote (testdata/pdf, all
// of them an op) and a generated one of some 4 MB of content streams;
// its MB/s are of the files' bytes.
func BenchmarkSum(b *testing.B) {
	paths, err := filepath.Glob(filepath.Join("testdata", "pdf", "*.pdf"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("no PDFs in testdata/pdf: %v", err)
	}
	var written [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		written = append(written, data)
	}
	for _, bc := range []struct {
		name  string
		files [][]byte
	}{
		{"generators", written},
		{"large", [][]byte{largePDF(256, 16<<10)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			size := 0
			for _, f := range bc.files {
				size += len(f)
				if _, err := Sum(f, nil); err != nil {
					b.Fatalf("Sum: %v", err)
				}
			}
			b.SetBytes(int64(size))
			b.ResetTimer()
			for range b.N {
				for _, f := range bc.files {
					if _, err := Sum(f, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// largePDF returns a PDF of pages pages, each a content stream of some
// streamSize bytes of text operators, uncompressed, in a cross-reference
// table.
func largePDF(pages, streamSize int) []byte {
	var b bytes.Buffer
	var offsets []int
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	object := func(format string, args ...any) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n", len(offsets))
		fmt.Fprintf(&b, format, args...)
		b.WriteString("\nendobj\n")
	}
	// 1 the catalog, 2 the page tree, 3 the font; then each page and its
	// content stream.
	kids := make([]byte, 0, pages*8)
	for i := range pages {
		kids = fmt.Appendf(kids, "%d 0 R ", 4+2*i)
	}
	object("<< /Type /Catalog /Pages 2 0 R >>")
	object("<< /Type /Pages /Kids [%s] /Count %d >>", kids, pages)
	object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	for i := range pages {
		var content bytes.Buffer
		for line := 0; content.Len() < streamSize; line++ {
			fmt.Fprintf(&content, "BT /F1 10 Tf 20 %d Td (Page %d, line %d: the quick brown fox) Tj ET\n", 800-line%80*10, i, line)
		}
		object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 3 0 R >> >> >>", 5+2*i)
		object("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.Bytes())
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /ID [<00> <00>] >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}
