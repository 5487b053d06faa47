package monitor

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// TestXHTMLServedAsHTMLStaysHTML checks an XHTML page served as text/html
// through markup that changes but not what a browser shows (<br/> becomes
// <br>, and the page is no longer well-formed XML): no change is reported.
// Read by content, the first version was XML and the second HTML, two
// different trees (the HTML parser adds the table's tbody). A real change
// after that is reported.
func TestXHTMLServedAsHTMLStaysHTML(t *testing.T) {
	db, wh, u := testStore(t)
	s := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "xhtml", "Create Sentinel xhtml Using "+pageA+
		" Monitor any change Fetch 1 hour Notify By email owner@example.test\n")
	const page = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Opening hours</title></head>
<body><table><tr><td>Monday to Friday<%s>%s</td></tr></table></body></html>`
	f := &pagesFetcher{pages: map[string]string{pageA: fmt.Sprintf(page, "br/", "9 to 5")}}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}}
	check := func() {
		t.Helper()
		makeDue(t, db, s, time.Now().UTC())
		runOnce(t, m, 1)
	}
	check()
	f.set(pageA, fmt.Sprintf(page, "br", "9 to 5"))
	check()
	if cs := changesOf(t, db, s); len(cs) != 0 {
		t.Fatalf("%d changes reported for markup a browser reads the same", len(cs))
	}
	f.set(pageA, fmt.Sprintf(page, "br", "9 to 6"))
	check()
	if cs := changesOf(t, db, s); len(cs) != 1 {
		t.Fatalf("%d changes reported for a new closing time, want 1", len(cs))
	}
}

// TestDocumentKeepsCharset reads a version stored in KOI8-R (which no
// sniffing would guess) twice: from the store, then from the body cache,
// which must remember its charset (it once read cached bodies as UTF-8).
func TestDocumentKeepsCharset(t *testing.T) {
	ctx := context.Background()
	db, wh, _ := testStore(t)
	v, err := wh.Put(ctx, &warehouse.Fetch{URL: pageA, FetchedAt: time.Now().UTC(), Status: 200, ContentType: "text/html",
		Charset: "koi8-r", Body: []byte("<html><body><p>\xd0\xd2\xc9\xd7\xc5\xd4</p></body></html>")})
	if err != nil {
		t.Fatal(err)
	}
	m := &Monitor{Store: db, Warehouse: wh}
	m.init()
	for _, from := range []string{"store", "cache"} {
		b, err := m.body(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		doc, _, err := m.document(b, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := doc.Root.Text(); got != "привет" {
			t.Errorf("read from the %s: %q, want привет", from, got)
		}
	}
}
