package pdfdigest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the seed corpus of FuzzSum")

// TestSum: two runs of a generator on one document hash the same, their
// dates (an annotation's /M too), /ID, XMP, font subset tags and so
// offsets apart, whether the Info dictionary is an object of the file or
// in an object stream; a changed page, title, font or annotation hashes
// otherwise.
func TestSum(t *testing.T) {
	first, second := firstPDFRun(), secondPDFRun()
	changed := func(r pdfRun, edit func(*pdfRun)) pdfRun { edit(&r); return r }
	for _, layout := range []struct {
		name               string
		objStm, linearized bool
	}{{"xref table", false, false}, {"object and xref streams", true, false}, {"linearized", false, true}} {
		run := func(r pdfRun) pdfRun {
			r.ObjectStreams, r.Linearized = layout.objStm, layout.linearized
			return r
		}
		for _, tc := range []struct {
			name string
			a, b pdfRun
			same bool
		}{
			{"generated again", run(first), run(second), true},
			{"same run", run(first), run(first), true},
			{"page text changed", run(first), run(changed(second, func(r *pdfRun) { r.Text = "Hello, World" })), false},
			{"title changed", run(first), run(changed(second, func(r *pdfRun) { r.Title = "Report 2" })), false},
			{"font changed", run(first), run(changed(second, func(r *pdfRun) { r.Font = "Times-Roman" })), false},
			{"annotation changed", run(first), run(changed(second, func(r *pdfRun) { r.Note = "Checked again" })), false},
			{"annotation's date not a date", run(changed(first, func(r *pdfRun) { r.Modified = "Monday" })),
				run(changed(first, func(r *pdfRun) { r.Modified = "Tuesday" })), false},
		} {
			t.Run(layout.name+"/"+tc.name, func(t *testing.T) {
				a, b := writePDF(tc.a), writePDF(tc.b)
				if tc.a != tc.b && bytes.Equal(a, b) {
					t.Fatal("the test's two PDFs are the same bytes")
				}
				ha, hb := mustSum(t, a, nil), mustSum(t, b, nil)
				if (ha == hb) != tc.same {
					t.Errorf("hashes %x and %x; want them equal: %v\n%s\n%s", ha, hb, tc.same, a, b)
				}
			})
		}
	}
}

// mustSum returns Sum(b, opt), failing the test if b does not parse.
func mustSum(t *testing.T, b []byte, opt *Options) [32]byte {
	t.Helper()
	sum, err := Sum(b, opt)
	if err != nil {
		t.Fatalf("Sum: %v", err)
	}
	return sum
}

// TestSumGenerated: PDFs written by real generators, twice with the same
// page at different times, hash the same; with a word changed, otherwise.
// In testdata/pdf: ghostscript-* by gs -sDEVICE=pdfwrite from PostScript;
// cairo-* by Cairo 1.16 (a DejaVu Sans subset embedded); reportlab-* by
// ReportLab's canvas (compressed pages); qpdf-* by pypdf from
// reportlab-1's page with dates of different lengths, then qpdf
// --object-streams=generate, --linearize, or both; revision-* by
// appending a revision to a ReportLab file (uncompressed pages), of new
// Info dates, or of the page's content with a new word.
func TestSumGenerated(t *testing.T) {
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
			a, b := readPDF(t, tc.a), readPDF(t, tc.b)
			if bytes.Equal(a, b) {
				t.Fatal("the test's two PDFs are the same bytes")
			}
			ha, hb := mustSum(t, a, nil), mustSum(t, b, nil)
			if (ha == hb) != tc.same {
				t.Errorf("hashes %x and %x; want them equal: %v", ha, hb, tc.same)
			}
		})
	}
}

// readPDF returns testdata/pdf/name.pdf.
func readPDF(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "pdf", name+".pdf"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSumSyntaxError: a file Sum cannot read is a *SyntaxError that says
// where (at: the text whose first byte is its offset; "" for the end of
// the file) and what was expected; one within the limits is read.
func TestSumSyntaxError(t *testing.T) {
	for _, tc := range []struct {
		name, pdf string
		at, msg   string // msg "" if the file is read
	}{
		{"no header", "<html>not found</html>", "<html>", "expected %PDF- in the first 1024 bytes"},
		{"header past its window", strings.Repeat(" ", 1024) + "%PDF-1.4\n", " ", "expected %PDF- in the first 1024 bytes"},
		{"unterminated string", "%PDF-1.4\n1 0 obj\n<< /Title (open >>\nendobj\n", "(open", `a string that does not end: expected ")"`},
		{"unterminated hex string", "%PDF-1.4\n1 0 obj\n<0a1b", "<0a1b", `a hex string that does not end: expected ">"`},
		{"stream without its end", "%PDF-1.4\n1 0 obj\n<< /Length 100 >>\nstream\nBT ET\n", "BT ET", "a stream's data that does not end: expected endstream"},
		{"stream without dictionary", "%PDF-1.4\n1 0 obj\n[1 2]\nstream\nBT ET\nendstream\nendobj\n", "stream", "expected a dictionary before stream"},
		{"unbalanced dictionary", "%PDF-1.4\n1 0 obj\n<< /A [1 2 >>\nendobj\n", ">>", `expected an object, found ">>"`},
		{"key no name", "%PDF-1.4\n1 0 obj\n<< (key) 1 >>\nendobj\n", "(key)", `expected a name as a dictionary's key, found "(key)"`},
		{"key without value", "%PDF-1.4\n1 0 obj\n<< /A 1 /B >>\nendobj\n", ">>", `expected a value for the dictionary's last key, found ">>"`},
		{"file ends in an object", "%PDF-1.4\n1 0 obj\n", "", "expected an object, found the end of the file"},
		{"trailer without dictionary", "%PDF-1.4\ntrailer\n", "", "expected an object, found the end of the file"},
		{"nested too deep", "%PDF-1.4\n1 0 obj\n" + strings.Repeat("[", 257) + strings.Repeat("]", 257) + "\nendobj\n", "[]", "expected at most 256 nested arrays and dictionaries"},
		{"an object too large", "%PDF-1.4\n1 0 obj\n[" + strings.Repeat("0 ", maxValues-2) + "8 9 ]\nendobj\n", "9 ]", "expected at most 131072 values in one object"},
		// Each value read is held until the object is written: a
		// dictionary of 500 000 keys (2.5 MB) held 177 MB of heap.
		{"a dictionary of 200 000 values", "%PDF-1.4\n1 0 obj\n<<" + strings.Repeat("/A 0 ", 65535) + "/B 1 >>\nendobj\n", "1 >>", "expected at most 131072 values in one object"},
		{"an array of 100 000 values (a large font's /W)", "%PDF-1.4\n1 0 obj\n[" + strings.Repeat("500 ", 100000) + "]\nendobj\n", "", ""},
		{"nested 256 deep", "%PDF-1.4\n1 0 obj\n" + strings.Repeat("[", 256) + strings.Repeat("]", 256) + "\nendobj\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum, err := Sum([]byte(tc.pdf), nil)
			if tc.msg == "" {
				if err != nil {
					t.Fatalf("Sum: %v", err)
				}
				return
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want a *SyntaxError", err, err)
			}
			at := len(tc.pdf)
			if tc.at != "" {
				at = strings.Index(tc.pdf, tc.at)
			}
			if se.Offset != at || se.Msg != tc.msg {
				t.Errorf("error at byte %d: %q; want at byte %d: %q", se.Offset, se.Msg, at, tc.msg)
			}
			if want := fmt.Sprintf("pdf syntax at byte %d: %s", at, tc.msg); err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			if sum != [32]byte{} {
				t.Errorf("sum %x with an error, want zero", sum)
			}
		})
	}
}

// TestSumStreamEnd: a stream whose /Length is a reference (as Ghostscript
// writes it) ends at the endstream followed by endobj, not at the word
// endstream in its data, uncompressed: the rest of the data, read as
// objects, lost what follows a % (a comment) and white space, so a change
// there (of the same length: the /Length object is hashed) was no change.
func TestSumStreamEnd(t *testing.T) {
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
			ha, hb := mustSum(t, pdf(tc.a), nil), mustSum(t, pdf(tc.b), nil)
			if ha == hb {
				t.Errorf("hashes %x and %x, want them to differ", ha, hb)
			}
		})
	}
}

// TestSumInflateCap: an object stream that inflates past the cap is
// hashed as its compressed bytes, not inflated: two runs no longer hash
// the same, and the PDF is still read. A cap of 0 is DefaultInflateCap; a
// negative one inflates nothing.
func TestSumInflateCap(t *testing.T) {
	r1, r2 := firstPDFRun(), secondPDFRun()
	r1.ObjectStreams, r2.ObjectStreams = true, true
	p1, p2 := writePDF(r1), writePDF(r2)
	for _, tc := range []struct {
		name      string
		opt       *Options
		wantEqual bool
	}{
		{"no options", nil, true},
		{"default cap", &Options{}, true},
		{"under the cap", &Options{InflateCap: 1 << 20}, true},
		{"past the cap", &Options{InflateCap: 16}, false},
		{"no inflating", &Options{InflateCap: -1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h1, h2 := mustSum(t, p1, tc.opt), mustSum(t, p2, tc.opt)
			if (h1 == h2) != tc.wantEqual {
				t.Errorf("hashes %x and %x; want them equal: %v", h1, h2, tc.wantEqual)
			}
		})
	}
}

// FuzzSum: Sum never panics, is a function of its input, and fails only
// with a *SyntaxError whose offset is in the file or an *EncryptedError
// that says why. Its seed corpus is testdata/fuzz/FuzzSum (go test -run
// TestFuzzSumCorpus -update writes it again).
func FuzzSum(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		sum, err := Sum(data, nil)
		again, err2 := Sum(data, nil)
		if sum != again || (err == nil) != (err2 == nil) {
			t.Fatalf("two sums of the same bytes differ: %x, %v; %x, %v", sum, err, again, err2)
		}
		if err == nil {
			return
		}
		var se *SyntaxError
		var ee *EncryptedError
		switch {
		case errors.As(err, &ee):
			if ee.Reason == "" {
				t.Fatalf("error %#v says no reason", err)
			}
		case !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(data) || se.Msg == "":
			t.Fatalf("error %#v is no *SyntaxError within the file's %d bytes", err, len(data))
		}
		if sum != [32]byte{} {
			t.Fatalf("sum %x with an error, want zero", sum)
		}
	})
}

// TestFuzzSumCorpus writes the seed corpus of FuzzSum with -update, and
// otherwise checks that it is there.
func TestFuzzSumCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzSum")
	seeds := map[string][]byte{}
	for _, layout := range []struct {
		name               string
		objStm, linearized bool
	}{{"table", false, false}, {"objstm", true, false}, {"linearized", false, true}} {
		r := firstPDFRun()
		r.ObjectStreams, r.Linearized = layout.objStm, layout.linearized
		seeds[layout.name] = writePDF(r)
	}
	// Object and metadata streams under predictors and filter chains.
	for _, filter := range []string{"flate-png-optimum", "flate-tiff", "lzw", "ahx-flate-png", "a85-flate"} {
		r := firstPDFRun()
		r.ObjectStreams, r.Filter = true, filter
		seeds["filter-"+filter] = writePDF(r)
	}
	// Files qpdf encrypted with an empty user password, and with one.
	for _, name := range []string{"encrypted-rc4-40-1", "encrypted-aes-128-1", "encrypted-aes-256-table-1", "encrypted-user-password"} {
		seeds[name] = readEncrypted(t, name)
	}
	// An RC4 file whose key's length its crypt filter alone gives, and
	// one whose reference to its /Encrypt dictionary has a comment.
	seeds["encrypted-rc4-cf-length"] = writeRC4PDF(rc4Run{KeyBytes: 16, CFLength: "/Length 16", ID: "0123456789abcdef", Title: "Report", Created: "D:20240101120000Z", Text: "Hello"})
	seeds["encrypted-rc4-reference"] = writeRC4PDF(rc4Run{KeyBytes: 16, Length: "/Length 128", EncryptGen: 1, EncryptRef: "5 %c\n1 R", ID: "0123456789abcdef", Title: "Report", Created: "D:20240101120000Z", Text: "Hello"})
	// And files it cannot read, or reads in part.
	seeds["truncated"] = seeds["objstm"][:len(seeds["objstm"])*2/3]
	seeds["unterminated-string"] = []byte("%PDF-1.4\n1 0 obj\n<< /Title (open >>\nendobj\n")
	seeds["stray-delimiters"] = []byte("%PDF-1.4\n>> ] ) } 1 0 R\ntrailer\n<< /ID [<00> <01>] /Prev 12 >>\nstartxref\nx\n%%EOF\n")
	for name, data := range seeds {
		path := filepath.Join(dir, name)
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if *update {
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
			t.Errorf("%s: missing or stale (go test ./pdfdigest -run TestFuzzSumCorpus -update): %v", path, err)
		}
	}
}
