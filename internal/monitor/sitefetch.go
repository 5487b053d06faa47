package monitor

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// siteFetcher is the fetcher a site's crawl goes through: the monitor's,
// storing each page it reads in the warehouse as a version of its final
// URL (a body equal to the newest version's is that version).
type siteFetcher struct {
	m     *Monitor
	inner vigil.Fetcher
	mu    sync.Mutex
	// versions are the versions of the pages read, by canonical URL.
	versions map[string]int64
	// failed counts the pages read whose body could not be stored,
	// notStored says why the first was not.
	failed    int
	notStored string
	// leaves are the pages read whose body the fetcher does not return
	// (binary documents, leaves of the site), by canonical URL: its
	// answer's status and the error it gave.
	leaves map[string]leaf
}

// leaf is a page of a site read without its body.
type leaf struct {
	status      int
	contentType string
	why         string
	took        time.Duration // how long its fetch took
}

// Fetch implements vigil.Fetcher. A page stored before is asked for
// conditionally; when it has not changed (304), the crawl is given its
// stored body, which is the version the page has in this crawl (asked for
// again without validators, and stored again, when that body cannot be
// read: a corrupt blob, which the warehouse then replaces). A page
// whose newest version is a failure is asked for in full, and stored
// again (storeSitePage) when it answers. A 304 to a request without
// validators is the page's failure, as fetchPage takes it.
func (f *siteFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	asked, head := f.m.storedPage(ctx, req.URL)
	good := validated(head)
	r := *req
	if good != nil {
		r.ETag, r.LastModified = good.ETag, good.LastModified
	}
	res, err := f.inner.Fetch(ctx, &r)
	f.m.fetchPanicked(req.URL, err)
	repair := false // good's body cannot be read: the page stored again
	if err == nil && res != nil && res.NotModified && good != nil {
		final, cerr := vigil.CanonicalURL(res.URL)
		if cerr != nil || final != asked {
			// Not the page whose validators were sent (a redirect):
			// asked again without them.
			res, err = f.inner.Fetch(ctx, req)
			f.m.fetchPanicked(req.URL, err)
		} else if _, berr := f.m.body(ctx, good.ID); berr != nil {
			// The body the 304 stands for cannot be read (a corrupt
			// blob): asked again without validators, and stored as it
			// comes, though unchanged, so that the warehouse replaces
			// the corrupt blob of the same content.
			f.m.Logger.Warn("not modified, and the stored version cannot be read: fetched again without validators",
				logURL(asked), "version", good.ID, LogError, berr)
			res, err = f.inner.Fetch(ctx, req)
			f.m.fetchPanicked(req.URL, err)
			repair = true
		} else {
			return f.notModified(ctx, asked, good, res)
		}
	}
	if err == nil && res != nil && res.NotModified {
		// Not modified to a request without validators (none stored,
		// the newest version a failure, or a redirect's): the answer
		// says nothing of the page's content, and the page is not read.
		err = fmt.Errorf("fetch %s: 304 Not Modified to a request without validators", vigil.RedactURL(req.URL))
	}
	if err != nil && res != nil && res.Status/100 == 2 {
		if u, cerr := vigil.CanonicalURL(res.URL); cerr == nil {
			f.mu.Lock()
			l := leaf{status: res.Status, contentType: res.ContentType, why: err.Error(), took: res.Duration}
			if res.BinaryDigest != "" {
				// A binary document: its version says so as a page
				// sentinel's does (binaryWhy), one version for both.
				l.why = binaryWhy(err, res)
			}
			f.leaves[u] = l
			f.mu.Unlock()
		}
	}
	if err != nil || res == nil || res.NotModified {
		return res, err
	}
	u, cerr := vigil.CanonicalURL(res.URL)
	if cerr != nil {
		return res, nil // the crawl records the page under the URL asked
	}
	if f.m.sitePageEmptied(ctx, u, res, asked, head) {
		// The page's failure, as a watched page's (fetchPage): not
		// stored, and carried over from the previous crawl as a page
		// failing for a moment is (crawl.Carry).
		return res, &vigil.EmptyBodyError{Status: res.Status}
	}
	id, serr := f.m.storeSitePage(ctx, u, res, repair)
	f.mu.Lock()
	defer f.mu.Unlock()
	if serr != nil {
		f.storeFailed(u, serr)
		return res, nil
	}
	f.versions[u] = id
	return res, nil
}

// storeFailed counts page u, read, as not stored for err, and logs it.
// f.mu is held.
func (f *siteFetcher) storeFailed(u string, err error) {
	f.failed++
	if f.notStored == "" {
		f.notStored = notStoredWhy(u, err)
	}
	f.m.Logger.Error("store site page", logURL(u), LogError, err)
}

// notStoredWhy says why page u, read, was not stored.
func notStoredWhy(u string, err error) string {
	return fmt.Sprintf("%s: %v", vigil.RedactURL(u), err)
}

// notModified returns the result of a page that answered 304 Not
// Modified to the validators of its stored version good: that version's
// body and metadata.
//
// With a store other processes write (Monitor.SharedStore), good, which
// may come from the monitor's cache of heads, is first confirmed as the
// page's newest version: if another process stored one since, the page is
// back to good's body, which is stored again as a page read in full is.
func (f *siteFetcher) notModified(ctx context.Context, url string, good *vigil.Version, res *vigil.FetchResult) (*vigil.FetchResult, error) {
	out, err := f.m.bodyResult(ctx, url, good, res)
	if err != nil {
		return nil, err
	}
	id := good.ID
	if f.m.SharedStore {
		cur, err := f.m.confirmHead(ctx, good.ResourceID, good)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", vigil.RedactURL(url), err)
		}
		if !sameVersion(cur, good) {
			if id, err = f.m.storeSitePage(ctx, url, out, false); err != nil {
				f.mu.Lock()
				f.storeFailed(url, err)
				f.mu.Unlock()
				return out, nil
			}
		}
	}
	f.mu.Lock()
	f.versions[url] = id
	f.mu.Unlock()
	return out, nil
}

// storedPage returns the canonical form of a URL and its newest stored
// version, nil if it has none or the store cannot be read.
func (m *Monitor) storedPage(ctx context.Context, rawURL string) (string, *vigil.Version) {
	u, err := vigil.CanonicalURL(rawURL)
	if err != nil {
		return rawURL, nil
	}
	head, _ := m.pageHead(ctx, u) // nil if the store cannot be read
	return u, head
}

// validated returns a page's newest version head if it is no failure and
// has a validator (an ETag or a Last-Modified date) to ask for the page
// with, else nil.
func validated(head *vigil.Version) *vigil.Version {
	if head == nil || head.Error != "" || head.ETag == "" && head.LastModified.IsZero() {
		return nil
	}
	return head
}

// pageHead returns the newest version of the resource of url, a canonical
// URL, nil if it has none or there is no such resource: from the
// monitor's caches, else with one read of the store, which fills them
// for storeSitePage and knownResource.
func (m *Monitor) pageHead(ctx context.Context, url string) (*vigil.Version, error) {
	m.resMu.Lock()
	rid := m.resources[url]
	m.resMu.Unlock()
	if head := m.heads.get(rid); rid != 0 && head != nil {
		return head, nil
	}
	res, head, err := m.Store.LatestVersionByURL(ctx, url)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m.rememberResource(url, res.ID)
	m.heads.put(res.ID, head)
	return head, nil
}

// sitePageEmptied reports whether res, the answer of url (a canonical
// URL) to a site's crawl, has an empty or white space body where the
// page's last good version had one (emptied): the page failed, as a
// watched page answering so does, and its empty body is no version of
// it. head is the newest version of asked, the page the crawl asked for
// (storedPage), read before the fetch: url's too unless a redirect led
// elsewhere. A store that cannot be read tells nothing: the page is
// stored as it came (storeSitePage), or fails to be.
func (m *Monitor) sitePageEmptied(ctx context.Context, url string, res *vigil.FetchResult, asked string, head *vigil.Version) bool {
	if len(bytes.TrimSpace(res.Body)) > 0 {
		return false // the common case, without a read of the store
	}
	if url != asked {
		head, _ = m.pageHead(ctx, url) // nil when the store cannot be read
	}
	return emptied(m.goodFrom(ctx, head), res)
}

// storeSitePage stores a page a site's crawl read as the newest version of
// its URL, unless that version has the same body (and not again: its body
// could not be read, and the warehouse replaces it with this one), and
// returns its id.
func (m *Monitor) storeSitePage(ctx context.Context, url string, res *vigil.FetchResult, again bool) (int64, error) {
	rid, err := m.resource(ctx, url)
	if err != nil {
		return 0, err
	}
	defer m.pages.lock(url)()
	head, err := m.head(ctx, rid)
	if err != nil {
		return 0, err
	}
	if !again && unchanged(url, head, head, res) {
		cur, err := m.confirmHead(ctx, rid, head)
		if err != nil {
			return 0, err
		}
		if sameVersion(cur, head) {
			return head.ID, nil
		}
		if head = cur; unchanged(url, head, head, res) {
			return head.ID, nil
		}
	}
	var headID int64
	if head != nil {
		headID = head.ID
	}
	v, err := m.putVersion(ctx, rid, &warehouse.Fetch{URL: url, FinalURL: res.URL, FetchedAt: res.FetchedAt, Status: res.Status, ETag: res.ETag,
		LastModified: res.LastModified, ContentType: res.ContentType, Charset: "utf-8", FetchDuration: res.Duration, Body: res.Body,
		CheckHead: true, HeadID: headID})
	if err != nil {
		m.heads.put(rid, nil)
		return 0, fmt.Errorf("store version: %w", err)
	}
	m.heads.put(v.ResourceID, v)
	m.unrecorded.add(v)
	m.bodies.put(v.ID, body{data: res.Body, charset: v.Charset, contentType: v.ContentType, version: v})
	return v.ID, nil
}

// storeLeaf stores the version of a page of a site read without its body
// (a binary document: a PDF, an image), the version saying why, as a
// page sentinel on it stores, unless the page's newest version says so
// already; it returns that version's id. Such a page has a history, and
// a change of the site links to it, as to the site's other pages.
func (m *Monitor) storeLeaf(ctx context.Context, url string, l leaf, now time.Time) (int64, error) {
	rid, err := m.resource(ctx, url)
	if err != nil {
		return 0, err
	}
	defer m.pages.lock(url)()
	head, err := m.head(ctx, rid)
	if err != nil {
		return 0, err
	}
	v, err := m.putFailure(ctx, rid, url, head, l.status, l.contentType, l.why, l.took, now)
	if err != nil {
		return 0, err
	}
	return v.ID, nil
}

// storeStartFailure stores the failure of a site's start page as a
// version of url, the site's URL, as a watched page's failure is: the
// page's history and the sentinel's last error on the dashboard show it.
func (m *Monitor) storeStartFailure(ctx context.Context, url string, snap *crawl.Snapshot, now time.Time) {
	rid, err := m.resource(ctx, url)
	if err != nil {
		m.Logger.Error("store fetch error", logURL(url), LogError, err)
		return
	}
	defer m.pages.lock(url)()
	head, err := m.head(ctx, rid)
	if err != nil {
		m.Logger.Error("store fetch error", logURL(url), LogError, err)
		return
	}
	status := 0
	if len(snap.Pages) > 0 {
		status = snap.Pages[0].Status
	}
	m.storeFailure(ctx, rid, url, head, status, snap.StartFailure(), 0, now)
}

// knownResource returns the id of a URL's resource if it has one, else 0
// (a page that failed at every crawl has none).
func (m *Monitor) knownResource(ctx context.Context, url string) int64 {
	m.resMu.Lock()
	id := m.resources[url]
	m.resMu.Unlock()
	if id != 0 {
		return id
	}
	r, err := m.Store.FindResourceByURL(ctx, url)
	if err != nil {
		return 0
	}
	m.rememberResource(url, r.ID)
	return r.ID
}
