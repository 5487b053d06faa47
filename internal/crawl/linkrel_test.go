package crawl

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestPageLinksLinkRel: a page's <link> elements whose rel is a paging
// relation (next, prev, previous: the pages of a listing split in pages)
// are links of the page, as its <a href> are, resolved against its base
// and labelled by their title; a link element of another relation (a
// style sheet, an icon, an alternate or canonical address) is none, nor
// is one that is not http(s).
func TestPageLinksLinkRel(t *testing.T) {
	const page = "https://docs.example/list/2.html"
	for _, tc := range []struct {
		name, head string
		want       []Link
	}{
		{"next", `<link rel="next" href="3.html">`, []Link{{Target: "https://docs.example/list/3.html"}}},
		{"prev, titled, fragment", `<link rel="prev" href="1.html#top" title="Page  one">`, []Link{{Target: "https://docs.example/list/1.html", Label: "Page one"}}},
		{"tokens in any case", `<link rel="Start PREVIOUS" href="/list/1.html">`, []Link{{Target: "https://docs.example/list/1.html"}}},
		{"against base", `<base href="https://docs.example/other/"><link rel="next" href="3.html">`, []Link{{Target: "https://docs.example/other/3.html"}}},
		{"both", `<link rel="prev" href="1.html"><link rel="next" href="3.html">`,
			[]Link{{Target: "https://docs.example/list/1.html"}, {Target: "https://docs.example/list/3.html"}}},
		{"stylesheet", `<link rel="stylesheet" href="site.css">`, nil},
		{"icon, canonical, alternate", `<link rel="icon" href="i.png"><link rel="canonical" href="2.html?x"><link rel="alternate" href="feed.xml">`, nil},
		{"no href", `<link rel="next">`, nil},
		{"not http", `<link rel="next" href="ftp://docs.example/3">`, nil},
		{"nextish", `<link rel="nextpage" href="3.html">`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `<html><head><title>Two</title>` + tc.head + `</head><body><p>Two.</p></body></html>`
			doc, readAsText, err := warehouse.ReadBody([]byte(body), "utf-8", "text/html")
			if err != nil || readAsText != nil {
				t.Fatalf("read as text %v, error %v", readAsText, err)
			}
			if got := pageLinks(doc, page); !slices.Equal(got, tc.want) {
				t.Errorf("links %+v, want %+v", got, tc.want)
			}
		})
	}
}
