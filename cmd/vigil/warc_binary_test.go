package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestWARCExportBinaryVersion: vigil export warc has no record of a
// version of a binary document (a PDF a watched page answered, whose body
// is not kept) and says so apart from the failed fetches, not counting it
// as one: it is no failure. It was counted "1 failed fetch has no
// record".
func TestWARCExportBinaryVersion(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	_, wh := testWarehouse(t, dir, warehouse.Options{})
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for i, f := range []*warehouse.Fetch{
		{URL: "http://example.com/report", Status: 200, ContentType: "text/html", Charset: "utf-8", Body: []byte("<p>soon</p>")},
		{URL: "http://example.com/report", Status: 200, ContentType: "application/pdf",
			Error: vigil.BinaryVersionError("binary content: application/pdf is not a text document", 12345, "sha256:"+strings.Repeat("ef", 32))},
		{URL: "http://example.com/down", Status: 503, Error: "fetch http://example.com/down: HTTP error status 503"},
	} {
		f.FetchedAt = t0.Add(time.Duration(i) * time.Hour)
		if _, err := wh.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	_, errOut, code := runCmd(t, nil, "export", "warc", "--all", "--data", dir)
	want := "exported 1 response and 0 revisits of 2 resources (1 failed fetch has no record; 1 file Vigil does not read has none: its body is not kept)"
	if code != exitOK || !strings.Contains(errOut, want) {
		t.Errorf("export: exit %d, %q; want %q", code, errOut, want)
	}
}
