package intent

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// feedPair evaluates "all links" on two documents read from page and
// returns the Line of each change.
func feedPair(t *testing.T, page, old, new string) []string {
	t.Helper()
	p := NewPair(parseDoc(t, old), parseDoc(t, new), nil, nil)
	p.OldURL, p.NewURL = page, page
	r, err := p.Evaluate(monitor(t, "all links"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.AllChanges() {
		got = append(got, c.Line())
	}
	if r.Matched != (len(got) > 0) {
		t.Errorf("matched %v with %d changes", r.Matched, len(got))
	}
	return got
}

const (
	rss2Head = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
<title>Blog</title><link>https://blog.example/</link>
<atom:link href="https://blog.example/feed.xml" rel="self"/>
`
	rss2Tail = "</channel></rss>\n"
	rdfHead  = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
<channel rdf:about="https://blog.example/feed.rdf"><title>Blog</title><link>https://blog.example/</link></channel>
`
	rdfTail  = "</rdf:RDF>\n"
	atomHead = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/posts/">
<title>Blog</title><link href="/"/><link rel="self" href="/feed.xml"/>
<id>https://blog.example/</id>
`
	atomTail = "</feed>\n"
)

func rss2Item(name string) string {
	return "<item><title>Post " + name + "</title><link>https://blog.example/" + name + "</link><guid>https://blog.example/" + name + "</guid></item>\n"
}

func rdfItem(name string) string {
	return `<item rdf:about="https://blog.example/` + name + `"><title>Post ` + name + `</title><link>https://blog.example/` + name + "</link></item>\n"
}

func atomEntry(name string) string {
	return "<entry><title>Post " + name + "</title><link href=\"" + name + "\"/><id>https://blog.example/posts/" + name + "</id></entry>\n"
}

// TestFeedLinks: the links of a feed (RSS 2.0, RSS 1.0, Atom) are its
// feed links, so that an entry added is its link added, once, though its
// guid, rdf:about or id repeat it; an Atom href resolves against the
// xml:base in scope, then the feed's address. An XML document that is not
// a feed keeps the rule of markup: its a and area elements.
func TestFeedLinks(t *testing.T) {
	const page = "https://blog.example/feed.xml"
	for _, tc := range []struct {
		name, old, new string
		want           []string
	}{
		{"RSS 2.0 item added", rss2Head + rss2Item("a") + rss2Tail, rss2Head + rss2Item("b") + rss2Item("a") + rss2Tail,
			[]string{"+ link added: https://blog.example/b"}},
		{"RSS 2.0 item removed", rss2Head + rss2Item("b") + rss2Item("a") + rss2Tail, rss2Head + rss2Item("b") + rss2Tail,
			[]string{"- link removed: https://blog.example/a"}},
		{"RSS 2.0 enclosure and permalink guid",
			rss2Head + rss2Tail,
			rss2Head + `<item><title>Episode 1</title><enclosure url="/media/1.mp3" length="1" type="audio/mpeg"/>` +
				`<guid isPermaLink="true">https://blog.example/episodes/1</guid></item>` +
				`<item><title>Episode 2</title><guid isPermaLink="false">https://blog.example/episodes/2</guid><guid>tag:blog.example,2</guid></item>` + rss2Tail,
			[]string{"+ link added: https://blog.example/media/1.mp3", "+ link added: https://blog.example/episodes/1"}},
		{"RSS 2.0 item retitled", rss2Head + rss2Item("a") + rss2Tail,
			rss2Head + strings.Replace(rss2Item("a"), "Post a", "First post", 1) + rss2Tail,
			[]string{"~ link changed: Post a -> First post (https://blog.example/a)"}},
		{"RSS 1.0 item added", rdfHead + rdfItem("a") + rdfTail, rdfHead + rdfItem("b") + rdfItem("a") + rdfTail,
			[]string{"+ link added: https://blog.example/b"}},
		{"Atom entry added", atomHead + atomEntry("a") + atomTail, atomHead + atomEntry("b") + atomEntry("a") + atomTail,
			[]string{"+ link added: https://blog.example/posts/b"}},
		{"Atom entry with its own xml:base", atomHead + atomEntry("a") + atomTail,
			atomHead + `<entry xml:base="https://cdn.example/x/"><title>C</title><link href="c.html"/><link rel="enclosure" href="../c.mp3"/></entry>` + atomEntry("a") + atomTail,
			[]string{"+ link added: https://cdn.example/x/c.html", "+ link added: https://cdn.example/c.mp3"}},
		{"Atom prefixed", `<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:entry><a:link href="/p/1"/></a:entry></a:feed>`,
			`<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:entry><a:link href="/p/1"/></a:entry><a:entry><a:link href="/p/2"/></a:entry></a:feed>`,
			[]string{"+ link added: https://blog.example/p/2"}},
		{"Atom XHTML content's a elements", atomHead + atomEntry("a") + atomTail,
			atomHead + strings.Replace(atomEntry("a"), "</entry>", `<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><a href="/x">x</a></div></content></entry>`, 1) + atomTail, nil},
		// A feed element out of its namespace is no feed: an XML document
		// keeps the rule of markup.
		{"feed without the Atom namespace", `<feed><entry><link href="/p/1"/></entry></feed>`,
			`<feed><entry><link href="/p/1"/></entry><entry><link href="/p/2"/></entry></feed>`, nil},
		{"XML that is no feed", `<catalog><item><link>https://x.example/1</link></item></catalog>`,
			`<catalog><item><link>https://x.example/1</link></item><item><link>https://x.example/2</link><a href="/z">z</a></item></catalog>`,
			[]string{"+ link added: https://blog.example/z"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := feedPair(t, page, tc.old, tc.new); !slices.Equal(got, tc.want) {
				t.Errorf("changes\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestFeedLinksList: FeedLinks gives each link of a feed once within its
// item, labelled by the item's title, resolved against xml:base and the
// base given, and not the feed's self link; nil for a document that is
// not a feed.
func TestFeedLinksList(t *testing.T) {
	base, _ := url.Parse("https://blog.example/feed.xml")
	type link struct{ url, text string }
	for _, tc := range []struct {
		name, doc string
		want      []link
	}{
		{"RSS 2.0", rss2Head + rss2Item("a") + rss2Tail, []link{
			{"https://blog.example/", "Blog"}, {"https://blog.example/a", "Post a"}}},
		{"RSS 1.0", rdfHead + rdfItem("a") + rdfTail, []link{
			{"https://blog.example/", "Blog"}, {"https://blog.example/a", "Post a"}}},
		{"Atom", atomHead + atomEntry("a") + atomTail, []link{
			{"https://blog.example/", "Blog"}, {"https://blog.example/posts/a", "Post a"}}},
		{"RDF without an RSS channel", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><item rdf:about="https://x.example/"/></rdf:RDF>`, nil},
		{"HTML", `<html><body><a href="/a">a</a></body></html>`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseDoc(t, tc.doc)
			var got []link
			for _, l := range FeedLinks(doc, base) {
				got = append(got, link{l.URL, l.Text})
			}
			if !slices.Equal(got, tc.want) || IsFeed(doc) != (tc.want != nil) {
				t.Errorf("IsFeed %v, FeedLinks\n%q\nwant\n%q", IsFeed(doc), got, tc.want)
			}
		})
	}
}

// TestLinksComparedAsSets: a notification names a URL once a direction,
// and a URL on both sides is no change whatever its count: the same URL
// added twice (a page's logo and its text link, a text whose link's text
// is its URL) is one link added, and a URL that gains or loses a copy is
// unchanged.
func TestLinksComparedAsSets(t *testing.T) {
	const page = "https://example.com/"
	body := func(links ...string) string {
		var b strings.Builder
		b.WriteString("<html><body>")
		for _, l := range links {
			b.WriteString(`<p><a href="` + l + `">` + l + `</a></p>`)
		}
		b.WriteString("</body></html>")
		return b.String()
	}
	for _, tc := range []struct {
		name     string
		old, new string
		want     []string
	}{
		{"a URL added twice", body("/a"), body("/x", "/a", "/x"), []string{"+ link added: https://example.com/x"}},
		{"a URL removed twice", body("/x", "/a", "/x"), body("/a"), []string{"- link removed: https://example.com/x"}},
		{"a copy added", body("/a", "/b"), body("/a", "/b", "/a"), nil},
		{"a copy removed", body("/a", "/b", "/a"), body("/b", "/a"), nil},
		{"one replaced by a copy of another", body("/a", "/b", "/c"), body("/a", "/a", "/c"), []string{"- link removed: https://example.com/b"}},
		{"one replaced by another", body("/a", "/b", "/c"), body("/a", "/x", "/c"), []string{"~ link changed: https://example.com/b -> https://example.com/x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := feedPair(t, page, tc.old, tc.new); !slices.Equal(got, tc.want) {
				t.Errorf("changes\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
