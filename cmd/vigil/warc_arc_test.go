package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWARCImportARC: an ARC file (the Internet Archive's older format),
// plain or a gzip member a record, is imported as a WARC file is, told
// by its content whatever its name: its HTTP responses are versions of
// their URLs at their dates, its filedesc:// block and dns: records are
// skipped.
func TestWARCImportARC(t *testing.T) {
	plain, err := os.ReadFile("../../internal/warc/testdata/example.arc")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	for _, part := range bytes.SplitAfter(plain, []byte("\n\n")) {
		if len(part) == 0 {
			continue
		}
		zw := gzip.NewWriter(&gz)
		zw.Write(part)
		zw.Close()
	}
	for name, data := range map[string][]byte{"crawl.arc": plain, "crawl.arc.gz": gz.Bytes(), "named-as.warc.gz": gz.Bytes(), "no-extension": plain} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(file, data, 0o600); err != nil {
				t.Fatal(err)
			}
			dst := t.TempDir()
			_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
			if code != exitOK || !strings.Contains(errOut, "imported 1 version; skipped 2 records") {
				t.Fatalf("import: exit %d\n%s", code, errOut)
			}
			got := dump(t, dst)
			v := got["http://www.dryswamp.edu/index.html"]
			if len(got) != 1 || len(v) != 1 || string(v[0].body) != "<HTML>Hello World!!!</HTML>\n\n\n" || v[0].v.Status != 200 ||
				v[0].v.ContentType != "text/html" || v[0].v.FetchedAt.Format("20060102150405") != "19961104142103" {
				t.Errorf("imported %v", got)
			}
		})
	}
}
