package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
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
			p.Hash, p.Size, p.Version, p.VersionKind, p.DigestNote = "", 0, "", "", ""
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

// TestSiteDiffDigestNote: a PDF hashed as its bytes (here one that does
// not parse, its date new at every run) is changed at every crawl, and
// says why: vigil site crawl names it after its summary, vigil site diff
// on its changed line and in --format json's digestNote.
func TestSiteDiffDigestNote(t *testing.T) {
	unparsed := func(date string) []byte {
		return []byte("%PDF-1.4\n1 0 obj\n<< /CreationDate (D:" + date + ") /Title (open >>\nendobj\n")
	}
	release := func(date string) crawltest.Release {
		r := binaryRelease(crawltest.FirstPDFRun(), logoA)
		r["/report.pdf"] = unparsed(date)
		return r
	}
	s := crawltest.NewSite(t, release("20240101"))
	dir := t.TempDir()
	before := filepath.Join(dir, "before.json")
	code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--out", before, s.URL("/"))
	note := fmt.Sprintf(`hashed as bytes: pdf syntax at byte %d: a string that does not end: expected ")"`, strings.Index(string(unparsed("20240101")), "(open"))
	if want := "vigil site crawl: note: " + s.URL("/report.pdf") + ": " + note + "\n"; code != exitOK || !strings.Contains(stderr, want) {
		t.Errorf("vigil site crawl: exit %d, want 0 and %q in:\n%s", code, want, stderr)
	}
	s.Set(release("20251130093015"), nil)
	after := siteCrawl(t, dir, "after.json", s.URL("/"))
	code, out := siteDiff(t, before, after)
	note = strings.Replace(note, fmt.Sprint(strings.Index(string(unparsed("20240101")), "(open")), fmt.Sprint(strings.Index(string(unparsed("20251130093015")), "(open")), 1)
	line := regexp.MustCompile(`(?m)^~ changed  ` + regexp.QuoteMeta(s.URL("/report.pdf")) + `  via \./  \(importance [0-9.]+%; ` + regexp.QuoteMeta(note) + `\)$`)
	if code != exitChanged || !line.MatchString(out) {
		t.Errorf("vigil site diff: exit %d, want 1 and a line %s in:\n%s", code, line, out)
	}
	_, out = siteDiff(t, "--format", "json", before, after)
	var delta struct {
		DigestNote map[string]string `json:"digestNote"`
	}
	if err := json.Unmarshal([]byte(out), &delta); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{s.URL("/report.pdf"): note}; !maps.Equal(delta.DigestNote, want) {
		t.Errorf("--format json: digestNote %q, want %q", delta.DigestNote, want)
	}
}
