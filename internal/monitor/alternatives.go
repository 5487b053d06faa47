package monitor

import (
	"context"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// This file handles sentinels on several pages: a change found on a page
// is reported at once when that page alone is enough ("Using A OR B"), and
// otherwise waits on the page's state until every page of one of the
// sentinel's alternatives has one ("Using A AND B", spec.Checked.Requires).

// found handles a change a sentinel's expression found on a page (and its
// confirmation, if asked for, confirmed): reported at once when a change on
// that page alone is enough, otherwise kept on the page's state until the
// other pages of one of the sentinel's alternatives ("Using A AND B") have
// changes too (see settle).
func (m *Monitor) found(ctx context.Context, j *job, pg *page, ref int64, pe *pairEval, res *intent.Result, now time.Time) {
	if j.plan.alone(pg.url) {
		m.report(ctx, j, pg, ref, pe, res, now)
		return
	}
	ps := j.st.Pages[pg.url]
	if ps.Pending == nil {
		ps.Pending = &pendingChange{Ref: ref, Resource: pg.resource}
	}
	ps.Pending.Cur = pg.cur.ID // a later change on the page widens the waiting one
	m.Logger.Info("change waits for the other pages", LogSentinel, j.s.ID, logURL(pg.url), LogVersion, pg.cur.ID)
}

// settle reports the waiting changes of every alternative of the sentinel
// whose pages all have one, each from the version its page had when its
// change was first found to the newest. A waiting change that the
// expression no longer finds over that span (the page went back) is
// dropped, and its alternative waits again. A page's change from or to a
// file (pageState.PendingFile: binarypage.go) waits and is judged so too
// (fileTurnIDs: a page that turned back into the page it was, or a file into
// the same file, has none), and is told in the same message as the other
// pages' changes, before its text's if both changed. Each page is told as
// it is at the message, by its net change since the last message: a
// page that is a file now (pageState.File) is told as a file (it turned
// into one, or its file changed), not by the change of a text it had in
// between and no longer has; that change waits until the page is a page
// again, and is then told from the text told before (the reference it
// was found from). A page back to the file it was told as has no change,
// as a page back to its text has none. A waiting change that cannot be
// judged (a store read fails) keeps its alternative waiting, to be judged
// again at the next check.
func (m *Monitor) settle(ctx context.Context, j *job, now time.Time, grant *memoryGrant) {
	if j.plan.requires == nil {
		for _, ps := range j.st.Pages {
			ps.Pending, ps.PendingFile = nil, nil // the sentinel no longer has an AND
		}
		return
	}
	for _, alt := range j.plan.requires {
		ready := true
		for _, url := range alt {
			if ps := j.st.Pages[url]; ps == nil || ps.PendingFile == nil && !ps.textWaits() {
				ready = false
				break
			}
		}
		if !ready {
			continue
		}
		var all []foundChange
		changed := 0    // the pages of alt whose waiting change holds
		failed := false // a waiting change could not be judged
		for _, url := range alt {
			ps := j.st.Pages[url]
			n := len(all)
			if p := ps.PendingFile; p != nil {
				ft, err := m.fileTurnIDs(ctx, p.Ref, p.Cur)
				switch {
				case err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND:
					// Try again at the next check.
					failed = true
					m.Logger.Error("judge a waiting change of a file", LogSentinel, j.s.ID, logURL(url), LogError, err)
				case err != nil || ft == nil:
					// The file went back, or a version is gone: nothing to
					// report.
					ps.PendingFile = nil
					m.Logger.Info("waiting change gone", LogSentinel, j.s.ID, logURL(url))
				default:
					all = append(all, fileFound(url, p.Resource, p.Ref, p.Cur, ft))
				}
			}
			if p := ps.Pending; p != nil && ps.textWaits() {
				pe := &pairEval{m: m, url: url, ref: p.Ref, cur: p.Cur, grant: grant}
				ok, res, err := m.evaluateErr(ctx, pe, j)
				switch {
				case err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND:
					// Try again at the next check.
					failed = true
					m.Logger.Error("evaluate a waiting change", LogSentinel, j.s.ID, logURL(url), LogError, err)
				case err != nil || !ok:
					// The page went back, or a version it was compared with
					// is gone (retention): nothing to report.
					ps.Pending = nil
					m.Logger.Info("waiting change gone", LogSentinel, j.s.ID, logURL(url))
				default:
					all = append(all, foundChange{pg: &page{url: url, resource: p.Resource, cur: &vigil.Version{ID: p.Cur}}, ref: p.Ref, pe: pe, res: res})
				}
			}
			if len(all) > n {
				changed++
			}
		}
		if failed || changed < len(alt) {
			// A page's other waiting change, if it holds, does not make
			// up for one not judged: the alternative waits, whole.
			continue
		}
		m.reportTogether(ctx, j, all, now) // one message for the alternative
		for _, url := range alt {
			ps := j.st.Pages[url]
			if ps.textWaits() {
				ps.Pending = nil
			}
			ps.PendingFile = nil // a file's text change waits for its page
		}
	}
}

// textWaits reports whether the page has a change of its text waiting
// (Pending) that is the page's as it is: the page is a page, not a file
// (File). The change of a text the page had before it turned into a file
// is not told while it is one (settle).
func (ps *pageState) textWaits() bool {
	return ps.Pending != nil && ps.File == 0
}
