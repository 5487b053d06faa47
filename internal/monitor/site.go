package monitor

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
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
// reference and reports nothing, and so is the first after any edit of a
// sentinel whose previous crawl cannot be compared of itself
// (errReference, compareFailure), which fails every check until then; a
// previous crawl that cannot be read at all is replaced at once, the
// check failing once to say so (unreadableFailure); a start page that comes to redirect out
// of the directory that was the scope (none written) fails the check,
// the previous crawl staying the reference (siteredirect.go), but for a
// move to https alone, which is followed, a written scope too, the
// previous crawl rekeyed to the https URLs so that its pages are matched
// with the same pages there (siteMovedToHTTPS). A sentinel
// edited to watch pages drops
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
	// readAt, of a previous crawl rekeyed to https when the site moved
	// there (siteMovedToHTTPS), maps each URL rekeyed to the URL its page
	// was read at, whose resource its version is of; nil otherwise. It is
	// never stored: the crawl kept is the check's.
	readAt map[string]string
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

// checkSite crawls the site of a sentinel, or takes the crawl another
// sentinel's check of the same query runs or ran moments ago (sitecrawl.go),
// and compares it with the sentinel's previous one.
func (m *Monitor) checkSite(ctx context.Context, j *job, now time.Time, grant *memoryGrant) {
	site := j.plan.site
	// Fetched most important first (OPIC's Greedy order), so that a site
	// larger than its pages keeps the pages that matter most. No scope
	// written is the start page's directory, which the crawl takes after
	// the start page's redirects.
	q := siteQuery(site)
	limit := m.siteTime(j)
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	// The previous crawl, read first: a crawl shared with other sentinels
	// serves this check only if it is newer.
	var prev *siteRecord
	// unreadable is why a previous crawl the store gave cannot be read:
	// it would be so at every check, so this crawl becomes the reference,
	// the check failing once to say so (unreadableFailure).
	var unreadable error
	raw, prevAt, prevErr := m.Store.SiteSnapshot(ctx, j.s.ID)
	switch {
	case prevErr == nil:
		prev, unreadable = decodeSite(raw)
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
		// Told as the site's failure, as a failed fetch is: no version
		// says so.
		j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
		j.outcome = schedule.Failed
		m.failedUnrecorded(ctx, j, ps, site.URL, notStoredFailure(c.failed, c.notStored), now)
		m.Logger.Error("site check failed: pages read but not stored", LogSentinel, j.s.ID, logURL(site.URL), "pages", c.failed)
		return
	}
	if moved := siteMovedToHTTPS(site.Scope, prev, c.record.Snapshot); moved != nil {
		// Followed (siteredirect.go): the previous crawl, rekeyed to
		// https, stays the reference.
		m.Logger.Info("site moved to https: its last crawl compared at the https URLs", LogSentinel, j.s.ID, logURL(site.URL), "to", vigil.RedactURL(c.record.Snapshot.Pages[0].URL))
		prev = moved
	}
	if msg := siteMovedFailure(site.Scope, prev, c.record.Snapshot); msg != "" {
		// The previous crawl stays the reference (siteredirect.go): the
		// pages of the directory the start page now leads to are not
		// reported added, nor those of its old one deleted.
		j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
		j.outcome = schedule.Failed
		m.failedUnrecorded(ctx, j, ps, site.URL, msg, now)
		m.Logger.Info("site check failed: start page moved", LogSentinel, j.s.ID, logURL(site.URL), LogError, msg)
		return
	}
	if prevErr != nil {
		// The previous crawl, which the store could not give, stays the
		// reference, compared with at the next check; nothing else is
		// said of this crawl beside the failure.
		j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
		j.outcome = schedule.Failed
		m.failedUnrecorded(ctx, j, ps, site.URL, snapshotFailure(prevErr), now)
		m.Logger.Error("site check failed: site snapshot not read", LogSentinel, j.s.ID, logURL(site.URL), LogError, prevErr)
		return
	}
	cur := m.carrySite(j, prev, c.record)
	m.readSiteImportance(ctx, j, cur, grant, now)
	// What the crawl's pages lack (sitescopemiss.go), looked at once the
	// check has compared and reported, in the time it leaves.
	// A check that failed past here says nothing of its crawl beside
	// its failure (noteMisses).
	noteMisses := true
	defer func() {
		if noteMisses {
			m.noteSiteScopeMisses(cctx, j, cur, grant)
		}
	}()
	if j.rec.Site, err = encodeSite(cur); err != nil {
		j.outcome = schedule.Failed
		m.Logger.Error("encode site snapshot", LogSentinel, j.s.ID, LogError, err)
		return
	}
	if unreadable != nil {
		// This crawl is the new reference, and the check fails, once,
		// lest the user never hear that what changed since the last
		// crawl was not compared: the next check compares with this
		// crawl. Kept as the previous crawl, the unreadable one would
		// fail every check. Its contacts are told now (failedOnce): the
		// run of failures ends at the next check. As a failed check, it says nothing else of
		// its crawl (noteMisses): the next check notes it.
		j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
		noteMisses = false
		j.outcome = schedule.Failed
		m.failedOnce(ctx, j, ps, site.URL, unreadableFailure(unreadable), now)
		m.Logger.Error("site check failed: site snapshot unreadable, this crawl the new reference", LogSentinel, j.s.ID, logURL(site.URL), LogError, unreadable)
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
	if err != nil && errors.Is(err, errReference) && j.s.UpdatedAt.After(prevAt) {
		// The reference can never be compared again, and the sentinel
		// was edited since it was recorded, as its failure asks
		// (compareFailure): this crawl is the new reference, as
		// crawled, nothing carried over from the crawl that cannot be
		// compared. Pausing, resuming and asking for a check now are
		// no edits (SetSentinelStatus leaves UpdatedAt): they never
		// replace it.
		m.Logger.Warn("site's last crawl cannot be compared, sentinel edited since: this crawl is the new reference", LogSentinel, j.s.ID, logURL(site.URL), "pages", len(c.record.Snapshot.Pages), LogError, err)
		cur = c.record
		if j.rec.Site, err = encodeSite(cur); err != nil {
			j.outcome = schedule.Failed
			m.Logger.Error("encode site snapshot", LogSentinel, j.s.ID, LogError, err)
			return
		}
		m.pageWorks(ctx, j, ps, site.URL, now)
		return
	}
	if err != nil {
		// Compared again at the next check, with this crawl: the change
		// would be lost if this crawl became the reference. Told as the
		// site's failure, as a change not recorded is, lest the user see
		// a site that works and never changes; and nothing else is said
		// of this crawl (noteMisses).
		j.rec.Site = nil
		j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
		noteMisses = false
		j.outcome = schedule.Failed
		if cctx.Err() != nil {
			m.siteTooLong(ctx, j, ps, limit, now)
			return
		}
		m.failedUnrecorded(ctx, j, ps, site.URL, compareFailure(err), now)
		m.Logger.Error("site check failed: crawls not compared", LogSentinel, j.s.ID, logURL(site.URL), LogError, err)
		return
	}
	if len(records) == 0 {
		m.pageWorks(ctx, j, ps, site.URL, now)
		return
	}
	rid, to, err := m.startVersion(ctx, cur)
	if err != nil {
		// Not recorded, and told as the site's failure: compared again at
		// the next check, with this crawl; nothing else is said of this
		// crawl (noteMisses).
		j.rec.Site = nil
		j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
		noteMisses = false
		j.outcome = schedule.Failed
		msg := "the change of the site cannot be recorded: " + err.Error()
		m.failedUnrecorded(ctx, j, ps, site.URL, msg, now)
		m.Logger.Error("site check failed: change not recorded", LogSentinel, j.s.ID, logURL(site.URL), LogError, err)
		return
	}
	m.pageWorks(ctx, j, ps, site.URL, now)
	j.outcome = schedule.Changed
	st := cur.Snapshot.Stats()
	m.reportSite(ctx, j, rid, to, records, carriedFailures(cur.Snapshot), st.NotFetched, now)
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

// siteQuery returns the crawl of a site sentinel's site: its pages
// fetched most important first (OPIC's Greedy order).
func siteQuery(site *spec.Site) crawl.Query {
	return crawl.Query{Start: site.URL, Scope: slices.Clone(site.Scope), Match: site.Match, MaxDepth: site.Depth, MaxPages: site.Pages, Order: crawl.OrderImportance}
}

// checkKey returns what a check's error of the plan's page is of
// (pageState.CheckErrorOf): the key of its site's crawl (siteKey), ""
// for a plan of pages.
func (p *plan) checkKey() string {
	if p.site == nil {
		return ""
	}
	return siteKey(siteQuery(p.site))
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
	m.failedUnrecorded(ctx, j, ps, j.plan.site.URL, msg, now)
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

// compareFailure is the failure of a site check whose crawl could not
// be compared with the previous one (compareSites' error): the previous
// crawl stays the reference, which the next check compares with again.
// One that fails of itself (errReference) fails every comparison, until
// the sentinel is edited: the failure says so, and that an edit saving
// the sentinel unchanged starts from a new reference (checkSite).
// The URLs in err are redacted (vigil.RedactURL) where it names them.
func compareFailure(err error) string {
	if errors.Is(err, errReference) {
		return "the site's crawl could not be compared with its last crawl, which stays the reference " +
			"until the sentinel is edited: " + err.Error() +
			"; edit the sentinel (saving it unchanged will do) to start from a new reference"
	}
	return "the site's crawl could not be compared with its last crawl, which stays the reference " +
		"(compared with again at the next check): " + err.Error()
}

// snapshotFailure is the failure of a site check whose previous crawl
// the store could not give (err, SiteSnapshot's): it stays the reference,
// read again at the next check.
func snapshotFailure(err error) string {
	return "the site's last crawl could not be read from the store, and stays the reference " +
		"(read again at the next check): " + vigil.RedactURLs(err.Error())
}

// unreadableFailure is the failure of a site check whose previous crawl
// the store gave but could not be read (err, decodeSite's): this crawl is
// the new reference, and what changed since the previous one is not
// reported. The next check compares with this crawl: the check fails
// once, rather than at every check, as keeping the previous crawl would.
func unreadableFailure(err error) string {
	return "the site's last crawl could not be read (" + vigil.RedactURLs(err.Error()) + "): this crawl is the new reference, " +
		"and what changed since the last crawl was not compared (the next check compares with this crawl)"
}

// notStoredFailure is the failure of a site check that read pages it
// could not store: how many, and why the first was not.
func notStoredFailure(failed int, first string) string {
	pages := "1 page"
	if failed != 1 {
		pages = fmt.Sprintf("%d pages", failed)
	}
	return pages + " of the site read but not stored, the first: " + first
}
