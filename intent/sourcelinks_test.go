package intent

import (
	"net/url"
	"slices"
	"testing"
)

// TestSourceLinks: the links of a document read as its source text are
// its absolute URLs and the href and src its tags write relative, in the
// order they are written, a relative one resolved against the text's
// base element (itself no link) or else the document's address, a bare
// URL without a label, a Markdown link with its own, each at the text
// node where it starts.
func TestSourceLinks(t *testing.T) {
	line1, line2, line3 := "see https://Example.com/a and <a\n", "  href=\"docs/b\">B</a>\n", "[The guide](https://example.com/guide) <img src='/c.png'>\n"
	line4 := `<base href="https://cdn.example/x/"> <img src="https://img.example/l.png">`
	doc := textPage(t, line1+line2+line3+line4)
	base, _ := url.Parse("https://example.com/dir/page.txt")
	type got struct {
		url, label, node   string
		relative, resource bool
	}
	var links []got
	for _, l := range SourceLinks(doc.Root, base) {
		links = append(links, got{l.URL(), l.Label, l.Node.Value, l.Relative, l.Resource})
	}
	// The base element's absolute href is not one, though TextLinks
	// finds it; an img's src, relative or absolute, is a resource's
	// address, which an a's href and a URL in prose are not.
	want := []got{
		{"https://example.com/a", "", line1, false, false},
		{"https://cdn.example/x/docs/b", "", line2, true, false},
		{"https://example.com/guide", "The guide", line3, false, false},
		{"https://cdn.example/c.png", "", line3, true, true},
		{"https://img.example/l.png", "", line4, false, true},
	}
	if !slices.Equal(links, want) {
		t.Errorf("SourceLinks\n%+v\nwant\n%+v", links, want)
	}
	// Without a base element, against the document's address.
	doc = textPage(t, line1+line2)
	if l := SourceLinks(doc.Root, base); len(l) != 2 || l[1].URL() != "https://example.com/dir/docs/b" || l[1].Ref != "docs/b" {
		t.Errorf("SourceLinks of a relative href without a base element: %+v", l)
	}
	if l := SourceLinks(nil, base); l != nil {
		t.Errorf("SourceLinks(nil) = %v", l)
	}
}

// TestSourceLinksBase: a text's relative hrefs resolve against its first
// base element with an href, as a parsed page's do (PageBase): one that
// is not http or https (ftp:, javascript:, data:) is passed over for the
// document's address, and so are those after it; one relative resolves
// against the address. It took any base, and an ftp: one made every
// relative href an ftp: URL.
func TestSourceLinksBase(t *testing.T) {
	base, _ := url.Parse("https://example.com/dir/page.txt")
	for _, tc := range []struct {
		name, text, want string
		page             *url.URL
	}{
		{"an https base", `<base href="https://cdn.example/x/"> <a href="y.html">`, "https://cdn.example/x/y.html", base},
		{"an ftp base", `<base href="ftp://files.example/"> <a href="y.html">`, "https://example.com/dir/y.html", base},
		{"a javascript base", `<base href="javascript:void(0)"> <a href="y.html">`, "https://example.com/dir/y.html", base},
		{"a data base", `<base href="data:text/html,x"> <a href="y.html">`, "https://example.com/dir/y.html", base},
		{"an ftp base, then an https one", `<base href="ftp://files.example/"><base href="https://cdn.example/x/"> <a href="y.html">`, "https://example.com/dir/y.html", base},
		{"a base without an href first", `<base target="_top"><base href="https://cdn.example/x/"> <a href="y.html">`, "https://cdn.example/x/y.html", base},
		{"a relative base", `<base href="../docs/"> <a href="y.html">`, "https://example.com/docs/y.html", base},
		{"a relative base, no address", `<base href="/docs/"> <a href="y.html">`, "/docs/y.html", nil},
		{"an ftp base, no address", `<base href="ftp://files.example/"> <a href="y.html">`, "y.html", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range SourceLinks(textPage(t, tc.text).Root, tc.page) {
				got = append(got, l.URL())
			}
			if !slices.Equal(got, []string{tc.want}) {
				t.Errorf("links %q, want %q", got, tc.want)
			}
		})
	}
}
