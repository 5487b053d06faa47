package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// A watched page that answers a binary document (a PDF, an image, a body
// of a type that is not text), whose body is not kept, is stored as the
// version saying so, as a site's crawl stores its binary leaves: its
// status, its content type and, as its error, why it is not read with the
// document's size and digest (crawl.BinaryDigest, which leaves out what a
// generator changes at every run). The page has not failed: no run of
// failures, no failure notice. The same document answered again is that
// version; another is a new one, and a sentinel that monitors any change
// (no other Monitor clause reads a body not kept) is told that the page
// changed: that it turned into a file, or that its file changed, and,
// when it answers a page again, that the file turned back into a page.
// Such a change is reported alone, neither waiting for the other pages of
// "Using A AND B" nor confirmed. The file's version is no base of
// comparison (pageState.File): the page that comes back is compared with
// the page before the file, for every Monitor clause, so that what did
// not change across the file is not reported.

// digestBinary is the page sentinel's vigil.FetchRequest.DigestBinary.
func digestBinary(mediaType string, body []byte) string {
	digest, _ := crawl.BinaryDigest(mediaType, body)
	return digest
}

// binaryWhy is the error of the version of a binary document that res
// answered, err its fetch's: why it is not read, with its size and digest,
// so that another document is another version (vigil.BinaryVersionError).
func binaryWhy(err error, res *vigil.FetchResult) string {
	return vigil.BinaryVersionError(err.Error(), res.BinarySize, res.BinaryDigest)
}

// storeBinary stores the binary document res answered (err its fetch's
// error) as the newest version of pg's page, whose newest version was
// head, unless head says so already, and returns pg with it. The caller
// holds the page's lock.
func (m *Monitor) storeBinary(ctx context.Context, pg *page, head *vigil.Version, res *vigil.FetchResult, err error, now time.Time) *page {
	v, serr := m.putFailure(ctx, pg.resource, pg.url, head, res.Status, res.ContentType, binaryWhy(err, res), now)
	if serr != nil {
		pg.err = "store version: " + serr.Error()
		m.Logger.Error("store version", logURL(pg.url), LogError, serr)
		return pg
	}
	pg.binary, pg.resource = v, v.ResourceID
	return pg
}

// binarySeen records a sentinel's sighting of its page answering the
// binary document pg.binary (as the page's File: its texts are compared
// with each other, not with it), and reports it changed if the sentinel
// saw another version before and monitors any change.
func (m *Monitor) binarySeen(ctx context.Context, j *job, ps *pageState, pg *page, now time.Time) {
	m.pageWorks(ctx, j, ps, pg.url, now)
	ps.ScopeMisses, ps.MissesOf = nil, ""
	v, prev, wasFile := pg.binary, ps.File, ps.File != 0
	if !wasFile {
		prev = ps.last()
	}
	if v.ID == prev {
		return
	}
	j.outcome = schedule.Changed
	ps.File = v.ID
	if prev == 0 || !isAnyChange(j.plan.expr) {
		return
	}
	summary := "the page turned into a file Vigil does not read (" + v.BinaryFile() + ")"
	if wasFile {
		summary = "the file changed (" + v.BinaryFile() + ")"
	}
	m.tellFileTurn(ctx, j, pg, prev, v.ID, summary, v.Error, now)
}

// fileTurnedBack records a sentinel's sighting of its page answering a
// page again, pg.cur, where it answered the file ps.File, and tells a
// sentinel that monitors any change that the file turned back into a
// page. Whether the page changed since before the file is for the
// comparison of its texts that follows, as for any other version: a
// sentinel of another Monitor clause, told nothing when the page turned
// into a file, is told nothing of the file either.
func (m *Monitor) fileTurnedBack(ctx context.Context, j *job, ps *pageState, pg *page, now time.Time) {
	file := ps.File
	ps.File = 0
	j.outcome = schedule.Changed
	if !isAnyChange(j.plan.expr) {
		return
	}
	m.tellFileTurn(ctx, j, pg, file, pg.cur.ID, "the file turned back into a page", "", now)
}

// tellFileTurn records the change of sentinel j's page pg, from version
// from to version to, that the page turned into a file, its file changed
// or it turned back into a page, as summary says (detail, if not "",
// saying more in its message), and, for the immediate and best-effort
// modes, its notifications. No records: a file's version has no body.
func (m *Monitor) tellFileTurn(ctx context.Context, j *job, pg *page, from, to int64, summary, detail string, now time.Time) {
	c := &vigil.Change{SentinelID: j.s.ID, ResourceID: pg.resource, FromVersion: from, ToVersion: to,
		DetectedAt: now, Summary: summary, Records: json.RawMessage("[]")}
	index := len(j.rec.Changes)
	j.rec.Changes = append(j.rec.Changes, c)
	m.Logger.Info("change detected", LogSentinel, j.s.ID, logURL(pg.url), LogVersion, to, "summary", summary)
	if j.plan.mode != spec.Immediate && j.plan.mode != spec.BestEffort {
		return
	}
	url := vigil.RedactURL(pg.url)
	msg := &vigil.Message{SentinelID: j.s.ID, SentinelName: j.s.Name, URL: url,
		Subject: "[Vigil] " + j.s.Name + ": " + summary, Changes: []*vigil.MessageItem{{Change: c}}}
	msg.Text = fmt.Sprintf("Sentinel %s: %s: %s.\n", j.s.Name, url, summary)
	msg.HTML = fmt.Sprintf("<p>Sentinel <b>%s</b>: <a href=\"%s\">%s</a>: %s.</p>\n",
		html.EscapeString(j.s.Name), html.EscapeString(url), html.EscapeString(url), html.EscapeString(summary))
	if detail != "" {
		msg.Text += detail + "\n"
		msg.HTML += "<p>" + html.EscapeString(detail) + "</p>\n"
	}
	m.addLinks(ctx, j, msg)
	due := now
	if j.plan.mode == spec.BestEffort {
		due = now.Add(m.BestEffortDelay)
	}
	m.enqueue(j, msg, index, due)
}
