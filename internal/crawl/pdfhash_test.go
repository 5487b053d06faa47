package crawl

import (
	"bytes"
	"compress/zlib"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pdfRun is what one run of a PDF generator writes: what it changes at
// every run (dates, the file's ID, its XMP packet's dates and ids) and the
// document itself (its page's text, its title).
type pdfRun struct {
	created, modified string // the Info dictionary's dates
	id                string // the trailer's /ID, hex
	xmpDate           string
	text, title       string
	// objStm puts the Info dictionary (and the other objects that are no
	// streams) in a FlateDecode object stream, and the cross-reference
	// table in a cross-reference stream (PDF 1.5), as most generators do.
	objStm bool
	// linearized writes a linearization dictionary first, whose values
	// are offsets and the file's length.
	linearized bool
}

// first and second are two runs of a generator on the same document: the
// dates differ in length (a time zone), so every offset after them moves.
var (
	first = pdfRun{created: "D:20240101120000Z", modified: "D:20240101120000Z", id: "0123456789abcdef0123456789abcdef",
		xmpDate: "2024-01-01T12:00:00Z", text: "Hello, world", title: "Report"}
	second = pdfRun{created: "D:20251130093015+01'00'", modified: "D:20251130093016+01'00'", id: "fedcba9876543210fedcba9876543210",
		xmpDate: "2025-11-30T09:30:15.250+01:00", text: "Hello, world", title: "Report"}
)

// writePDF returns the PDF the run r writes: a valid file, its offsets
// and lengths right, as a generator writes it.
func writePDF(t testing.TB, r pdfRun) []byte {
	t.Helper()
	content := fmt.Sprintf("BT /F1 12 Tf 20 100 Td (%s) Tj ET", r.text)
	xmp := fmt.Sprintf(`<?xpacket begin="%s" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
<xmp:CreateDate>%s</xmp:CreateDate><xmpMM:DocumentID>uuid:%s</xmpMM:DocumentID>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`, "\ufeff", r.xmpDate, r.id)
	// Objects 1 to 7; 4 (the page's content) and 5 (XMP) are streams.
	plain := map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R /Metadata 5 0 R >>",
		2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 7 0 R >> >> >>",
		6: fmt.Sprintf("<< /Title (%s) /Producer (pdfhash_test) /CreationDate (%s) /ModDate (%s) >>", r.title, r.created, r.modified),
		7: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	offsets := map[int]int{}
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	if r.linearized {
		// Its values are placeholders of the right kind: offsets and
		// the length change with the dates.
		offsets[9] = b.Len()
		fmt.Fprintf(&b, "9 0 obj\n<< /Linearized 1 /L %d /H [%d 120] /O 3 /E %d /N 1 /T %d >>\nendobj\n", 1000+len(r.created), 500+len(r.modified), 700+len(r.created), 900+len(r.modified))
	}
	stream := func(n int, dict, data string) {
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n<< %s /Length %d >>\nstream\n%s\nendstream\nendobj\n", n, dict, len(data), data)
	}
	stream(4, "", content)
	stream(5, "/Type /Metadata /Subtype /XML", xmp)
	if !r.objStm {
		for _, n := range []int{1, 2, 3, 6, 7} {
			offsets[n] = b.Len()
			fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, plain[n])
		}
		xref := b.Len()
		fmt.Fprintf(&b, "xref\n0 8\n0000000000 65535 f \n")
		for n := 1; n <= 7; n++ {
			fmt.Fprintf(&b, "%010d 00000 n \n", offsets[n])
		}
		fmt.Fprintf(&b, "trailer\n<< /Size 8 /Root 1 0 R /Info 6 0 R /ID [<%s> <%s>] >>\nstartxref\n%d\n%%%%EOF\n", r.id, r.id, xref)
		return b.Bytes()
	}
	// The object stream (8): a header of object numbers and offsets,
	// then the objects.
	var header, body strings.Builder
	for _, n := range []int{1, 2, 3, 6, 7} {
		fmt.Fprintf(&header, "%d %d ", n, body.Len())
		body.WriteString(plain[n] + "\n")
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write([]byte(header.String() + body.String()))
	zw.Close()
	offsets[8] = b.Len()
	fmt.Fprintf(&b, "8 0 obj\n<< /Type /ObjStm /N 5 /First %d /Filter /FlateDecode /Length %d >>\nstream\n", header.Len(), z.Len())
	b.Write(z.Bytes())
	b.WriteString("\nendstream\nendobj\n")
	// The cross-reference stream (10): type, offset or object stream,
	// generation or index, in 1, 4 and 2 bytes.
	xref := b.Len()
	var entries []byte
	entry := func(kind byte, field2 int, field3 int) {
		entries = append(entries, kind, byte(field2>>24), byte(field2>>16), byte(field2>>8), byte(field2), byte(field3>>8), byte(field3))
	}
	entry(0, 0, 65535)
	inStream := map[int]int{1: 0, 2: 1, 3: 2, 6: 3, 7: 4}
	for n := 1; n <= 10; n++ {
		switch i, ok := inStream[n]; {
		case ok:
			entry(2, 8, i)
		case n == 10:
			entry(1, xref, 0)
		default:
			entry(1, offsets[n], 0)
		}
	}
	fmt.Fprintf(&b, "10 0 obj\n<< /Type /XRef /Size 11 /W [1 4 2] /Root 1 0 R /Info 6 0 R /ID [<%s> <%s>] /Length %d >>\nstream\n", r.id, r.id, len(entries))
	b.Write(entries)
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xref)
	return b.Bytes()
}

// TestHashPDF: two runs of a generator on one document hash the same,
// their dates, /ID, XMP and so offsets apart, whether the Info dictionary
// is an object of the file or in an object stream; a changed page or
// title hashes otherwise.
func TestHashPDF(t *testing.T) {
	changed := func(r pdfRun, edit func(*pdfRun)) pdfRun { edit(&r); return r }
	for _, layout := range []struct {
		name               string
		objStm, linearized bool
	}{{"xref table", false, false}, {"object and xref streams", true, false}, {"linearized", false, true}} {
		run := func(r pdfRun) pdfRun { r.objStm, r.linearized = layout.objStm, layout.linearized; return r }
		for _, tc := range []struct {
			name string
			a, b pdfRun
			same bool
		}{
			{"generated again", run(first), run(second), true},
			{"same run", run(first), run(first), true},
			{"page text changed", run(first), run(changed(second, func(r *pdfRun) { r.text = "Hello, World" })), false},
			{"title changed", run(first), run(changed(second, func(r *pdfRun) { r.title = "Report 2" })), false},
		} {
			t.Run(layout.name+"/"+tc.name, func(t *testing.T) {
				a, b := writePDF(t, tc.a), writePDF(t, tc.b)
				if tc.a != tc.b && bytes.Equal(a, b) {
					t.Fatal("the test's two PDFs are the same bytes")
				}
				ha, hb := digestBinary("application/pdf", a), digestBinary("application/pdf", b)
				if (ha == hb) != tc.same {
					t.Errorf("hashes %s and %s; want them equal: %v\n%s\n%s", ha, hb, tc.same, a, b)
				}
				if ha == hashBody(a) {
					t.Errorf("the PDF was hashed as bytes, not parsed")
				}
			})
		}
	}
}

// TestHashPDFAsBytes: a document that is no PDF, and a PDF that does not
// parse, are hashed as their bytes; a PDF served as another type is known
// by its magic.
func TestHashPDFAsBytes(t *testing.T) {
	pdf := writePDF(t, first)
	for _, tc := range []struct {
		name, mediaType string
		body            []byte
		asBytes         bool
	}{
		{"image", "image/png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), true},
		{"PDF served as octet-stream", "application/octet-stream", pdf, false},
		{"unterminated string", "application/pdf", []byte("%PDF-1.4\n1 0 obj\n<< /Title (open >>\nendobj\n"), true},
		{"stream without its end", "application/pdf", []byte("%PDF-1.4\n1 0 obj\n<< /Length 100 >>\nstream\nBT ET\n"), true},
		{"unbalanced dictionary", "application/pdf", []byte("%PDF-1.4\n1 0 obj\n<< /A [1 2 >>\nendobj\n"), true},
		{"nested too deep", "application/pdf", []byte("%PDF-1.4\n1 0 obj\n" + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\nendobj\n"), true},
		{"PDF type, no PDF", "application/pdf", []byte("<html>not found</html>"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := digestBinary(tc.mediaType, tc.body)
			if (got == hashBody(tc.body)) != tc.asBytes {
				t.Errorf("digest %s, hash of the bytes %s; want them equal: %v", got, hashBody(tc.body), tc.asBytes)
			}
			if !hashPattern.MatchString(got) {
				t.Errorf("digest %q is no snapshot hash", got)
			}
		})
	}
}

// TestHashPDFObjectStreamCap: an object stream that inflates past the cap
// is hashed as its compressed bytes, not inflated: two runs no longer hash
// the same, and the PDF is still parsed.
func TestHashPDFObjectStreamCap(t *testing.T) {
	r1, r2 := first, second
	r1.objStm, r2.objStm = true, true
	p1, p2 := writePDF(t, r1), writePDF(t, r2)
	for _, tc := range []struct {
		name      string
		inflate   int
		wantEqual bool
	}{{"under the cap", 1 << 20, true}, {"past the cap", 16, false}} {
		t.Run(tc.name, func(t *testing.T) {
			h1, ok1 := hashPDF(p1, tc.inflate)
			h2, ok2 := hashPDF(p2, tc.inflate)
			if !ok1 || !ok2 {
				t.Fatalf("not parsed: %v, %v", ok1, ok2)
			}
			if (h1 == h2) != tc.wantEqual {
				t.Errorf("hashes %x and %x; want them equal: %v", h1, h2, tc.wantEqual)
			}
		})
	}
}

// FuzzHashPDF: the normaliser never panics, and hashes what it cannot
// parse as bytes. Its seed corpus is testdata/fuzz/FuzzHashPDF (the PDFs
// of TestHashPDF; go test -run TestHashPDF -update writes them again).
func FuzzHashPDF(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		got := digestBinary("application/pdf", data)
		if !hashPattern.MatchString(got) {
			t.Fatalf("digest %q is no snapshot hash", got)
		}
		if got != digestBinary("application/pdf", data) {
			t.Fatal("two digests of the same bytes differ")
		}
	})
}

// TestFuzzHashPDFCorpus writes the seed corpus of FuzzHashPDF with
// -update, and otherwise checks that it is there.
func TestFuzzHashPDFCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzHashPDF")
	seeds := map[string][]byte{}
	for _, layout := range []struct {
		name               string
		objStm, linearized bool
	}{{"table", false, false}, {"objstm", true, false}, {"linearized", false, true}} {
		r := first
		r.objStm, r.linearized = layout.objStm, layout.linearized
		seeds[layout.name] = writePDF(t, r)
	}
	for name, data := range seeds {
		path := filepath.Join(dir, name)
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s: missing or stale (go test ./internal/crawl -run TestFuzzHashPDFCorpus -update): %v", path, err)
		}
	}
}
