package main

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestWARCImportSkipsDatesNoStoreKeeps: a record dated past 2262 (or
// before 1677), a time no store keeps, is skipped with a warning that
// names it, and the file's other records are imported, exit 0. The
// store refused such a version and the import failed; before it refused
// them, SQLite stored the date wrapped round to another year.
func TestWARCImportSkipsDatesNoStoreKeeps(t *testing.T) {
	page := "<html><body><p>fine</p></body></html>"
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z", block: httpResponse("", page)},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/far", date: "2300-01-01T00:00:00Z", block: httpResponse("", page)},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "9999-12-31T23:59:59Z", block: httpResponse("", page+" ")},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/old", date: "1600-01-01T00:00:00Z", block: httpResponse("", page)},
	)
	dst := t.TempDir()
	out, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitOK {
		t.Fatalf("exit %d, want %d:\n%s%s", code, exitOK, out, errOut)
	}
	for _, want := range []string{
		"skipped 3 records dated where no store keeps a time (before 1677-09-21 or after 2262-04-11)",
		"the first record 2 at offset ",
		"WARC-Date 2300-01-01T00:00:00Z",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errOut)
		}
	}
	if !strings.Contains(out+errOut, "imported 1 version; skipped 3 records") {
		t.Errorf("the summary does not say 1 imported and 3 skipped:\n%s%s", out, errOut)
	}
	got := dump(t, dst)
	if len(got) != 1 || len(got["http://example.com/a"]) != 1 {
		t.Errorf("imported %v, want /a's version of 2026 only", got)
	}
}
