package crawl

import (
	"testing"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
)

// generatedPages is the size of the generated site of the bookkeeping
// benchmarks.
const generatedPages = 10000

// generatedGraph returns the pages of the generated site as the crawl
// records them: canonical URLs and links, in a breadth-first order.
func generatedGraph(b *testing.B) []*Page {
	links, err := crawltest.GeneratedLinks(generatedPages, 1)
	if err != nil {
		b.Fatal(err)
	}
	url := func(i int) string { return "https://example.org" + crawltest.GeneratedPath(i) }
	pages := make([]*Page, len(links))
	for i, targets := range links {
		p := &Page{URL: url(i)}
		for _, j := range targets {
			if j != i {
				p.Links = append(p.Links, Link{Target: url(j)})
			}
		}
		pages[i] = p
	}
	return pages
}

// BenchmarkFrontier is the bookkeeping of a crawl in importance order
// without the fetches and the parsing: the greedy frontier (OPIC read of
// each page, the cash heap, the depths) over the 10 000 pages of the
// generated site, each page read when the frontier gives it.
//
//	go test -run '^$' -bench 'Frontier|Importance' -benchmem ./internal/crawl
func BenchmarkFrontier(b *testing.B) {
	pages := generatedGraph(b)
	index := make(map[string]*Page, len(pages))
	for _, p := range pages {
		index[p.URL] = p
	}
	for b.Loop() {
		fr, err := newFrontier(pages[0].URL, MaxMaxDepth, len(pages))
		if err != nil {
			b.Fatal(err)
		}
		read := 0
		for {
			id, ok := fr.take()
			if !ok {
				break
			}
			if err := fr.read(id, index[fr.nodes[id].url].Links); err != nil {
				b.Fatal(err)
			}
			read++
		}
		if read != len(pages) {
			b.Fatalf("%d pages read, want %d", read, len(pages))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pages)), "ns/page")
}

// BenchmarkImportance is the importance of a snapshot of the 10 000 pages
// of the generated site: OPIC, Greedy, importanceReads reads a page.
func BenchmarkImportance(b *testing.B) {
	s := &Snapshot{Pages: generatedGraph(b)}
	for b.Loop() {
		if err := s.setImportance(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s.Pages)), "ns/page")
}
