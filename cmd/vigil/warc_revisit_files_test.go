package main

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestWARCImportRevisitAcrossFiles: a revisit whose original is in
// another file of the same import is imported with the original's body,
// whatever the order the files are given in, by its WARC-Refers-To, its
// payload digest or its WARC-Refers-To-Target-URI and date; one of the
// same second as its original (a crawler deduplicating another URL of
// the same payload), in a file given before the original's, was named
// "neither in the file nor in the store", the revisit read first.
func TestWARCImportRevisitAcrossFiles(t *testing.T) {
	const body = "<p>the same payload</p>"
	page := httpResponse("Content-Type: text/html\r\n", body)
	const day1, day2 = "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"
	resp := foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/p", date: day1, block: page}
	info := foreignRecord{typ: warc.TypeWarcinfo, date: day1, block: "software: test"}
	profile := warc.Field{Name: warc.FieldProfile, Value: "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"}
	revisit := func(uri, date string, extra ...warc.Field) foreignRecord {
		return foreignRecord{typ: warc.TypeRevisit, uri: uri, date: date, extra: append(warc.Header{profile}, extra...)}
	}
	refersTo := warc.Field{Name: warc.FieldRefersTo, Value: warc.BracketID(warc.NameID("foreign a"))}
	original := writeForeignWARC(t, true, resp)
	for name, rev := range map[string]foreignRecord{
		"refers to":                              revisit("http://example.com/p", day2, refersTo),
		"payload digest":                         revisit("http://example.com/p", day2, warc.Field{Name: warc.FieldPayloadDigest, Value: warc.Digest([]byte(body))}),
		"target URI and date":                    revisit("http://example.com/p", day2, warc.Field{Name: warc.FieldRefersToURI, Value: "http://example.com/p"}, warc.Field{Name: warc.FieldRefersToDate, Value: day1}),
		"another URL, the same second":           revisit("http://example.com/b", day1, refersTo),
		"another URL, a digest, the same second": revisit("http://example.com/b", day1, warc.Field{Name: warc.FieldPayloadDigest, Value: warc.Digest([]byte(body))}),
	} {
		// The revisit's file holds a warcinfo first, so that its id is
		// not the original's (writeForeignWARC numbers each file's).
		revisits := writeForeignWARC(t, true, info, rev)
		for _, order := range [][]string{{original, revisits}, {revisits, original}} {
			dst := t.TempDir()
			_, errOut, code := runCmd(t, nil, append([]string{"import", "warc", "--data", dst}, order...)...)
			if code != exitOK || !strings.Contains(errOut, "imported 2 versions;") {
				t.Errorf("%s, %s first: exit %d\n%s", name, order[0], code, errOut)
				continue
			}
			if v := dump(t, dst)[rev.uri]; len(v) == 0 || string(v[len(v)-1].body) != body {
				t.Errorf("%s, %s first: the revisit imported as %v", name, order[0], v)
			}
		}
	}
}
