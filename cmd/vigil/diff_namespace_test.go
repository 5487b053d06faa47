package main

import (
	"encoding/xml"
	"io"
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

// TestDeltaDefaultNamespace: the entries a diff of an Atom feed inserts
// and deletes are read by a namespace-aware parser in the feed's default
// namespace, the delta's own elements in none, and the delta patches the
// feed as before, composed too; an XHTML page's inserted paragraph is in
// the XHTML namespace, and a plain HTML page's delta declares nothing.
func TestDeltaDefaultNamespace(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const atom = "http://www.w3.org/2005/Atom"
	const head = `<feed xmlns="` + atom + `"><title>News</title>`
	const one = `<entry><title>One</title><id>urn:1</id></entry>`
	const two = `<entry><title>Two</title><id>urn:2</id><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>x</p></div></content></entry>`
	v1 := write("v1.xml", head+one+`</feed>`)
	v2 := write("v2.xml", head+two+one+`</feed>`)
	v3 := write("v3.xml", head+two+`</feed>`)

	// spaces returns the namespace of each element of out, by local name,
	// as encoding/xml's Decoder resolves it.
	spaces := func(what, out string) map[string][]string {
		t.Helper()
		got := map[string][]string{}
		dec := xml.NewDecoder(strings.NewReader(out))
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				return got
			}
			if err != nil {
				t.Fatalf("%s: %v\n%s", what, err, out)
			}
			if s, ok := tok.(xml.StartElement); ok {
				got[s.Name.Local] = append(got[s.Name.Local], s.Name.Space)
			}
		}
	}
	check := func(what, out string, want map[string]string) {
		t.Helper()
		got := spaces(what, out)
		for local, space := range want {
			if len(got[local]) == 0 {
				t.Errorf("%s: no <%s>:\n%s", what, local, out)
			}
			for _, s := range got[local] {
				if s != space {
					t.Errorf("%s: <%s> in namespace %q, want %q:\n%s", what, local, s, space, out)
				}
			}
		}
	}
	code, d12, errOut := runCLI(t, "", "diff", v1, v2)
	if code != exitChanged {
		t.Fatalf("diff: exit %d: %s", code, errOut)
	}
	check("diff v1 v2", d12, map[string]string{"unit_delta": "", "t": "", "i": "", "entry": atom, "id": atom, "content": atom, "div": "http://www.w3.org/1999/xhtml", "p": "http://www.w3.org/1999/xhtml"})
	_, d23, _ := runCLI(t, "", "diff", v2, v3)
	check("diff v2 v3", d23, map[string]string{"unit_delta": "", "t": "", "d": "", "entry": atom, "id": atom})
	code, d13, errOut := runCLI(t, "", "compose", write("d12.xml", d12), write("d23.xml", d23))
	if code != exitOK {
		t.Fatalf("compose: exit %d: %s", code, errOut)
	}
	check("compose", d13, map[string]string{"unit_delta": "", "t": "", "entry": atom, "id": atom, "div": "http://www.w3.org/1999/xhtml"})
	for _, p := range []struct{ from, delta, want string }{{v1, d12, v2}, {v1, d13, v3}} {
		code, got, errOut := runCLI(t, "", "patch", p.from, write("d.xml", p.delta))
		if code != exitOK {
			t.Fatalf("patch: exit %d: %s", code, errOut)
		}
		if want, _ := os.ReadFile(p.want); strings.TrimSpace(got) != strings.TrimSpace(string(want)) {
			t.Errorf("patch:\n%s\nwant\n%s", got, want)
		}
	}

	x1 := write("x1.xhtml", `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a</p></body></html>`)
	x2 := write("x2.xhtml", `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>a</p><p>b</p></body></html>`)
	_, dx, _ := runCLI(t, "", "diff", x1, x2)
	check("diff of XHTML pages", dx, map[string]string{"unit_delta": "", "t": "", "i": "", "p": "http://www.w3.org/1999/xhtml"})

	h1 := write("v1.html", `<html><body><p>a</p></body></html>`)
	h2 := write("v2.html", `<html><body><p>a</p><p>b</p></body></html>`)
	_, dh, _ := runCLI(t, "", "diff", h1, h2)
	if strings.Contains(dh, "xmlns") || strings.Contains(dh, "addedXmlns") {
		t.Errorf("a plain HTML page's delta declares a namespace:\n%s", dh)
	}
}

// TestComposeNeedsDocuments: compose refuses deltas whose composition only
// the versions tell (the second changes the default namespace above the
// element the first inserted, and the deltas do not say it is above), and
// says how to get the delta: a diff of the first and last versions, not
// the Go function ComposeWith, which no command offers.
func TestComposeNeedsDocuments(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	feed := func(ns, entries string) string {
		return `<feed xmlns="` + ns + `"><title>t</title><group><entry>1</entry>` + entries + `</group></feed>`
	}
	const atom = "http://www.w3.org/2005/Atom"
	v1, v2 := write("v1.xml", feed(atom, "")), write("v2.xml", feed(atom, "<entry>2</entry>"))
	v3 := write("v3.xml", feed("urn:other", "<entry>2</entry>"))
	_, d12, _ := runCLI(t, "", "diff", v1, v2)
	_, d23, _ := runCLI(t, "", "diff", v2, v3)
	code, out, errOut := runCLI(t, "", "compose", write("d12.xml", d12), write("d23.xml", d23))
	if code != exitError || out != "" || !strings.Contains(errOut, "cannot compose without the documents") || !strings.Contains(errOut, "vigil diff") || strings.Contains(errOut, "ComposeWith") {
		t.Errorf("compose: exit %d, output %q, stderr %q; want a refusal that names vigil diff, not ComposeWith", code, out, errOut)
	}
}
