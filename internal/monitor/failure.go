package monitor

import (
	"context"
	"fmt"
	"html"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// pageFailing records a failed fetch of a sentinel's page and, once the
// page has failed for FailureNotice, tells the sentinel's contacts, once
// for the run of failures: a page that is gone for good, or a site that
// refuses the monitor, would otherwise show only on the dashboard. The
// notice, and the log, name the page with its password hidden
// (vigil.RedactURL); the log says the owner was told once the notice is
// stored (toldLog).
func (m *Monitor) pageFailing(ctx context.Context, j *job, ps *pageState, url, why string, now time.Time) {
	// The page's newest version tells this failure (failedUnrecorded
	// says one that none tells).
	ps.CheckError, ps.CheckErrorOf = "", ""
	if ps.FailingSince.IsZero() {
		ps.FailingSince = now
	}
	if ps.FailureSent || m.FailureNotice < 0 || now.Sub(ps.FailingSince) < m.FailureNotice || !j.plan.notifies() {
		return
	}
	ps.FailureSent = true
	since := messageTime(ps.FailingSince, j.location())
	url = vigil.RedactURL(url) // the notice names the page, never its password
	msg := &vigil.Message{SentinelID: j.s.ID, SentinelName: j.s.Name, URL: url, Changes: []*vigil.MessageItem{},
		Subject: subjectLine(j.s.Name, subjectEntry{page: url, what: " fails since " + since}),
		Failure: &vigil.PageFailure{URL: url, Since: ps.FailingSince.UTC(), Error: why}}
	msg.Text = fmt.Sprintf("Sentinel %s cannot read %s: every check since %s failed.\nThe last error: %s\n\n"+
		"Vigil keeps checking it and will say when it works again.\n", j.s.Name, url, since, why)
	msg.HTML = fmt.Sprintf("<p>Sentinel <b>%s</b> cannot read <a href=\"%s\">%s</a>: every check since %s failed.</p>\n"+
		"<p>The last error: %s</p>\n<p>Vigil keeps checking it and will say when it works again.</p>\n",
		html.EscapeString(j.s.Name), html.EscapeString(url), html.EscapeString(url), since, html.EscapeString(why))
	m.addLinks(ctx, j, msg)
	m.holdTold(j.rec, "page failing, owner told", LogSentinel, j.s.ID, logURL(url), "since", ps.FailingSince)
	m.enqueue(j, msg, -1, now)
}

// failedUnrecorded records a failure of j's check of the page url that no
// version of the page tells (a site's check cut at its claim's lease, a
// site's change that could not be recorded, a check that panicked): the
// run of failures, as pageFailing keeps it, and why, as the page's last
// error (pageState.CheckError), which the dashboard, the API and vigil
// sentinel list show as they show a failed fetch's. Without it, such a
// sentinel failed at every check with no error shown anywhere but the
// log, its page's newest version a good one.
func (m *Monitor) failedUnrecorded(ctx context.Context, j *job, ps *pageState, url, why string, now time.Time) {
	m.pageFailing(ctx, j, ps, url, why, now)
	ps.CheckError, ps.CheckErrorOf = why, j.plan.checkKey()
}

// failedOnce records a failure of j's check of the page url as
// failedUnrecorded does, for a failure that ends with this check (a site
// whose last crawl could not be read, its crawl the new reference): the
// next check works, ending the run of failures before FailureNotice, so
// the sentinel's contacts are told of it now, once, unless failure
// notices are off (FailureNotice negative). The run stays untold
// (FailureSent), so the next check says nothing of it working again.
// A failure that may pass (a fetch, a store busy) waits for
// FailureNotice instead (pageFailing).
func (m *Monitor) failedOnce(ctx context.Context, j *job, ps *pageState, url, why string, now time.Time) {
	told := ps.FailureSent
	m.failedUnrecorded(ctx, j, ps, url, why, now)
	if !told && ps.FailureSent {
		return // the run's notice, sent now, says why
	}
	if m.FailureNotice < 0 || !j.plan.notifies() {
		return
	}
	at := messageTime(now, j.location())
	url = vigil.RedactURL(url) // the notice names the page, never its password
	msg := &vigil.Message{SentinelID: j.s.ID, SentinelName: j.s.Name, URL: url, Changes: []*vigil.MessageItem{},
		Subject: subjectLine(j.s.Name, subjectEntry{page: url, what: " check failed at " + at}),
		Failure: &vigil.PageFailure{URL: url, Since: now.UTC(), Error: why}}
	msg.Text = fmt.Sprintf("Sentinel %s failed to check %s at %s.\nThe error: %s\n\n"+
		"Vigil goes on checking it; nothing needs doing.\n", j.s.Name, url, at, why)
	msg.HTML = fmt.Sprintf("<p>Sentinel <b>%s</b> failed to check <a href=\"%s\">%s</a> at %s.</p>\n"+
		"<p>The error: %s</p>\n<p>Vigil goes on checking it; nothing needs doing.</p>\n",
		html.EscapeString(j.s.Name), html.EscapeString(url), html.EscapeString(url), at, html.EscapeString(why))
	m.addLinks(ctx, j, msg)
	m.holdTold(j.rec, "check failed once, owner told", LogSentinel, j.s.ID, logURL(url))
	m.enqueue(j, msg, -1, now)
}

// pageWorks records a good fetch of a sentinel's page: it ends a run of
// failures, and if its contacts were told of that run, tells them it is
// over.
func (m *Monitor) pageWorks(ctx context.Context, j *job, ps *pageState, url string, now time.Time) {
	ps.CheckError, ps.CheckErrorOf = "", ""
	if ps.FailingSince.IsZero() {
		return
	}
	since, sent := ps.FailingSince, ps.FailureSent
	ps.FailingSince, ps.FailureSent = time.Time{}, false
	if !sent || !j.plan.notifies() {
		return
	}
	url = vigil.RedactURL(url) // the notice names the page, never its password
	msg := &vigil.Message{SentinelID: j.s.ID, SentinelName: j.s.Name, URL: url, Changes: []*vigil.MessageItem{},
		Subject: subjectLine(j.s.Name, subjectEntry{page: url, what: " works again"}),
		Failure: &vigil.PageFailure{URL: url, Since: since.UTC(), Recovered: true}}
	at := messageTime(since, j.location())
	msg.Text = fmt.Sprintf("Sentinel %s reads %s again, after failing since %s.\n", j.s.Name, url, at)
	msg.HTML = fmt.Sprintf("<p>Sentinel <b>%s</b> reads <a href=\"%s\">%s</a> again, after failing since %s.</p>\n",
		html.EscapeString(j.s.Name), html.EscapeString(url), html.EscapeString(url), at)
	m.addLinks(ctx, j, msg)
	m.holdTold(j.rec, "page works again, owner told", LogSentinel, j.s.ID, logURL(url))
	m.enqueue(j, msg, -1, now)
}

// lifespanEnded tells a sentinel's contacts that its lifespan is over, once,
// as it ends: it is checked no more, and a sentinel written without a To
// clause ends at the default lifespan's end (spec.Checker.DefaultLifespan),
// which its owner may not know of. Ended silently, it looked like a page
// that no longer changes.
func (m *Monitor) lifespanEnded(ctx context.Context, j *job, now time.Time) {
	if !j.plan.notifies() {
		return
	}
	at := messageTime(j.st.Status.Ended, j.location())
	msg := &vigil.Message{SentinelID: j.s.ID, SentinelName: j.s.Name, Changes: []*vigil.MessageItem{},
		Subject: subjectLine(j.s.Name, subjectEntry{what: "ended, checked no more"}), Ended: j.st.Status.Ended.UTC()}
	const why = "its lifespan is over (the To clause, or, without one, a year after its start)"
	msg.Text = fmt.Sprintf("Sentinel %s ended at %s: %s. Vigil checks its pages no more.\n"+
		"To watch on, edit it with a later To.\n", j.s.Name, at, why)
	msg.HTML = fmt.Sprintf("<p>Sentinel <b>%s</b> ended at %s: %s. Vigil checks its pages no more.</p>\n"+
		"<p>To watch on, edit it with a later To.</p>\n", html.EscapeString(j.s.Name), at, html.EscapeString(why))
	m.addLinks(ctx, j, msg)
	m.holdTold(j.rec, "sentinel ended, owner told", LogSentinel, j.s.ID)
	m.enqueue(j, msg, -1, now)
}

// notifies reports whether a sentinel's contacts get messages: not an
// interactive one, which is read on the dashboard and in its feed.
func (p *plan) notifies() bool { return p.mode != spec.Interactive && len(p.contacts) > 0 }

// addLinks ends a message with the links to its sentinel on the dashboard
// and to its feed, as a change's message ends (linksFooter).
func (m *Monitor) addLinks(ctx context.Context, j *job, msg *vigil.Message) {
	text, markup, feed := m.linksFooter(ctx, j, "See %s on the dashboard")
	msg.Text += text
	msg.HTML += markup
	msg.FeedLink = feed
}
