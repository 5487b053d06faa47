package crawl

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestFeedPageLinks: a feed the crawl reads (served as XML, as text/html,
// or as text beginning with "<") links to its feed links, as a links
// sentinel reads them: its entries' links resolved against xml:base,
// labelled by their titles, fragments dropped. An XML type was not read
// (a leaf).
func TestFeedPageLinks(t *testing.T) {
	const feed = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/posts/">
<title>Blog</title><link href="/"/><entry><title>A</title><link href="a#top"/></entry></feed>`
	want := []Link{{Target: "https://blog.example/", Label: "Blog"}, {Target: "https://blog.example/posts/a", Label: "A"}}
	for _, ct := range []string{"application/atom+xml", "application/xml", "text/xml", "text/html", "text/plain"} {
		if !readsBody(ct) {
			t.Fatalf("%s: not read", ct)
		}
		doc, readAsText, err := warehouse.ReadBody([]byte(feed), "utf-8", ct)
		if err != nil || readAsText != nil {
			t.Fatalf("%s: read as text %v, error %v", ct, readAsText, err)
		}
		if got := pageLinks(doc, "https://blog.example/feed.xml"); !slices.Equal(got, want) {
			t.Errorf("%s: links %+v, want %+v", ct, got, want)
		}
	}
}
