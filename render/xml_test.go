package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/render"
	"github.com/vigil-web/vigil/treediff"
)

// annotateXML parses two versions of an XML document and annotates the
// first with the delta between them.
func annotateXML(t *testing.T, oldXML, newXML string) *render.Annotated {
	t.Helper()
	old, err := markup.ParseXMLBytes([]byte(oldXML), nil)
	if err != nil {
		t.Fatal(err)
	}
	nw, err := markup.ParseXMLBytes([]byte(newXML), nil)
	if err != nil {
		t.Fatal(err)
	}
	old.AssignXIDs()
	d, err := treediff.Diff(old, nw, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := render.Annotate(old, d)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestXMLViews: a document that is not a page (a feed) is shown as its
// markup, each element a block with its tags as text, and its changes
// marked on those blocks: written as HTML, a feed's <title> and <link>
// were read as the HTML elements (a raw-text title, a void link), and the
// marks on its own elements (<item data-vigil="ins">) went away with them
// in a sanitiser.
func TestXMLViews(t *testing.T) {
	const (
		oldXML = `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><item><title>Opened</title><link>http://x/1</link></item></channel></rss>`
		newXML = `<?xml version="1.0"?><rss version="2.0"><channel><title>News!</title><item><title>Sale</title><link>http://x/2</link></item><item><title>Opened</title><link>http://x/1</link></item></channel></rss>`
	)
	a := annotateXML(t, oldXML, newXML)
	inserted := `<div data-vigil="ins"><code>&lt;item&gt;</code><div><code>&lt;title&gt;</code>Sale<code>&lt;/title&gt;</code></div><div><code>&lt;link&gt;</code>http://x/2<code>&lt;/link&gt;</code></div><code>&lt;/item&gt;</code></div>`
	for name, tc := range map[string]struct {
		write func(*bytes.Buffer) error
		want  []string
	}{
		"inline": {func(b *bytes.Buffer) error { return a.WriteInline(b) }, []string{
			`<div data-vigil="xml"><div><code>&lt;rss version="2.0"&gt;</code>`, inserted,
			`<code>&lt;title&gt;</code><del data-vigil="upd-old">News</del><ins data-vigil="upd">News!</ins><code>&lt;/title&gt;</code>`}},
		"side by side": {func(b *bytes.Buffer) error { return a.WriteSideBySide(b) }, []string{
			`<div data-vigil="old"><div data-vigil="xml">`, `<div data-vigil="new"><div data-vigil="xml">`, inserted}},
		"only changes": {func(b *bytes.Buffer) error { return a.WriteChanges(b) }, []string{
			`<div data-vigil="xml">` + inserted + `</div>`}},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %s in\n%s", name, w, b.String())
			}
		}
		if strings.Contains(b.String(), "<title>") || strings.Contains(b.String(), "<item") {
			t.Errorf("%s: the feed's elements are written as elements:\n%s", name, b.String())
		}
	}
}

// TestXMLViewsMarkupAsText: the comments and processing instructions of a
// document that is not a page are shown as text, as its tags are, with
// their marks: written as HTML comments, a processing instruction whose
// data holds "-->" closed the comment early and the markup after it was
// written as the view's own, an element where the document has text.
func TestXMLViewsMarkupAsText(t *testing.T) {
	const (
		oldXML = `<?xml version="1.0"?><rss><channel><title>a</title></channel></rss>`
		newXML = `<?xml version="1.0"?><rss><channel><title>a</title><!-- a <b>note</b> --><?pi --><img src=x onerror=alert(1)> ?></channel></rss>`
	)
	a := annotateXML(t, oldXML, newXML)
	for name, write := range map[string]func(*bytes.Buffer) error{
		"inline":       func(b *bytes.Buffer) error { return a.WriteInline(b) },
		"side by side": func(b *bytes.Buffer) error { return a.WriteSideBySide(b) },
		"only changes": func(b *bytes.Buffer) error { return a.WriteChanges(b) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := b.String()
		for _, w := range []string{
			`<code data-vigil="ins">&lt;!-- a &lt;b&gt;note&lt;/b&gt; --&gt;</code>`,
			`<code data-vigil="ins">&lt;?pi --&gt;&lt;img src=x onerror=alert(1)&gt; ?&gt;</code>`,
		} {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %s in\n%s", name, w, out)
			}
		}
		if strings.Contains(out, "<img") || strings.Contains(out, "<b>") || strings.Contains(out, "<!--") {
			t.Errorf("%s: the document's markup is written as the view's:\n%s", name, out)
		}
	}
}

// TestXMLViewsAttributeQuoted: an attribute value shown in a tag of a
// document that is not a page is written as the markup writes it, its
// quotes and ampersands as references: shown as it is, a="x"y" read as
// two attributes.
func TestXMLViewsAttributeQuoted(t *testing.T) {
	const doc = `<feed><e a="x&quot;y &amp;amp; &lt;z>"/></feed>`
	a := annotateXML(t, doc, doc)
	var b bytes.Buffer
	if err := a.WriteInline(&b); err != nil {
		t.Fatal(err)
	}
	// The tag's text: <e a="x&quot;y &amp;amp; &lt;z>"/>, escaped once more as HTML text.
	want := `<code>&lt;e a="x&amp;quot;y &amp;amp;amp; &amp;lt;z&gt;"/&gt;</code>`
	if !strings.Contains(b.String(), want) {
		t.Errorf("no %s in\n%s", want, b.String())
	}
}
