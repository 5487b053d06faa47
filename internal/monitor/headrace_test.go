package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// pausedReadStore is a store whose LatestVersionByURL, once it has read
// the store, tells read and waits for release before it answers: a read
// the scheduler delays past a write of the same page.
type pausedReadStore struct {
	Store
	read, release chan struct{}
}

func (p *pausedReadStore) LatestVersionByURL(ctx context.Context, rawURL string) (*vigil.Resource, *vigil.Version, error) {
	r, v, err := p.Store.LatestVersionByURL(ctx, rawURL)
	p.read <- struct{}{}
	<-p.release
	return r, v, err
}

// TestHeadCacheReadAfterWrite: a crawl's read of a page's newest version
// (pageHead, without the page's lock) that answers after a check of the
// same page stored a newer version does not put its older head back in
// the cache: the next store of the page would take it for the newest,
// and a page back to that older body would be left unstored, the store's
// newest version saying otherwise.
func TestHeadCacheReadAfterWrite(t *testing.T) {
	ctx := context.Background()
	db, wh, _ := testStore(t)
	now := time.Now().UTC()
	url := "http://a.example/page"
	first, err := wh.Put(ctx, &warehouse.Fetch{URL: url, FetchedAt: now, Status: 200, ContentType: "text/html", Charset: "utf-8", Body: []byte("<p>A</p>")})
	if err != nil {
		t.Fatal(err)
	}
	ps := &pausedReadStore{Store: db, read: make(chan struct{}), release: make(chan struct{})}
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	m.Store = ps
	done := make(chan error)
	go func() {
		_, err := m.pageHead(ctx, url)
		done <- err
	}()
	<-ps.read // the crawl read version A
	store := func(body string) int64 {
		t.Helper()
		now = now.Add(time.Hour)
		id, err := m.storeSitePage(ctx, url, &vigil.FetchResult{URL: url, FetchedAt: now, Status: 200, ContentType: "text/html", Body: []byte(body)}, false)
		if err != nil {
			t.Fatalf("store %s: %v", body, err)
		}
		return id
	}
	second := store("<p>B</p>")
	close(ps.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if head := m.heads.get(first.ResourceID); head == nil || head.ID != second {
		t.Errorf("cached head %+v after the late read, want version %d (B)", head, second)
	}
	third := store("<p>A</p>")
	newest, err := db.LatestVersion(ctx, first.ResourceID)
	if err != nil {
		t.Fatal(err)
	}
	if third == first.ID || newest.ID != third || newest.ContentHash != warehouse.Hash([]byte("<p>A</p>")) {
		t.Errorf("page back to A: stored as version %d, store's newest %+v; want a new version after %d (B)", third, newest, second)
	}
}
