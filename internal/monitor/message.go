package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
)

// maxPagesNamed bounds the pages a message's first line names (listPages):
// a site may have hundreds that changed, which its body lists.
const maxPagesNamed = 10

// maxListed bounds the changes listed in one message.
const maxListed = 50

// report writes the change a sentinel found and, for the immediate and
// best-effort modes, its notifications (digests are gathered by digest;
// interactive sentinels are read on the dashboard and in feeds).
func (m *Monitor) report(ctx context.Context, j *job, pg *page, ref int64, pe *pairEval, res *intent.Result, now time.Time) {
	m.reportTogether(ctx, j, []foundChange{{pg: pg, ref: ref, pe: pe, res: res}}, now)
}

// foundChange is a change a sentinel found on one page.
type foundChange struct {
	pg  *page
	ref int64
	pe  *pairEval
	res *intent.Result
	// file, when not nil, is the change: the page turned into a file, its
	// file changed or it turned back into a page (fileTurn); pe and res
	// are nil then.
	file *fileChange
}

// reportTogether writes the changes found on several pages at once (the
// pages of one alternative of "Using A AND B"), or one, and notifies them
// in one message. It is the one path of every change found at a check,
// of a page's text or from or to a file, so that a change reads the same
// told alone or with others.
func (m *Monitor) reportTogether(ctx context.Context, j *job, found []foundChange, now time.Time) {
	var items []*vigil.MessageItem
	var lists [][]intent.Change
	var summaries, pages, details []string
	first := len(j.rec.Changes)
	for _, f := range found {
		var c *vigil.Change
		var changes []intent.Change
		detail := ""
		if f.file != nil {
			// No records, nor delta: a file's version has no body.
			c = &vigil.Change{SentinelID: j.s.ID, ResourceID: f.pg.resource, FromVersion: f.ref, ToVersion: f.pg.cur.ID,
				DetectedAt: now, Summary: f.file.summary, Records: json.RawMessage("[]")}
			j.rec.Changes = append(j.rec.Changes, c)
			m.Logger.Info("change detected", LogSentinel, j.s.ID, logURL(f.pg.url), LogVersion, f.pg.cur.ID, "summary", c.Summary)
			detail = f.file.detail
		} else {
			c, changes = m.record(j, f.pg, f.ref, f.res, f.pe.reading(f.res), now)
		}
		item := &vigil.MessageItem{Change: c}
		if j.plan.wantsDelta() && f.pe != nil { // only webhooks carry the tree delta
			item.Delta, item.DeltaReading = f.pe.deltaJSON(ctx)
		}
		items, lists, summaries = append(items, item), append(lists, changes), append(summaries, c.Summary)
		pages, details = append(pages, f.pg.url), append(details, detail)
	}
	if len(found) == 0 || j.plan.mode != spec.Immediate && j.plan.mode != spec.BestEffort {
		return
	}
	entries := make([]subjectEntry, len(summaries))
	names := pageNames(pages) // several pages: which page each entry is of
	for i, s := range summaries {
		entries[i] = subjectEntry{what: s}
		if names != nil {
			entries[i] = subjectEntry{page: names[i], what: ": " + s}
		}
	}
	msg := &vigil.Message{SentinelID: j.s.ID, SentinelName: j.s.Name, URL: found[0].pg.url,
		Subject: subjectLine(j.s.Name, entries...), Changes: items}
	msg.Text, msg.HTML, msg.FeedLink = m.render(ctx, j, items, lists, pages, details)
	due := now
	if j.plan.mode == spec.BestEffort {
		due = now.Add(m.BestEffortDelay)
	}
	m.enqueue(j, msg, first, due)
}

// record adds a change found on a page to the check's record, with how
// its versions were read (reading, nil when alike), and returns it with
// the typed changes it lists.
func (m *Monitor) record(j *job, pg *page, ref int64, res *intent.Result, reading *vigil.ChangeReading, now time.Time) (*vigil.Change, []intent.Change) {
	changes := res.AllChanges()
	records, err := json.Marshal(changes)
	if err != nil {
		records = nil
	}
	if len(changes) == 0 {
		records = json.RawMessage("[]")
	}
	summary := summarize(j.plan, res, changes)
	c := &vigil.Change{SentinelID: j.s.ID, ResourceID: pg.resource, FromVersion: ref, ToVersion: pg.cur.ID,
		DetectedAt: now, Summary: summary, Records: records, Reading: reading}
	j.rec.Changes = append(j.rec.Changes, c)
	m.Logger.Info("change detected", LogSentinel, j.s.ID, logURL(pg.url), LogVersion, pg.cur.ID, "summary", summary)
	return c, changes
}

// enqueue adds one notification per contact of the sentinel.
func (m *Monitor) enqueue(j *job, msg *vigil.Message, changeIndex int, due time.Time) {
	payload, err := json.Marshal(boundRecords(msg))
	if err != nil {
		m.Logger.Error("encode message", LogSentinel, j.s.ID, LogError, err)
		return
	}
	for _, c := range j.plan.contacts {
		ch := c.Kind.Channel()
		if ch == "" {
			continue
		}
		j.rec.Notifications = append(j.rec.Notifications, &vigil.Notification{UserID: j.s.OwnerID, Channel: ch,
			Target: c.Address, Payload: payload, NextAttempt: due})
		j.rec.ChangeIndex = append(j.rec.ChangeIndex, changeIndex)
	}
}

// digest runs the "Every <interval>" mode: at the end of each period, one
// message gathers every change stored in the period. The changes of the
// check that ends a period are stored with it and belong to the next one:
// in this one they would have no id yet, and the next period, which starts
// at this instant, would gather them again. The period moves on in the
// same transaction as the notifications, so a restart neither repeats nor
// drops a digest. A sentinel that leaves the mode (edited to another, or
// at the end of its lifespan) gets the digest of its open period at once.
func (m *Monitor) digest(ctx context.Context, j *job, now time.Time) {
	st := j.st
	if j.plan.mode != spec.Periodic {
		// Closed once sent: a store that cannot be read now is read
		// again at the next check.
		if !st.DigestDue.IsZero() && m.sendDigest(ctx, j, now) {
			st.DigestSince, st.DigestDue, st.DigestFrom = time.Time{}, time.Time{}, time.Time{}
		}
		return
	}
	if st.DigestDue.IsZero() {
		st.DigestSince, st.DigestDue, st.DigestFrom = now, now.Add(j.plan.every), time.Time{}
		if iv := j.plan.calendar; !iv.IsZero() {
			st.DigestFrom = now
			st.DigestDue = iv.AddIn(now, j.location())
		}
		return
	}
	if now.Before(st.DigestDue) {
		return
	}
	if !m.sendDigest(ctx, j, now) {
		return // tried again at the next check
	}
	st.DigestDue, st.DigestFrom = nextDigestDue(st.DigestDue, st.DigestFrom, j.plan, now, j.location())
}

// nextDigestDue returns the end of the digest period open at now, the
// first after due, the end of the last, and the start of the first
// period it counts from. A fixed period (of seconds, minutes or hours)
// adds every to due. Every n days, weeks or months counts k×n of them
// from the first period's start, from, in loc: Every 1 month from Jan 31
// ends on Feb 28, Mar 31, Apr 30, where months added to the last end
// stayed on the 28th, and Every 1 day from 09:00 ends at 09:00 across
// daylight saving, where 24 hours added moved it to 10:00 all summer. A
// state with no start (one saved before it was kept, or by a fixed
// period since edited to a calendar one) counts from due: the period
// already open ends where it was set to.
func nextDigestDue(due, from time.Time, p *plan, now time.Time, loc *time.Location) (next, first time.Time) {
	iv := p.calendar
	if iv.IsZero() {
		for !due.After(now) {
			due = due.Add(p.every)
		}
		return due, time.Time{}
	}
	if from.IsZero() || from.After(due) {
		from = due
	}
	// Skip the periods that end before now in one step (a sentinel
	// paused for years), then step to the first after it.
	k := calendarSpan(iv.Unit, from.In(loc), now.In(loc)) / iv.N
	k = max(k-1, 1)
	for range 4 {
		next = spec.Duration{N: k * iv.N, Unit: iv.Unit}.AddIn(from, loc)
		if next.After(now) && next.After(due) {
			return next, from
		}
		k++
	}
	// More than what time.Time, or a calendar offset, counts (a start
	// tens of thousands of years before now): a period from now on, its
	// start now.
	return iv.AddIn(now, loc), now
}

// calendarSpan returns how many months, weeks or days (unit) lie between
// the dates of from and to, each in its own zone, counting the dates on
// the calendar alone (not the clock): a lower bound, to a unit or so, of
// how many of them added to from reach to.
func calendarSpan(unit spec.Unit, from, to time.Time) int64 {
	fy, fm, fd := from.Date()
	ty, tm, td := to.Date()
	if unit == spec.Month {
		return (int64(ty)*12 + int64(tm)) - (int64(fy)*12 + int64(fm))
	}
	// Days between the dates, counted on UTC's calendar, where every day
	// has 24 hours.
	days := int64(time.Date(ty, tm, td, 0, 0, 0, 0, time.UTC).Sub(time.Date(fy, fm, fd, 0, 0, 0, 0, time.UTC)) / (24 * time.Hour))
	if unit == spec.Week {
		return days / 7
	}
	return days
}

// endDigest sends the digest of the open period of a sentinel whose
// lifespan ended: no check will end the period. It reports false if the
// store could not be read: the period stays open, and the sentinel, not
// due for decades, is brought back soon to try again.
func (m *Monitor) endDigest(ctx context.Context, j *job, now time.Time) bool {
	if j.st.DigestDue.IsZero() {
		return true
	}
	if m.sendDigest(ctx, j, now) {
		j.st.DigestSince, j.st.DigestDue, j.st.DigestFrom = time.Time{}, time.Time{}, time.Time{}
		j.rec.State = j.st.encode()
		return true
	}
	j.rec.NextCheck = now.Add(m.PendingPoll)
	return false
}

// sendDigest enqueues the digest of the changes stored since the period
// began, if there are any, and starts the next period at now. It reports
// false if the changes could not be read.
func (m *Monitor) sendDigest(ctx context.Context, j *job, now time.Time) bool {
	st := j.st
	all, _, err := m.Store.FindChanges(ctx, vigil.ChangeFilter{SentinelID: j.s.ID, Since: st.DigestSince, Until: now})
	if err != nil {
		m.Logger.Error("digest: find changes", LogSentinel, j.s.ID, LogError, err)
		return false
	}
	sort.Slice(all, func(a, b int) bool { return all[a].DetectedAt.Before(all[b].DetectedAt) })
	since := st.DigestSince
	// The next period starts at this instant, to the microsecond that
	// PostgreSQL keeps: the changes of this check are stored at it.
	st.DigestSince = now.Truncate(time.Microsecond)
	if len(all) == 0 {
		return true
	}
	items := make([]*vigil.MessageItem, len(all))
	lists := make([][]intent.Change, len(all))
	for i, c := range all {
		items[i] = &vigil.MessageItem{Change: c}
		json.Unmarshal(c.Records, &lists[i])
	}
	pages := m.changePages(ctx, j, all)
	m.digestDeltas(ctx, j, items, pages)
	changes := "changes"
	if len(all) == 1 {
		changes = "change"
	}
	msg := &vigil.Message{SentinelID: j.s.ID, SentinelName: j.s.Name, URL: j.plan.urls[0], Digest: true, Since: since, Until: now,
		Subject: subjectLine(j.s.Name, subjectEntry{what: fmt.Sprintf("%d %s since %s", len(all), changes, messageTime(since, j.location()))}),
		Changes: items}
	msg.Text, msg.HTML, msg.FeedLink = m.render(ctx, j, items, lists, pages, nil)
	m.enqueue(j, msg, -1, now)
	return true
}

// maxDigestDeltas bounds the bytes of the tree deltas one digest carries,
// each of them bounded as a message's (pairEval.deltaJSON): a digest of a
// page that changed at each of a day's checks stays a message a receiver
// takes. The changes past it carry none, as a delta past its own bound.
const maxDigestDeltas = 4 << 20

// maxDigestDeltaCount bounds the number of changes of one digest given a
// delta: each is a comparison of two versions read again, and a digest due
// alone is built in the claim loop (sendDigestOnly), before the checks of
// its batch start, which it must not hold up for a day of changes of a
// large page. The changes past it carry none, as past maxDigestDeltas.
const maxDigestDeltaCount = 16

// digestDeltas gives the items of a digest of job j's sentinel the tree
// deltas between their changes' versions, as a webhook of each change
// alone carries it (reportTogether, pairEval.deltaJSON), when the sentinel
// notifies a webhook (plan.wantsDelta): their versions read from the
// cache of recent bodies or the store, within the memory budget. pages
// are the changes' pages (changePages), nil if not known. A site's
// changes, and a change of or to a file, carry none, as they do told
// alone; nor does one whose versions cannot be read now.
func (m *Monitor) digestDeltas(ctx context.Context, j *job, items []*vigil.MessageItem, pages []string) {
	if !j.plan.wantsDelta() || j.plan.site != nil {
		return
	}
	grant := &memoryGrant{b: &m.budget}
	defer grant.done()
	total := 0
	for i, it := range items {
		if i == maxDigestDeltaCount {
			break
		}
		url := ""
		if i < len(pages) {
			url = pages[i]
		}
		it.Delta, it.DeltaReading = m.changeDelta(ctx, it.Change, url, grant)
		grant.done() // the pair's comparison is over
		if total += len(it.Delta); total > maxDigestDeltas {
			it.Delta, it.DeltaReading = nil, ""
			break
		}
	}
}

// changeDelta returns the tree delta of a stored change c of the page url
// and how it reads the versions (pairEval.deltaJSON), or nil if either
// version is a file's or a failed fetch's (no page to compare) or cannot
// be read.
func (m *Monitor) changeDelta(ctx context.Context, c *vigil.Change, url string, grant *memoryGrant) ([]byte, string) {
	if c.FromVersion == 0 || c.ToVersion == 0 {
		return nil, ""
	}
	for _, id := range []int64{c.FromVersion, c.ToVersion} {
		b, err := m.body(ctx, id)
		if err != nil || b.version == nil || b.version.Binary() || b.version.Failed() {
			return nil, ""
		}
	}
	pe := &pairEval{m: m, url: url, ref: c.FromVersion, cur: c.ToVersion, grant: grant}
	return pe.deltaJSON(ctx)
}

// changePages returns the URL of the page of each of the changes of a
// digest of job j's sentinel, so that it names them as a message telling
// them at once does; nil for a site's sentinel (its message names the
// site) or if a page's resource cannot be read (the digest then names the
// sentinel's pages, not each change's). The resources of the sentinel's
// pages that the monitor knows (knownPages) are not read again.
func (m *Monitor) changePages(ctx context.Context, j *job, changes []*vigil.Change) []string {
	if j.plan.site != nil {
		return nil
	}
	urls := m.knownPages(j.plan)
	pages := make([]string, len(changes))
	for i, c := range changes {
		u, ok := urls[c.ResourceID]
		if !ok {
			r, err := m.Store.FindResourceByID(ctx, c.ResourceID)
			if err != nil {
				m.Logger.Error("digest: find a change's page", LogSentinel, j.s.ID, LogError, err)
				return nil
			}
			u, urls[c.ResourceID] = r.URL, r.URL
		}
		pages[i] = u
	}
	return pages
}

// knownPages returns, by resource id, the URLs of the resources of plan
// p's pages whose ids the monitor keeps (resource), as the store has
// them: a resource is stored under its URL's vigil.CanonicalURL, as it is
// found by it (vigil.ResourceStore), and the id kept for a URL is of the
// URL's resource or of none.
func (m *Monitor) knownPages(p *plan) map[int64]string {
	urls := make(map[int64]string, len(p.urls))
	m.resMu.Lock()
	defer m.resMu.Unlock()
	for _, u := range p.urls {
		id := m.resources[u]
		if id == 0 {
			continue
		}
		if canon, err := vigil.CanonicalURL(u); err == nil {
			urls[id] = canon
		}
	}
	return urls
}

// summarize returns the one-line summary of a change: the expression that
// matched, by its label (spec.Label: cut if long), and the records counted
// by kind and operation, in words ("list {news}: 2 list items added, 1
// list item removed").
func summarize(p *plan, res *intent.Result, changes []intent.Change) string {
	expr := spec.Label(p.expr)
	if len(changes) == 0 {
		return expr
	}
	return expr + ": " + intent.Count(changes)
}

// render returns the text and HTML bodies of a message: each change's
// records, inserted text marked + and <ins>, deleted text - and <del>,
// and after them how the versions of its change were read, if they were
// read differently (vigil.ChangeReading.Note, of the change found now or
// stored: a digest's too); and the feed link they end with
// (Message.FeedLink), if any.
func (m *Monitor) render(ctx context.Context, j *job, items []*vigil.MessageItem, lists [][]intent.Change, pages, details []string) (string, string, string) {
	var t, h strings.Builder
	changed := changedPages(j.plan, pages, lists)
	names, links := make([]string, len(changed)), make([]string, len(changed))
	for i, u := range changed {
		names[i] = vigil.RedactURL(u) // a page found by crawling may hold one
		links[i] = pageLink(names[i])
	}
	if j.plan.site != nil {
		site, on, onHTML := vigil.RedactURL(j.plan.site.URL), "", ""
		if len(changed) > 0 {
			on, onHTML = ": "+listPages(names), ": "+listPages(links)
		}
		fmt.Fprintf(&t, "Sentinel %s found changes on the site %s%s\n", j.s.Name, site, on)
		fmt.Fprintf(&h, "<p>Sentinel <b>%s</b> found changes on the site %s%s</p>\n", html.EscapeString(j.s.Name), pageLink(site), onHTML)
	} else {
		fmt.Fprintf(&t, "Sentinel %s found changes on %s\n", j.s.Name, listPages(names))
		fmt.Fprintf(&h, "<p>Sentinel <b>%s</b> found changes on %s</p>\n", html.EscapeString(j.s.Name), listPages(links))
	}
	for i, it := range items {
		on := ""
		if len(changed) > 1 && i < len(pages) {
			on = " on " + vigil.RedactURL(pages[i]) // which page, when several changed together
		}
		at := messageTime(it.Change.DetectedAt, j.location())
		fmt.Fprintf(&t, "\n%s%s (%s)\n", it.Change.Summary, on, at)
		fmt.Fprintf(&h, "<h3>%s%s <small>%s</small></h3>\n", html.EscapeString(it.Change.Summary), html.EscapeString(on), at)
		list := lists[i]
		if len(list) > 0 { // a file's change lists no records: no empty list
			h.WriteString("<ul>\n")
		}
		for k, c := range list {
			if k == maxListed {
				fmt.Fprintf(&t, "  ... and %d more\n", len(list)-maxListed)
				fmt.Fprintf(&h, "<li>... and %d more</li>\n", len(list)-maxListed)
				break
			}
			fmt.Fprintf(&t, "  %s\n", c.Line())
			fmt.Fprintf(&h, "<li>%s</li>\n", c.LineHTML())
		}
		if len(list) > 0 {
			h.WriteString("</ul>\n")
		}
		if i < len(details) && details[i] != "" { // a file's: why it is not read
			fmt.Fprintf(&t, "%s\n", details[i])
			fmt.Fprintf(&h, "<p>%s</p>\n", html.EscapeString(details[i]))
		}
		if note := it.Change.Reading.Note(); note != "" {
			fmt.Fprintf(&t, "%s\n", note)
			fmt.Fprintf(&h, "<p>%s</p>\n", html.EscapeString(note))
		}
	}
	text, markup, feed := m.linksFooter(ctx, j, "See the changes of %s on the dashboard")
	t.WriteString(text)
	h.WriteString(markup)
	return t.String(), h.String(), feed
}

// linksFooter returns the end of a message about job j's sentinel, as text
// and as HTML: the links to its page on the dashboard (its HTML label
// dashboardLabel, a format of the sentinel's name) and to its feed
// (links); "" for both when the monitor makes neither. It returns the
// feed's link too, "" if none, for Message.FeedLink.
func (m *Monitor) linksFooter(ctx context.Context, j *job, dashboardLabel string) (text, markup, feed string) {
	dashboard, feed := m.links(ctx, j)
	if dashboard == "" && feed == "" {
		return "", "", ""
	}
	text = "\n"
	var links []string
	if dashboard != "" {
		text += "On the dashboard: " + dashboard + "\n"
		links = append(links, fmt.Sprintf("<a href=\"%s\">"+dashboardLabel+"</a>", html.EscapeString(dashboard), html.EscapeString(j.s.Name)))
	}
	if feed != "" {
		text += feedLine(j.s.Name, feed)
		links = append(links, feedAnchor(j.s.Name, feed))
	}
	return text, fmt.Sprintf("<p>%s</p>\n", strings.Join(links, footerSeparator)), feed
}

// links returns the link of a job's sentinel page on the dashboard and
// that of its feed, each empty if the monitor has no way to make it. The
// feed's link is the sentinel's as it is now: its owner may have replaced
// it (revoking the claimed copy's) while the check ran. The message goes
// to the contacts the sentinel was claimed with, though; if the feed was
// replaced and one of them is no longer a contact (an edit removed it,
// then the feed was replaced to revoke what it knew), the message has no
// feed link: the new one is not for that contact, and the old one is
// revoked.
func (m *Monitor) links(ctx context.Context, j *job) (dashboard, feed string) {
	s := j.s
	if m.DashboardLink != nil {
		dashboard = m.DashboardLink(s.ID)
	}
	if m.MessageLink == nil {
		return dashboard, ""
	}
	if m.Store != nil {
		if cur, err := m.Store.FindSentinelByID(ctx, s.ID); err == nil {
			if cur.FeedGeneration != s.FeedGeneration && !stillContacts(j.plan, cur) {
				return dashboard, ""
			}
			s = cur
		}
	}
	return dashboard, m.MessageLink(s)
}

// stillContacts reports whether every contact of p, the plan a check was
// claimed with, is a contact of cur, the sentinel as stored now.
func stillContacts(p *plan, cur *vigil.Sentinel) bool {
	if p == nil {
		return false
	}
	now, err := decodePlan(cur)
	if err != nil {
		return false
	}
	for _, c := range p.contacts {
		if !slices.ContainsFunc(now.contacts, func(d *spec.Contact) bool { return d.Kind == c.Kind && d.Address == c.Address }) {
			return false
		}
	}
	return true
}
