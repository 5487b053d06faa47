package main

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestWARCImportJoinsSegmentsAcrossFiles: vigil import warc takes the
// files of a crawl, and a response split in segments across two of them
// (its first segments at the end of one, the rest in the next: why WARC
// 1.1 splits records) is imported whole, with the other records of both,
// in one transaction; it was named "the segments after it are missing"
// and not imported, and a second file could not be given. A chain the
// files leave incomplete is named by its first segment's file, number
// and id, and the rest is imported.
func TestWARCImportJoinsSegmentsAcrossFiles(t *testing.T) {
	c := writeSplitCrawl(t)
	body, split, other, info, first, second := c.body, c.split, c.other, c.info, c.first, c.second
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, first, second)
	if code != exitOK || !strings.Contains(errOut, "imported 2 versions;") {
		t.Fatalf("import of both files: exit %d\n%s", code, errOut)
	}
	got := dump(t, dst)
	if v := got["http://example.com/split"]; len(v) != 1 || string(v[0].body) != body || v[0].v.ContentType != "text/html" {
		t.Errorf("the page split across files imported as %v", v)
	}
	if len(got["http://example.com/other"]) != 1 {
		t.Errorf("the second file's other page imported as %v", got["http://example.com/other"])
	}

	// The last segment in no file given.
	third := writeForeignWARC(t, false, append([]foreignRecord{info, info, other}, split[2:len(split)-1]...)...)
	dst = t.TempDir()
	_, errOut, code = runCmd(t, nil, "import", "warc", "--data", dst, first, third)
	id := warc.NameID("foreign a")
	if code != exitError || !strings.Contains(errOut, first+": record 1 at offset 0 ") || !strings.Contains(errOut, "("+id+"): split in segments, segment") ||
		!strings.Contains(errOut, "the last read, in "+third+", without WARC-Segment-Total-Length: the segments after it are missing; not imported") ||
		!strings.Contains(errOut, "imported 1 version;") {
		t.Errorf("the last segment in no file: exit %d\n%s", code, errOut)
	}
	if got := dump(t, dst); len(got) != 1 || got["http://example.com/split"] != nil {
		t.Errorf("the last segment in no file: imported %v", got)
	}
}

// TestWARCImportSegmentsFilesOutOfOrder: the files of a crawl named out
// of their order, the file of a record's continuations before the file
// of its first segment, are imported as in their order: the record is
// joined, in the one transaction of the import. It was two errors for
// the record, its continuation's and its first segment's, and no word
// of the order.
func TestWARCImportSegmentsFilesOutOfOrder(t *testing.T) {
	c := writeSplitCrawl(t)
	body, first, second := c.body, c.first, c.second
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, second, first)
	if code != exitOK || !strings.Contains(errOut, "imported 2 versions;") {
		t.Fatalf("import of both files, the second first: exit %d\n%s", code, errOut)
	}
	if v := dump(t, dst)["http://example.com/split"]; len(v) != 1 || string(v[0].body) != body {
		t.Errorf("the page split across files imported as %v", v)
	}

	// Its first segment in no file given: one error, naming the first
	// continuation read.
	dst = t.TempDir()
	_, errOut, code = runCmd(t, nil, "import", "warc", "--data", dst, second)
	if code != exitError || strings.Count(errOut, "not imported") != 1 || !strings.Contains(errOut, "whose first segment is not in the file; not imported") {
		t.Errorf("continuations alone: exit %d\n%s", code, errOut)
	}
}

// splitCrawl is a crawl of two files whose page at
// http://example.com/split is a response split in segments across them:
// the first two in the first file, the rest in the second, after a
// warcinfo record twice and the page at http://example.com/other.
type splitCrawl struct {
	body          string          // the split page's body
	split         []foreignRecord // its segments
	other, info   foreignRecord
	first, second string // the files
}

// writeSplitCrawl writes the files of a splitCrawl.
func writeSplitCrawl(t *testing.T) splitCrawl {
	t.Helper()
	c := splitCrawl{body: "<html><body><p>" + strings.Repeat("a page split across files. ", 40) + "</p></body></html>"}
	page := httpResponse("Content-Type: text/html\r\n", c.body)
	const date = "2026-01-01T00:00:00Z"
	c.split = segments("http://example.com/split", date, page, 300, 0)
	if len(c.split) < 3 {
		t.Fatalf("%d segments", len(c.split))
	}
	c.other = foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/other", date: date, block: page}
	c.info = foreignRecord{typ: warc.TypeWarcinfo, date: date, block: "software: test"}
	// The second file's records have ids of their own (writeForeignWARC
	// numbers them from a in each file).
	c.first = writeForeignWARC(t, true, c.split[:2]...)
	c.second = writeForeignWARC(t, false, append([]foreignRecord{c.info, c.info, c.other}, c.split[2:]...)...)
	return c
}
