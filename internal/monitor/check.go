package monitor

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// page is the result of fetching one URL for the sentinels that watch it.
type page struct {
	url      string
	resource int64
	cur      *vigil.Version // the newest content version; nil if the fetch failed
	// binary is the version of a binary document the page answered (a
	// PDF, an image: binarypage.go), cur being nil; nil otherwise.
	binary *vigil.Version
	err    string
	// failed says the page itself failed (an answer that is an error, or
	// none); not when its fetch was never sent or the store failed.
	failed bool
	// busy says the fetch was never sent: the page's host was busy.
	busy bool
}

// recentFetches remembers the newest content version of recently fetched
// URLs, so that a page fetched moments ago serves another sentinel.
type recentFetches struct {
	mu  sync.Mutex
	m   map[string]recentFetch
	max int
}

type recentFetch struct {
	at      time.Time
	version *vigil.Version
}

func (r *recentFetches) get(url string, fresh time.Duration, now time.Time) *vigil.Version {
	if fresh <= 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := r.m[url]; ok && now.Sub(f.at) < fresh {
		return f.version
	}
	return nil
}

func (r *recentFetches) forget(url string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, url)
}

func (r *recentFetches) put(url string, v *vigil.Version, now time.Time, fresh time.Duration) {
	if fresh <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil || len(r.m) >= r.max {
		r.m = map[string]recentFetch{}
	}
	r.m[url] = recentFetch{now, v}
}

// pageLocks lets one check at a time fetch and store a given URL. Two
// checks of one page at once (sentinels claimed in different batches)
// would each compare their fetch with the head they read before it and
// store the same new content twice; in turn, the second finds the first's
// version as the head, and its conditional request answers 304. The lock
// is the process's: across processes (workers on one PostgreSQL store),
// the warehouse's Fetch.CheckHead stores a change that two fetched once.
type pageLocks struct {
	mu sync.Mutex
	m  map[string]*pageLock
}

type pageLock struct {
	sync.Mutex
	users int // holders and waiters; the entry is dropped at zero
}

// lock takes url's lock and returns its release.
func (p *pageLocks) lock(url string) (unlock func()) {
	p.mu.Lock()
	if p.m == nil {
		p.m = map[string]*pageLock{}
	}
	l := p.m[url]
	if l == nil {
		l = &pageLock{}
		p.m[url] = l
	}
	l.users++
	p.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		p.mu.Lock()
		if l.users--; l.users == 0 {
			delete(p.m, url)
		}
		p.mu.Unlock()
	}
}

// fetchPage fetches a URL once (conditionally, against its newest stored
// content version) and stores a new version when the content changed or
// the fetch failed: a failure is a version too, so that the history shows
// it (a run of identical failures is stored once). A page that works again
// after a failure is stored again, whether it answers its last good
// version's body or 304 Not Modified to that version's validators (asked
// again without them when that version's body cannot be read). A fetch
// never sent, its host busy, is no failure of the page and is not stored.
func (m *Monitor) fetchPage(ctx context.Context, url string, render bool, now time.Time) *page {
	rid, err := m.resource(ctx, url)
	if vigil.ErrorCode(err) == vigil.EINVALID {
		// A URL no resource can be stored under, which no fetch can
		// reach either: a host DNS refuses (spec.CheckHostName), in a
		// sentinel stored before its URL was held to that rule. A
		// failure of the page, told to its owner as any is; nothing is
		// stored.
		return &page{url: url, err: vigil.ErrorMessage(err), failed: true}
	}
	if err != nil {
		return &page{url: url, err: err.Error()}
	}
	pg := &page{url: url, resource: rid}
	defer m.pages.lock(url)()
	if err := ctx.Err(); err != nil { // cancelled while another check had the page
		pg.err = err.Error()
		return pg
	}
	if v := m.recent.get(url, m.Fresh, now); v != nil {
		pg.cur = v
		return pg
	}
	head, err := m.head(ctx, rid)
	if err != nil {
		pg.err = err.Error()
		return pg
	}
	var headID int64 // what this check saw, for the warehouse to tell if another stored the same meanwhile
	if head != nil {
		headID = head.ID
	}
	good := m.goodFrom(ctx, head)
	req := &vigil.FetchRequest{URL: url, Render: render, DigestBinary: digestBinary}
	if good != nil {
		// The validators of the page good was read from: url's, or
		// those of the page url's redirect led to (good.URL), sent
		// when the redirect lands there again.
		req.ETag, req.LastModified, req.ValidatorsURL = good.ETag, good.LastModified, good.URL
	}
	res, ferr := m.Fetcher.Fetch(ctx, req)
	if ferr == nil && res.NotModified && good != nil && vigil.VersionURL(url, res.URL) != good.URL {
		// A 304 from a page whose validators were not sent (a redirect
		// that led elsewhere): it says nothing of any page's content.
		ferr = fmt.Errorf("fetch %s: 304 Not Modified to a request without validators", vigil.RedactURL(url))
	}
	m.fetchPanicked(url, ferr)
	if ferr == nil && res.NotModified && good != nil && head.Error != "" {
		// The page works again with good's body (bodyResult, below). One
		// that cannot be read (a corrupt blob) is asked for again without
		// validators, and stored as it comes (the warehouse replaces the
		// corrupt blob of the same content), where the check failed, and
		// did at every check until the page changed.
		if _, err := m.body(ctx, good.ID); err != nil {
			m.Logger.Warn("not modified, and the last good version cannot be read: fetched again without validators",
				logURL(url), "version", good.ID, LogError, err)
			req.ETag, req.LastModified = "", time.Time{}
			res, ferr = m.Fetcher.Fetch(ctx, req)
			m.fetchPanicked(url, ferr)
			if ferr == nil && res.NotModified {
				ferr = fmt.Errorf("fetch %s: 304 Not Modified to a request without validators", vigil.RedactURL(url))
			}
		}
	}
	if ferr == nil && res.NotModified && good == nil {
		ferr = fmt.Errorf("fetch %s: 304 Not Modified without a stored version", vigil.RedactURL(url))
	}
	if ferr == nil && emptied(good, res) {
		// Named as every failure of a fetch is: a sentinel of several
		// pages shows it as its last error.
		ferr = fmt.Errorf("fetch %s: %w", vigil.RedactURL(url), &vigil.EmptyBodyError{Status: res.Status})
	}
	if ferr != nil {
		if ctx.Err() != nil {
			pg.err = ctx.Err().Error()
			return pg
		}
		if errors.Is(ferr, vigil.ErrHostBusy) {
			// Not sent: the page did not fail, its host was busy.
			pg.err, pg.busy = ferr.Error(), true
			return pg
		}
		if res != nil && res.BinaryDigest != "" && res.Status/100 == 2 {
			return m.storeBinary(ctx, pg, head, res, ferr, now)
		}
		pg.err, pg.failed = ferr.Error(), true
		status, took := 0, time.Duration(0)
		if res != nil {
			status, took = res.Status, res.Duration
		}
		pg.resource = m.storeFailure(ctx, rid, url, head, status, pg.err, took, now)
		return pg
	}
	if res.NotModified && head.Error != "" {
		// Not modified since good, and the newest version is a failure:
		// the page works again with good's body, stored again as an
		// answer with that body is (a version, and the sentinels'
		// comparison with it, as after any failure).
		if res, err = m.bodyResult(ctx, url, good, res); err != nil {
			pg.err = err.Error()
			return pg
		}
	}
	same := unchanged(url, head, good, res)
	if same {
		cur, err := m.confirmHead(ctx, rid, head)
		if err != nil {
			pg.err = err.Error()
			return pg
		}
		if !sameVersion(cur, head) {
			// Another process stored a version since head was cached:
			// the fetch is compared with that one, as if it were read
			// before the request.
			sent := good
			head, good, headID = cur, cur, 0
			if head != nil {
				headID = head.ID
				if head.Error != "" {
					good = m.lastGood(ctx, rid)
				}
			}
			if res.NotModified && (good == nil || good.ID != sent.ID || head.Error != "") {
				// Not modified since sent, which is no longer the
				// newest version (another good one is, or a failure):
				// the page is back to sent's body.
				if res, err = m.bodyResult(ctx, url, sent, res); err != nil {
					pg.err = err.Error()
					return pg
				}
			}
			same = unchanged(url, head, good, res)
		}
	}
	if same {
		pg.cur = good
	} else {
		etag, lastModified := validators(url, res)
		v, err := m.putVersion(ctx, rid, &warehouse.Fetch{URL: url, FinalURL: res.URL, FetchedAt: res.FetchedAt, Status: res.Status, ETag: etag,
			LastModified: lastModified, ContentType: res.ContentType, Charset: "utf-8", FetchDuration: res.Duration, Body: res.Body,
			CheckHead: true, HeadID: headID})
		if err != nil {
			// As after any write that failed: the next check reads the
			// head from the store.
			m.heads.put(rid, nil)
			pg.err = "store version: " + err.Error()
			m.Logger.Error("store version", logURL(url), LogError, err)
			return pg
		}
		pg.cur, pg.resource = v, v.ResourceID
		m.heads.put(v.ResourceID, v)
		m.unrecorded.add(v)
		m.bodies.put(v.ID, body{data: res.Body, charset: v.Charset, contentType: v.ContentType, version: v})
	}
	m.recent.put(url, pg.cur, now, m.Fresh)
	return pg
}

// emptied reports whether res, a page's answer, has an empty or white
// space body where good, the page's last good version, had one: a server
// that answers 200 with nothing (a deploy in progress, a cache that
// lost the page) has failed, not emptied the page, and the page is
// stored and told as failing, not as changed twice (every row, link
// and phrase removed, then added back). A page empty from its first
// fetch has no body to lose: its empty answer is a version as any.
func emptied(good *vigil.Version, res *vigil.FetchResult) bool {
	return !res.NotModified && good != nil && good.Size > 0 && len(bytes.TrimSpace(res.Body)) == 0
}

// validators returns the ETag and Last-Modified date that a version of
// url keeps from res, the answer of its fetch: those of the page read,
// url or the page a redirect led to, which the version names (its URL,
// vigil.VersionURL). The next check sends them with the request of that
// page only (vigil.FetchRequest.ValidatorsURL), never with url's when it
// is another: they could make url answer 304 for content it does not
// serve (a page that stopped redirecting, last modified before its old
// target). None when the page read is no URL the version can name.
func validators(url string, res *vigil.FetchResult) (string, time.Time) {
	if res.URL == "" || res.URL == url {
		return res.ETag, res.LastModified
	}
	if _, err := vigil.CanonicalURL(res.URL); err != nil {
		return "", time.Time{}
	}
	return res.ETag, res.LastModified
}

// unchanged reports whether res, the answer of url to a request sent
// with the validators of good, holds the content of head, the newest
// version: an answer 304 Not Modified, or a body equal to good's, when
// good is head, read from the same URL (vigil.Version.URL: the final URL
// of a redirect). Nothing is unchanged against a failure or against no
// version: a page back from a failure is stored again (fetchPage first
// turns a 304 answered while head is a failure into good's body,
// bodyResult). A body read from another page than good's (a redirect
// that leads elsewhere, or no longer redirects) is a new version though
// its bytes are the same: its relative links name other pages. One read
// from good's page with another query (vigil.SameLinkBase) is not.
func unchanged(url string, head, good *vigil.Version, res *vigil.FetchResult) bool {
	if head == nil || good == nil || head.Error != "" {
		return false
	}
	if res.NotModified {
		return true
	}
	read := cmp.Or(vigil.VersionURL(url, res.URL), url) // as the version stored would have it (PageURL)
	return good.ContentHash == warehouse.Hash(res.Body) && vigil.SameLinkBase(good.PageURL(url), read)
}

// sameVersion reports whether a and b are the same version, or both none.
func sameVersion(a, b *vigil.Version) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ID == b.ID
}

// head returns the newest version of resource rid, nil if it has none:
// from the cache of heads, else from the store (and then cached).
func (m *Monitor) head(ctx context.Context, rid int64) (*vigil.Version, error) {
	if head := m.heads.get(rid); head != nil {
		return head, nil
	}
	return m.storeHead(ctx, rid)
}

// storeHead reads the newest version of resource rid from the store, nil
// if it has none, and caches it.
func (m *Monitor) storeHead(ctx context.Context, rid int64) (*vigil.Version, error) {
	head, err := m.Store.LatestVersion(ctx, rid)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		m.heads.put(rid, nil)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the newest version of resource %d: %w", rid, err)
	}
	m.heads.put(rid, head)
	return head, nil
}

// confirmHead is called before a page is taken as unchanged against
// head, the newest version of its resource rid as head returned it. It
// returns the store's newest version: head itself unless another process
// stores versions in the store (Monitor.SharedStore), where it reads the
// store once, since head may come from a cache that process made stale
// (see headCache). The caller holds the page's lock, but for a site
// crawl's 304 (siteFetcher.notModified), which takes it only to store
// what it found (storeSitePage): the cache of heads keeps the newest
// version it is given, whichever read answers last.
func (m *Monitor) confirmHead(ctx context.Context, rid int64, head *vigil.Version) (*vigil.Version, error) {
	if !m.SharedStore {
		return head, nil
	}
	return m.storeHead(ctx, rid)
}

// bodyResult returns res, an answer 304 Not Modified of url to the
// validators of its version v, as the answer with v's body it stands for,
// read from where v's was (vigil.Version.PageURL).
func (m *Monitor) bodyResult(ctx context.Context, url string, v *vigil.Version, res *vigil.FetchResult) (*vigil.FetchResult, error) {
	b, err := m.body(ctx, v.ID)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: not modified, and its stored version %d cannot be read: %w", vigil.RedactURL(url), v.ID, err)
	}
	out := *res
	out.NotModified, out.URL, out.Status, out.Body = false, v.PageURL(url), v.Status, b.data
	out.ContentType, out.ETag, out.LastModified = v.ContentType, v.ETag, v.LastModified
	if out.Status == 0 {
		out.Status = 200
	}
	return &out, nil
}

// storeFailure stores a failed fetch of url (its HTTP status, 0 if none
// came, and its error, and how long its fetch took, 0 if not known) as the
// newest version of its resource rid, whose
// newest version was head, unless head is the same failure: a run of
// identical failures is stored once (with the first one's duration). It returns url's resource: rid, or
// the one found or created afresh if rid was deleted (putVersion). The
// caller holds url's page lock.
func (m *Monitor) storeFailure(ctx context.Context, rid int64, url string, head *vigil.Version, status int, why string, took time.Duration, now time.Time) int64 {
	v, err := m.putFailure(ctx, rid, url, head, status, "", why, took, now)
	if err != nil {
		m.Logger.Error("store fetch error", logURL(url), LogError, err)
		return rid
	}
	return v.ResourceID
}

// putFailure is storeFailure returning the version that says why: head
// if it does already. contentType is the media type of the answer, if one
// came whose body is not kept (a binary document), else "". took is how
// long the fetch took (vigil.FetchResult.Duration), 0 if not known: the
// version's FetchDuration.
func (m *Monitor) putFailure(ctx context.Context, rid int64, url string, head *vigil.Version, status int, contentType, why string, took time.Duration, now time.Time) (*vigil.Version, error) {
	if head != nil && head.Error == why {
		cur, err := m.confirmHead(ctx, rid, head)
		if err != nil {
			return nil, fmt.Errorf("store the failure of %s: %w", vigil.RedactURL(url), err)
		}
		if head = cur; head != nil && head.Error == why {
			return head, nil
		}
	}
	f := &warehouse.Fetch{URL: url, FetchedAt: now, Status: status, ContentType: contentType, Error: why, FetchDuration: took, CheckHead: true}
	if head != nil {
		f.HeadID = head.ID
	}
	v, err := m.putVersion(ctx, rid, f)
	if err != nil {
		m.heads.put(rid, nil)
		return nil, fmt.Errorf("store the failure of %s: %w", vigil.RedactURL(url), err)
	}
	m.heads.put(v.ResourceID, v)
	return v, nil
}

// fetchPanicked logs and counts the error of url's fetch if it is a panic
// the fetcher recovered on a goroutine of its own (its guard proxy's, its
// browser's) and returned: the fetch failed, as any failed fetch does.
func (m *Monitor) fetchPanicked(url string, err error) {
	if err != nil {
		reportPanic(m.Logger, m.Panicked, PanicFetch, "fetch: panicked", err, vigil.RedactURLs(err.Error()), logURL(url))
	}
}

// putVersion stores f through the warehouse as the newest version of its
// URL, whose resource the monitor knows as rid, and returns it. A
// resource deleted from the store since its id was learnt (the monitor is
// not told: another process may delete it) is not written under that
// dead id: the store answers ENOTFOUND, the monitor forgets the id (so
// does the warehouse's CachedResources) and f is stored once more, under
// the URL's resource found or created afresh. The version returned
// carries the resource's id, which the monitor remembers for the URL.
// The caller holds the URL's page lock.
func (m *Monitor) putVersion(ctx context.Context, rid int64, f *warehouse.Fetch) (*vigil.Version, error) {
	v, err := m.Warehouse.Put(ctx, f)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		m.forgetResource(f.URL, rid)
		v, err = m.Warehouse.Put(ctx, f)
	}
	if err != nil {
		// A panic the warehouse recovered (in compressing the body): the
		// write failed whole, as any failed write does; it is logged with
		// its stack and counted.
		reportPanic(m.Logger, m.Panicked, PanicStore, "store a version: panicked", err, vigil.RedactURLs(err.Error()), logURL(f.URL))
		return nil, err
	}
	if v.ResourceID != rid {
		m.forgetResource(f.URL, rid)
		m.rememberResource(f.URL, v.ResourceID)
	}
	return v, nil
}

// forgetResource drops what the monitor keeps of resource rid, url's,
// deleted from the store: url's id, rid's head and url's recent fetch.
func (m *Monitor) forgetResource(url string, rid int64) {
	m.resMu.Lock()
	if m.resources[url] == rid {
		delete(m.resources, url)
	}
	m.resMu.Unlock()
	m.heads.put(rid, nil)
	m.recent.forget(url)
}

// resource returns the resource of a URL: from memory, from the store (a
// read), or created (a write) the first time.
//
// The store may delete a resource without telling the monitor (no vigil
// command or API does; another process or a future one might), and ids
// are never given again (the conformance suite's IDsNeverReused), so the
// id kept is of the URL's resource or of none. The first write of the
// URL's next version finds it gone and stores the version under the URL's
// resource found or created afresh (putVersion); on a shared store,
// where a page found unchanged is confirmed with the store (confirmHead),
// so is that read. On a store one daemon holds, a page found unchanged
// keeps its dead id, and the version the monitor kept as its newest,
// until it changes or fails.
func (m *Monitor) resource(ctx context.Context, url string) (int64, error) {
	m.resMu.Lock()
	id := m.resources[url]
	m.resMu.Unlock()
	if id != 0 {
		return id, nil
	}
	r, err := m.Store.FindResourceByURL(ctx, url)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		r, err = m.Store.EnsureResource(ctx, url)
	}
	if err != nil {
		return 0, err
	}
	m.rememberResource(url, r.ID)
	return r.ID, nil
}

// rememberResource keeps the id of url's resource, read from the store,
// for resource and knownResource, up to 1<<17 URLs (then forgets them all).
func (m *Monitor) rememberResource(url string, id int64) {
	m.resMu.Lock()
	defer m.resMu.Unlock()
	if m.resources == nil || len(m.resources) >= 1<<17 {
		m.resources = map[string]int64{}
	}
	m.resources[url] = id
}

// goodFrom returns the last good version of a page whose newest version
// is head: head itself unless it is a failed fetch, else the newest that
// is not (lastGood); nil when head is nil or none is good.
func (m *Monitor) goodFrom(ctx context.Context, head *vigil.Version) *vigil.Version {
	if head == nil || head.Error == "" {
		return head
	}
	return m.lastGood(ctx, head.ResourceID)
}

// lastGood returns the newest version of a resource that is not a failed
// fetch, or nil.
func (m *Monitor) lastGood(ctx context.Context, resourceID int64) *vigil.Version {
	for off := 0; off < 1000; off += 50 {
		vs, _, err := m.Store.FindVersions(ctx, vigil.VersionFilter{ResourceID: resourceID, Descending: true, Offset: off, Limit: 50})
		if err != nil || len(vs) == 0 {
			return nil
		}
		for _, v := range vs {
			if v.Error == "" {
				return v
			}
		}
	}
	return nil
}

// checkPage fetches a page once and runs every sentinel of jobs on it.
// Each (reference, current) pair is compared once: the intent.Pair it
// builds caches each primitive change type, so that sentinels asking for
// the same change type on the same page share its evaluation.
func (m *Monitor) checkPage(ctx context.Context, url string, render bool, jobs []*job, now time.Time, grant *memoryGrant) {
	pg := m.fetchPage(ctx, url, render, now)
	pairs := map[[2]int64]*pairEval{}
	pairOf := func(ref int64) *pairEval {
		k := [2]int64{ref, pg.cur.ID}
		if p := pairs[k]; p != nil {
			return p
		}
		p := &pairEval{m: m, url: url, ref: ref, cur: pg.cur.ID, grant: grant}
		pairs[k] = p
		return p
	}
	for _, j := range jobs {
		ps := j.st.Pages[url]
		if ps == nil {
			ps = &pageState{}
			j.st.Pages[url] = ps
		}
		if pg.cur == nil && pg.busy {
			// Not read: it waits for the next check, which comes soon
			// if no page of the sentinel was read (finish).
			j.busy++
			m.Logger.Info("page not read, its host busy", LogSentinel, j.s.ID, logURL(url), LogError, pg.err)
			continue
		}
		j.checked++
		if pg.binary != nil {
			m.binarySeen(ctx, j, ps, pg, now)
			continue
		}
		if pg.cur == nil {
			if j.outcome != schedule.Changed {
				j.outcome = schedule.Failed
			}
			m.Logger.Info("check failed", LogSentinel, j.s.ID, logURL(url), LogError, pg.err)
			// What the page's last version lacked is not said beside its
			// error; it is looked at again once the page is read.
			ps.ScopeMisses, ps.MissesOf = nil, ""
			if pg.failed {
				m.pageFailing(ctx, j, ps, url, pg.err, now)
			}
			continue
		}
		m.pageWorks(ctx, j, ps, url, now)
		// textDue says that the change of the page's text found when it
		// turned back from a file is due for its confirmation, with the
		// file's (pendingConfirm.Text): confirmed by this fetch.
		textDue := false
		if ps.File != 0 {
			m.fileTurnedBack(ctx, j, ps, pg, now)
		} else if c := j.st.Confirm; c != nil && c.URL == url && c.File {
			// A change from or to a file waits for its confirmation:
			// the page answers a page now (confirmFile).
			textDue = c.Text && !now.Before(c.At)
			m.confirmFile(ctx, j, ps, pg, c, pg.cur, now)
		}
		if pg.cur.ID != ps.last() {
			j.outcome = schedule.Changed
			if ps.Pending != nil {
				// A waiting change spans every later version, so that one
				// the page takes back is seen as gone (settle).
				ps.Pending.Cur = pg.cur.ID
			}
		}
		if c := j.st.Confirm; c != nil && c.URL == url && !c.File {
			if now.Before(c.At) {
				continue // checked early (another event): wait for the confirmation time
			}
			j.st.Confirm = nil
			ok, res, pe := m.evaluate(ctx, pairOf(c.Ref), j)
			if pg.cur.ID != ps.last() {
				ps.add(pg.cur.ID, j.plan.compare)
			}
			if ok {
				m.found(ctx, j, pg, c.Ref, pe, res, now)
			} else {
				m.Logger.Info("change not confirmed", LogSentinel, j.s.ID, logURL(url))
			}
			continue
		}
		if pg.cur.ID == ps.last() {
			continue
		}
		ref, compared := ps.reference(j.plan.compare)
		if !compared {
			ps.add(pg.cur.ID, j.plan.compare)
			continue
		}
		ok, res, pe := m.evaluate(ctx, pairOf(ref), j)
		if ok && j.plan.confirm > 0 && !textDue {
			if c := j.st.Confirm; c != nil && c.URL == url && c.File && c.Cand == pg.cur.ID {
				// The page turned back from a file into this version,
				// whose text changed since before the file: confirmed
				// with the turning back (textDue), and told with it, as
				// both are unconfirmed.
				c.Text = true
				continue
			}
			if c := j.st.Confirm; c != nil && (c.URL != url || c.File) {
				// Another page's change is being confirmed (one at a
				// time): this page keeps its reference and is looked at
				// again after that confirmation.
				m.Logger.Info("change to confirm after another page's", LogSentinel, j.s.ID, logURL(url))
				continue
			}
			j.st.Confirm = &pendingConfirm{URL: url, Ref: ref, Cand: pg.cur.ID, At: now.Add(j.plan.confirm)}
			m.Logger.Info("change to confirm", LogSentinel, j.s.ID, logURL(url), "at", j.st.Confirm.At)
			continue
		}
		ps.add(pg.cur.ID, j.plan.compare)
		if ok {
			m.found(ctx, j, pg, ref, pe, res, now)
		}
	}
	if pg.cur == nil {
		return
	}
	cur := &currentScopes{m: m, id: pg.cur.ID, pairs: pairs, grant: grant}
	for _, j := range jobs {
		m.noteScopeMisses(ctx, j, j.st.Pages[url], cur)
	}
	var key uint64 // the page's in the importance: the jobs of a page share their URLs
	if len(jobs) > 0 {
		if i := slices.Index(jobs[0].plan.urls, url); i >= 0 {
			key = jobs[0].plan.keys[i]
		}
	}
	if imp, ok := m.readImportance(ctx, url, key, pg, pairs, grant, now); ok {
		for _, j := range jobs {
			if len(j.imp) == 0 {
				j.impSettled = true
			}
			j.imp = append(j.imp, vigil.PageImportance{ResourceID: pg.resource, Importance: imp.est})
			j.impStore = j.impStore || imp.store
			j.impSettled = j.impSettled && imp.settled
		}
	}
}

// pairEval is the comparison of two versions of one page, built lazily and
// shared by the sentinels of one check (one goroutine).
type pairEval struct {
	m          *Monitor
	url        string // the page's: its versions' relative links resolve against it, or where each was read from (vigil.Version.PageURL)
	ref, cur   int64
	grant      *memoryGrant // the worker's share of the memory budget
	once       sync.Once
	old, new   *tree.Document
	pair       *intent.Pair
	err        error
	deltaDone  bool
	deltaBytes []byte
	// deltaReading is how the versions deltaBytes compares are read
	// (vigil.MessageItem.DeltaReading).
	deltaReading string
	// oldWhy and curWhy are why each version is read as its source
	// text, "" for a page.
	oldWhy, curWhy string
	// oldName and curName name the versions in their delta's from and
	// to (vigil.Version.DeltaName), as the API's diff names them.
	oldName, curName string
}

// reading returns, for a pair whose versions are read differently (one
// as markup, one as its source text), how they were read, which the
// stored change keeps and its message says (vigil.ChangeReading.Note):
// which version could not be read as its type and why, and that both
// were compared as text (intent.Pair.OldSource), and, when the scope or
// the ignore list of a change type of res could not be applied to the
// texts (intent.Result.ScopesNotApplied), which (the scope, the ignore
// list, or both: intent.Result.SelectorsNotApplied) and why. nil for a
// pair read alike, or not loaded.
func (p *pairEval) reading(res *intent.Result) *vigil.ChangeReading {
	if p == nil || p.pair == nil || (p.oldWhy == "") == (p.curWhy == "") {
		return nil
	}
	r := &vigil.ChangeReading{AsText: "new", Why: p.curWhy}
	if p.oldWhy != "" {
		r.AsText, r.Why = "old", p.oldWhy
	}
	if r.ScopeNotApplied = res.ScopesNotApplied(); len(r.ScopeNotApplied) > 0 {
		r.NotApplied = res.SelectorsNotApplied().Names()
		if len(r.NotApplied) == 0 { // a Result made without NotApplied: a scope, as ever
			r.NotApplied = intent.SelectorScope.Names()
		}
	}
	return r
}

func (p *pairEval) load(ctx context.Context) (*intent.Pair, error) {
	p.once.Do(func() {
		var old, cur body
		if old, p.err = p.m.body(ctx, p.ref); p.err != nil {
			return
		}
		if cur, p.err = p.m.body(ctx, p.cur); p.err != nil {
			return
		}
		if p.err = p.grant.add(ctx, int64(len(old.data)+len(cur.data))); p.err != nil {
			return
		}
		var oldWhy, curWhy string
		if p.old, oldWhy, p.err = p.m.document(old, p.ref); p.err != nil {
			return
		}
		if p.new, curWhy, p.err = p.m.document(cur, p.cur); p.err != nil {
			return
		}
		p.oldWhy, p.curWhy = oldWhy, curWhy
		if old.version != nil && cur.version != nil {
			p.oldName, p.curName = old.version.DeltaName(), cur.version.DeltaName()
		}
		p.m.recordReadAsText(ctx, p.ref, oldWhy)
		p.m.recordReadAsText(ctx, p.cur, curWhy)
		p.pair = intent.NewPair(p.old, p.new, nil, p.m.Detect)
		// Each version's links and images resolve against the URL its
		// body was read from: the final URL of a redirect, else the
		// page's.
		p.pair.OldURL, p.pair.NewURL = old.version.PageURL(p.url), cur.version.PageURL(p.url)
		// A page read as its source text has the URLs in its text as its
		// links: a sentinel watching the links of a text/plain page
		// finds them added and removed.
		p.pair.OldReadAsText, p.pair.NewReadAsText = oldWhy != "", curWhy != ""
		// Versions read differently (a feed served malformed for one
		// check, a page served as text/plain one day and text/html the
		// next) are compared like with like: the markup one is read as
		// its source text too, so that the URLs of the text are not
		// reported added and then removed, nor the images, tables and
		// lists of the page removed and then added.
		switch {
		case oldWhy != "" && curWhy == "":
			p.pair.NewSource, p.err = p.m.source(ctx, p.grant, cur, p.cur)
		case oldWhy == "" && curWhy != "":
			p.pair.OldSource, p.err = p.m.source(ctx, p.grant, old, p.ref)
		}
	})
	return p.pair, p.err
}

// deltaJSON returns the tree delta between the two versions in its JSON
// form, computed on first use (only when a change is reported), or nil if
// it cannot be computed or is larger than 256 KiB, and how the versions
// it compares are read (vigil.MessageItem.DeltaReading): a pair read
// differently, whose changes are found between the two source texts
// (intent.Pair.OldSource), has its delta between them too, so that a
// webhook carries the lines that changed, as its records, and not the
// page's tree replaced by a text. Its from and to name the two versions
// as the API's diff names them (vigil.Version.DeltaName).
//
// treediff.Diff only renumbers the new document's XIDs, which user-intent
// detection does not read, so the documents are shared with the intent
// pair.
func (p *pairEval) deltaJSON(ctx context.Context) ([]byte, string) {
	if p.deltaDone {
		return p.deltaBytes, p.deltaReading
	}
	p.deltaDone = true
	if _, err := p.load(ctx); err != nil {
		return nil, ""
	}
	old, cur, reading := p.old, p.new, ""
	switch {
	case p.oldWhy != "" && p.curWhy == "" && p.pair.NewSource != nil:
		cur, reading = p.pair.NewSource, vigil.DeltaReadingText
	case p.oldWhy == "" && p.curWhy != "" && p.pair.OldSource != nil:
		old, reading = p.pair.OldSource, vigil.DeltaReadingText
	}
	d, err := treediff.Diff(old, cur, nil)
	if err != nil {
		return nil, ""
	}
	d.From, d.To = p.oldName, p.curName
	var buf bytes.Buffer
	if err := delta.EncodeJSON(&buf, d); err != nil || buf.Len() > 256<<10 {
		return nil, ""
	}
	p.deltaBytes, p.deltaReading = buf.Bytes(), reading
	return p.deltaBytes, p.deltaReading
}

// body returns a version's body: from the cache of recent bodies, else
// from the warehouse.
func (m *Monitor) body(ctx context.Context, versionID int64) (body, error) {
	if b, ok := m.bodies.get(versionID); ok {
		return b, nil
	}
	v, err := m.Store.FindVersionByID(ctx, versionID)
	if err != nil {
		return body{}, err
	}
	data, err := m.Warehouse.Body(ctx, versionID)
	if err != nil {
		return body{}, err
	}
	b := body{data: data, charset: v.Charset, contentType: v.ContentType, version: v}
	m.bodies.put(versionID, b)
	return b, nil
}

// document reads a version's body into its tree as the warehouse does
// (warehouse.ReadBody: a body that does not parse is read as its source
// text), so that the trees a check compares are those the dashboard and
// the API show, and every change it reports can be shown. It returns too
// why the body is read as its source text ("" for a page).
func (m *Monitor) document(b body, versionID int64) (*tree.Document, string, error) {
	m.documentsRead.Add(1)
	doc, readAsText, err := warehouse.ReadBody(b.data, b.charset, b.contentType)
	if err != nil {
		return nil, "", fmt.Errorf("version %d: %w", versionID, err)
	}
	doc.AssignXIDs()
	return doc, warehouse.ReadAsTextReason(readAsText), nil
}

// source reads a version's body as its source text (warehouse.ReadSource),
// within the worker's share of the memory budget: the side read as markup
// of a pair whose other side is read as text.
func (m *Monitor) source(ctx context.Context, grant *memoryGrant, b body, versionID int64) (*tree.Document, error) {
	if err := grant.add(ctx, int64(len(b.data))); err != nil {
		return nil, err
	}
	doc, err := warehouse.ReadSource(b.data, b.charset)
	if err != nil {
		return nil, fmt.Errorf("version %d as text: %w", versionID, err)
	}
	doc.AssignXIDs() // for its delta (deltaJSON)
	return doc, nil
}

// evaluate runs a sentinel's change-type expression on a pair; an error
// is logged and counts as no change.
func (m *Monitor) evaluate(ctx context.Context, pe *pairEval, j *job) (bool, *intent.Result, *pairEval) {
	ok, res, err := m.evaluateErr(ctx, pe, j)
	if err != nil {
		m.Logger.Error("evaluate", LogSentinel, j.s.ID, "ref", pe.ref, LogVersion, pe.cur, LogError, err)
	}
	return ok, res, pe
}

// evaluateErr is evaluate returning its error.
func (m *Monitor) evaluateErr(ctx context.Context, pe *pairEval, j *job) (bool, *intent.Result, error) {
	pair, err := pe.load(ctx)
	if err != nil {
		return false, nil, fmt.Errorf("compare versions: %w", err)
	}
	res, err := pair.Evaluate(j.plan.expr)
	if err != nil {
		return false, nil, err
	}
	return res.Matched, res, nil
}
