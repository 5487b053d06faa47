package monitor

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
)

// faultyStore is a SQLite store that fails on demand: SiteSnapshot
// (snapshot), or, once set, the resource of URL lost (neither found by
// URL nor its newest version read).
type faultyStore struct {
	*sqlite.DB
	snapshot atomic.Bool
	lost     atomic.Pointer[string]
}

var errFault = errors.New("disk I/O error")

func (s *faultyStore) SiteSnapshot(ctx context.Context, id int64) ([]byte, time.Time, error) {
	if s.snapshot.Load() {
		return nil, time.Time{}, errFault
	}
	return s.DB.SiteSnapshot(ctx, id)
}

func (s *faultyStore) FindResourceByURL(ctx context.Context, url string) (*vigil.Resource, error) {
	if u := s.lost.Load(); u != nil && *u == url {
		return nil, errFault
	}
	return s.DB.FindResourceByURL(ctx, url)
}

func (s *faultyStore) LatestVersionByURL(ctx context.Context, url string) (*vigil.Resource, *vigil.Version, error) {
	if u := s.lost.Load(); u != nil && *u == url {
		return nil, nil, errFault
	}
	return s.DB.LatestVersionByURL(ctx, url)
}

// TestSiteFailureNoScopeNotes: a site check that fails because its
// previous crawl cannot be read from the store, or because the change it
// found cannot be recorded (its start page's resource not found), says
// nothing of its crawl beside its failure: no scope notes, as a check
// whose crawls cannot be compared says none; its last error says why,
// and its previous crawl stays the reference. Before, both recorded the
// notes of the crawl they did not keep, and the first failed without a
// word in the sentinel's last error.
func TestSiteFailureNoScopeNotes(t *testing.T) {
	for _, name := range []string{"snapshot not read", "change not recorded"} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, wh, u := testStore(t)
			site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
			start := site.URL("/docs/")
			now := time.Now().UTC()
			src := "Using site " + start + " Monitor table {u} OR keywords {deprecated} Every interactive"
			// Two sentinels of the site share its crawls: the second,
			// checked once the first has crawled, reads no page.
			first := createSentinel(t, db, spec.NewChecker(now), u, "first", "Create Sentinel first "+src)
			sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs "+src)
			fs := &faultyStore{DB: db}
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			m.Store = fs
			runOnce(t, m, 2) // the references
			if sum := stateSummary(t, db, sen); len(sum.ScopeNotes) != 1 {
				t.Fatalf("scope notes %q after the reference, want 1 (table#u)", sum.ScopeNotes)
			}
			ref, _, err := db.SiteSnapshot(ctx, sen.ID)
			if err != nil {
				t.Fatal(err)
			}

			site.Set(docsRelease("Install. Deprecated.", "Free.", true), nil)
			now = now.Add(time.Second)
			want := "the site's last crawl could not be read from the store"
			if name == "snapshot not read" {
				fs.snapshot.Store(true)
			} else {
				// The site crawled for the first sentinel, the start
				// page's resource is lost to the second's check.
				makeDue(t, db, first, now)
				runOnce(t, m, 1)
				fs.lost.Store(&start)
				m.resMu.Lock()
				m.resources = nil
				m.resMu.Unlock()
				want = "the change of the site cannot be recorded"
			}
			makeDue(t, db, sen, now)
			runOnce(t, m, 1)
			sum := stateSummary(t, db, sen)
			if !strings.Contains(sum.CheckErrors[start], want) {
				t.Errorf("the last error %q, want it to say %q", sum.CheckErrors[start], want)
			}
			if len(sum.ScopeNotes) != 0 {
				t.Errorf("scope notes %q beside the failure, want none", sum.ScopeNotes)
			}
			if cs := changesOf(t, db, sen); len(cs) != 0 {
				t.Errorf("%d changes, want none", len(cs))
			}
			if raw, _, err := db.SiteSnapshot(ctx, sen.ID); err != nil || string(raw) != string(ref) {
				t.Errorf("the reference was replaced by a check that failed (%v)", err)
			}
		})
	}
}
