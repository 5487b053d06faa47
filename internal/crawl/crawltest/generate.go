package crawltest

import (
	"fmt"
	"strings"

	"github.com/vigil-web/vigil/opic"
)

// GeneratedPath returns the path of page i of a generated site: "/" for
// page 0, "/d/<i>.html" for the others.
func GeneratedPath(i int) string {
	if i == 0 {
		return "/"
	}
	return fmt.Sprintf("/d/%d.html", i)
}

// GeneratedLinks returns the links of the n pages (n >= 2) of a generated
// site, page by page, in document order: a tree of fan-out 10 that makes
// every page reachable from page 0 (the home page) within a few links
// (page i links to pages 10i+1 to 10i+10), then a power-law graph
// (opic.PowerLaw with opic.InDegreeExponent, from seed). Deterministic for
// a given n and seed.
func GeneratedLinks(n int, seed uint64) ([][]int, error) {
	g, err := opic.PowerLaw(n, opic.InDegreeExponent, seed)
	if err != nil {
		return nil, fmt.Errorf("crawltest: generate %d pages: %w", n, err)
	}
	out := make([][]int, n)
	for i := range n {
		for j := 10*i + 1; j <= 10*i+10 && j < n; j++ {
			out[i] = append(out[i], j)
		}
		for _, j := range g.Links(opic.PageID(i)) {
			out[i] = append(out[i], int(j))
		}
	}
	return out, nil
}

// Generate returns the site of GeneratedLinks as HTML pages, each with a
// title, a paragraph of text and its links in a list. The file of page 0
// is "/index.html", served at "/".
func Generate(n int, seed uint64) (Release, error) {
	links, err := GeneratedLinks(n, seed)
	if err != nil {
		return nil, err
	}
	r := make(Release, n)
	var b strings.Builder
	for i, targets := range links {
		b.Reset()
		fmt.Fprintf(&b, "<!doctype html>\n<html><head><title>Page %d</title></head><body>\n<h1>Page %d</h1>\n<p>Generated page %d of %d.</p>\n<ul>\n", i, i, i, n)
		for _, j := range targets {
			fmt.Fprintf(&b, "<li><a href=\"%s\">Page %d</a></li>\n", GeneratedPath(j), j)
		}
		b.WriteString("</ul>\n</body></html>\n")
		name := GeneratedPath(i)
		if i == 0 {
			name = "/index.html"
		}
		r[name] = []byte(b.String())
	}
	return r, nil
}
