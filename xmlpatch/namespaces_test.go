package xmlpatch

import (
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

const (
	atomNS  = "http://www.w3.org/2005/Atom"
	xhtmlNS = "http://www.w3.org/1999/xhtml"
	svgNS   = "http://www.w3.org/2000/svg"
	mathNS  = "http://www.w3.org/1998/Math/MathML"
)

// expandedNames returns the expanded name (namespace URI, a space, local
// name) of every element of an XML text, read by encoding/xml, which
// resolves each name by the declarations in scope as Namespaces in XML
// says: a reader that knows nothing of Vigil. In a patch document, it
// returns those of the nodes its operations add or put in place (the
// elements below an operation), read in the patch's scope, which is how
// RFC 5261 (section 4.2.2 and appendix A.18) has a processor read them.
func expandedNames(t *testing.T, x string, inPatch bool) []string {
	t.Helper()
	var out []string
	dec := xml.NewDecoder(strings.NewReader(x))
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, x)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			if !inPatch || depth > 2 {
				out = append(out, tok.Name.Space+" "+tok.Name.Local)
			}
		case xml.EndElement:
			depth--
		}
	}
	slices.Sort(out)
	return out
}

// contains reports whether the sorted multiset have holds every element of
// the sorted multiset want, as often.
func contains(have, want []string) bool {
	i := 0
	for _, w := range want {
		for i < len(have) && have[i] < w {
			i++
		}
		if i == len(have) || have[i] != w {
			return false
		}
		i++
	}
	return true
}

// TestExportNamespaces: the elements an exported patch adds or puts in
// place are, read by a namespace-aware reader in the patch's own scope (as
// RFC 5261 section 4.2.2 has a processor read them), in the namespace they
// have in the new version (or, for an operation on an element a later one
// replaces whole, in the old one): an element in a default namespace is written
// with a prefix the patch binds to it (Export declares no default
// namespace, so that selectors' unprefixed names stay in none), one in no
// namespace below a default one is written with xmlns="". The patch read
// back and applied gives the new version, names and declarations as they
// are (the round trip delta -> RFC 5261 -> apply), and so does delta.Apply.
func TestExportNamespaces(t *testing.T) {
	feed := func(entries string) string {
		return `<feed xmlns="` + atomNS + `"><title>News</title>` + entries + `</feed>`
	}
	page := func(body string) string {
		return `<html xmlns="` + xhtmlNS + `"><body><p>a</p>` + body + `</body></html>`
	}
	for _, tc := range []struct{ name, v1, v2 string }{
		{"atom entry inserted", feed(`<entry><title>1</title></entry>`), feed(`<entry><title>1</title></entry><entry><title>2</title></entry>`)},
		{"atom entry prepended", feed(`<entry><title>1</title></entry>`), `<feed xmlns="` + atomNS + `"><entry><title>0</title></entry><title>News</title><entry><title>1</title></entry></feed>`},
		{"XHTML paragraph inserted", page(``), page(`<p>b</p><div><span>c</span></div>`)},
		{"inserted into an SVG island", page(`<svg xmlns="` + svgNS + `"><g/></svg>`), page(`<svg xmlns="` + svgNS + `"><g><circle r="1"/></g></svg>`)},
		{"content root with its own namespace", page(``), page(`<svg xmlns="` + svgNS + `"><circle/></svg>`)},
		{"content holding another namespace", page(``), page(`<div><math xmlns="` + mathNS + `"><mi>x</mi></math><p>y</p></div>`)},
		{"no namespace below a default one", feed(``), feed(`<x xmlns=""><y>1</y></x>`)},
		{"moved into another default namespace", page(`<svg xmlns="` + svgNS + `"><g><title>t</title></g></svg><div/>`), page(`<svg xmlns="` + svgNS + `"><g/></svg><div><title>t</title></div>`)},
		{"parent's namespace changed and an entry inserted", feed(`<entry><title>1</title></entry>`),
			`<feed xmlns="urn:other"><title>News</title><entry><title>1</title></entry><entry><title>2</title></entry></feed>`},
		{"prefixed content", `<feed xmlns="` + atomNS + `" xmlns:dc="http://purl.org/dc/elements/1.1/"><entry/></feed>`,
			`<feed xmlns="` + atomNS + `" xmlns:dc="http://purl.org/dc/elements/1.1/"><entry><dc:creator>Ann</dc:creator></entry></feed>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old, new := parseXML(t, tc.v1), parseXML(t, tc.v2)
			d, err := treediff.Diff(old, new, &treediff.Options{Algorithm: treediff.Vigil})
			if err != nil {
				t.Fatal(err)
			}
			// The delta as another tool would read it back: XyDelta XML,
			// where the default namespace is declared on the contents.
			var b strings.Builder
			if err := delta.EncodeXML(&b, d); err != nil {
				t.Fatal(err)
			}
			ds, err := delta.DecodeXML(strings.NewReader(b.String()))
			if err != nil {
				t.Fatal(err)
			}
			p, err := Export(old, ds[0])
			if err != nil {
				t.Fatal(err)
			}
			x := encode(t, p)
			// An operation acts on the version the ones before it leave,
			// so an element it adds may be in the old version's namespace
			// where a later one replaces its parent whole.
			var have []string
			for _, v := range []*tree.Document{old, new} {
				var w strings.Builder
				if err := markup.WriteXML(&w, v, nil); err != nil {
					t.Fatal(err)
				}
				have = append(have, expandedNames(t, w.String(), false)...)
			}
			slices.Sort(have)
			if added := expandedNames(t, x, true); !contains(have, added) {
				t.Errorf("the patch adds elements in namespaces that neither version has them in:\nadded %q\nversions %q\n%s", added, have, x)
			}
			back, err := Decode(strings.NewReader(x))
			if err != nil {
				t.Fatalf("%v\n%s", err, x)
			}
			got := old.Clone()
			if err := Apply(got, back); err != nil {
				t.Fatalf("%v\n%s", err, x)
			}
			if diff := tree.Diff(got.Root, new.Root, tree.Content); diff != "" {
				t.Errorf("Apply(old, patch) != new: %s\n%s", diff, x)
			}
			viaDelta, err := delta.Apply(old, ds[0])
			if err != nil {
				t.Fatal(err)
			}
			if diff := tree.Diff(viaDelta.Root, new.Root, tree.Content); diff != "" {
				t.Errorf("delta.Apply(old, delta) != new: %s", diff)
			}
		})
	}
}

// TestApplyNamespacesOfContent: what an <add> or a <replace> puts in the
// document is in the namespaces the patch document binds in scope at the
// operation (RFC 5261 sections 4.2.2 and 8): an unprefixed name in the
// patch's default namespace, declared on the patch's element or the
// operation, or in none when the patch declares none, whatever the
// default namespace at the place it goes; the result, read by a
// namespace-aware reader, has it there.
func TestApplyNamespacesOfContent(t *testing.T) {
	const doc = `<feed xmlns="` + atomNS + `"><title>t</title><entry><title>1</title></entry></feed>`
	for _, tc := range []struct {
		name, patch string
		want        []string // the expanded names of the result's elements
	}{
		{"patch's default namespace", `<diff xmlns="` + atomNS + `"><add sel="feed"><entry><title>2</title></entry></add></diff>`,
			[]string{atomNS + " entry", atomNS + " entry", atomNS + " feed", atomNS + " title", atomNS + " title", atomNS + " title"}},
		{"operation's default namespace", `<diff><add sel="/*" xmlns="` + atomNS + `"><entry><title>2</title></entry></add></diff>`,
			[]string{atomNS + " entry", atomNS + " entry", atomNS + " feed", atomNS + " title", atomNS + " title", atomNS + " title"}},
		{"no default namespace in the patch", `<diff><add sel="/*"><entry><title>2</title></entry></add></diff>`,
			[]string{" entry", " title", atomNS + " entry", atomNS + " feed", atomNS + " title", atomNS + " title"}},
		{"prefixed in the patch", `<diff xmlns:a="` + atomNS + `"><add sel="a:feed"><a:entry><a:title>2</a:title></a:entry></add></diff>`,
			[]string{atomNS + " entry", atomNS + " entry", atomNS + " feed", atomNS + " title", atomNS + " title", atomNS + " title"}},
		{"added before, in the patch's namespace", `<diff xmlns:a="` + atomNS + `"><add sel="a:feed/a:entry" pos="before"><entry/></add></diff>`,
			[]string{" entry", atomNS + " entry", atomNS + " feed", atomNS + " title", atomNS + " title"}},
		{"replaced, in the patch's namespace", `<p:diff xmlns:p="urn:ietf:params:xml:ns:pidf-diff" xmlns="` + svgNS + `" xmlns:a="` + atomNS + `"><p:replace sel="a:feed/a:entry"><g/></p:replace></p:diff>`,
			[]string{svgNS + " g", atomNS + " feed", atomNS + " title"}},
		{"content declaring no namespace", `<diff xmlns="` + atomNS + `"><add sel="feed"><x xmlns=""><y/></x></add></diff>`,
			[]string{" x", " y", atomNS + " entry", atomNS + " feed", atomNS + " title", atomNS + " title"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := applyXML(t, doc, tc.patch)
			if err != nil {
				t.Fatal(err)
			}
			var w strings.Builder
			if err := markup.WriteXML(&w, d, nil); err != nil {
				t.Fatal(err)
			}
			if got := expandedNames(t, w.String(), false); !slices.Equal(got, tc.want) {
				t.Errorf("result %s\nread as %q\nwant %q", w.String(), got, tc.want)
			}
		})
	}
}
