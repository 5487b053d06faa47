package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestWARCImportNamesFewBadRecords: a file of many records that cannot be
// imported names the first maxNamed of them, in the order of the file, by
// number and offset, counts the others by kind of problem, a line a kind,
// and says how many there were, with the exit status of any such file.
// Every record was named, a line each (thousands flooded the terminal),
// in the order of their dates, not of the file.
func TestWARCImportNamesFewBadRecords(t *testing.T) {
	const bad = 100
	page := "<html><body><p>fine</p></body></html>"
	var recs []foreignRecord
	for i := range bad {
		// Dates backwards: the records are imported in date order.
		date := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(bad-i) * time.Minute).Format(time.RFC3339)
		uri := fmt.Sprintf("http://example.com/p%d", i)
		switch {
		case i == 10 || i == 50: // refused as it is read, before the others
			recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: uri, date: date,
				extra: warc.Header{{Name: warc.FieldBlockDigest, Value: warc.Digest([]byte("other"))}}, block: httpResponse("", page)})
		case i%4 == 3: // a brotli stream cut short
			recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: uri, date: date,
				block: httpResponse("Content-Type: text/html\r\nContent-Encoding: br\r\n", "\x0b\x02\x80fine\x03")})
		default:
			recs = append(recs, foreignRecord{typ: warc.TypeResponse, date: date, block: httpResponse("", page)})
		}
	}
	recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-02-01T00:00:00Z", block: httpResponse("", page)})
	dst := t.TempDir()
	file := writeForeignWARC(t, false, recs...)
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	var named []string
	for _, l := range lines {
		if l, ok := strings.CutPrefix(l, file+": record "); ok {
			named = append(named, "record "+l)
		}
	}
	if len(named) != maxNamed {
		t.Fatalf("%d records named, want %d:\n%s", len(named), maxNamed, errOut)
	}
	for k, l := range named {
		prefix := fmt.Sprintf("record %d at offset ", k+1)
		if !strings.HasPrefix(l, prefix) || !strings.HasSuffix(l, "; not imported") || k > 0 && strings.HasPrefix(l, prefix+"0 ") {
			t.Errorf("line %d: %q, want %q, an offset, ...; not imported", k+1, l, prefix)
		}
	}
	for _, want := range []string{
		"record 1 at offset 0 (urn:uuid:",
		"): no WARC-Target-URI; not imported",
		"record 11 at offset ",
		"block digest mismatch; not imported",
		"record 4 at offset ",
		"content coding br",
		"\n59 more records not imported: no WARC-Target-URI\n20 more records not imported: a payload that does not decode\n1 more record not imported: a block that fails its digest\n",
		"imported 1 version;",
		"100 records could not be imported (the first 20 named above)",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errOut)
		}
	}
	if got := dump(t, dst); len(got) != 1 || len(got["http://example.com/a"]) != 1 {
		t.Errorf("imported %v, want /a", got)
	}
}

// TestWARCImportNamesTheFile: what import warc says of a record it cannot
// import, or cannot read, begins with the file's name (<stdin> for -), as
// the other commands name their inputs; it named the record and its
// offset in no file, and the reader's errors began "warc: ".
func TestWARCImportNamesTheFile(t *testing.T) {
	page := httpResponse("Content-Type: text/html\r\n", "<p>fine</p>")
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, date: "2026-01-01T00:00:00Z", block: page},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-02T00:00:00Z", block: page})
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", t.TempDir(), file)
	for _, want := range []string{
		"\n" + file + ": record 1 at offset 0 (urn:uuid:",
		"): no WARC-Target-URI; not imported\n",
		"imported 1 version; skipped 0 records\nvigil import warc: " + file + ": 1 record could not be imported (named above)\n",
	} {
		if code != exitError || !strings.Contains("\n"+errOut, want) {
			t.Errorf("a bad record: exit %d, stderr %q; want 2 and %q in it", code, errOut, want)
		}
	}
	garbage := []byte("not a WARC file\n")
	notWARC := filepath.Join(t.TempDir(), "notes.warc")
	if err := os.WriteFile(notWARC, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file  string
		stdin []byte
		name  string
	}{{notWARC, nil, notWARC}, {"-", garbage, "<stdin>"}} {
		_, errOut, code := runCmd(t, c.stdin, "import", "warc", "--data", t.TempDir(), c.file)
		want := "vigil import warc: " + c.name + `: record 1 at offset 0: version line "not a WARC file", want WARC/1.1, 1.0, 0.18 or 0.17` + "\n"
		if code != exitError || !strings.HasSuffix(errOut, want) {
			t.Errorf("%s, not WARC: exit %d, stderr %q; want 2 and %q", c.name, code, errOut, want)
		}
	}
}

// TestWARCImportRecordMissingAField: a record without WARC-Date,
// WARC-Record-ID or WARC-Type is named and not imported, and the records
// after it are; one of a type import warc skips (a request) is skipped.
// The import stopped at such a record, as at a file cut short, so that
// every record after it was lost.
func TestWARCImportRecordMissingAField(t *testing.T) {
	record := func(fields ...string) string {
		block := httpResponse("Content-Type: text/html\r\n", "<p>fine</p>")
		return "WARC/1.1\r\n" + strings.Join(fields, "\r\n") + fmt.Sprintf("\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	}
	const (
		response = "WARC-Type: response"
		request  = "WARC-Type: request"
		ct       = "Content-Type: application/http; msgtype=response"
		date     = "WARC-Date: 2026-01-01T00:00:00Z"
	)
	in := record(response, "WARC-Record-ID: <urn:uuid:1>", "WARC-Target-URI: http://example.com/a", date, ct) +
		record(response, "WARC-Record-ID: <urn:uuid:2>", "WARC-Target-URI: http://example.com/b", ct) +
		record(response, "WARC-Target-URI: http://example.com/c", date, ct) +
		record("WARC-Record-ID: <urn:uuid:4>", "WARC-Target-URI: http://example.com/d", date, ct) +
		record(request, "WARC-Record-ID: <urn:uuid:5>", "WARC-Target-URI: http://example.com/e") +
		record(response, "WARC-Record-ID: <urn:uuid:6>", "WARC-Target-URI: http://example.com/f", date, ct)
	file := filepath.Join(t.TempDir(), "fields.warc")
	if err := os.WriteFile(file, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	for _, want := range []string{
		file + ": record 2 at offset ",
		" (urn:uuid:2): missing WARC-Date; not imported\n",
		file + ": record 3 at offset ",
		": missing WARC-Record-ID; not imported\n",
		file + ": record 4 at offset ",
		" (urn:uuid:4): missing WARC-Type; not imported\n",
		"imported 2 versions; skipped 1 record: 1 request\n",
		"vigil import warc: " + file + ": 3 records could not be imported (named above)\n",
	} {
		if code != exitError || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr %q; want 2 and %q in it", code, errOut, want)
		}
	}
	if got := dump(t, dst); len(got) != 2 || len(got["http://example.com/a"]) != 1 || len(got["http://example.com/f"]) != 1 {
		t.Errorf("imported %v, want /a and /f", got)
	}
}
