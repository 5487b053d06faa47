package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// TestDeltaNamespaceWellFormed: a delta whose contents use namespace
// prefixes declared outside them (an RSS item's dc:creator) declares them,
// so that a namespace-aware XML parser reads it; a prefix an HTML page
// never declared is bound to a Vigil URN. Deltas used to write the
// prefixes alone, which such parsers refuse ("unbound prefix").
func TestDeltaNamespaceWellFormed(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const head = `<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>News</title>`
	const first = `<item><title>One</title><dc:creator>Ann</dc:creator></item>`
	const second = `<item><title>Two</title><dc:creator>Bob</dc:creator><media:content url="http://example.com/a.png" media:medium="image"/><ex:note xmlns:ex="urn:example">n</ex:note></item>`
	v1 := write("v1.xml", head+first+`</channel></rss>`)
	v2 := write("v2.xml", head+second+first+`</channel></rss>`)
	v3 := write("v3.xml", head+second+`</channel></rss>`)

	wellFormed := func(what, out string) {
		t.Helper()
		if _, err := markup.ParseXML(strings.NewReader(out), nil); err != nil {
			t.Fatalf("%s is not namespace-well-formed: %v\n%s", what, err, out)
		}
	}
	code, d12, errOut := runCLI(t, "", "diff", v1, v2)
	if code != exitChanged {
		t.Fatalf("diff: exit %d: %s", code, errOut)
	}
	wellFormed("diff v1 v2", d12)
	for _, want := range []string{`xmlns:dc="http://purl.org/dc/elements/1.1/"`, `xmlns:media="http://search.yahoo.com/mrss/"`} {
		if !strings.Contains(d12, want) {
			t.Errorf("diff v1 v2 lacks %s:\n%s", want, d12)
		}
	}
	if strings.Contains(d12, `<t`) && strings.Contains(d12[:strings.Index(d12, "<i ")], "xmlns:ex") {
		t.Errorf("the content's own declaration is declared on <t> too:\n%s", d12)
	}
	// Deletes (the second delta deletes the first item) and composition
	// keep the declarations.
	_, d23, _ := runCLI(t, "", "diff", v2, v3)
	wellFormed("diff v2 v3", d23)
	if !strings.Contains(d23, `xmlns:dc=`) {
		t.Errorf("a delete of dc:creator does not declare dc:\n%s", d23)
	}
	code, d13, errOut := runCLI(t, "", "compose", write("d12.xml", d12), write("d23.xml", d23))
	if code != exitOK {
		t.Fatalf("compose: exit %d: %s", code, errOut)
	}
	wellFormed("compose", d13)
	code, got, errOut := runCLI(t, "", "patch", v1, write("d13.xml", d13))
	if code != exitOK {
		t.Fatalf("patch with the composed delta: exit %d: %s", code, errOut)
	}
	if want, _ := os.ReadFile(v3); strings.TrimSpace(got) != strings.TrimSpace(string(want)) {
		t.Errorf("patch v1 with the composed delta:\n%s\nwant\n%s", got, want)
	}
	_, js, _ := runCLI(t, "", "diff", "--format", "json", v1, v2)
	if !strings.Contains(js, `"namespaces":{"dc":"http://purl.org/dc/elements/1.1/","media":"http://search.yahoo.com/mrss/"}`) {
		t.Errorf("the JSON delta lacks its namespaces:\n%s", js)
	}

	// An HTML page's undeclared prefix.
	h1 := write("v1.html", `<html><body><p>x</p></body></html>`)
	h2 := write("v2.html", `<html><body><p>x</p><fb:like href="y"></fb:like></body></html>`)
	_, dh, _ := runCLI(t, "", "diff", h1, h2)
	wellFormed("diff of HTML pages", dh)
	if !strings.Contains(dh, `xmlns:fb="urn:vigil:undeclared:fb"`) {
		t.Errorf("the undeclared fb prefix is not bound:\n%s", dh)
	}
	code, got, errOut = runCLI(t, "", "patch", h1, write("dh.xml", dh))
	if code != exitOK || !strings.Contains(got, `<fb:like href="y"></fb:like>`) {
		t.Errorf("patch of the HTML page: exit %d %s:\n%s", code, errOut, got)
	}
}
