package monitor

import (
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteLinksCut: a page with more links in scope than a snapshot keeps
// (crawl.MaxLinks) says so on its change, and a page removed while such a
// page was cut says that it may be linked past the cut, where the cut was
// silent and the page "no longer reached", though its link was still
// there, the 10 001st.
func TestSiteLinksCut(t *testing.T) {
	db, wh, u := testStore(t)
	page := func(title, links string) []byte {
		return []byte(`<html><head><title>` + title + `</title></head><body>` + links + `</body></html>`)
	}
	var many strings.Builder
	for i := range crawl.MaxLinks {
		fmt.Fprintf(&many, `<a href="f.html">%d</a>`, i)
	}
	p := `<a href="p.html">P</a>`
	release := func(index string) crawltest.Release {
		return crawltest.Release{"/docs/index.html": page("Docs", index), "/docs/p.html": page("P", ``), "/docs/f.html": page("F", ``)}
	}
	site := crawltest.NewSite(t, release(p+many.String()))
	now := time.Now().UTC()
	src := "Create Sentinel docs Using site " + site.URL("/docs/") + " Every immediate"
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	// p.html now linked after the others: past the cut.
	site.Set(release(many.String()+p), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	got := map[string]string{}
	for _, r := range siteRecords(t, cs[0]) {
		got[string(r.Op)+" "+r.Page.URL] = r.Page.Note
	}
	cut := fmt.Sprintf("more than %d links in scope: the first %d kept and followed, the others not", crawl.MaxLinks, crawl.MaxLinks)
	want := map[string]string{
		"delete " + site.URL("/docs/p.html"): "no longer reached among the links kept; perhaps linked past the first " + fmt.Sprint(crawl.MaxLinks) + " of " + site.URL("/docs/"),
		"update " + site.URL("/docs/"):       cut,
	}
	if !maps.Equal(got, want) {
		t.Errorf("records (op URL: note) %q,\nwant %q", got, want)
	}
}
