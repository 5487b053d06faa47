package intent

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil/treediff"
)

// TestFeedHTML: a feed's text that holds escaped HTML (an RSS
// description or content:encoded, an Atom content, summary or title of
// type html) is read as the text it shows, its tags left out and its
// character references read, by all words, keywords and phrases; the
// tree delta is the description's text updated.
func TestFeedHTML(t *testing.T) {
	rss := func(desc string) string {
		return `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><link>https://blog.example/</link>` +
			`<item><title>Post</title><link>https://blog.example/p</link><description>` + desc + `</description></item></channel></rss>`
	}
	encoded := func(body string) string {
		return `<?xml version="1.0"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Blog</title>` +
			`<item><title>Post</title><content:encoded><![CDATA[` + body + `]]></content:encoded></item></channel></rss>`
	}
	atom := func(typ, body string) string {
		return `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>` +
			`<entry><title>Post</title><id>urn:1</id><content type="` + typ + `">` + body + `</content></entry></feed>`
	}
	for _, tc := range []struct {
		name, old, new, clause string
		want                   []string // the changes' old → new texts
	}{
		{"rss description words", rss(`&lt;p&gt;Foo bar.&lt;/p&gt;`), rss(`&lt;p&gt;Foo baz.&lt;/p&gt;`), "all words", []string{"bar. → baz."}},
		{"rss description markup only", rss(`&lt;p&gt;Sale&lt;/p&gt;`), rss(`&lt;p&gt;&lt;strong&gt;Sale&lt;/strong&gt;&lt;/p&gt;`), "all words", nil},
		{"rss description keyword in a tag", rss(`&lt;p&gt;Sale&lt;/p&gt;`), rss(`&lt;p&gt;&lt;strong&gt;Sale&lt;/strong&gt;&lt;/p&gt;`), "keywords {strong}", nil},
		{"rss description keyword", rss(`&lt;p&gt;In stock&lt;/p&gt;`), rss(`&lt;p&gt;Sold &lt;em&gt;out&lt;/em&gt;&lt;/p&gt;`), "keywords {sold}", []string{" → Sold"}},
		{"rss description entity", rss(`&lt;p&gt;Fish &amp;amp; chips&lt;/p&gt;`), rss(`&lt;p&gt;Fish &amp;amp; peas&lt;/p&gt;`), "all words", []string{"chips → peas"}},
		{"rss description phrase", rss(`&lt;p&gt;Big sale&lt;/p&gt;`), rss(`&lt;p&gt;Big &lt;b&gt;sale&lt;/b&gt; today&lt;/p&gt;`), `phrase {"big sale"}`, nil},
		{"content:encoded words", encoded(`<p>Foo bar.</p>`), encoded(`<p>Foo baz.</p>`), "all words", []string{"bar. → baz."}},
		{"atom html content", atom("html", `&lt;p&gt;Foo bar.&lt;/p&gt;`), atom("html", `&lt;p&gt;Foo baz.&lt;/p&gt;`), "all words", []string{"bar. → baz."}},
		// An Atom text of type text is text: a "<" in it is a word's.
		{"atom text content", atom("text", `a &lt;b&gt; c`), atom("text", `a &lt;i&gt; c`), "all words", []string{"<b> → <i>"}},
	} {
		a, b := parseDoc(t, tc.old), parseDoc(t, tc.new)
		d, err := treediff.Diff(a, b, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.Empty() {
			t.Fatalf("%s: empty delta", tc.name)
		}
		r, err := NewPair(a, b, d, nil).Evaluate(monitor(t, tc.clause))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range r.AllChanges() {
			old, new := c.Texts()
			got = append(got, old+" → "+new)
		}
		if !slices.Equal(got, tc.want) || r.Matched != (len(tc.want) > 0) {
			t.Errorf("%s: matched %v, changes %q; want %q", tc.name, r.Matched, got, tc.want)
		}
	}
}

func TestHTMLText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"<em>New</em> post", "New post"},
		{"<p>Foo bar.</p><p>Baz</p>", "Foo bar. Baz"},
		{"<b>pri</b>ce", "price"},
		{"a<br>b", "a b"},
		{"Fish &amp; chips &lt;3", "Fish & chips <3"},
		{"a < b", "a < b"},
		{"<p>x</p><script>var y = '<p>';</script><style>p{}</style>z", "x z"},
		{"<img src=x.png>", ""},
	} {
		if got := htmlText(tc.in); got != tc.want {
			t.Errorf("htmlText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFeedHTMLBlocks: a feed's escaped HTML is parted into blocks as an
// HTML page is: a phrase or a regular expression does not run from one
// paragraph (heading, list item, line break) of a description to the
// next, and ^ and $ match at each block's ends.
func TestFeedHTMLBlocks(t *testing.T) {
	rss := func(desc string) string {
		return `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><link>https://blog.example/</link>` +
			`<item><title>Post</title><link>https://blog.example/p</link><description>` + desc + `</description></item></channel></rss>`
	}
	encoded := func(body string) string {
		return `<?xml version="1.0"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Blog</title>` +
			`<item><title>Post</title><content:encoded><![CDATA[` + body + `]]></content:encoded></item></channel></rss>`
	}
	for _, tc := range []struct {
		name, old, new, clause string
		want                   []string // Line of each change; nil for no change
	}{
		{"phrase across paragraphs", rss(`&lt;p&gt;Big sale&lt;/p&gt;`), rss(`&lt;p&gt;Big sale&lt;/p&gt;&lt;p&gt;Today only&lt;/p&gt;`), `phrase {"sale today"}`, nil},
		{"phrase across a line break", rss(`Big sale`), rss(`Big sale&lt;br&gt;today only`), `phrase {"sale today"}`, nil},
		{"phrase across list items", encoded(`<ul><li>Big sale</li></ul>`), encoded(`<ul><li>Big sale</li><li>today only</li></ul>`), `phrase {"sale today"}`, nil},
		{"phrase within a paragraph", rss(`&lt;p&gt;Big sale&lt;/p&gt;`), rss(`&lt;p&gt;Big sale &lt;b&gt;today&lt;/b&gt;&lt;/p&gt;`), `phrase {"sale today"}`,
			[]string{"+ phrase added: sale today"}},
		{"regular expression across paragraphs", rss(`&lt;p&gt;Big sale&lt;/p&gt;`), rss(`&lt;p&gt;Big sale&lt;/p&gt;&lt;p&gt;today only&lt;/p&gt;`), `regex {"sale today"}`, nil},
		{"regular expression at a block's start", rss(`&lt;p&gt;Big sale&lt;/p&gt;`), rss(`&lt;p&gt;Big sale&lt;/p&gt;&lt;p&gt;today only&lt;/p&gt;`), `regex {"^today"}`,
			[]string{"+ match added: today"}},
	} {
		r := evalClause(t, tc.old, tc.new, tc.clause)
		var got []string
		for _, c := range r.Changes {
			got = append(got, c.Line())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: lines %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestFeedHTMLValue: a value whose scope selects a feed's escaped HTML
// reads its number from the text that HTML shows, as all words and
// phrases read it (not from its tags: the width of an image), with or
// without an ignore list, and names its item by that text.
func TestFeedHTMLValue(t *testing.T) {
	rss := func(desc string) string {
		return `<?xml version="1.0"?><rss version="2.0"><channel><title>Shop</title><link>https://shop.example/</link>` +
			`<item><title>Lamp</title><link>https://shop.example/lamp</link><description>` + desc + `</description><category>x1</category></item></channel></rss>`
	}
	img := `&lt;img src="https://shop.example/lamp.png" width="600"&gt;`
	two := func(a, b string) string {
		return `<?xml version="1.0"?><rss version="2.0"><channel><title>Shop</title>` +
			`<item><title>Lamp</title><description>` + a + `&lt;img src="https://shop.example/lamp.png" width="600"&gt;</description></item>` +
			`<item><title>Desk</title><description>` + b + `&lt;img src="https://shop.example/desk.png" width="800"&gt;</description></item></channel></rss>`
	}
	for _, tc := range []struct {
		name, old, new, clause string
		want                   []string // Line of each change; nil for no change
	}{
		{"css", rss(img + `&lt;p&gt;Stock: 49&lt;/p&gt;`), rss(img + `&lt;p&gt;Stock: 39&lt;/p&gt;`), `value In css "description" decreases`,
			[]string{"~ value decreased by 10: Stock: 49 -> Stock: 39"}},
		{"xpath", rss(img + `&lt;p&gt;Stock: 49&lt;/p&gt;`), rss(img + `&lt;p&gt;Stock: 39&lt;/p&gt;`), `value In xpath "//item/description" decreases`,
			[]string{"~ value decreased by 10: Stock: 49 -> Stock: 39"}},
		{"xpath text()", rss(img + `&lt;p&gt;Stock: 49&lt;/p&gt;`), rss(img + `&lt;p&gt;Stock: 39&lt;/p&gt;`), `value In xpath "//item/description/text()" decreases`,
			[]string{"~ value decreased by 10: Stock: 49 -> Stock: 39"}},
		{"with an ignore list", rss(img + `&lt;p&gt;Stock: 49&lt;/p&gt;`), rss(img + `&lt;p&gt;Stock: 39&lt;/p&gt;`), `value In css "description" decreases Ignore css "category"`,
			[]string{"~ value decreased by 10: Stock: 49 -> Stock: 39"}},
		{"no-break space groups", rss(`&lt;p&gt;Stock: 2&amp;nbsp;499&lt;/p&gt;`), rss(`&lt;p&gt;Stock: 2&amp;nbsp;399&lt;/p&gt;`), `value In css "description" decreases`,
			[]string{"~ value decreased by 100: Stock: 2\u00a0499 -> Stock: 2\u00a0399"}},
		{"items named by their shown text", two(`&lt;p&gt;Stock: 49&lt;/p&gt;`, `&lt;p&gt;Stock: 12&lt;/p&gt;`), two(`&lt;p&gt;Stock: 39&lt;/p&gt;`, `&lt;p&gt;Stock: 12&lt;/p&gt;`), `value In css "description" decreases`,
			[]string{"~ value decreased by 10 in Lamp: Stock: 49 -> Stock: 39"}},
		{"a tag's number only", rss(img + `&lt;p&gt;Sold out&lt;/p&gt;`), rss(`&lt;img src="https://shop.example/lamp.png" width="300"&gt;&lt;p&gt;Sold out&lt;/p&gt;`), `value In css "description" changes`, nil},
	} {
		r := evalClause(t, tc.old, tc.new, tc.clause)
		var got []string
		for _, c := range r.Changes {
			got = append(got, c.Line())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: lines %q, want %q", tc.name, got, tc.want)
		}
	}
}
