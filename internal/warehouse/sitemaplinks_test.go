package warehouse_test

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/markup"
)

// TestExtractSiteLinksSitemap: the links a crawl follows of an XML sitemap
// are its <loc> URLs (a urlset's pages, a sitemap index's child
// sitemaps), in document order, resolved against its URL, canonical,
// only http(s) ones, each labelled by its target; the links a links
// sentinel reads of it (ExtractLinks) are those of any XML document.
func TestExtractSiteLinksSitemap(t *testing.T) {
	const page = "https://example.org/maps/sitemap.xml"
	for _, tc := range []struct {
		name, doc string
		site      []string
		links     []string
	}{
		{"urlset", `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<url><loc>https://example.org/a#top</loc></url><url><loc>mailto:a@example.org</loc></url>` +
			`<url><loc>../b</loc></url><url><loc>http://bücher.example/</loc></url></urlset>`,
			[]string{"https://example.org/a#top", "https://example.org/b", "http://xn--bcher-kva.example/"}, nil},
		{"sitemap index, no namespace", `<?xml version="1.0"?><sitemapindex><sitemap><loc>one.xml</loc></sitemap>` +
			`<sitemap><loc>https://example.org/two.xml</loc></sitemap></sitemapindex>`,
			[]string{"https://example.org/maps/one.xml", "https://example.org/two.xml"}, nil},
		{"xlink in a sitemap", `<?xml version="1.0"?><urlset xmlns:xlink="http://www.w3.org/1999/xlink"><url><loc>/a</loc><x xlink:href="/x"/></url></urlset>`,
			[]string{"https://example.org/a"}, []string{"https://example.org/x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, _, err := markup.ParseBytes([]byte(tc.doc), nil)
			if err != nil {
				t.Fatal(err)
			}
			var site, links []string
			for _, l := range warehouse.ExtractSiteLinks(doc, page) {
				if l.Anchor != l.Target {
					t.Errorf("link %+v: labelled %q, want its target", l, l.Anchor)
				}
				site = append(site, l.Target)
			}
			for _, l := range warehouse.ExtractLinks(doc, page) {
				links = append(links, l.Target)
			}
			if !slices.Equal(site, tc.site) {
				t.Errorf("ExtractSiteLinks\n%q\nwant\n%q", site, tc.site)
			}
			if !slices.Equal(links, tc.links) {
				t.Errorf("ExtractLinks\n%q\nwant\n%q", links, tc.links)
			}
		})
	}
}
