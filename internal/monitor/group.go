package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
)

// internalError is the error of a check that panicked, as the version of
// its page stored for it says it (what the dashboard shows as the
// sentinel's last error): the panic itself, which may name anything the
// check held, goes to the log alone.
const internalError = "internal error"

// begun is a job as it was when its check began: its state (lifespan
// evaluated, pages followed), its record and its extra wake-up. A check
// that panics is recorded from it (failPanicked), so that nothing the
// check did before the panic is kept.
type begun struct {
	state  json.RawMessage
	rec    vigil.CheckRecord
	nextAt time.Time
}

// checkGroup runs the checks of one group of checkBatch (key): the
// sentinels sharing a page, or a site's sentinel, and hands each one's
// record to sink, or abandons them (see checkBatch) if ctx ends.
//
// A check that panics is recovered here, and only here: a bug in one
// sentinel's check (its page's fetch, parse or comparison, its message)
// must not stop the daemon, which would stop the monitoring of every
// user, and, its claims retried after the restart, crash again and
// again. The panic stays loud: it is logged at Error level with its
// stack and the sentinels and pages it struck, and counted
// (Monitor.Panicked); the sentinels whose check it cut short are
// recorded as failed (failPanicked), as a check whose fetch failed is,
// and are checked again at the policy's time after a failure. A panic in
// the pages' part (checkPage, checkSite) fails every sentinel of the
// group, which shares what it fetched; one in a sentinel's own part
// (settle, digest) fails that sentinel alone.
func (m *Monitor) checkGroup(ctx context.Context, key string, site bool, jobs []*job, now time.Time, sink func(*vigil.CheckRecord), abandon func([]int64)) {
	grant := &memoryGrant{b: &m.budget}
	defer grant.done()
	starts := make([]begun, len(jobs))
	for i, j := range jobs {
		starts[i] = begun{state: j.st.encode(), rec: *j.rec, nextAt: j.nextAt}
	}
	if !m.guard(ctx, jobs, starts, true, sink, abandon, func() {
		if site {
			for _, j := range jobs {
				m.checkSite(ctx, j, now, grant)
				grant.done()
			}
			return
		}
		render := strings.HasPrefix(key, "render:")
		for _, url := range strings.Split(strings.TrimPrefix(key, "render:"), "\x00") {
			m.checkPage(ctx, url, render, jobs, now, grant)
			grant.done() // the page's comparisons are over
		}
	}) {
		return
	}
	if ctx.Err() != nil {
		if abandon != nil {
			abandon(jobIDs(jobs))
		}
		return // shutting down: the lease hands these checks to the next run
	}
	for i, j := range jobs {
		// Every page of the group is checked: report what waited for the
		// others, then the digest of the period.
		if m.guard(ctx, jobs[i:i+1], starts[i:i+1], false, sink, abandon, func() {
			m.settle(ctx, j, now, grant)
			grant.done()
			m.digest(ctx, j, now)
			m.finish(j, now)
		}) {
			sink(j.rec)
		}
	}
}

// guard runs check, the part of the checks of jobs (begun as starts)
// that may panic, and reports whether it returned. If it panicked, the
// panic is logged and counted, the jobs are recorded as failed checks
// (failPanicked) and handed to sink, or abandoned if ctx ended, and
// guard returns false; if pages (check fetched and read the jobs'
// pages), each page's history gets the failure too (storePanicked): a
// panic in one sentinel's own part (its lifespan, what it reports) leaves
// the pages, which other sentinels read, as they were fetched.
func (m *Monitor) guard(ctx context.Context, jobs []*job, starts []begun, pages bool, sink func(*vigil.CheckRecord), abandon func([]int64), check func()) (ok bool) {
	defer func() {
		if ok {
			return
		}
		r := recover()
		if r == nil {
			// runtime.Goexit, not a panic: the goroutine ends, and the
			// jobs are given back, lest they stay in flight, unchecked,
			// until the daemon stops.
			if abandon != nil {
				abandon(jobIDs(jobs))
			}
			return
		}
		stack := debug.Stack()
		var urls []string
		for _, j := range jobs {
			for _, u := range j.plan.urls {
				if !slices.Contains(urls, u) {
					urls = append(urls, u)
				}
			}
		}
		redacted := make([]string, len(urls))
		for i, u := range urls {
			redacted[i] = vigil.RedactURL(u)
		}
		m.Logger.Error("check panicked", "sentinels", jobIDs(jobs), slog.Any("urls", redacted),
			"panic", vigil.RedactURLs(fmt.Sprint(r)), "stack", string(stack))
		if m.Panicked != nil {
			m.Panicked(PanicCheck)
		}
		if ctx.Err() != nil && abandon != nil {
			abandon(jobIDs(jobs))
			return
		}
		if pages {
			for _, u := range urls {
				m.storePanicked(ctx, u, starts[0].rec.CheckedAt)
			}
		}
		for i, j := range jobs {
			sink(m.failPanicked(ctx, j, starts[i]))
		}
	}()
	check()
	return true
}

// storePanicked stores the failure of url in a check that panicked, as a
// failed fetch is stored (storeFailure): the page's history, the
// dashboard and the API say its check failed with an internal error.
// The version is the page's, not the sentinel's: another sentinel of the
// page whose check panicked with it sees it too, until its next check
// reads the page again, as after any failed fetch. A panic in one
// sentinel's own part stores none (guard).
func (m *Monitor) storePanicked(ctx context.Context, url string, now time.Time) {
	defer func() {
		if r := recover(); r != nil {
			m.Logger.Error("store the failure of a check that panicked: panicked", logURL(url), "panic", vigil.RedactURLs(fmt.Sprint(r)), "stack", string(debug.Stack()))
		}
	}()
	rid, err := m.resource(ctx, url)
	if err != nil {
		m.Logger.Error("store the failure of a check that panicked", logURL(url), LogError, err)
		return
	}
	head, err := m.head(ctx, rid)
	if err != nil {
		m.Logger.Error("store the failure of a check that panicked", logURL(url), LogError, err)
		return
	}
	m.storeFailure(ctx, rid, url, head, 0, internalError, 0, now)
}

// failPanicked returns the record of j's check, which panicked, as a
// failed check's: made from the job as it began (start), so that nothing
// the check did before the panic (pages seen, changes and messages, a
// confirmation taken, a site crawled) is kept, with each of its pages
// failing (pageFailing: its owner is told once it has failed long
// enough) and its next check the policy's after a failure. If building
// that record panics too, the sentinel keeps its state as it began, and
// is checked again in an hour.
func (m *Monitor) failPanicked(ctx context.Context, j *job, start begun) *vigil.CheckRecord {
	m.told.take(j.rec) // its lines go with its notices
	var tried *vigil.CheckRecord
	rec := func(notice bool) (rec *vigil.CheckRecord) {
		defer func() {
			if r := recover(); r != nil {
				m.told.take(tried)
				m.Logger.Error("record a check that panicked: panicked", LogSentinel, j.s.ID, "notice", notice,
					"panic", vigil.RedactURLs(fmt.Sprint(r)), "stack", string(debug.Stack()))
				rec = nil
			}
		}()
		f := &job{s: j.s, plan: j.plan, zone: j.zone, st: decodeState(start.state), nextAt: start.nextAt, outcome: schedule.Failed}
		r := start.rec
		f.rec, tried = &r, &r
		for _, u := range j.plan.urls {
			ps := f.st.Pages[u]
			if ps == nil {
				ps = &pageState{}
				f.st.Pages[u] = ps
			}
			// As a failed fetch's: what the page lacked is looked at again
			// once it is read.
			ps.ScopeMisses, ps.MissesOf = nil, ""
			if !notice && ps.FailingSince.IsZero() {
				ps.FailingSince = f.rec.CheckedAt
			}
			if notice {
				m.failedUnrecorded(ctx, f, ps, u, internalError, f.rec.CheckedAt)
			}
		}
		m.finish(f, f.rec.CheckedAt)
		return f.rec
	}
	if r := rec(true); r != nil {
		return r
	}
	if r := rec(false); r != nil {
		return r
	}
	r := start.rec
	r.State = start.state
	r.NextCheck = r.CheckedAt.Add(time.Hour)
	return &r
}

// jobIDs returns the ids of the sentinels of jobs.
func jobIDs(jobs []*job) []int64 {
	ids := make([]int64, len(jobs))
	for i, j := range jobs {
		ids[i] = j.s.ID
	}
	return ids
}
