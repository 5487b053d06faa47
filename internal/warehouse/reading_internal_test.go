package warehouse

import (
	"bytes"
	"html"
	"runtime"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// TestSourceDocumentWritesOnePage: reading a body as its source costs the
// parse of its page and the page, written once: the body was copied to a
// string, escaped into another and copied into a buffer grown by doubling,
// some 2.8 GB allocated for a body of 200 MB. The page is the one it was
// (html.EscapeString's), so the reading does not change.
func TestSourceDocumentWritesOnePage(t *testing.T) {
	body := bytes.Repeat([]byte("a<b&c d\"e'f>\n"), 1<<22/13) // 4 MiB, a third of it escaped
	page := []byte("<!DOCTYPE html><html><body><pre>\n" + html.EscapeString(string(body)) + "</pre></body></html>")
	opt := &markup.Options{MaxBytes: max(int64(len(page)), markup.DefaultMaxBytes)}
	allocated := func(f func()) uint64 {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		f()
		runtime.ReadMemStats(&m1)
		return m1.TotalAlloc - m0.TotalAlloc
	}
	want, err := markup.ParseHTMLBytes(page, opt)
	if err != nil {
		t.Fatal(err)
	}
	parse := allocated(func() { _, _ = markup.ParseHTMLBytes(page, opt) })
	var got *tree.Document
	all := allocated(func() { got, err = sourceDocument(body, "") })
	if err != nil {
		t.Fatal(err)
	}
	if extra := int64(all) - int64(parse); extra > int64(len(page))+64<<10 {
		t.Errorf("sourceDocument allocated %d bytes besides the parse, want at most the page's %d", extra, len(page))
	}
	if diff := documentDiff(got, want); diff != "" {
		t.Errorf("the source read otherwise than the page escaped by html.EscapeString: %s", diff)
	}
}
