package intent

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestSitemapLinks: an XML sitemap (urlset) gives its url's locs and a
// sitemap index (sitemapindex) its child sitemaps' locs, in document
// order, trimmed and resolved against the sitemap's address, in the
// sitemaps.org namespace, prefixed or not, or in none; a root of another
// name or namespace is no sitemap, and other elements' locs are not read.
func TestSitemapLinks(t *testing.T) {
	base, _ := url.Parse("https://example.org/maps/sitemap.xml")
	const ns = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`
	for _, tc := range []struct {
		name, doc string
		want      []string // nil: no sitemap
	}{
		{"urlset", `<?xml version="1.0"?><urlset ` + ns + `><url><loc> https://example.org/a </loc><lastmod>2026-01-01</lastmod></url>` +
			`<url><loc>/b</loc></url><url><loc>c.html</loc></url></urlset>`,
			[]string{"https://example.org/a", "https://example.org/b", "https://example.org/maps/c.html"}},
		{"sitemap index", `<?xml version="1.0"?><sitemapindex ` + ns + `><sitemap><loc>https://example.org/s1.xml</loc></sitemap>` +
			`<sitemap><loc>s2.xml</loc></sitemap></sitemapindex>`,
			[]string{"https://example.org/s1.xml", "https://example.org/maps/s2.xml"}},
		{"no namespace", `<?xml version="1.0"?><urlset><url><loc>https://example.org/a</loc></url></urlset>`,
			[]string{"https://example.org/a"}},
		{"prefixed", `<?xml version="1.0"?><sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>/p</sm:loc></sm:url></sm:urlset>`,
			[]string{"https://example.org/p"}},
		{"other elements' locs", `<?xml version="1.0"?><urlset ` + ns + `><url><loc>/a</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
			`<image:loc>/img.png</image:loc></image:image></url><sitemap><loc>/not-here</loc></sitemap><url><loc></loc></url></urlset>`,
			[]string{"https://example.org/a"}},
		{"other namespace", `<?xml version="1.0"?><urlset xmlns="http://example.org/ns"><url><loc>/a</loc></url></urlset>`, nil},
		{"other root", `<?xml version="1.0"?><urls><url><loc>/a</loc></url></urls>`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseDoc(t, tc.doc)
			if got := IsSitemap(doc); got != (tc.want != nil) {
				t.Errorf("IsSitemap = %v", got)
			}
			var got []string
			for _, l := range SitemapLinks(doc, base) {
				got = append(got, l.URL)
			}
			if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("SitemapLinks = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSitemapLinksLarge: a sitemap of 50 000 URLs, the most sitemaps.org
// allows, gives them all, in order.
func TestSitemapLinksLarge(t *testing.T) {
	const n = 50000
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range n {
		b.WriteString("<url><loc>/p" + strings.Repeat("x", i%3) + "</loc></url>")
	}
	b.WriteString("</urlset>")
	got := SitemapLinks(parseDoc(t, b.String()), nil)
	if len(got) != n || got[n-1].URL != "/p"+strings.Repeat("x", (n-1)%3) {
		t.Errorf("%d links, want %d", len(got), n)
	}
}
