package monitor

import (
	"context"
	"fmt"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/schedule"
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
// Such a change takes the path of a change of the page's text: confirmed
// first if the sentinel asks for it ("Confirm after"), then, with "Using
// A AND B", kept until the other pages have changes too, and told with
// theirs in one message (fileSeen, foundFile, settle). The file's version is no base of
// comparison (pageState.File): the page that comes back is compared with
// the page before the file, for every Monitor clause, so that what did
// not change across the file is not reported. When it comes back as
// another page, the change of its text is told with its turning back:
// at the same check, or, confirmed, at the same confirmation
// (pendingConfirm.Text), and with "Using A AND B" in the same message.
// That message tells each page as it is when it is sent, by its net change
// since the last message (settle): a page that is a file then is told as
// a file, the change of a text it had in between waiting until it is a
// page again; a page back to the file it was told as has no change.

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
	v, serr := m.putFailure(ctx, pg.resource, pg.url, head, res.Status, res.ContentType, binaryWhy(err, res), res.Duration, now)
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
// with each other, not with it), and, if the sentinel saw another version
// before and monitors any change, finds that the page changed (fileSeen).
func (m *Monitor) binarySeen(ctx context.Context, j *job, ps *pageState, pg *page, now time.Time) {
	m.pageWorks(ctx, j, ps, pg.url, now)
	ps.ScopeMisses, ps.MissesOf = nil, ""
	v, prev := pg.binary, ps.File
	if prev == 0 {
		prev = ps.last()
	}
	if v.ID != prev {
		j.outcome = schedule.Changed
	}
	if prev == 0 || !isAnyChange(j.plan.expr) {
		ps.File = v.ID
		return
	}
	if m.fileSeen(ctx, j, ps, pg, prev, v, now) {
		ps.File = v.ID
	}
}

// fileTurnedBack records a sentinel's sighting of its page answering a
// page again, pg.cur, where it answered the file ps.File, and, for a
// sentinel that monitors any change, finds that the file turned back into
// a page (fileSeen). Whether the page changed since before the file is
// for the comparison of its texts that follows, as for any other version
// (its change confirmed with the turning back: pendingConfirm.Text): a
// sentinel of another Monitor clause, told nothing when the page turned
// into a file, is told nothing of the file either.
func (m *Monitor) fileTurnedBack(ctx context.Context, j *job, ps *pageState, pg *page, now time.Time) {
	file := ps.File
	j.outcome = schedule.Changed
	if !isAnyChange(j.plan.expr) || m.fileSeen(ctx, j, ps, pg, file, pg.cur, now) {
		ps.File = 0
	}
}

// fileSeen handles a sighting of sentinel j's page pg, whose version was
// from and is to (pg.binary or pg.cur), one of them a file's (binary, or the version of the
// page it turned back into), for a sentinel that monitors any change, as
// a change of the page's text is handled (checkPage): a change waiting
// for its confirmation ("Confirm after") is confirmed at its time if the
// page still turned (confirmFile); a change found is confirmed first, if
// the sentinel asks for it, and then reported at once when the page
// alone is enough, or waits for the other pages of "Using A AND B"
// (foundFile, settle). It returns false when the sighting is to be
// looked at again (another change's confirmation waits): the caller then
// keeps the page's File as it was.
func (m *Monitor) fileSeen(ctx context.Context, j *job, ps *pageState, pg *page, from int64, to *vigil.Version, now time.Time) bool {
	if c := j.st.Confirm; c != nil && c.URL == pg.url && !c.File && pg.binary != nil && !now.Before(c.At) {
		// A change of the page's text, due for its confirmation, and the
		// page a file: not confirmed (found again, from the same
		// reference, if the page comes back with that text).
		j.st.Confirm = nil
		m.Logger.Info("change not confirmed", LogSentinel, j.s.ID, logURL(pg.url))
	}
	if c := j.st.Confirm; c != nil && c.URL == pg.url && c.File {
		m.confirmFile(ctx, j, ps, pg, c, to, now)
		return true
	}
	if from == to.ID {
		return true
	}
	ft, err := m.fileTurn(ctx, from, to)
	if err != nil {
		m.Logger.Error("compare a file's versions", LogSentinel, j.s.ID, logURL(pg.url), LogError, err)
		return true
	}
	if ft == nil {
		return true
	}
	if j.plan.confirm > 0 {
		if c := j.st.Confirm; c != nil {
			// Another change is being confirmed (one at a time): this
			// one is looked at again after that confirmation.
			m.Logger.Info("change to confirm after another page's", LogSentinel, j.s.ID, logURL(pg.url))
			return false
		}
		j.st.Confirm = &pendingConfirm{URL: pg.url, Ref: from, Cand: to.ID, At: now.Add(j.plan.confirm), File: true}
		m.Logger.Info("change to confirm", LogSentinel, j.s.ID, logURL(pg.url), "at", j.st.Confirm.At)
		return true
	}
	m.foundFile(ctx, j, ps, pg, from, to.ID, ft, now)
	return true
}

// confirmFile handles a sighting of sentinel j's page pg at version to
// (pg.binary or pg.cur) while c, a change of the page from or to a file (pendingConfirm.File),
// waits for its confirmation: before its time, nothing (checked early,
// by another event); at its time, the change is confirmed if the page
// still turned, from the version before it (c.Ref) to to, and found
// (foundFile), and dropped otherwise.
func (m *Monitor) confirmFile(ctx context.Context, j *job, ps *pageState, pg *page, c *pendingConfirm, to *vigil.Version, now time.Time) {
	if now.Before(c.At) {
		return // checked early (another event): wait for the confirmation time
	}
	j.st.Confirm = nil
	ft, err := m.fileTurn(ctx, c.Ref, to)
	switch {
	case err != nil:
		m.Logger.Error("confirm a file's change", LogSentinel, j.s.ID, logURL(pg.url), LogError, err)
	case ft == nil:
		m.Logger.Info("change not confirmed", LogSentinel, j.s.ID, logURL(pg.url))
	default:
		m.foundFile(ctx, j, ps, pg, c.Ref, to.ID, ft, now)
	}
}

// fileChange is what a page's change from or to a file is, as its message
// says it.
type fileChange struct {
	summary string
	// detail, if not "", says more in its message: why the file is not
	// read, its size and digest.
	detail string
}

// fileTurn returns the change of a page from version from (read from the
// store) to version to, which the caller holds, one of them (at least) a
// file's: fileTurnOf.
func (m *Monitor) fileTurn(ctx context.Context, from int64, to *vigil.Version) (*fileChange, error) {
	if from == to.ID {
		return nil, nil
	}
	a, err := m.Store.FindVersionByID(ctx, from)
	if err != nil {
		return nil, fmt.Errorf("version %d: %w", from, err)
	}
	return fileTurnOf(a, to), nil
}

// fileTurnIDs is fileTurn of a page from version from to version to,
// both read from the store (a change that waits holds their ids alone:
// pendingChange).
func (m *Monitor) fileTurnIDs(ctx context.Context, from, to int64) (*fileChange, error) {
	if from == to {
		return nil, nil
	}
	a, err := m.Store.FindVersionByID(ctx, from)
	if err != nil {
		return nil, fmt.Errorf("version %d: %w", from, err)
	}
	b, err := m.Store.FindVersionByID(ctx, to)
	if err != nil {
		return nil, fmt.Errorf("version %d: %w", to, err)
	}
	return fileTurnOf(a, b), nil
}

// fileTurnOf returns the change of a page from version a to version b,
// one of them (at least) a file's (vigil.Version.Binary): that the page
// turned into a file, that its file changed, or that it turned back into
// a page; nil when there is none (the same file, or a page at both ends:
// the comparison of its texts says whether it changed).
func fileTurnOf(a, b *vigil.Version) *fileChange {
	switch {
	case a.Binary() && b.Binary():
		if a.Error == b.Error { // the same document (its size and digest), stored again
			return nil
		}
		return &fileChange{summary: "the file changed (" + b.BinaryFile() + ")", detail: b.Error}
	case b.Binary():
		return &fileChange{summary: "the page turned into a file Vigil does not read (" + b.BinaryFile() + ")", detail: b.Error}
	case a.Binary():
		return &fileChange{summary: "the file turned back into a page"}
	}
	return nil
}

// fileFound is the change ft of the page at url (its resource) from
// version from to version to, as reportTogether tells it.
func fileFound(url string, resource, from, to int64, ft *fileChange) foundChange {
	return foundChange{pg: &page{url: url, resource: resource, cur: &vigil.Version{ID: to}}, ref: from, file: ft}
}

// foundFile handles a change of sentinel j's page pg from version from to
// version to that ft says (fileTurn), confirmed if the sentinel asks for
// it, as found handles a change of a page's text: told at once when the
// page alone is enough (in the message a change of its text would have,
// reportTogether), otherwise kept on the page's state (PendingFile)
// until the other pages of one of the sentinel's alternatives ("Using A
// AND B") have changes too, and told with theirs (settle).
func (m *Monitor) foundFile(ctx context.Context, j *job, ps *pageState, pg *page, from, to int64, ft *fileChange, now time.Time) {
	if j.plan.alone(pg.url) {
		m.reportTogether(ctx, j, []foundChange{fileFound(pg.url, pg.resource, from, to, ft)}, now)
		return
	}
	if ps.PendingFile == nil {
		ps.PendingFile = &pendingChange{Ref: from, Resource: pg.resource}
	}
	ps.PendingFile.Cur = to // a later change of the file widens the waiting one
	m.Logger.Info("change waits for the other pages", LogSentinel, j.s.ID, logURL(pg.url), LogVersion, to)
}
