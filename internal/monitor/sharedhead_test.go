package monitor

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// etagFetcher serves pages whose bodies (or errors) the test sets, by
// URL, each with an ETag of its body's hash; a request whose If-None-Match
// is that ETag is answered 304 Not Modified.
type etagFetcher struct {
	mu    sync.Mutex
	pages map[string]string // body, or "!" and an error
}

func (f *etagFetcher) set(url, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pages == nil {
		f.pages = map[string]string{}
	}
	f.pages[url] = body
}

func (f *etagFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	f.mu.Lock()
	body := f.pages[req.URL]
	f.mu.Unlock()
	if why, ok := strings.CutPrefix(body, "!"); ok {
		return nil, fmt.Errorf("fetch %s: %s", req.URL, why)
	}
	etag := `"` + warehouse.Hash([]byte(body))[:16] + `"`
	res := &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Charset: "utf-8", ETag: etag, FetchedAt: time.Now()}
	if req.ETag == etag {
		res.Status, res.NotModified = 304, true
		return res, nil
	}
	res.Body = []byte(body)
	return res, nil
}

// sharedStore is one store opened by two workers, as two vigil serve
// processes open it, each with its own warehouse.
type sharedStore struct {
	stores [2]Store
	whs    [2]*warehouse.Warehouse
}

// sharedStores returns openers of a store two workers share: SQLite (one
// file) always, PostgreSQL (two pools on one schema) when
// VIGIL_TEST_POSTGRES_DSN is set.
func sharedStores(t *testing.T) map[string]func(t *testing.T) *sharedStore {
	type closer interface {
		Store
		Close() error
	}
	// twice opens the store twice, one for each worker.
	twice := func(t *testing.T, open func() (closer, error)) *sharedStore {
		var s sharedStore
		for i := range s.stores {
			db, err := open()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			s.stores[i] = db
			s.whs[i] = newWarehouse(t, db)
		}
		return &s
	}
	out := map[string]func(t *testing.T) *sharedStore{
		"sqlite": func(t *testing.T) *sharedStore {
			dir := t.TempDir()
			return twice(t, func() (closer, error) { return sqlite.Open(context.Background(), dir) })
		},
	}
	if base := os.Getenv("VIGIL_TEST_POSTGRES_DSN"); base != "" {
		out["postgres"] = func(t *testing.T) *sharedStore {
			dsn, _ := pgtest.Schema(t, base)
			return twice(t, func() (closer, error) { return postgres.Open(context.Background(), dsn) })
		}
	} else {
		t.Log("PostgreSQL variant skipped: set VIGIL_TEST_POSTGRES_DSN (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
	}
	return out
}

// newWarehouse returns a warehouse over st, as the daemon builds it.
func newWarehouse(t *testing.T, st ResourceStore) *warehouse.Warehouse {
	t.Helper()
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	wh, err := warehouse.New(CachedResources(st), warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	return wh
}

// TestSharedStoreStaleHead runs two workers (monitors with their own
// caches) on one store. Worker 1 reads the page as A, worker 2 then reads
// it as B, and the page goes back to A: worker 1, whose cached head is
// still A, must store A again as the page's newest version rather than
// take the page as unchanged, whichever way it reads it (a body equal to
// its cached head's, a 304 Not Modified to that head's ETag, the same
// failure again) and whether a page sentinel's check or a site's crawl
// reads it. The same when worker 2 read a failure: the page is back.
func TestSharedStoreStaleHead(t *testing.T) {
	const (
		url = "http://shared.example/page"
		a   = "<html><body><p>A</p></body></html>"
		b   = "<html><body><p>B</p></body></html>"
		e   = "!connection refused"
	)
	type read func(t *testing.T, m *Monitor) // one worker reads the page once
	fetchPage := func(t *testing.T, m *Monitor) {
		t.Helper()
		if pg := m.fetchPage(context.Background(), url, false, time.Now()); pg.cur == nil && !pg.failed {
			t.Fatalf("fetch: %s", pg.err)
		}
	}
	crawlPage := func(t *testing.T, m *Monitor) {
		t.Helper()
		sf := &siteFetcher{m: m, inner: m.Fetcher, versions: map[string]int64{}, leaves: map[string]leaf{}}
		if _, err := sf.Fetch(context.Background(), &vigil.FetchRequest{URL: url}); err != nil {
			t.Fatalf("crawl: %v", err)
		}
		newest := newestVersion(t, m.Store, url)
		if got := sf.versions[url]; got != newest.ID {
			t.Errorf("the crawl took version %d as the page's, want the newest, %d", got, newest.ID)
		}
	}
	cases := map[string]struct {
		etags      bool // the fetcher answers 304 to a version's ETag
		first, mid string
		read       read
	}{
		"check, body equal":   {first: a, mid: b, read: fetchPage},
		"check, 304":          {etags: true, first: a, mid: b, read: fetchPage},
		"check, same failure": {first: e, mid: b, read: fetchPage},
		"crawl, body equal":   {first: a, mid: b, read: crawlPage},
		"crawl, 304":          {etags: true, first: a, mid: b, read: crawlPage},
		// Worker 2 read a failure: the page, back to A, works again.
		"check, 304 after a failure": {etags: true, first: a, mid: e, read: fetchPage},
		"crawl, 304 after a failure": {etags: true, first: a, mid: e, read: crawlPage},
	}
	for backend, open := range sharedStores(t) {
		for name, tc := range cases {
			t.Run(backend+"/"+name, func(t *testing.T) {
				s := open(t)
				var pages etagFetcher
				fetcher := withETags(&pages, tc.etags)
				var ws [2]*Monitor
				for i := range ws {
					ws[i] = &Monitor{Store: s.stores[i], Warehouse: s.whs[i], Fetcher: fetcher, SharedStore: true}
					ws[i].init()
				}
				pages.set(url, tc.first)
				tc.read(t, ws[0])
				pages.set(url, tc.mid)
				fetchPage(t, ws[1])
				if v := newestVersion(t, s.stores[0], url); strings.HasPrefix(tc.mid, "!") && v.Error == "" ||
					!strings.HasPrefix(tc.mid, "!") && v.ContentHash != warehouse.Hash([]byte(tc.mid)) {
					t.Fatalf("worker 2 did not store its read: newest %+v", v)
				}
				pages.set(url, tc.first)
				tc.read(t, ws[0])
				v := newestVersion(t, s.stores[0], url)
				want := tc.first
				if strings.HasPrefix(want, "!") {
					if v.Error == "" {
						t.Errorf("store's newest version %d is no failure, want the page's failure read after worker 2's version", v.ID)
					}
					return
				}
				if v.Error != "" || v.ContentHash != warehouse.Hash([]byte(want)) {
					t.Errorf("store's newest version %d (%q), want the page's body read last, after worker 2's version", v.ID, v.Error)
				}
			})
		}
	}
}

// withETags returns pages, or with etags false pages with their ETags
// hidden (plainFetcher).
func withETags(pages *etagFetcher, etags bool) vigil.Fetcher {
	if etags {
		return pages
	}
	return plainFetcher{pages}
}

// plainFetcher hides an etagFetcher's ETags: every read is a full 200.
type plainFetcher struct{ f *etagFetcher }

func (p plainFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	r := *req
	r.ETag = ""
	res, err := p.f.Fetch(ctx, &r)
	if res != nil {
		res.ETag = ""
	}
	return res, err
}

// newestVersion returns the newest stored version of url.
func newestVersion(t *testing.T, st Store, url string) *vigil.Version {
	t.Helper()
	_, v, err := st.LatestVersionByURL(context.Background(), url)
	if err != nil || v == nil {
		t.Fatalf("newest version of %s: %v, %v", url, v, err)
	}
	return v
}
