package crawl_test

import (
	"math"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/opic"
)

// TestCorpusImportance: each page of a crawl of the site corpus has its
// importance, they sum to 1, and on the top tenth of the pages they are
// within 5 % of the PageRank (damping 0.85) of the same graph, the pages
// and their links between them; the site's importance is the sum of its
// pages'.
func TestCorpusImportance(t *testing.T) {
	rel := corpus(t)
	s := newSite(t, rel[newRelease])
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(s.url("/")))
	id := map[string]opic.PageID{}
	for i, p := range snap.Pages {
		id[p.URL] = opic.PageID(i)
	}
	var edges []opic.Edge
	sum := 0.0
	imp := make([]float64, len(snap.Pages))
	for i, p := range snap.Pages {
		if p.Importance <= 0 {
			t.Errorf("%s: importance %v", p.URL, p.Importance)
		}
		imp[i] = p.Importance
		sum += p.Importance
		for _, l := range p.Links {
			if j, ok := id[l.Target]; ok {
				edges = append(edges, opic.Edge{From: opic.PageID(i), To: j})
			}
		}
	}
	if math.Abs(sum-1) > 1e-4 {
		t.Errorf("importances sum to %v", sum)
	}
	g, err := opic.NewGraph(len(snap.Pages), edges)
	if err != nil {
		t.Fatal(err)
	}
	pr, _, err := opic.PageRank(g, opic.DefaultAlpha, 1e-12, 1000)
	if err != nil {
		t.Fatal(err)
	}
	top := opic.TopPages(pr, 0.1)
	if e := opic.SubsetRelativeError(imp, pr, top); e > 0.05 {
		t.Errorf("top 10 %%: mean relative error %.2f %% against PageRank, want at most 5 %%", 100*e)
	}
	best := snap.Pages[top[0]]
	t.Logf("%d pages; most important %s: %.4f (PageRank %.4f); top 10 %% error %.2f %%", len(snap.Pages), best.URL, best.Importance, pr[top[0]], 100*opic.SubsetRelativeError(imp, pr, top))
	if len(snap.Sites) != 1 || snap.Sites[0].Origin != s.Srv.URL || snap.Sites[0].Pages != len(snap.Pages) || math.Abs(snap.Sites[0].Importance-1) > 1e-4 {
		t.Errorf("sites %+v", snap.Sites)
	}
}
