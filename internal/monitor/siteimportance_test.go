package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// linkedSites are two small sites and two watched pages: both watched
// pages link to the start page of the first site, nothing links to the
// second's.
var linkedSites = crawltest.Release{
	"/hub.html":          []byte(`<html><body><a href="a.html">A</a> <a href="linked/">Linked site</a></body></html>`),
	"/a.html":            []byte(`<html><body><a href="hub.html">Hub</a> <a href="linked/">Linked site</a></body></html>`),
	"/linked/index.html": []byte(`<html><body><a href="p.html">P</a> <a href="../hub.html">Hub</a></body></html>`),
	"/linked/p.html":     []byte(`<html><body><p>linked page</p></body></html>`),
	"/alone/index.html":  []byte(`<html><body><a href="p.html">P</a></body></html>`),
	"/alone/p.html":      []byte(`<html><body><p>lone page</p></body></html>`),
}

// TestSiteImportanceOrdersClaims: a site sentinel is claimed by
// vigil.ClaimPriority as a page sentinel is, its importance that of its
// start page in the monitor's OPIC state, stored on the page's resource
// and on the sentinel by its checks. The site whose start page watched
// pages link to is claimed before a site nothing links to that fell due
// a minute earlier. A site sentinel went by how late it was alone (its
// importance stayed 0): the other site came first.
func TestSiteImportanceOrdersClaims(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, linkedSites)
	now := time.Now().UTC().Truncate(time.Microsecond) // as the stores keep it
	var pages []*vigil.Sentinel
	for _, name := range []string{"hub", "a"} {
		src := "Create Sentinel " + name + " Using " + site.URL("/"+name+".html") + " Monitor any change Fetch 1 hour\n"
		pages = append(pages, createSentinel(t, db, spec.NewChecker(now), u, name, src))
	}
	sites := map[string]*vigil.Sentinel{}
	for _, name := range []string{"alone", "linked"} { // ids in the order the importance will not give
		src := "Create Sentinel " + name + " Using site " + site.URL("/"+name+"/") + " depth 1 pages 5 Monitor any change Fetch 1 hour\n"
		sites[name] = createSentinel(t, db, spec.NewChecker(now), u, name, src)
	}
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	for range 6 {
		now = now.Add(time.Hour)
		for _, s := range append(pages, sites["alone"], sites["linked"]) {
			makeDue(t, db, s, now)
		}
		runOnce(t, m, len(pages)+len(sites))
	}
	importance := func(name string) float64 {
		t.Helper()
		s, err := db.FindSentinelByID(ctx, sites[name].ID)
		if err != nil {
			t.Fatal(err)
		}
		r, err := db.FindResourceByURL(ctx, site.URL("/"+name+"/"))
		if err != nil {
			t.Fatal(err)
		}
		if s.Importance != r.Importance {
			t.Errorf("%s: sentinel importance %v, its start page's %v: want the same", name, s.Importance, r.Importance)
		}
		return s.Importance
	}
	linked, alone := importance("linked"), importance("alone")
	if linked <= alone || linked <= 0 {
		t.Fatalf("importance of the linked site %v, of the site alone %v: want the linked one's higher", linked, alone)
	}

	// The linked site is due now, the other a minute before: with
	// room for one check, the linked one goes first.
	now = now.Add(time.Hour)
	for _, s := range pages {
		makeDue(t, db, s, now.Add(24*time.Hour))
	}
	makeDue(t, db, sites["linked"], now)
	makeDue(t, db, sites["alone"], now.Add(-time.Minute))
	m.Batch = 1
	runOnce(t, m, 1)
	for name, want := range map[string]bool{"linked": true, "alone": false} {
		s, err := db.FindSentinelByID(ctx, sites[name].ID)
		if err != nil {
			t.Fatal(err)
		}
		if checked := s.LastCheck.Equal(now); checked != want {
			t.Errorf("%s checked first: %v, want %v (importance %v)", name, checked, want, s.Importance)
		}
	}
}
