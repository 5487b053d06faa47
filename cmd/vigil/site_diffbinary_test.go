package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
)

// TestSiteDiffBinary: a PDF whose bytes change, served without
// Last-Modified, is a page changed, its line saying how its size and hash
// changed; it was "unversioned", and no change at all. With --content it
// gives its sizes.
func TestSiteDiffBinary(t *testing.T) {
	pdf1 := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
	pdf2 := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<</Title (v2)>>\nendobj\n")
	index := []byte(`<title>Reports</title><a href="report.pdf">Report</a>`)
	site := crawltest.NewSite(t, crawltest.Release{"/docs/index.html": index, "/docs/report.pdf": pdf1})
	dir := t.TempDir()
	first := siteCrawl(t, dir, "first.json", site.URL("/docs/"))
	site.Set(crawltest.Release{"/docs/index.html": index, "/docs/report.pdf": pdf2}, nil)
	second := siteCrawl(t, dir, "second.json", site.URL("/docs/"))
	hash := func(b []byte) string {
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:])[:12]
	}
	code, out := siteDiff(t, "--content", first, second)
	line := regexp.QuoteMeta("~ changed  "+site.URL("/docs/report.pdf")+"  via ./  (importance ") + `\d+\.\d\d%` +
		regexp.QuoteMeta(fmt.Sprintf(`; application/pdf: %d bytes -> %d bytes, sha256:%s… -> sha256:%s…)`, len(pdf1), len(pdf2), hash(pdf1), hash(pdf2)))
	if code != exitChanged || !regexp.MustCompile(`(?m)^`+line+`\n\s+content: \d+ bytes -> \d+ bytes \(application/pdf, not compared: not HTML, XML or text\)$`).MatchString(out) {
		t.Errorf("exit %d, want %d and the line %q:\n%s", code, exitChanged, line, out)
	}
}
