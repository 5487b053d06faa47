package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestWARCFinalURLRoundTrip: the final URL of a version read through a
// redirect (vigil.Version.URL) goes out with its response or revisit
// (fetchedFromField) and comes back on import, so that the imported
// version's links resolve against the page it was read from
// (vigil.Version.PageURL), not the URL watched; a version read from its
// own URL has none either way.
// A revisit's final URL is its own, not its original's.
func TestWARCFinalURLRoundTrip(t *testing.T) {
	ctx := context.Background()
	src, dst := t.TempDir(), t.TempDir()
	const page = "http://example.com/old"
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	body := []byte(`<html><body><a href="b.html">b</a></body></html>`)
	fetches := []struct {
		final string
		body  []byte
	}{
		{"", body},
		{"http://example.com/new/page", body}, // the same body, read elsewhere: a revisit
		{"http://example.com/newer/page", []byte(`<html><body><a href="c.html">c</a></body></html>`)},
	}
	func() {
		_, wh := testWarehouse(t, src, warehouse.Options{})
		for i, f := range fetches {
			if _, err := wh.Put(ctx, &warehouse.Fetch{URL: page, FinalURL: f.final, FetchedAt: t0.Add(time.Duration(i) * time.Hour),
				Status: 200, ContentType: "text/html", Charset: "utf-8", Body: f.body}); err != nil {
				t.Fatal(err)
			}
		}
	}()
	out, errOut, code := runCmd(t, nil, "export", "warc", "--all", "--data", src)
	if code != exitOK {
		t.Fatalf("export: %d %s", code, errOut)
	}
	file := filepath.Join(t.TempDir(), "out.warc.gz")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code = runCmd(t, nil, "import", "warc", "--data", dst, file); code != exitOK || !strings.Contains(errOut, "imported 3 versions") {
		t.Fatalf("import: %d %s", code, errOut)
	}
	st, _ := testWarehouse(t, dst, warehouse.Options{})
	r, err := st.FindResourceByURL(ctx, page)
	if err != nil {
		t.Fatal(err)
	}
	vs, _, err := st.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(fetches) {
		t.Fatalf("%d versions imported, want %d", len(vs), len(fetches))
	}
	for i, v := range vs {
		if v.URL != fetches[i].final {
			t.Errorf("version %d imported with url %q, want %q", v.Seq, v.URL, fetches[i].final)
		}
	}
}
