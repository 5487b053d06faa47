package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// countingFile counts the bytes read from a file.
type countingFile struct {
	r io.Reader
	n int64
}

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestWARCImportStopsWhenCancelled: an import interrupted (its context
// cancelled) stops reading the file at the next record, not after reading
// all of it into its temporary file, imports nothing more, returns the
// context's error, and leaves no temporary file behind.
func TestWARCImportStopsWhenCancelled(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var recs []foreignRecord
	for i := range 500 {
		recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: fmt.Sprintf("http://a.example/%d", i),
			date: "2026-11-20T10:00:00Z", block: httpResponse("HTTP/1.1 200 OK\r\nContent-Type: text/plain", strings.Repeat("x", 100))})
	}
	file := writeForeignWARC(t, false, recs...)
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, wh := testWarehouse(t, t.TempDir(), warehouse.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := &countingFile{r: f}
	n, _, err := importWARC(ctx, wh, file, in, warcImportOptions{verify: true}, io.Discard)
	if !errors.Is(err, context.Canceled) || n != 0 {
		t.Errorf("importWARC cancelled: %d imported, error %v; want none and context.Canceled", n, err)
	}
	if in.n >= info.Size() {
		t.Errorf("importWARC cancelled read all %d bytes of the file", in.n)
	}
	if left, err := os.ReadDir(tmp); err != nil || len(left) != 0 {
		t.Errorf("temporary files left: %v, %v", left, err)
	}
}

// TestWARCImportTemporaryFileError: a temporary file that cannot be
// written (TMPDIR missing, or too small) is an error that says what the
// file is for and where to put it, said once, not "import warc: import
// warc: spool: ...".
func TestWARCImportTemporaryFileError(t *testing.T) {
	file := writeForeignWARC(t, false, foreignRecord{typ: warc.TypeResponse, uri: "http://a.example/",
		date: "2026-11-20T10:00:00Z", block: httpResponse("HTTP/1.1 200 OK\r\nContent-Type: text/plain", "x")})
	data := t.TempDir()
	t.Setenv("TMPDIR", "/nonexistent/tmp")
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", data, file)
	if code != exitError || !strings.Contains(errOut, "TMPDIR") || !strings.Contains(errOut, "/nonexistent/tmp") ||
		strings.Count(errOut, "import warc:") != 1 {
		t.Errorf("import with TMPDIR missing: %d %s", code, errOut)
	}
}
