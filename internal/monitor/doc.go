// Package monitor is Vigil's pipeline from a due sentinel to a delivered
// notification: it claims due sentinels, fetches each watched URL once for
// all the sentinels that watch it, stores new versions, evaluates each
// change type once per (resource, reference version, change type), combines
// the results with the sentinels' AND / OR / NOT, writes change records and
// enqueues notifications in the same transaction as the sentinel's new
// state, and delivers the outbox (outbox.go). A message's link to its
// sentinel's feed is made again as it is delivered (feedlink.go): the
// owner may have replaced it while the message waited.
//
// Several pages: a sentinel "Using A OR B" reports a change on either page
// as it is found. With "Using A AND B" (spec.Checked.Requires) a change
// found on one page waits in the sentinel's state, widening with the page's
// later changes, until every page of one of the alternatives has one; then
// all of them are reported together (check.go: found and settle). A
// page's change from or to a file (it turned into a PDF or an image, its
// file changed, it turned back into a page: binarypage.go) takes the same
// path, and the same confirmation ("Confirm after") first.
//
// Crash safety: a check's results (the sentinel's new state, its changes,
// their notifications, its next check) are written in one transaction
// (vigil.CheckStore.RecordChecks). Versions are written before, through the
// warehouse; a sentinel remembers the last version it saw of each page, so
// a version stored by a check whose record was lost to a crash is compared
// at the next check, once. Claims of due sentinels and of outbox entries
// are leases: work a crash interrupted is taken up when they end. A clean
// stop gives back the sentinels it claimed and did not check
// (vigil.SentinelStore.ReleaseSentinels), which are due again at once.
//
// Empty answers: a page whose last good version has a body and that
// answers a check with an empty or white space body (a 200 with nothing)
// has failed that check (check.go: emptied): its failure is stored as
// any, the run of failures and its notice apply, and no change is
// reported, neither the page emptied nor its content back. A page empty
// from its first fetch has nothing to lose: its empty body is a version,
// and content that comes later is a change. A page of a site follows the
// same rule (sitefetch.go: sitePageEmptied): its empty answer is no
// version, the crawl takes it as the page's failure of the moment
// (vigil.EmptyBodyError), carried over from the previous crawl with its
// version there, and a start page answering so fails the site's check.
//
// Sites: a sentinel whose target is a site ("Using site URL", see
// spec.Checked.Site) is checked by crawling the site through the
// monitor's fetcher and comparing the crawl with the sentinel's previous
// one as WHOWEDA web tables (site.go). Each page read is stored in the
// warehouse as a version of its URL; the previous crawl is the store's
// site snapshot of the sentinel, replaced in the check's transaction
// (vigil.CheckRecord.Site). A change lists the pages added, deleted and
// modified (records of kind page); a modified page counts when the
// sentinel's Monitor clause finds its change, as for a page sentinel, or
// when the clause cannot compare its versions (one cannot be read), the
// note saying so (notComparedNote): left out, its change would be lost. A
// check of a site must end within its claim's lease, less a tenth: one cut
// there fails, as a failing start page does, and so does one whose crawl
// cannot be compared with the previous one (compareFailure), which stays
// the reference; a previous crawl that cannot be compared of itself
// (errReference: it reads, but no longer validates) stays it until the
// sentinel is edited (UpdatedAt; a pause, a resume or a check now is no
// edit), the failure saying so, and the first check after that edit takes its
// crawl as the new reference, reporting nothing. A previous crawl the
// store gives but that cannot be read (decodeSite) is replaced by the
// check's crawl, the check failing once to say that what changed since
// was not compared (unreadableFailure), and telling the contacts at
// once (failedOnce): that failure ends at the next check, before a run
// of failures is told. A start page that comes to
// redirect out of the directory the site was crawled in (no scope
// written) fails the check, the previous crawl staying the reference,
// but for a move to https alone (same host, each scheme's default port,
// same path), which is followed: the crawl carries on under https and
// the previous crawl, rekeyed to the https URLs, stays the reference, so
// that pages are matched across the move (siteredirect.go). A written
// scope follows such a move too (its prefixes on the start page's host
// taken in their https form); a start page that leads out of a written
// scope it took otherwise fails the check as one that leaves its
// directory does. A scope of the Monitor clause
// that matches nothing on any page of the crawl is noted once for the
// site, as a page sentinel's scope that matches nothing on its page is
// (sitescopemiss.go, scopemiss.go).
//
// Importance (importance.go): the monitor reads the pages it checks as
// the seed's crawler does in on-line page importance (Cobéna's thesis ch.
// 7, package opic): each check that reads a page is an OPIC read of it,
// its cash going to the watched pages it links to (its newest version's
// links) and the rest to the virtual page, and the page's estimate is
// stored on its resource and on its sentinels with the check
// (vigil.CheckRecord.Importance) the first time, then when it moved by
// importanceChange once its history spans a window. A
// version's links are read once, kept as hashes of their URLs and
// resolved in memory at each read, so that a page joining reads no body
// again; nothing is read from the store for the importance. The store claims due sentinels by how
// late they are plus their importance (vigil.ClaimPriority, the seed's
// refresh order of §8.3.2), so that when more are due than a batch takes,
// the important ones go first, and none is overtaken by a sentinel that
// fell due more than vigil.ImportanceLead after it. A site sentinel's
// check reads its start page into it, as a page's check reads its page,
// and the sentinel is claimed by that page's importance
// (siteimportance.go); the site's other pages are not read into it
// (their crawl's importance is a share of the site's, not of the watched
// pages').
//
// Sharing: sentinels due together on one URL share one fetch; sentinels
// comparing the same two versions share one intent.Pair, which computes
// each primitive change type once (the seed's change detection graph).
// Two versions read differently, one as markup and the other as its
// source text (a feed served malformed for one check), are compared as
// two texts: the markup one is read as its source too (Pair.OldSource,
// Pair.NewSource), so that a check that could not read the page as its
// type reports no link, image, table or list the page did not change,
// and the change of such a pair keeps, stored, how its versions were read
// (vigil.Change.Reading, pairEval.reading): which version is read as
// text, and why, and whether a scope, an ignore list or both could not be
// applied to the texts, naming which and why (read as HTML for them:
// intent.Result.ScopeNotApplied, SelectorsNotApplied), which the message
// about it says (vigil.ChangeReading.Note), sent when it is found or in a
// digest, built from the changes stored (which said nothing of it before
// the change kept it). Its webhook's tree delta compares the two texts too
// (pairEval.deltaJSON, vigil.MessageItem.DeltaReading), in a digest as
// told alone: a digest to a webhook gives each change the delta between
// its versions, read again (digestDeltas).
//
// The periods of a digest of Every n months end k×n months after the
// first began, in the owner's zone, each on the first one's day or the
// month's last (nextDigestDue, state.DigestFrom): Jan 31, Feb 28, Mar 31.
// They were 31 days long. Those of Every n days or weeks end k×n days
// after it, at its clock in the owner's zone across daylight saving:
// they were 24 hours long, and a daily digest at 09:00 came at 10:00 all
// summer. A period opened before the first's start was kept ends where
// it was set to, and the next ones count from its end.
// Sentinels watching one site query (start URL, scope, match, depth,
// pages, order) share its crawl (sitecrawl.go): a check waits for the
// crawl in flight (within its own lease) or takes one that ended less
// than Monitor.SiteFresh ago (the shortest interval by default) and
// began after its previous crawl ended; each sentinel still compares it
// with its own previous crawl, through its own Monitor clause.
//
// A check that panics (a bug in fetching, reading, comparing or telling)
// does not stop the daemon (group.go, Monitor.checkGroup): its sentinels
// are recorded as a failed check, "internal error", from their state as
// the check began, the panic is logged at Error level with its stack and
// counted (Monitor.Panicked), and the other checks go on; a delivery that
// panics is recorded as a failed delivery (Deliverer.deliverGuarded).
// A panic that the fetcher, the warehouse or a notifier recovered on a
// goroutine of its own comes back as the error (a *vigil.PanicError) of
// the fetch, the write or the delivery, which fails as any does, and is
// logged with its stack and counted; one in Run's own steps (the claim,
// the committer) is too, and Run goes on (panicked.go lists where).
package monitor
