package monitor

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// countingStore is a store that counts the reads of a page's resource or
// versions, by URL or resource id.
type countingStore struct {
	Store
	mu    sync.Mutex
	reads map[string]int // by method
	urls  map[string]int // reads by URL, by URL
}

func (c *countingStore) count(method, url string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads[method]++
	if url != "" {
		c.urls[url]++
	}
}

// reset returns the counts so far and starts again.
func (c *countingStore) reset() (reads, urls map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	reads, urls = c.reads, c.urls
	c.reads, c.urls = map[string]int{}, map[string]int{}
	return reads, urls
}

func (c *countingStore) FindResourceByURL(ctx context.Context, rawURL string) (*vigil.Resource, error) {
	c.count("FindResourceByURL", rawURL)
	return c.Store.FindResourceByURL(ctx, rawURL)
}

func (c *countingStore) FindResourceByID(ctx context.Context, id int64) (*vigil.Resource, error) {
	c.count("FindResourceByID", "")
	return c.Store.FindResourceByID(ctx, id)
}

func (c *countingStore) LatestVersion(ctx context.Context, resourceID int64) (*vigil.Version, error) {
	c.count("LatestVersion", "")
	return c.Store.LatestVersion(ctx, resourceID)
}

func (c *countingStore) LatestVersionByURL(ctx context.Context, rawURL string) (*vigil.Resource, *vigil.Version, error) {
	c.count("LatestVersionByURL", rawURL)
	return c.Store.LatestVersionByURL(ctx, rawURL)
}

func (c *countingStore) FindVersions(ctx context.Context, f vigil.VersionFilter) ([]*vigil.Version, int, error) {
	c.count("FindVersions", "")
	return c.Store.FindVersions(ctx, f)
}

// TestSiteReadsOnePerPage: a site's check reads each page's resource and
// newest version from the store once (LatestVersionByURL), not the
// resource and then the version, and again the resource to store the
// page: a monitor that has not seen the site (just started) reads the
// store once a page, and one that has reads only the URL without a
// resource.
func TestSiteReadsOnePerPage(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" Every interactive")
	runOnce(t, siteMonitor(db, wh, fetch.Options{}, &now), 1) // the reference, stored

	cs := &countingStore{Store: db}
	cs.reset()
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	m.Store = cs
	site.Set(docsRelease("Install. Now with a guide.", "Free.", false), nil)
	checkAnHourLater(t, m, db, sen, &now)
	if n := len(changesOf(t, db, sen)); n != 1 {
		t.Fatalf("%d changes, want 1 (the guide changed, a page added and one deleted)", n)
	}
	// Each URL is read once: the pages crawled by LatestVersionByURL,
	// the page deleted (not crawled) by FindResourceByURL. The page added
	// has no resource yet: it is asked for again before it is made, and
	// its (no) newest version after.
	reads, urls := cs.reset()
	added := site.URL("/docs/new.html")
	for _, p := range []string{"/docs/", "/docs/index.html", "/docs/guide.html", "/docs/faq.html", "/docs/old.html"} {
		if urls[site.URL(p)] != 1 {
			t.Errorf("%s read %d times, want once", p, urls[site.URL(p)])
		}
	}
	if urls[added] != 2 || len(urls) != 6 || reads["LatestVersionByURL"] != 5 || reads["FindResourceByURL"] != 2 ||
		reads["LatestVersion"] != 1 || reads["FindResourceByID"] != 0 || reads["FindVersions"] != 0 {
		t.Errorf("a new monitor's check read %v, by URL %v: want one read a page, two for the page added", reads, urls)
	}

	site.Set(docsRelease("Install. Now with a better guide.", "Free.", false), nil)
	checkAnHourLater(t, m, db, sen, &now)
	// A monitor that saw the site reads only what no resource has: the
	// URL that redirects (index.html to its directory), asked again since
	// a resource may be made for it meanwhile.
	reads, urls = cs.reset()
	if len(urls) != 1 || urls[site.URL("/docs/index.html")] != 1 || reads["LatestVersionByURL"] != 1 {
		t.Errorf("a check by a monitor that saw the site read %v (%v), want only the redirected URL", reads, urls)
	}
}
