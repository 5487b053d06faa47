package intent

import (
	"net/url"

	"github.com/vigil-web/vigil/tree"
)

// nsSitemap is the namespace of sitemaps.org's XML sitemaps.
const nsSitemap = "http://www.sitemaps.org/schemas/sitemap/0.9"

// IsSitemap reports whether doc is an XML sitemap of sitemaps.org: a
// document whose root is urlset (a sitemap) or sitemapindex (a sitemap
// index), in the sitemaps.org namespace or in none.
func IsSitemap(doc *tree.Document) bool {
	return sitemapRoot(doc) != nil
}

// SitemapLinks returns the URLs an XML sitemap lists, in document order:
// the text of the loc of each url of a urlset, or of each sitemap (a
// child sitemap) of a sitemapindex, its white space collapsed as an RSS
// link's is (elementText), resolved against base (the sitemap's address;
// nil if unknown) as far as it resolves, labelled by nothing (Text "").
// Only the root's children of that name and their loc children in the
// root's namespace are read, so a sitemap of 50 000 URLs is read in time
// linear in it. It returns nil for a document that is not a sitemap
// (IsSitemap).
func SitemapLinks(doc *tree.Document, base *url.URL) []FeedLink {
	root := sitemapRoot(doc)
	if root == nil {
		return nil
	}
	ns, local := elementNS(root)
	entry := "url"
	if local == "sitemapindex" {
		entry = "sitemap"
	}
	var out []FeedLink
	for _, e := range root.Children {
		if !isSitemapElement(e, ns, entry) {
			continue
		}
		for _, loc := range e.Children {
			if !isSitemapElement(loc, ns, "loc") {
				continue
			}
			target := elementText(loc)
			if target == "" {
				continue
			}
			if base != nil {
				if u, err := base.Parse(target); err == nil {
					target = u.String()
				}
			}
			out = append(out, FeedLink{URL: target, Node: loc})
		}
	}
	return out
}

// sitemapRoot returns doc's root element when doc is a sitemap
// (IsSitemap), else nil.
func sitemapRoot(doc *tree.Document) *tree.Node {
	if doc == nil || doc.Root == nil || doc.Root.Kind != tree.Element {
		return nil
	}
	ns, local := elementNS(doc.Root)
	if (local == "urlset" || local == "sitemapindex") && (ns == nsSitemap || ns == "") {
		return doc.Root
	}
	return nil
}

// isSitemapElement reports whether n is an element named local in the
// namespace ns, the sitemap root's.
func isSitemapElement(n *tree.Node, ns, local string) bool {
	if n.Kind != tree.Element {
		return false
	}
	prefix, l := splitQName(n.Name)
	if l != local {
		return false
	}
	return lookupNS(n, prefix) == ns
}
