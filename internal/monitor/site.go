package monitor

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/webtable"
)

// Sites. A sentinel whose target is a site (spec.Checked.Site) is checked
// by crawling the site (crawl.Crawl, through the monitor's fetcher, so
// that robots.txt, politeness and the private-address guard hold) and
// comparing the crawl with the sentinel's previous one as web tables
// (webtable.Diff): the pages added, deleted and modified. Every page read
// is stored in the warehouse as a version of its URL, as a watched page
// is (siteFetcher), so its history, diffs and views work as a page's do.
// One crawl serves the sentinels of one site query, in flight or ended
// moments ago (sitecrawl.go).
// A modified page is read through the sentinel's Monitor clause, as a
// sentinel on that page would read it: it is reported only if the clause
// finds its change between the page's two versions. Added and deleted
// pages are always reported.
//
// A page that fails for a moment (a 503 during a deploy, a 429, a timeout,
// a connection refused or reset: crawl.Page.Momentary) is not deleted:
// the check carries its last good read over from the sentinel's own
// previous crawl, with its version there, and the pages reached only
// through it too (crawl.Carry, carrySite), marked carried in the crawl it
// keeps, at most crawl.MaxCarriedCrawls checks in a row and
// crawl.MaxCarriedAge after the first of them; past them, the page is deleted,
// "now failing". A crawl shared by several sentinels holds no carried
// page: each carries from its own previous crawl.
//
// The previous crawl (its snapshot, without bodies, and the version of
// each page read) is kept per sentinel by the store
// (vigil.CheckRecord.Site), written in the check's transaction: a crash
// neither loses a change nor reports it twice. The first crawl, and the
// first after the sentinel was edited to crawl otherwise, is the
// reference and reports nothing. A sentinel edited to watch pages drops
// its crawl at its first check as such (state.Site, CheckRecord.DropSite):
// edited back to the site, it starts from a new reference rather than
// reporting all that changed while it watched something else.
//
// A check reports one change of the site: its resource is the start
// page's, its FromVersion 0 and its ToVersion the start page's version
// (for a start page read without its body, a binary document, the
// version saying so, as a page sentinel on it stores: storeLeaf, which
// gives every such page of the site its version);
// its records are of kind page (intent.PageInfo), one per page added,
// deleted or modified, in that order, each by URL.

// siteRecord is what a check keeps of a site's crawl for the next one.
type siteRecord struct {
	Snapshot *crawl.Snapshot `json:"snapshot"`
	// Versions are the stored versions of the pages read, by URL; of a
	// page read without its body, the version saying why (storeLeaf).
	Versions map[string]int64 `json:"versions"`
}

// maxSiteRecord bounds a site record read back: 10,000 pages of 10,000
// links each are far less once compressed.
const maxSiteRecord = 1 << 30

// encodeSite writes a site record as gzip-compressed JSON.
func encodeSite(r *siteRecord) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeSite reads a site record written by encodeSite.
func decodeSite(data []byte) (*siteRecord, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("site record: %w", err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxSiteRecord+1))
	if err != nil {
		return nil, fmt.Errorf("site record: %w", err)
	}
	if len(raw) > maxSiteRecord {
		return nil, fmt.Errorf("site record: larger than %d bytes", maxSiteRecord)
	}
	var r siteRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("site record: %w", err)
	}
	if r.Snapshot == nil {
		return nil, fmt.Errorf("site record: no snapshot")
	}
	return &r, nil
}

// siteFetcher is the fetcher a site's crawl goes through: the monitor's,
// storing each page it reads in the warehouse as a version of its final
// URL (a body equal to the newest version's is that version).
type siteFetcher struct {
	m     *Monitor
	inner vigil.Fetcher
	mu    sync.Mutex
	// versions are the versions of the pages read, by canonical URL.
	versions map[string]int64
	// failed counts the pages read whose body could not be stored.
	failed int
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
			l := leaf{status: res.Status, contentType: res.ContentType, why: err.Error()}
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
		f.failed++
		f.m.Logger.Error("store site page", logURL(u), LogError, serr)
		return res, nil
	}
	f.versions[u] = id
	return res, nil
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
				f.failed++
				f.mu.Unlock()
				f.m.Logger.Error("store site page", logURL(url), LogError, err)
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
	if !again && unchanged(head, head, res) {
		cur, err := m.confirmHead(ctx, rid, head)
		if err != nil {
			return 0, err
		}
		if sameVersion(cur, head) {
			return head.ID, nil
		}
		if head = cur; unchanged(head, head, res) {
			return head.ID, nil
		}
	}
	var headID int64
	if head != nil {
		headID = head.ID
	}
	v, err := m.putVersion(ctx, rid, &warehouse.Fetch{URL: url, FetchedAt: res.FetchedAt, Status: res.Status, ETag: res.ETag,
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

// siteOptions are the repairs of Algorithm Delta a site's check asks for,
// as vigil site diff does: no modified tuple without a modified page in
// it, every modified page in both versions, every tuple with a changed
// page in some delta table.
var siteOptions = webtable.Options{Strict: true, Cover: true, Complete: true}

// checkSite crawls the site of a sentinel, or takes the crawl another
// sentinel's check of the same query runs or ran moments ago (sitecrawl.go),
// and compares it with the sentinel's previous one.
func (m *Monitor) checkSite(ctx context.Context, j *job, now time.Time, grant *memoryGrant) {
	site := j.plan.site
	// Fetched most important first (OPIC's Greedy order), so that a site
	// larger than its pages keeps the pages that matter most. No scope
	// written is the start page's directory, which the crawl takes after
	// the start page's redirects.
	q := crawl.Query{Start: site.URL, Scope: slices.Clone(site.Scope), Match: site.Match, MaxDepth: site.Depth, MaxPages: site.Pages, Order: crawl.OrderImportance}
	limit := m.siteTime(j)
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	// The previous crawl, read first: a crawl shared with other sentinels
	// serves this check only if it is newer.
	var prev *siteRecord
	raw, _, prevErr := m.Store.SiteSnapshot(ctx, j.s.ID)
	switch {
	case prevErr == nil:
		var err error
		if prev, err = decodeSite(raw); err != nil {
			// Unreadable: this crawl becomes the reference.
			m.Logger.Error("read site snapshot", LogSentinel, j.s.ID, LogError, err)
		}
	case vigil.ErrorCode(prevErr) == vigil.ENOTFOUND:
		prevErr = nil
	}
	var prevSnap *crawl.Snapshot
	if prev != nil {
		prevSnap = prev.Snapshot
	}
	c, ran := m.sharedCrawl(ctx, cctx, q, prevSnap, limit, now)
	if ctx.Err() != nil {
		return // shutting down: the check is abandoned
	}
	j.checked++
	// The start page's run of failures, as a page sentinel's page's: its
	// contacts are told when the site has been unreadable for long.
	ps := j.st.Pages[site.URL]
	if ps == nil {
		ps = &pageState{}
		j.st.Pages[site.URL] = ps
	}
	var err error
	switch {
	case c == nil:
		// Waited for another sentinel's crawl until this check's lease.
		err = m.siteTooLong(ctx, j, ps, limit, now)
	case c.cut:
		err = m.siteTooLong(ctx, j, ps, c.limit, now)
	case c.err != nil:
		err = c.err
	default:
		if !ran {
			m.Logger.Debug("site crawl shared", LogSentinel, j.s.ID, logURL(site.URL), "ended", c.at)
		}
		if msg := c.record.Snapshot.StartFailure(); msg != "" {
			// Stored as a version of the start page by the crawl.
			m.pageFailing(ctx, j, ps, site.URL, msg, now)
			err = fmt.Errorf("start page %s: %s", vigil.RedactURL(site.URL), msg)
		}
	}
	if err != nil {
		// The previous crawl stays the reference: a site whose start
		// page fails is not a site whose pages were all deleted. What
		// its pages lacked is not said beside its failure.
		j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
		j.outcome = schedule.Failed
		m.Logger.Info("site check failed", LogSentinel, j.s.ID, logURL(site.URL), LogError, err)
		return
	}
	if c.failed > 0 {
		// A page read but not stored has no version in this crawl: as the
		// reference, it would hide the page's change from the next check.
		j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
		j.outcome = schedule.Failed
		m.Logger.Error("site check failed: pages read but not stored", LogSentinel, j.s.ID, logURL(site.URL), "pages", c.failed)
		return
	}
	cur := m.carrySite(j, prev, c.record)
	m.readSiteImportance(ctx, j, cur, grant, now)
	// What the crawl's pages lack (sitescopemiss.go), looked at once the
	// check has compared and reported, in the time it leaves.
	defer m.noteSiteScopeMisses(cctx, j, cur, grant)
	if prevErr != nil {
		j.outcome = schedule.Failed
		m.Logger.Error("read site snapshot", LogSentinel, j.s.ID, LogError, prevErr)
		return
	}
	if j.rec.Site, err = encodeSite(cur); err != nil {
		j.outcome = schedule.Failed
		m.Logger.Error("encode site snapshot", LogSentinel, j.s.ID, LogError, err)
		return
	}
	if prev == nil || !sameSiteQuery(prev.Snapshot.Query, cur.Snapshot.Query) {
		m.pageWorks(ctx, j, ps, site.URL, now)
		m.Logger.Info("site crawled: the reference of the next check", LogSentinel, j.s.ID, logURL(site.URL), "pages", len(cur.Snapshot.Pages))
		return
	}
	records, err := m.compareSites(cctx, j, prev, cur, grant)
	if err != nil && ctx.Err() != nil {
		return // shutting down: the check is abandoned
	}
	if err != nil && cctx.Err() != nil {
		err = m.siteTooLong(ctx, j, ps, limit, now)
	}
	if err != nil {
		// Compared again at the next check, with this crawl: the change
		// would be lost if this crawl became the reference.
		j.rec.Site = nil
		j.outcome = schedule.Failed
		m.Logger.Error("compare site crawls", LogSentinel, j.s.ID, logURL(site.URL), LogError, err)
		return
	}
	if len(records) == 0 {
		m.pageWorks(ctx, j, ps, site.URL, now)
		return
	}
	rid, to, err := m.startVersion(ctx, cur)
	if err != nil {
		// Not recorded, and told as the site's failure: compared again at
		// the next check, with this crawl.
		j.rec.Site = nil
		j.outcome = schedule.Failed
		msg := "the change of the site cannot be recorded: " + err.Error()
		m.pageFailing(ctx, j, ps, site.URL, msg, now)
		m.Logger.Error("site check failed: change not recorded", LogSentinel, j.s.ID, logURL(site.URL), LogError, err)
		return
	}
	m.pageWorks(ctx, j, ps, site.URL, now)
	j.outcome = schedule.Changed
	st := cur.Snapshot.Stats()
	m.reportSite(ctx, j, rid, to, records, carriedFailures(cur.Snapshot), st.NotFetched, now)
}

// carriedFailures names the pages of a crawl kept from the last one that
// the crawl fetched and that failed for a moment, as "URL (HTTP 503)",
// their passwords hidden, in the crawl's order; the pages it did not
// fetch, which only those link to, are left out.
func carriedFailures(snap *crawl.Snapshot) []string {
	var out []string
	for _, p := range snap.Pages {
		if p.Carried != nil && p.Carried.Fetched() {
			out = append(out, vigil.RedactURL(p.URL)+" ("+clip(p.Carried.Failure(), maxCarriedFailure)+")")
		}
	}
	return out
}

// carrySite returns the crawl rec, which may be shared with other
// sentinels' checks, as this sentinel's check takes it: with the pages
// that failed for a moment carried over from its own previous crawl prev
// (crawl.Carry), each with its version there. rec itself is not changed,
// so that each sentinel sharing it carries from its own previous crawl,
// never from another's. Without prev, or with a prev of another query
// (the reference is then rec), or when nothing is carried, it is rec.
func (m *Monitor) carrySite(j *job, prev, rec *siteRecord) *siteRecord {
	if prev == nil || !sameSiteQuery(prev.Snapshot.Query, rec.Snapshot.Query) {
		return rec
	}
	snap, err := crawl.Carry(prev.Snapshot, rec.Snapshot)
	if err != nil {
		// Compared as crawled: the pages failing for a moment are
		// reported failing, as before pages were carried over.
		m.Logger.Error("carry site pages over", LogSentinel, j.s.ID, logURL(j.plan.site.URL), LogError, err)
		return rec
	}
	if snap == rec.Snapshot {
		return rec
	}
	out := &siteRecord{Snapshot: snap, Versions: maps.Clone(rec.Versions)}
	var urls []string
	for _, p := range snap.Pages {
		if p.Carried == nil {
			continue
		}
		urls = append(urls, vigil.RedactURL(p.URL)+" ("+p.Carried.Failure()+")")
		if id := prev.Versions[p.URL]; id != 0 {
			out.Versions[p.URL] = id
		}
	}
	m.Logger.Info("site pages failed, kept from the last crawl", LogSentinel, j.s.ID, logURL(j.plan.site.URL), "pages", urls)
	return out
}

// startVersion returns the resource of a crawl's start page and the
// version a change of its site is recorded on: the start page's version
// in the crawl, which for a start page read without its body (a binary
// document: a PDF, an image) is the version saying why (storeLeaf), as a
// page sentinel on it stores.
func (m *Monitor) startVersion(ctx context.Context, cur *siteRecord) (rid, to int64, err error) {
	start := cur.Snapshot.Pages[0].URL
	if to = cur.Versions[start]; to == 0 {
		return 0, 0, fmt.Errorf("start page %s: read, and no version stored", vigil.RedactURL(start))
	}
	if rid = m.knownResource(ctx, start); rid == 0 {
		return 0, 0, fmt.Errorf("start page %s: version %d stored, and no resource found", vigil.RedactURL(start), to)
	}
	return rid, to, nil
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
	v, err := m.putFailure(ctx, rid, url, head, l.status, l.contentType, l.why, now)
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
	m.storeFailure(ctx, rid, url, head, status, snap.StartFailure(), now)
}

// siteTime is how long a check of a site may take: until a tenth of the
// lease before the claim's lease ends, leaving the rest for its record.
// Past the lease, another worker may claim the sentinel and crawl the site
// again from the same reference, and both would report the same change.
func (m *Monitor) siteTime(j *job) time.Duration {
	left := m.Lease
	if !j.rec.Leased.IsZero() {
		left = j.rec.Leased.Sub(m.Now())
	}
	return left - m.Lease/10
}

// siteTooLong records that a check of a site was cut after limit, a
// failure of the site as a failing start page is, and returns its error.
func (m *Monitor) siteTooLong(ctx context.Context, j *job, ps *pageState, limit time.Duration, now time.Time) error {
	msg := fmt.Sprintf("the check of the site did not end within %v, before the lease of its claim: "+
		"crawl fewer pages (a smaller depth or pages) or give the workers a longer lease", limit.Round(time.Second))
	m.pageFailing(ctx, j, ps, j.plan.site.URL, msg, now)
	return errors.New(msg)
}

// sameSiteQuery reports whether two crawls ran the same coupling query
// (the bodies kept and the workers aside): the sentinel was not edited to
// crawl otherwise, and its site did not move (the scope follows the start
// page's redirects). The scopes are compared as sets (crawl.CanonicalScope):
// a crawl made before they were recorded sorted holds them in the order the
// sentinel wrote them.
func sameSiteQuery(a, b crawl.Query) bool {
	return a.Start == b.Start && slices.Equal(crawl.CanonicalScope(a.Scope), crawl.CanonicalScope(b.Scope)) && a.Match == b.Match && a.MaxDepth == b.MaxDepth && a.MaxPages == b.MaxPages &&
		a.CrawlOrder() == b.CrawlOrder()
}

// compareSites returns the records of the pages added, deleted and
// modified from the crawl prev to cur: every page added or deleted (by
// URL), and the modified pages whose change the sentinel's Monitor clause
// finds, the most important in cur first.
func (m *Monitor) compareSites(ctx context.Context, j *job, prev, cur *siteRecord, grant *memoryGrant) ([]intent.Change, error) {
	// Each against the other: a binary leaf's versions are compared only
	// where both crawls hashed it (crawl.Snapshot.TableAgainst), so that
	// a crawl kept by a Vigil before them reports no PDF changed.
	w1, err := prev.Snapshot.TableAgainst(cur.Snapshot, crawl.ByContent)
	if err != nil {
		return nil, fmt.Errorf("previous crawl: %w", err)
	}
	w2, err := cur.Snapshot.TableAgainst(prev.Snapshot, crawl.ByContent)
	if err != nil {
		return nil, fmt.Errorf("this crawl: %w", err)
	}
	d, err := webtable.Diff(w1, w2, &siteOptions)
	if err != nil {
		return nil, err
	}
	pages1, pages2 := prev.Snapshot.PagesByURL(), cur.Snapshot.PagesByURL()
	redirected := map[string]string{}
	for _, r := range cur.Snapshot.Redirects {
		redirected[r.From] = r.To
	}
	unread1, unread2 := prev.Snapshot.UnreadLinks(), cur.Snapshot.UnreadLinks()
	addedWith, deletedWith := byContent(d.Added, pages2), byContent(d.Deleted, pages1)
	textLinkers := crawl.NewTextLinkers(prev.Snapshot, cur.Snapshot)
	cut := cur.Snapshot.LinksCut()
	var out []intent.Change
	for _, id := range sortedIDs(d.Added) {
		p := pages2[string(id)]
		info := &intent.PageInfo{URL: p.URL, Title: p.Title, NewVersion: cur.Versions[p.URL]}
		if before := pages1[p.URL]; before != nil && before.Failed() {
			info.Note = "failed before: " + before.Failure()
		} else if why := unread1[p.URL]; why != "" {
			info.Note = "linked before, " + unreadText(why, prev.Snapshot.Query)
		} else if from := textLinkers.ReachedThroughText(p.URL); from != "" {
			info.Note = "reached through " + from + ", read as text, whose URLs the crawl before did not follow"
		}
		if u := deletedWith[p.Hash]; u != "" {
			info.Note = addNote(info.Note, "the content of removed "+u)
		}
		info.Note = addNote(info.Note, p.LinksNote())
		info.ResourceID = m.knownResource(ctx, p.URL)
		out = append(out, intent.NewPageChange(intent.Insert, info))
	}
	for _, id := range sortedIDs(d.Deleted) {
		p := pages1[string(id)]
		info := &intent.PageInfo{URL: p.URL, Title: p.Title, OldVersion: prev.Versions[p.URL], Note: "no longer reached"}
		if now := pages2[p.URL]; now != nil {
			info.Note = "now failing: " + now.Failure() + failingSince(p, now, j.plan.location())
		} else if to, ok := redirected[p.URL]; ok {
			info.Note = "now redirected to " + to
		} else if why := unread2[p.URL]; why != "" {
			info.Note = "still linked, " + unreadText(why, cur.Snapshot.Query)
		} else if from := textLinkers.LinkerReadAsText(p.URL); from != "" {
			info.Note = "no longer reached: " + from + " is read as text"
		} else if len(cut) > 0 {
			// Its link may be past the links a page keeps.
			info.Note = crawl.CutNote(cut)
		}
		if u := addedWith[p.Hash]; u != "" && redirected[p.URL] != u {
			info.Note = addNote(info.Note, "its content now at "+u)
		}
		info.ResourceID = m.knownResource(ctx, p.URL)
		out = append(out, intent.NewPageChange(intent.Delete, info))
	}
	anyChange := isAnyChange(j.plan.expr)
	for _, id := range byImportance(d.Modified, pages2) {
		p, before := pages2[string(id)], pages1[string(id)]
		info := &intent.PageInfo{URL: p.URL, Title: p.Title, OldVersion: prev.Versions[p.URL], NewVersion: cur.Versions[p.URL]}
		if before.Title != p.Title {
			info.OldTitle = before.Title
		}
		switch {
		case !crawl.ReadingChanged(prev.Snapshot, cur.Snapshot, before, p):
		case p.Note != "":
			info.Note = p.Note // read as text, and why
		default:
			info.Note = "read as a page again"
		}
		if p.DigestNote != "" {
			// A binary document hashed as its bytes: why it may be
			// changed at every check.
			info.Note = addNote(info.Note, p.DigestNote)
		}
		info.Note = addNote(info.Note, p.LinksNote())
		info.ResourceID = m.knownResource(ctx, p.URL)
		if info.OldVersion == 0 || info.NewVersion == 0 || info.OldVersion == info.NewVersion || p.BinaryLeaf() {
			// Not both versions stored, or the new one a binary
			// document's, whose body the fetcher does not return (its
			// version says why, with its digest): only "any change" can
			// tell it changed.
			if anyChange {
				out = append(out, intent.NewPageChange(intent.Update, info))
			}
			continue
		}
		pe := &pairEval{m: m, url: p.URL, ref: info.OldVersion, cur: info.NewVersion, grant: grant}
		ok, res, err := m.evaluateErr(ctx, pe, j)
		grant.done() // the page's comparison is over
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			m.Logger.Error("evaluate site page", LogSentinel, j.s.ID, logURL(p.URL), LogError, err)
			continue
		}
		if !ok {
			continue
		}
		info.Summary = summarize(j.plan, res, res.AllChanges())
		out = append(out, intent.NewPageChange(intent.Update, info))
	}
	return out, nil
}

// byContent returns the URL of the first of the pages ids (by URL) that
// holds each content, by its hash: a page added with the content of a
// page deleted may be that page moved, which vigil site diff says too.
func byContent(ids []webtable.NodeID, pages map[string]*crawl.Page) map[string]string {
	out := map[string]string{}
	for _, id := range sortedIDs(ids) {
		if p := pages[string(id)]; p.Hash != "" && out[p.Hash] == "" {
			out[p.Hash] = p.URL
		}
	}
	return out
}

// addNote returns note with more after it ("; " between them), if any.
func addNote(note, more string) string {
	if note == "" || more == "" {
		return note + more
	}
	return note + "; " + more
}

// unreadText says which bound of a site's crawl left a linked page unread:
// its pages or its depth.
func unreadText(why crawl.UnreadReason, q crawl.Query) string {
	if why == crawl.UnreadDepth {
		return fmt.Sprintf("beyond the site's depth (depth %d)", q.MaxDepth)
	}
	return fmt.Sprintf("not read: the crawl stopped at its page limit (pages %d)", q.MaxPages)
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

// isAnyChange reports whether an expression is "any change".
func isAnyChange(x spec.Expr) bool {
	c, ok := x.(*spec.ChangeType)
	return ok && c.Kind == spec.AnyChange && c.Scope == nil && len(c.Ignore) == 0
}

func sortedIDs(ids []webtable.NodeID) []webtable.NodeID {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// byImportance returns the ids of pages, the most important first (by URL
// among equals), as vigil site diff lists the pages changed: a message,
// which shows the first pages of a change, leads with those that matter
// most.
func byImportance(ids []webtable.NodeID, pages map[string]*crawl.Page) []webtable.NodeID {
	out := sortedIDs(ids)
	slices.SortStableFunc(out, func(a, b webtable.NodeID) int {
		return cmp.Compare(pages[string(b)].Importance, pages[string(a)].Importance)
	})
	return out
}

// failingSince returns, for a page carried over (before) that failed for
// a moment again (now) past the bounds of carrying it (crawl.Carry),
// since when it fails and when it was last read, said in loc, the
// sentinel's zone (plan.location), as its message says times
// (messageTime): ", failing 4 crawls in a row since 2026-11-30 18:00
// JST, last read 2026-11-30 17:00 JST". For any other failure, a 404
// after a page was carried included, it is "": the failure says it all.
//
// The note is said in the sentinel's zone when the change is found, not
// stored without a zone and said in the reader's: it is words in the
// change's record (intent.PageInfo.Note), stored once and read as stored
// by the dashboard, the messages, the feed and the webhook's records, as
// the message that tells the change says it, and its zone's abbreviation
// places it for a reader in another zone.
func failingSince(before, now *crawl.Page, loc *time.Location) string {
	c := before.Carried
	if c == nil || !now.Momentary {
		return ""
	}
	// The crawls that carried it (one or more), and this one: always
	// crawls, plural.
	return fmt.Sprintf(", failing %d crawls in a row since %s, last read %s", c.Crawls+1, messageTime(c.Since, loc), messageTime(c.Read, loc))
}

// reportSite records the change a check found on a site, on version to
// of its start page's resource rid (startVersion), and, for the immediate
// and best-effort modes, its notifications; failed and notFetched count
// the pages of the crawl kept from the previous one (siteSummary says so).
func (m *Monitor) reportSite(ctx context.Context, j *job, rid, to int64, records []intent.Change, failed []string, notFetched int, now time.Time) {
	data, err := json.Marshal(records)
	if err != nil {
		m.Logger.Error("encode site records", LogSentinel, j.s.ID, LogError, err)
		return
	}
	c := &vigil.Change{SentinelID: j.s.ID, ResourceID: rid, ToVersion: to, DetectedAt: now,
		Summary: siteSummary(j.plan.site.URL, records, failed, notFetched), Records: data}
	first := len(j.rec.Changes)
	j.rec.Changes = append(j.rec.Changes, c)
	m.Logger.Info("site change detected", LogSentinel, j.s.ID, logURL(j.plan.site.URL), "summary", c.Summary)
	if j.plan.mode != spec.Immediate && j.plan.mode != spec.BestEffort {
		return
	}
	items := []*vigil.MessageItem{{Change: c}}
	msg := &vigil.Message{SentinelID: j.s.ID, SentinelName: j.s.Name, URL: j.plan.site.URL,
		Subject: subjectLine(j.s.Name, subjectEntry{what: c.Summary}), Changes: items}
	msg.Text, msg.HTML, msg.FeedLink = m.render(ctx, j, items, [][]intent.Change{records}, nil, nil)
	due := now
	if j.plan.mode == spec.BestEffort {
		due = now.Add(m.BestEffortDelay)
	}
	m.enqueue(j, msg, first, due)
}

// siteSummary is the summary of a site's change: "site URL: 2 pages
// added, 1 page removed, 3 pages changed", and, when pages of the crawl
// were kept from the previous one, failed naming those failing for a
// moment ("URL (HTTP 503)", carriedFailures) and notFetched counting
// those not fetched (linked only from such pages), "; 1 page failed and 1
// not fetched (kept from the last crawl): URL (HTTP 503)": they are no
// change, but the reader of one should know which pages the crawl did not
// read. At most maxCarriedNamed pages are named, then how many more.
func siteSummary(url string, records []intent.Change, failed []string, notFetched int) string {
	s := "site " + url + ": " + intent.Count(records)
	pages := func(n int) string {
		if n == 1 {
			return "1 page"
		}
		return fmt.Sprintf("%d pages", n)
	}
	switch {
	case len(failed) > 0 && notFetched > 0:
		s += fmt.Sprintf("; %s failed and %d not fetched (kept from the last crawl)", pages(len(failed)), notFetched)
	case len(failed) > 0:
		s += "; " + pages(len(failed)) + " failed (kept from the last crawl)"
	case notFetched > 0:
		s += "; " + pages(notFetched) + " not fetched (kept from the last crawl)"
	}
	if len(failed) > 0 {
		named := failed[:min(len(failed), maxCarriedNamed)]
		s += ": " + strings.Join(named, ", ")
		if more := len(failed) - len(named); more > 0 {
			s += fmt.Sprintf(" and %d more", more)
		}
	}
	return s
}

// The bounds of the pages a site's summary names as kept from the last
// crawl (siteSummary): the first maxCarriedNamed, each failure cut to
// maxCarriedFailure characters, so that the summary, which is also the
// message's subject, stays a line.
const (
	maxCarriedNamed   = 3
	maxCarriedFailure = 80
)
