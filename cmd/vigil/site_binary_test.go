package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
)

// binaryRelease is a site of a page linking to a PDF, that run writes,
// and an image.
func binaryRelease(run crawltest.PDFRun, image []byte) crawltest.Release {
	return crawltest.Release{
		"/index.html": []byte(`<!doctype html><title>Docs</title><a href="report.pdf">Report</a> <a href="logo.png">Logo</a>`),
		"/report.pdf": crawltest.PDF(run),
		"/logo.png":   image,
	}
}

var (
	logoA = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	logoB = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x02\x08\x06\x00\x00\x00\x72\xb6\x0d\x24")
)

// writeAsBefore writes the snapshot file name as a Vigil before binary
// leaves were hashed wrote it: without their hash and size, a leaf served
// without Last-Modified without a version.
func writeAsBefore(t *testing.T, name, out string) string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	snap, err := crawl.Decode(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range snap.Pages {
		if p.ContentType == "application/pdf" || p.ContentType == "image/png" {
			p.Hash, p.Size, p.Version, p.VersionKind = "", 0, "", ""
		}
	}
	g, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := snap.Encode(g); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSiteDiffBinary: two crawls of a site on loopback, served without
// Last-Modified, through vigil site crawl and vigil site diff: a PDF
// generated again (new dates, /ID, XMP, offsets) is no change; a PDF with
// a new text and an image replaced are changed, their sizes told with
// --content; against a snapshot of a Vigil before binary leaves were
// hashed, no binary is changed.
func TestSiteDiffBinary(t *testing.T) {
	first, second := crawltest.FirstPDFRun(), crawltest.SecondPDFRun()
	rewritten := second
	rewritten.Text = "Hello, World"
	s := crawltest.NewSite(t, binaryRelease(first, logoA))
	dir := t.TempDir()
	start := s.URL("/")
	before := siteCrawl(t, dir, "before.json", start)
	old := writeAsBefore(t, before, filepath.Join(dir, "old.json"))
	for i, tc := range []struct {
		name    string
		run     crawltest.PDFRun
		image   []byte
		changed []string // the pages changed
		content string   // what --content says of them
	}{
		{"PDF generated again", second, logoA, nil, ""},
		{"PDF with a new text", rewritten, logoA, []string{"/report.pdf"}, "bytes (application/pdf, not compared: not HTML, XML or text)"},
		{"image replaced", first, logoB, []string{"/logo.png"}, "33 bytes -> 33 bytes (image/png, not compared: not HTML, XML or text)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.Set(binaryRelease(tc.run, tc.image), nil)
			after := siteCrawl(t, dir, fmt.Sprintf("after%d.json", i), start)
			wantCode := exitOK
			if tc.changed != nil {
				wantCode = exitChanged
			}
			code, out := siteDiff(t, before, after)
			if code != wantCode {
				t.Errorf("exit %d, want %d:\n%s", code, wantCode, out)
			}
			var changed []string
			for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if m := summaryLine.FindStringSubmatch(line); m != nil {
					changed = append(changed, m[1]+strings.TrimPrefix(m[3], s.Srv.URL))
				}
			}
			var want []string
			for _, p := range tc.changed {
				want = append(want, "~"+p)
			}
			if !slices.Equal(changed, want) {
				t.Errorf("pages %q, want %q:\n%s", changed, want, out)
			}
			if tc.changed != nil {
				if _, out := siteDiff(t, "--content", before, after); !strings.Contains(out, "content: ") || !strings.Contains(out, tc.content) {
					t.Errorf("--content: want %q:\n%s", tc.content, out)
				}
			}
			if code, out := siteDiff(t, old, after); code != exitOK {
				t.Errorf("against a snapshot of before: exit %d, want 0:\n%s", code, out)
			}
		})
	}
	// Generated again under a new Last-Modified date: no change by
	// content; by date a change, whose content --content says is the
	// same.
	t.Run("PDF generated again under a new date", func(t *testing.T) {
		day := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
		s.Set(binaryRelease(first, logoA), map[string]time.Time{"/report.pdf": day})
		dated := siteCrawl(t, dir, "dated1.json", start)
		s.Set(binaryRelease(second, logoA), map[string]time.Time{"/report.pdf": day.AddDate(0, 0, 1)})
		again := siteCrawl(t, dir, "dated2.json", start)
		if code, out := siteDiff(t, dated, again); code != exitOK {
			t.Errorf("by content: exit %d, want 0:\n%s", code, out)
		}
		code, out := siteDiff(t, "--identity", "date", "--content", dated, again)
		if code != exitChanged || !strings.Contains(out, "~ changed  "+s.URL("/report.pdf")) ||
			!strings.Contains(out, "content: the same content (the version changed, the content did not)") {
			t.Errorf("by date: exit %d, want 1, report.pdf changed, the same content:\n%s", code, out)
		}
	})
}
