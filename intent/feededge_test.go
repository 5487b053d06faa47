package intent

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestFeedLinksEdges: FeedLinks on the edges of the formats: xml:base
// nested and relative, or on the link itself; isPermaLink in any case,
// "false" no link; white space around a URL; a title of CDATA and
// entities; an Atom title of type html read as the text it shows; RSS 0.91 with its DOCTYPE and RSS 0.90; a feed element in
// another namespace (no feed); prefixed Atom beside another default
// namespace; an RSS image's link, which is not the channel's.
func TestFeedLinksEdges(t *testing.T) {
	base, _ := url.Parse("https://blog.example/feed.xml")
	type link struct{ url, text string }
	const atom = `xmlns="http://www.w3.org/2005/Atom"`
	for _, tc := range []struct {
		name, doc string
		want      []link
	}{
		{"nested relative xml:base", `<feed ` + atom + ` xml:base="/blog/"><entry xml:base="2024/"><title>t</title><link href="a"/></entry></feed>`,
			[]link{{"https://blog.example/blog/2024/a", "t"}}},
		{"xml:base on the link", `<feed ` + atom + `><entry><title>t</title><link xml:base="https://cdn.example/d/" href="x"/></entry></feed>`,
			[]link{{"https://cdn.example/d/x", "t"}}},
		{"guid isPermaLink case and false", `<rss><channel><item><title>t</title><guid isPermaLink=" TRUE ">https://x.example/1</guid></item>` +
			`<item><title>u</title><guid isPermaLink="False">https://x.example/2</guid></item></channel></rss>`,
			[]link{{"https://x.example/1", "t"}}},
		{"white space around URLs", "<rss><channel><item><title>t</title><link>\n  https://x.example/1 \n</link><enclosure url=\"  /m.mp3 \"/></item></channel></rss>",
			[]link{{"https://x.example/1", "t"}, {"https://blog.example/m.mp3", "t"}}},
		{"title CDATA and entities", `<rss><channel><item><title><![CDATA[A & B]]> &amp; C</title><link>https://x.example/1</link></item></channel></rss>`,
			[]link{{"https://x.example/1", "A & B & C"}}},
		{"Atom title of type html", `<feed ` + atom + `><entry><title type="html">&lt;em&gt;New&lt;/em&gt; post &amp;amp; a &lt; b</title><link href="/a"/></entry>` +
			`<entry><title type="text">&lt;em&gt; stays</title><link href="/b"/></entry></feed>`,
			[]link{{"https://blog.example/a", "New post & a < b"}, {"https://blog.example/b", "<em> stays"}}},
		{"RSS 0.91", `<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd"><rss version="0.91"><channel><title>c</title><link>https://x.example/</link><item><title>t</title><link>https://x.example/1</link></item></channel></rss>`,
			[]link{{"https://x.example/", "c"}, {"https://x.example/1", "t"}}},
		{"RSS 0.90", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/"><channel><title>c</title><link>https://x.example/</link></channel><item><title>t</title><link>https://x.example/1</link></item></rdf:RDF>`,
			[]link{{"https://x.example/", "c"}, {"https://x.example/1", "t"}}},
		{"feed in another namespace", `<feed xmlns="http://example.com/other"><entry><link href="/p/1"/></entry></feed>`, nil},
		{"prefixed Atom, default namespace another", `<a:feed xmlns:a="http://www.w3.org/2005/Atom" xmlns="http://example.com/x"><a:entry><a:title>t</a:title><a:link href="/p/1"/><link href="/no"/></a:entry></a:feed>`,
			[]link{{"https://blog.example/p/1", "t"}}},
		{"image and textInput links are not the channel's", `<rss><channel><title>c</title><link>https://x.example/</link><image><url>https://x.example/i.png</url><link>https://x.example/img</link></image></channel></rss>`,
			[]link{{"https://x.example/", "c"}}},
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

// TestLinkSetsEdges: links compared as sets of targets: a target changed
// in place whose old target is still elsewhere is its new one added, and
// whose new one was already there is its old one removed; a copy of a
// link with another text removed or added is no change (it was a text
// change, Logo -> Home, when the diff paired the copy with the link that
// stays); a text changed on two copies is told once; a move is told.
func TestLinkSetsEdges(t *testing.T) {
	const page = "https://example.com/"
	body := func(links ...string) string {
		var b strings.Builder
		b.WriteString("<html><body>")
		for _, l := range links {
			h, txt, ok := strings.Cut(l, "|")
			if !ok {
				txt = h
			}
			b.WriteString(`<p><a href="` + h + `">` + txt + `</a></p>`)
		}
		b.WriteString("</body></html>")
		return b.String()
	}
	for _, tc := range []struct {
		name     string
		old, new string
		want     []string
	}{
		{"changed in place, old still elsewhere", body("/a", "/b", "/c", "/b"), body("/a", "/x", "/c", "/b"), []string{"+ link added: https://example.com/x"}},
		{"changed in place, new already elsewhere", body("/a", "/b", "/c", "/x"), body("/a", "/x", "/c", "/x"), []string{"- link removed: https://example.com/b"}},
		{"a copy with another text removed", body("/a|Logo", "/a|Home", "/b"), body("/a|Home", "/b"), nil},
		{"a copy with another text added", body("/a|Home", "/b"), body("/a|Logo", "/a|Home", "/b"), nil},
		{"retitled twice told once", body("/a|A", "/b", "/a|A"), body("/a|B", "/b", "/a|B"), []string{"~ link changed: A -> B (https://example.com/a)"}},
		{"moved", body("/a", "/b", "/c"), body("/b", "/c", "/a"), []string{"~ link moved: https://example.com/a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := feedPair(t, page, tc.old, tc.new); !slices.Equal(got, tc.want) {
				t.Errorf("changes\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestLinkEditsLong: linkEdits reads many links (a sitemap-like page or a
// feed of 2^16 entries) of which every fourth changed its target in place,
// every fourth its text, and every fourth has a copy added, in time linear
// in them: each edit is looked up in maps of the targets and links of
// each version, never searched for among the others (which would take
// minutes here). Each target changed or retitled is told once.
func TestLinkEditsLong(t *testing.T) {
	const n = 1 << 16
	link := func(h, text string) object {
		return object{key: h + "\x00" + text, keys: []string{h, text}, href: h, ref: h, text: text}
	}
	var old, new []object
	for i := range n {
		h := fmt.Sprintf("https://e.example/%d", i)
		old = append(old, link(h, "t"))
		switch i % 4 {
		case 0:
			new = append(new, link(h+"x", "t"))
		case 1:
			new = append(new, link(h, "u"))
		case 2:
			new = append(new, link(h, "t"), link(h, "t"))
		default:
			new = append(new, link(h, "t"))
		}
	}
	counts := map[Operation]int{}
	for _, e := range linkEdits(old, new) {
		counts[e.op]++
	}
	// A target changed in place is an update, or (where the diff of so
	// many links splits its work) its old target removed and new added.
	if counts[Update]+counts[Delete] != n/2 || counts[Insert] != counts[Delete] || counts[Move] != 0 {
		t.Errorf("edits %v, want %d updates or deletes, as many inserts as deletes", counts, n/2)
	}
}

// TestFeedLinksDeep: a feed nested deep (the parser takes a million
// levels) is read in time linear in its depth: looking up each element's
// parent's namespace among its ancestors, copying the namespaces in scope
// at each declaration, and reading the title of an item nested in the
// title of another took time quadratic in it (16 384 levels, 0.6 s; these,
// minutes). Only elements where the format puts them are items.
func TestFeedLinksDeep(t *testing.T) {
	const n = 1 << 17
	var atom strings.Builder
	atom.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>t</title>`)
	for i := range n {
		fmt.Fprintf(&atom, `<x xmlns:p%d="urn:%d">`, i, i)
	}
	atom.WriteString(`<link href="https://x.example/deep"/><link rel="next" href="https://x.example/deep"/>`)
	atom.WriteString(strings.Repeat("</x>", n) + "</entry></feed>")
	rss := "<rss><channel><item><title>t</title><link>https://x.example/1</link>" + strings.Repeat("<item><title>", n) +
		strings.Repeat("</title></item>", n) + "</item></channel></rss>"
	for _, tc := range []struct{ name, doc, want string }{
		{"Atom, a namespace declared at each level", atom.String(), "https://x.example/deep"},
		{"RSS, items in titles", rss, "https://x.example/1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseDoc(t, tc.doc)
			for name, feedLinks := range map[string]func(*tree.Document, *url.URL) []FeedLink{"FeedLinks": FeedLinks, "FeedLinksWithPages": FeedLinksWithPages} {
				got := feedLinks(doc, nil)
				if len(got) != 1 || got[0].URL != tc.want || got[0].Text != "t" {
					t.Errorf("%s: links %+v, want %s labelled t", name, got, tc.want)
				}
			}
		})
	}
}

// TestFeedLinksDeepBase: relative xml:base attributes nested deep ("a/"
// at each level) are read in linear time and memory: each base resolved
// from the last grew with the depth (16 384 levels took 8 s and 820 MB).
// A base longer than maxFeedBase is ignored, its parent's kept.
func TestFeedLinksDeepBase(t *testing.T) {
	const n = 1 << 16
	doc := parseDoc(t, `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>t</title>`+strings.Repeat(`<x xml:base="a/">`, n)+
		`<link href="z"/>`+strings.Repeat("</x>", n)+`</entry></feed>`)
	base, _ := url.Parse("https://x.example/")
	got := FeedLinks(doc, base)
	if len(got) != 1 || !strings.HasPrefix(got[0].URL, "https://x.example/a/a/") || !strings.HasSuffix(got[0].URL, "/a/z") ||
		len(got[0].URL) > maxFeedBase+len("https://x.example/z") {
		t.Errorf("%d links, want one under a base of at most %d bytes: %.80v", len(got), maxFeedBase, got)
	}
}

// TestFeedLinksRSSNamespace: an rss root in a default namespace is RSS
// when the namespace is one RSS was published or written under
// (Userland's RSS 2.0 and 0.91 ones, in any case, Harvard's RSS 2.0 one,
// RSS 1.0's and 0.90's, the RSS 0.91 module's), as feed readers
// (Universal Feed Parser, SimplePie) read it; its channel and items are
// the elements in that namespace. An rss root in any other namespace, and
// an item in another namespace than the root's, are not RSS.
func TestFeedLinksRSSNamespace(t *testing.T) {
	base, _ := url.Parse("https://blog.example/feed.xml")
	type link struct{ url, text string }
	body := `<channel><title>c</title><link>https://x.example/</link><item><title>t</title><link>https://x.example/1</link>` +
		`<guid>https://x.example/1</guid><enclosure url="/m.mp3"/></item></channel></rss>`
	want := []link{{"https://x.example/", "c"}, {"https://x.example/1", "t"}, {"https://blog.example/m.mp3", "t"}}
	for _, tc := range []struct {
		name, doc string
		want      []link
	}{
		{"Userland RSS 2.0", `<rss version="2.0" xmlns="http://backend.userland.com/rss2">` + body, want},
		{"Userland RSS2 in upper case", `<rss version="2.0" xmlns="http://backend.userland.com/RSS2">` + body, want},
		{"Userland RSS 0.91", `<rss version="0.91" xmlns="http://backend.userland.com/rss091">` + body, want},
		{"Harvard RSS 2.0", `<rss version="2.0" xmlns="http://blogs.law.harvard.edu/tech/rss">` + body, want},
		{"RSS 1.0 namespace", `<rss version="1.0" xmlns="http://purl.org/rss/1.0/">` + body, want},
		{"RSS 0.90 namespace", `<rss version="0.90" xmlns="http://my.netscape.com/rdf/simple/0.9/">` + body, want},
		{"RSS 0.91 module", `<rss version="0.91" xmlns="http://purl.org/rss/1.0/modules/rss091#">` + body, want},
		{"prefixed", `<r:rss xmlns:r="http://backend.userland.com/rss2"><r:channel><r:title>c</r:title><r:item><r:title>t</r:title><r:link>https://x.example/1</r:link></r:item></r:channel></r:rss>`,
			[]link{{"https://x.example/1", "t"}}},
		{"items in another namespace", `<rss xmlns="http://backend.userland.com/rss2" xmlns:o="urn:other"><channel><title>c</title><o:item><o:title>o</o:title><o:link>https://x.example/o</o:link></o:item>` +
			`<item xmlns="urn:other"><title>u</title><link>https://x.example/u</link></item><item><title>t</title><link>https://x.example/1</link></item></channel></rss>`,
			[]link{{"https://x.example/1", "t"}}},
		{"unprefixed items under a prefixed root", `<r:rss xmlns:r="http://backend.userland.com/rss2"><channel><item><title>t</title><link>https://x.example/1</link></item></channel></r:rss>`, []link{}},
		{"another namespace", `<rss xmlns="http://example.com/rss">` + body, nil},
		{"a namespace that contains an RSS one", `<rss xmlns="http://blogs.law.harvard.edu/tech/rss/other">` + body, nil},
		{"a URN", `<rss xmlns="urn:rss">` + body, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseDoc(t, tc.doc)
			var got []link
			for _, l := range FeedLinks(doc, base) {
				got = append(got, link{l.URL, l.Text})
			}
			if !slices.Equal(got, tc.want) || IsFeed(doc) != (tc.want != nil) {
				t.Errorf("IsFeed %v, FeedLinks\n%q\nwant\n%q (a feed: %v)", IsFeed(doc), got, tc.want, tc.want != nil)
			}
		})
	}
}

// TestFeedLinksAtomRelations: an Atom link is a link of the feed when it
// points to content a reader follows: its rel absent or alternate,
// enclosure, related or via (RFC 4287, 4.2.7.2), in any case, or written
// as its IANA IRI. The links to the entry's or feed's own document (self,
// edit, edit-media), its comments (replies, whose Blogger and WordPress
// give every entry two), its license, its hub, its pages (next, first)
// and extension relations (Blogger's http://schemas.google.com/...#feed)
// are not. An entry's content src (out-of-line content) is, resolved
// against xml:base as a link is, and given once with a link to the same
// target.
func TestFeedLinksAtomRelations(t *testing.T) {
	base, _ := url.Parse("https://blog.example/feed.xml")
	type link struct{ url, text string }
	const atom = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/">`
	for _, tc := range []struct {
		name, doc string
		want      []link
	}{
		{"Blogger", atom + `<title>B</title>` +
			`<link rel="http://schemas.google.com/g/2005#feed" type="application/atom+xml" href="/feeds/posts/default"/>` +
			`<link rel="self" type="application/atom+xml" href="/feeds/posts/default"/><link rel="alternate" type="text/html" href="/"/>` +
			`<link rel="hub" href="https://pubsubhubbub.appspot.com/"/><link rel="next" type="application/atom+xml" href="/feeds/posts/default?start-index=26"/>` +
			`<entry><title>P</title><link rel="replies" type="application/atom+xml" href="/feeds/1/comments/default" title="Post Comments"/>` +
			`<link rel="replies" type="text/html" href="/2024/01/p.html#comment-form" title="0 Comments"/>` +
			`<link rel="edit" type="application/atom+xml" href="/feeds/posts/default/1"/><link rel="self" type="application/atom+xml" href="/feeds/posts/default/1"/>` +
			`<link rel="alternate" type="text/html" href="/2024/01/p.html" title="P"/></entry></feed>`,
			[]link{{"https://blog.example/", "B"}, {"https://blog.example/2024/01/p.html", "P"}}},
		{"WordPress", atom + `<title>W</title><link rel="alternate" type="text/html" href="/"/><link rel="self" type="application/atom+xml" href="/feed/atom/"/>` +
			`<entry><title type="html"><![CDATA[Hello]]></title><link rel="alternate" type="text/html" href="/hello/"/>` +
			`<link rel="replies" type="text/html" href="/hello/#comments" thr:count="0" xmlns:thr="http://purl.org/syndication/thread/1.0"/>` +
			`<link rel="replies" type="application/atom+xml" href="/hello/feed/atom/" thr:count="0" xmlns:thr="http://purl.org/syndication/thread/1.0"/></entry></feed>`,
			[]link{{"https://blog.example/", "W"}, {"https://blog.example/hello/", "Hello"}}},
		{"YouTube", `<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">` +
			`<link rel="self" href="https://www.youtube.com/feeds/videos.xml?channel_id=UC1"/><title>Chan</title><link rel="alternate" href="https://www.youtube.com/channel/UC1"/>` +
			`<entry><yt:videoId>v1</yt:videoId><title>Video</title><link rel="alternate" href="https://www.youtube.com/watch?v=v1"/>` +
			`<media:group><media:content url="https://www.youtube.com/v/v1?version=3" type="application/x-shockwave-flash"/></media:group></entry></feed>`,
			[]link{{"https://www.youtube.com/channel/UC1", "Chan"}, {"https://www.youtube.com/watch?v=v1", "Video"}}},
		{"content relations", atom + `<entry><title>t</title><link href="/a"/><link rel="enclosure" href="/a.mp3"/><link rel="related" href="/r"/>` +
			`<link rel="via" href="https://src.example/"/><link rel=" Alternate " href="/b"/><link rel="ENCLOSURE" href="/b.mp3"/>` +
			`<link rel="http://www.iana.org/assignments/relation/related" href="/r2"/></entry></feed>`,
			[]link{{"https://blog.example/a", "t"}, {"https://blog.example/a.mp3", "t"}, {"https://blog.example/r", "t"}, {"https://src.example/", "t"},
				{"https://blog.example/b", "t"}, {"https://blog.example/b.mp3", "t"}, {"https://blog.example/r2", "t"}}},
		{"other relations", atom + `<entry><title>t</title><link rel="edit-media" href="/m"/><link rel="license" href="https://creativecommons.org/licenses/by/4.0/"/>` +
			`<link rel="first" href="/1"/><link rel="previous" href="/0"/><link rel="http://www.iana.org/assignments/relation/self" href="/s"/>` +
			`<link rel="urn:x:alternate" href="/x"/><link rel="" href="/empty"/></entry></feed>`,
			[]link{{"https://blog.example/empty", "t"}}},
		{"a self link in RSS", `<rss xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>c</title><link>https://x.example/</link>` +
			`<atom:link rel="self" href="https://x.example/feed.xml"/><atom:link rel="hub" href="https://hub.example/"/><atom:link rel="related" href="https://x.example/r"/></channel></rss>`,
			[]link{{"https://x.example/", "c"}, {"https://x.example/r", "c"}}},
		{"content src", atom + `<entry xml:base="media/"><title>t</title><content type="video/mp4" src="v.mp4"/></entry>` +
			`<entry><title>u</title><link href="/u"/><content type="text/html" src="/u"/></entry>` +
			`<entry><title>w</title><content type="html">&lt;a href="/no"&gt;x&lt;/a&gt;</content><content src=" "/></entry></feed>`,
			[]link{{"https://blog.example/media/v.mp4", "t"}, {"https://blog.example/u", "u"}}},
		{"content src outside Atom", `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:o="urn:o"><entry><title>t</title><o:content src="/no"/></entry></feed>`, []link{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseDoc(t, tc.doc)
			var got []link
			for _, l := range FeedLinks(doc, base) {
				got = append(got, link{l.URL, l.Text})
			}
			if !slices.Equal(got, tc.want) || !IsFeed(doc) {
				t.Errorf("IsFeed %v, FeedLinks\n%q\nwant\n%q", IsFeed(doc), got, tc.want)
			}
		})
	}
}

// TestFeedLinksWithPages: FeedLinksWithPages gives the links FeedLinks
// gives and, in document order among them, the feed's links to its other
// pages (RFC 5005's paging relations, in any case, prev for previous, or
// as their IANA IRI; Atom links in RSS too), Paging set, which FeedLinks
// leaves out; no other relation (self, replies, hub, edit).
func TestFeedLinksWithPages(t *testing.T) {
	base, _ := url.Parse("https://blog.example/feed.xml")
	type link struct {
		url, text string
		paging    bool
	}
	for _, tc := range []struct {
		name, doc string
		want      []link
	}{
		{"Atom", `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/"><title>B</title>` +
			`<link rel="self" href="/feed?page=2"/><link rel="first" href="/feed"/><link rel=" Previous " href="/feed?page=1"/>` +
			`<link rel="prev" href="/feed?p=1"/><link rel="NEXT" href="/feed?page=3"/><link rel="last" href="/feed?page=9"/>` +
			`<link rel="http://www.iana.org/assignments/relation/prev-archive" href="/archive/1"/><link rel="next-archive" href="/archive/3"/>` +
			`<link rel="current" href="/feed"/><link rel="hub" href="/hub"/><link href="/"/>` +
			`<entry><title>P</title><link rel="replies" href="/p/comments"/><link rel="edit" href="/p/edit"/><link href="/p"/></entry></feed>`,
			[]link{{"https://blog.example/feed", "B", true}, {"https://blog.example/feed?page=1", "B", true}, {"https://blog.example/feed?p=1", "B", true},
				{"https://blog.example/feed?page=3", "B", true}, {"https://blog.example/feed?page=9", "B", true}, {"https://blog.example/archive/1", "B", true},
				{"https://blog.example/archive/3", "B", true}, {"https://blog.example/", "B", false}, {"https://blog.example/p", "P", false}}},
		{"RSS", `<rss xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>c</title><link>https://x.example/</link>` +
			`<atom:link rel="self" href="https://x.example/feed"/><atom:link rel="next" href="https://x.example/feed?paged=2"/>` +
			`<item><title>i</title><link>https://x.example/i</link></item></channel></rss>`,
			[]link{{"https://x.example/", "c", false}, {"https://x.example/feed?paged=2", "c", true}, {"https://x.example/i", "i", false}}},
		{"no feed", `<html><link rel="next" href="/2"/></html>`, nil},
		// A page of the feed that is also its content (current and
		// alternate both the feed's home) counts as content, at its own
		// place, as FeedLinks gives it; it was a paging link, at the
		// paging link's place.
		{"paging link given again as content", `<feed xmlns="http://www.w3.org/2005/Atom"><title>B</title>` +
			`<link rel="current" href="/"/><link rel="next" href="/2"/><link href="/"/><link rel="first" href="/"/></feed>`,
			[]link{{"https://blog.example/2", "B", true}, {"https://blog.example/", "B", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseDoc(t, tc.doc)
			var got, content []link
			for _, l := range FeedLinksWithPages(doc, base) {
				got = append(got, link{l.URL, l.Text, l.Paging})
				if !l.Paging {
					content = append(content, link{l.URL, l.Text, false})
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("FeedLinksWithPages\n%v\nwant\n%v", got, tc.want)
			}
			var plain []link
			for _, l := range FeedLinks(doc, base) {
				plain = append(plain, link{l.URL, l.Text, l.Paging})
			}
			if !slices.Equal(plain, content) {
				t.Errorf("FeedLinks\n%v\nwant those of FeedLinksWithPages but its pages\n%v", plain, content)
			}
		})
	}
}
