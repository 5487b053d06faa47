package warehouse_test

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/markup"
)

// TestExtractFeedLinks: the links of a feed are its feed links
// (intent.FeedLinks), canonical as a page's are (an Atom href resolved
// against xml:base and the feed's address, a Unicode host in its ASCII
// form, a host DNS refuses and a mailto: left out), each named by its
// entry's title, else by its target; those of its entries' XHTML content
// are not, nor its self, edit and replies links. An RSS feed in
// Userland's namespace is one. Another XML document keeps its xlink:href
// links.
func TestExtractFeedLinks(t *testing.T) {
	type link struct{ target, anchor string }
	for _, tc := range []struct {
		name, doc string
		want      []link
	}{
		{"Atom", `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/posts/">
<link rel="self" href="/feed.xml"/>
<entry><title>Café</title><link href="cafe#top"/><link rel="edit" href="/feeds/cafe"/><link rel="replies" href="cafe#comments"/><id>https://blog.example/posts/cafe</id>
<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><a href="/x">x</a></div></content></entry>
<entry xml:base="http://bücher.example/"><link href="b"/><link href="mailto:a@b.example"/><link href="http://a..example/"/></entry>
</feed>`, []link{{"https://blog.example/posts/cafe#top", "Café"},
			{"http://xn--bcher-kva.example/b", "http://xn--bcher-kva.example/b"}}},
		{"RSS 2.0", `<rss version="2.0"><channel><title>Blog</title><link>https://blog.example/</link>
<item><title>A</title><link>https://blog.example/a</link><guid>https://blog.example/a</guid><enclosure url="https://cdn.example/a.mp3"/></item>
</channel></rss>`, []link{{"https://blog.example/", "Blog"}, {"https://blog.example/a", "A"}, {"https://cdn.example/a.mp3", "A"}}},
		{"RSS 2.0 in Userland's namespace", `<rss version="2.0" xmlns="http://backend.userland.com/rss2"><channel><title>Blog</title><link>https://blog.example/</link>
<item><title>A</title><link>https://blog.example/a</link></item></channel></rss>`, []link{{"https://blog.example/", "Blog"}, {"https://blog.example/a", "A"}}},
		{"RSS 1.0", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
<channel rdf:about="https://blog.example/feed.rdf"><title>Blog</title><link>https://blog.example/</link></channel>
<item rdf:about="https://blog.example/a"><title>A</title><link>https://blog.example/a</link></item></rdf:RDF>`,
			[]link{{"https://blog.example/", "Blog"}, {"https://blog.example/a", "A"}}},
		{"other XML", `<doc xmlns:xlink="http://www.w3.org/1999/xlink"><link>https://x.example/</link><ref xlink:href="/r"/></doc>`,
			[]link{{"https://blog.example/r", ""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, _, err := markup.ParseBytes([]byte(tc.doc), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []link
			for _, l := range warehouse.ExtractLinks(doc, "https://blog.example/feed.xml") {
				if l.Source != "https://blog.example/feed.xml" || l.Type != vigil.ClassifyLink(l.Source, l.Target) {
					t.Errorf("link %+v: source or type", l)
				}
				got = append(got, link{l.Target, l.Anchor})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("links\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
