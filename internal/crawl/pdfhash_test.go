package crawl

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
)

// TestHashPDF: two runs of a generator on one document hash the same,
// their dates (an annotation's /M too), /ID, XMP, font subset tags and so
// offsets apart, whether the Info dictionary is an object of the file or
// in an object stream; a changed page, title, font or annotation hashes
// otherwise.
func TestHashPDF(t *testing.T) {
	first, second := crawltest.FirstPDFRun(), crawltest.SecondPDFRun()
	changed := func(r crawltest.PDFRun, edit func(*crawltest.PDFRun)) crawltest.PDFRun { edit(&r); return r }
	for _, layout := range []struct {
		name               string
		objStm, linearized bool
	}{{"xref table", false, false}, {"object and xref streams", true, false}, {"linearized", false, true}} {
		run := func(r crawltest.PDFRun) crawltest.PDFRun {
			r.ObjectStreams, r.Linearized = layout.objStm, layout.linearized
			return r
		}
		for _, tc := range []struct {
			name string
			a, b crawltest.PDFRun
			same bool
		}{
			{"generated again", run(first), run(second), true},
			{"same run", run(first), run(first), true},
			{"page text changed", run(first), run(changed(second, func(r *crawltest.PDFRun) { r.Text = "Hello, World" })), false},
			{"title changed", run(first), run(changed(second, func(r *crawltest.PDFRun) { r.Title = "Report 2" })), false},
			{"font changed", run(first), run(changed(second, func(r *crawltest.PDFRun) { r.Font = "Times-Roman" })), false},
			{"annotation changed", run(first), run(changed(second, func(r *crawltest.PDFRun) { r.Note = "Checked again" })), false},
			{"annotation's date not a date", run(changed(first, func(r *crawltest.PDFRun) { r.Modified = "Monday" })),
				run(changed(first, func(r *crawltest.PDFRun) { r.Modified = "Tuesday" })), false},
		} {
			t.Run(layout.name+"/"+tc.name, func(t *testing.T) {
				a, b := crawltest.PDF(tc.a), crawltest.PDF(tc.b)
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

// TestHashPDFGenerated: PDFs written by real generators, twice with the
// same page at different times, hash the same; with a word changed,
// otherwise. In testdata/pdf: ghostscript-* by gs -sDEVICE=pdfwrite from
// PostScript; cairo-* by Cairo 1.16 (a DejaVu Sans subset embedded);
// reportlab-* by ReportLab's canvas (compressed pages); qpdf-*
// by pypdf from reportlab-1's page with dates of different lengths, then
// qpdf --object-streams=generate, --linearize, or both; revision-* by
// appending a revision to a ReportLab file (uncompressed pages), of new
// Info dates, or of the page's content with a new word.
func TestHashPDFGenerated(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"ghostscript-1", "ghostscript-2", true},
		{"ghostscript-1", "ghostscript-word", false},
		{"cairo-1", "cairo-2", true},
		{"cairo-1", "cairo-word", false},
		{"reportlab-1", "reportlab-2", true},
		{"reportlab-1", "reportlab-word", false},
		{"qpdf-objstm-1", "qpdf-objstm-2", true},
		{"qpdf-objstm-1", "qpdf-objstm-word", false},
		{"qpdf-linearized-1", "qpdf-linearized-2", true},
		{"qpdf-linearized-1", "qpdf-linearized-word", false},
		{"qpdf-linearized-objstm-1", "qpdf-linearized-objstm-2", true},
		{"qpdf-linearized-objstm-1", "qpdf-linearized-objstm-word", false},
		{"revision-dates-1", "revision-dates-2", true},
		{"revision-word-1", "revision-word-2", false},
	} {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			a, err := os.ReadFile(filepath.Join("testdata", "pdf", tc.a+".pdf"))
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join("testdata", "pdf", tc.b+".pdf"))
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(a, b) {
				t.Fatal("the test's two PDFs are the same bytes")
			}
			ha, hb := digestBinary("application/pdf", a), digestBinary("application/pdf", b)
			if (ha == hb) != tc.same {
				t.Errorf("hashes %s and %s; want them equal: %v", ha, hb, tc.same)
			}
			if ha == hashBody(a) || hb == hashBody(b) {
				t.Errorf("a PDF was hashed as bytes, not parsed")
			}
		})
	}
}

// TestHashPDFAsBytes: a document that is no PDF, and a PDF that does not
// parse, are hashed as their bytes; a PDF served as another type is known
// by its magic.
func TestHashPDFAsBytes(t *testing.T) {
	pdf := crawltest.PDF(crawltest.FirstPDFRun())
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
		{"an object too large", "application/pdf", []byte("%PDF-1.4\n1 0 obj\n[" + strings.Repeat("0 ", pdfMaxValues+1) + "]\nendobj\n"), true},
		// Each value read is held until the object is written: a
		// dictionary of 500 000 keys (2.5 MB) held 177 MB of heap.
		{"a dictionary of 200 000 values", "application/pdf", []byte("%PDF-1.4\n1 0 obj\n<<" + strings.Repeat("/A 0 ", 100000) + ">>\nendobj\n"), true},
		{"an array of 100 000 values (a large font's /W)", "application/pdf", []byte("%PDF-1.4\n1 0 obj\n[" + strings.Repeat("500 ", 100000) + "]\nendobj\n"), false},
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

// TestHashPDFStreamEnd: a stream whose /Length is a reference (as
// Ghostscript writes it) ends at the endstream followed by endobj, not at
// the word endstream in its data, uncompressed: the rest of the data,
// read as objects, lost what follows a % (a comment) and white space, so
// a change there (of the same length: the /Length object is hashed) was
// no change.
func TestHashPDFStreamEnd(t *testing.T) {
	pdf := func(text string) []byte {
		content := "BT /F1 12 Tf 20 100 Td (" + text + ") Tj ET"
		return []byte(fmt.Sprintf("%%PDF-1.4\n1 0 obj\n<< /Length 2 0 R >>\nstream\n%s\nendstream\nendobj\n2 0 obj\n%d\nendobj\n", content, len(content)))
	}
	for _, tc := range []struct {
		name string
		a, b string
	}{
		{"after a %", "the endstream keyword, 100% of it", "the endstream keyword, 100% of us"},
		{"white space", "see endstream: a  b", "see endstream: a \tb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := pdf(tc.a), pdf(tc.b)
			ha, oka := hashPDF(a, pdfInflateCap)
			hb, okb := hashPDF(b, pdfInflateCap)
			if !oka || !okb || ha == hb {
				t.Errorf("parsed %v, %v; hashes %x and %x, want them to differ", oka, okb, ha, hb)
			}
		})
	}
}

// TestHashPDFObjectStreamCap: an object stream that inflates past the cap
// is hashed as its compressed bytes, not inflated: two runs no longer hash
// the same, and the PDF is still parsed.
func TestHashPDFObjectStreamCap(t *testing.T) {
	r1, r2 := crawltest.FirstPDFRun(), crawltest.SecondPDFRun()
	r1.ObjectStreams, r2.ObjectStreams = true, true
	p1, p2 := crawltest.PDF(r1), crawltest.PDF(r2)
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
		r := crawltest.FirstPDFRun()
		r.ObjectStreams, r.Linearized = layout.objStm, layout.linearized
		seeds[layout.name] = crawltest.PDF(r)
	}
	// And files it cannot read, or reads in part.
	seeds["truncated"] = seeds["objstm"][:len(seeds["objstm"])*2/3]
	seeds["unterminated-string"] = []byte("%PDF-1.4\n1 0 obj\n<< /Title (open >>\nendobj\n")
	seeds["stray-delimiters"] = []byte("%PDF-1.4\n>> ] ) } 1 0 R\ntrailer\n<< /ID [<00> <01>] /Prev 12 >>\nstartxref\nx\n%%EOF\n")
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
