package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// segments splits block into records of at most size bytes: the first a
// response with WARC-Segment-Number 1 (its id that of record i of
// writeForeignWARC), the others continuations, the last with
// WARC-Segment-Total-Length. The continuations' ids are of their own.
func segments(uri, date, block string, size, origin int) []foreignRecord {
	originID := warc.BracketID(warc.NameID("foreign " + string(rune('a'+origin))))
	var recs []foreignRecord
	for n := 1; len(block) > 0 || n == 1; n++ {
		part := block[:min(size, len(block))]
		block = block[len(part):]
		r := foreignRecord{typ: warc.TypeResponse, uri: uri, date: date, block: part,
			extra: warc.Header{{Name: warc.FieldSegmentNumber, Value: strconv.Itoa(n)}}}
		if n > 1 {
			r.typ = warc.TypeContinuation
			r.extra = append(r.extra, warc.Field{Name: warc.FieldSegmentOriginID, Value: originID},
				warc.Field{Name: warc.FieldContentType, Value: "application/http; msgtype=response"})
		}
		if len(block) == 0 && n > 1 {
			r.extra = append(r.extra, warc.Field{Name: warc.FieldSegmentTotalLength, Value: strconv.Itoa(size*(n-1) + len(part))})
		}
		recs = append(recs, r)
	}
	return recs
}

// TestWARCImportJoinsSegments: a response split in segments (WARC 1.1
// section 6.7: its first segment, then continuation records), another
// record between two of them, is imported as the response whole; it was
// named and not imported. One whose middle segment is missing, or whose
// last is not in the file, is named by its first segment's number, and
// nothing of it is imported.
func TestWARCImportJoinsSegments(t *testing.T) {
	body := "<html><body><p>" + strings.Repeat("a page split in segments. ", 40) + "</p></body></html>"
	page := httpResponse("Content-Type: text/html\r\n", body)
	const date = "2026-01-01T00:00:00Z"
	split := segments("http://example.com/split", date, page, 300, 0)
	if len(split) < 3 {
		t.Fatalf("%d segments", len(split))
	}
	other := foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/other", date: date, block: page}
	recs := append(append(append([]foreignRecord{}, split[:2]...), other), split[2:]...)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, writeForeignWARC(t, true, recs...))
	if code != exitOK || !strings.Contains(errOut, "imported 2 versions;") {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	got := dump(t, dst)
	if v := got["http://example.com/split"]; len(v) != 1 || string(v[0].body) != body || v[0].v.ContentType != "text/html" {
		t.Errorf("the page split in segments imported as %v", v)
	}

	missing := append(append([]foreignRecord{}, split[0]), split[2:]...)
	dst = t.TempDir()
	file := writeForeignWARC(t, false, append(missing, other)...)
	_, errOut, code = runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitError || !strings.Contains(errOut, file+": record 1 at offset 0 (") ||
		!strings.Contains(errOut, "where segment 2 was due: a segment is missing; not imported") || !strings.Contains(errOut, "imported 1 version;") {
		t.Errorf("a segment missing: exit %d\n%s", code, errOut)
	}
	if got := dump(t, dst); len(got) != 1 || got["http://example.com/split"] != nil {
		t.Errorf("a segment missing: imported %v", got)
	}

	file = writeForeignWARC(t, false, split[:len(split)-1]...)
	_, errOut, code = runCmd(t, nil, "import", "warc", "--data", t.TempDir(), file)
	if code != exitError || !strings.Contains(errOut, file+": record 1 at offset 0 (") || !strings.Contains(errOut, "the segments after it are missing; not imported") {
		t.Errorf("the last segment missing: exit %d\n%s", code, errOut)
	}
}

// TestWARCImportJoinedNamedByFirstSegment: a record joined from its
// segments that cannot be imported (its HTTP message does not parse) is
// named by its first segment's number and offset, as one whose segments
// do not join is, and as its id is: it was named by its last segment's,
// where a tool that extracts a record at that offset finds a
// continuation.
func TestWARCImportJoinedNamedByFirstSegment(t *testing.T) {
	split := segments("http://example.com/split", "2026-01-01T00:00:00Z", strings.Repeat("no HTTP message. ", 40), 300, 0)
	if len(split) < 3 {
		t.Fatalf("%d segments", len(split))
	}
	file := writeForeignWARC(t, false, split...)
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", t.TempDir(), file)
	if code != exitError || !strings.Contains(errOut, file+": record 1 at offset 0 (") || strings.Contains(errOut, "record "+strconv.Itoa(len(split))+" at") {
		t.Errorf("a joined record that does not parse: exit %d\n%s", code, errOut)
	}
}
