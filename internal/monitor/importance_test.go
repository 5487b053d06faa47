package monitor

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// linkedPages is a small site of four watched pages linking to one
// another: every other page links to the hub; the hub links to a and b,
// b to a, c to b, and nothing to c. Links also lead to a page no
// sentinel watches, to a place in the page itself and twice to one page:
// each page counts once as a link, if watched and not the page itself.
// By PageRank (damping 0.85): hub 0.42, a 0.31, b 0.23, c 0.04.
var linkedPages = crawltest.Release{
	"/hub.html": []byte(`<html><body><h1>Hub</h1><a href="a.html">A</a> <a href="b.html">B</a></body></html>`),
	"/a.html":   []byte(`<html><body><h1>A</h1><a href="hub.html">Hub</a> <a href="a.html#top">A itself</a> <a href="https://elsewhere.example/">Elsewhere</a></body></html>`),
	"/b.html":   []byte(`<html><body><h1>B</h1><a href="hub.html">Hub</a> <a href="a.html#top">A</a> <a href="hub.html">Hub again</a></body></html>`),
	"/c.html":   []byte(`<html><body><h1>C</h1><a href="hub.html">Hub</a> <a href="b.html">B</a> <a href="https://elsewhere.example/">Elsewhere</a></body></html>`),
}

// TestImportanceOrdersClaims runs the monitor with the real fetcher on a
// loopback site of four watched pages linking to one another. Checked
// round after round, each page's OPIC estimate is stored on its resource
// and on its sentinel, and follows the links: the page most linked to
// gets the highest importance, a page nothing links to the lowest. Then,
// all due at once, the sentinels are claimed most important first, under
// a batch limit of one as of two.
func TestImportanceOrdersClaims(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, linkedPages)
	now := time.Now().UTC()
	names := []string{"hub", "a", "b", "c"}
	sens := map[string]*vigil.Sentinel{}
	for _, name := range []string{"c", "b", "a", "hub"} { // ids in the order the importance will not give
		src := "Create Sentinel " + name + " Using " + site.URL("/"+name+".html") + " Monitor any change Fetch 1 hour\n"
		sens[name] = createSentinel(t, db, spec.NewChecker(now), u, name, src)
	}
	m := siteMonitor(db, wh, fetch.Options{}, &now)

	for range 6 {
		now = now.Add(time.Hour)
		for _, s := range sens {
			makeDue(t, db, s, now)
		}
		runOnce(t, m, len(sens))
	}
	importance := func(name string) float64 {
		t.Helper()
		r, err := db.FindResourceByURL(ctx, site.URL("/"+name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := db.FindSentinelByID(ctx, sens[name].ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Importance <= 0 || r.Importance >= 1 || s.Importance != r.Importance {
			t.Fatalf("%s: resource importance %v, its sentinel's %v: want the same, between 0 and 1", name, r.Importance, s.Importance)
		}
		return r.Importance
	}
	for i := 1; i < len(names); i++ {
		hi, lo := names[i-1], names[i]
		if a, b := importance(hi), importance(lo); a <= b {
			t.Errorf("importance of %s = %v, of %s = %v: want %s's higher", hi, a, lo, b, hi)
		}
	}

	for _, batch := range []int{1, 2} {
		now = now.Add(time.Hour)
		for _, s := range sens {
			makeDue(t, db, s, now)
		}
		m.Batch = batch
		var order []string
		for len(order) < len(sens) {
			before := map[string]time.Time{}
			for name, s := range sens {
				cur, err := db.FindSentinelByID(ctx, s.ID)
				if err != nil {
					t.Fatal(err)
				}
				before[name] = cur.LastCheck
			}
			runOnce(t, m, batch)
			var checked []string
			for _, name := range names {
				cur, err := db.FindSentinelByID(ctx, sens[name].ID)
				if err != nil {
					t.Fatal(err)
				}
				if !cur.LastCheck.Equal(before[name]) {
					checked = append(checked, name)
				}
			}
			if len(checked) != batch {
				t.Fatalf("batch %d: round checked %v", batch, checked)
			}
			order = append(order, checked...)
		}
		if !slices.Equal(order, names) {
			t.Errorf("batch %d: checked in the order %v, want %v", batch, order, names)
		}
	}
}
