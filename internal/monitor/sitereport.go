package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/spec"
)

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
