package monitor

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/opic"
	"github.com/vigil-web/vigil/tree"
)

// importanceWindow is T, the window of the monitor's adaptive OPIC, in
// units of Z. A round of checks in which every watched page is read once
// collects about all the cash there is (1), some of it twice (paid to a
// page read later in the round), and the virtual page pays out its share:
// Z grows by about 1 to 2 a round, so the estimates follow the links of
// the last 4 to 8 rounds.
const importanceWindow = 8

// importanceStale is how long a page may go unread, after its last read
// or the next check of the sentinel that read it (whichever is later),
// before it leaves the OPIC state, its cash back to the virtual page: a
// page no sentinel watches any more would otherwise keep the virtual
// page's payouts and the cash of the pages linking to it, taking them out
// of the flow.
const importanceStale = 7 * 24 * time.Hour

// importanceChange is how much, relatively, a page's estimate must move
// from the importance stored on its resource to be stored again: an
// estimate moves a little with every read, and a check that stored each
// would write a row more than an unchanged check writes otherwise.
const importanceChange = 0.05

// importance is the monitor's on-line page importance (Cobéna's thesis
// ch. 7; package opic): adaptive OPIC with Interpolation history over the
// graph of the pages the monitor checks. A check that reads a page is an
// OPIC read: the page's cash goes a share α to the virtual page and the
// rest to the watched pages it links to, or all to the virtual page if it
// links to none, and its estimate H/T is stored on its resource (and on
// its sentinel, which the claims order by: vigil.ClaimPriority) the first
// time, then when it moved by importanceChange from what is stored, once
// the page's history spans a window (pageImportance).
//
// The link graph is not stored. Each page keeps the keys (pageKey) of the
// URLs its newest version read links to, read once a version (the body
// scanned for links, not parsed: linkKeys), and resolved against the
// pages of the state at each read, from memory: a page that joins is
// linked to by the pages that link to it from their next read on,
// without a body read again. The memory is about 100 bytes a page and 8
// a link of a list of links (linkList), which the pages that link alike
// share.
// The mutex guards maps and arithmetic only; bodies are read outside it.
//
// The state lives in the process. Only each page's estimate is stored: a
// page joining the state (a restart, a new sentinel) starts from the
// estimate stored on its sentinel, which the claim read (the largest of
// its pages'), the cash in flight being lost. Several workers on one
// store each keep a state of their own over the pages they check, each
// an estimate of the same importance; the store keeps the newest.
type importance struct {
	mu    sync.Mutex
	o     *opic.OPIC             // nil until the first page joins
	ids   map[uint64]opic.PageID // pages by key (pageKey)
	pages []rankedPage           // by opic.PageID
	to    []opic.PageID          // a read's links, reused
	swept time.Time              // when stale pages were last looked for
	lists linkLists              // the pages' link lists, shared
	// versions counts the versions whose links were read (linkKeys):
	// once a version, whatever joins.
	versions int
}

// rankedPage is what the state keeps of one page besides its OPIC state.
type rankedPage struct {
	key     uint64
	read    int64     // when it was last read, joined or claimed, or its next check if later (keep), in Unix seconds
	version int64     // the version whose links are known, 0 if none
	links   *linkList // the keys of the URLs that version links to, nil if none
	stored  float32   // the importance stored on its resource, as far as known
	// full is the Z from which the page's history spans a window (T after
	// it joined), 0 for a page that joined with a stored importance (its
	// history resumed from it): before, its estimate grows as its window
	// fills, and is stored only the first time (settled).
	full float32
}

// rankCandidate is a page a claimed sentinel watches, with the importance
// stored on the sentinel, from which the page joins the state.
type rankCandidate struct {
	url        string
	key        uint64 // pageKey of its canonical URL, 0 if it has none
	importance float64
}

// joinImportance makes the pages of watched part of the OPIC state, each
// starting from its stored importance; those already in it count as read
// now for the sweep, which would otherwise delete them before their read.
// A state that has none yet is created with them (opic.Resume: the cash spread as the importances
// are); later pages join with none, as pages a crawl discovers do
// (opic.OPIC.ResumeHistory). It reads nothing from the store.
func (m *Monitor) joinImportance(watched []rankCandidate, now time.Time) {
	r := &m.rank
	r.mu.Lock()
	defer r.mu.Unlock()
	var fresh []int // indexes into watched, a key once
	seen := map[uint64]bool{}
	for i, w := range watched {
		k := w.key
		if p, ok := r.ids[k]; ok {
			// Watched: not to be swept before its read in this batch,
			// however long since its last (a sentinel fetched every two
			// weeks, a monitor stopped for a week).
			r.pages[p].read = max(r.pages[p].read, now.Unix())
		} else if k != 0 && !seen[k] {
			seen[k] = true
			fresh = append(fresh, i)
		}
	}
	if len(fresh) == 0 {
		return
	}
	cfg := opic.Config{Alpha: opic.DefaultAlpha, History: opic.Interpolation{Window: importanceWindow}}
	if r.o == nil {
		// None has joined yet: the state starts with them, their cash
		// spread as their importances are (opic.Resume), rather than the
		// first to join taking it all.
		est := make([]float64, len(fresh))
		for i, w := range fresh {
			est[i] = clampImportance(watched[w].importance)
		}
		o, err := opic.Resume(est, cfg)
		if err != nil {
			m.Logger.Error("resume the importance", LogError, err)
			if o, err = opic.New(len(fresh), cfg); err != nil {
				panic(err) // a constant configuration
			}
		}
		r.o, r.ids = o, make(map[uint64]opic.PageID, len(fresh))
		for i, w := range fresh {
			r.ids[watched[w].key] = opic.PageID(i)
			r.pages = append(r.pages, rankedPage{key: watched[w].key, read: now.Unix(), stored: float32(est[i]), full: r.fullAt(est[i])})
		}
		return
	}
	for _, w := range fresh {
		p := r.o.AddPage()
		est := clampImportance(watched[w].importance)
		r.ids[watched[w].key] = p
		r.pages = append(r.pages, rankedPage{key: watched[w].key, read: now.Unix(), stored: float32(est), full: r.fullAt(est)})
		if err := r.o.ResumeHistory(p, est*importanceWindow); err != nil {
			m.Logger.Error("resume the importance", logURL(watched[w].url), LogError, err)
		}
	}
}

// fullAt returns the Z from which the history of a page joining now with
// the stored importance est spans a window: now for a page with one (its
// history resumed from it), T later for one without. The caller holds
// r.mu.
func (r *importance) fullAt(est float64) float32 {
	if est > 0 {
		return 0
	}
	return float32(r.o.Z() + importanceWindow)
}

// clampImportance returns x within [0, 1], 0 if it is not a number.
func clampImportance(x float64) float64 {
	if !(x >= 0) {
		return 0
	}
	return min(x, 1)
}

// pageImportance is what a read of a page in the OPIC state gives.
type pageImportance struct {
	est float64 // its estimate
	// store is whether est is to be stored (then it is taken as stored
	// from now on): the first, or one that moved by importanceChange from
	// the stored importance once the page's history spans a window.
	store bool
	// settled is whether its history spans a window: its estimate moves
	// with the links, no longer as the window fills.
	settled bool
}

// readImportance records a check's read of the page at url (pg, whose
// newest content version was read) in the OPIC state. It returns the
// page's importance, and false if there is none: the page is not in the
// state, or its version's links cannot be read now (the page is then not
// read, rather than read as if it had no links, and waits for its next
// check). The links of a version are read once.
func (m *Monitor) readImportance(ctx context.Context, url string, key uint64, pg *page, pairs map[[2]int64]*pairEval, grant *memoryGrant, now time.Time) (pageImportance, bool) {
	var none pageImportance
	if key == 0 {
		return none, false
	}
	r := &m.rank
	r.mu.Lock()
	p, ok := r.ids[key]
	var known int64
	if ok {
		known = r.pages[p].version
	}
	r.mu.Unlock()
	if !ok {
		return none, false
	}
	var links []uint64
	if known != pg.cur.ID {
		var err error
		if links, err = m.linkKeys(ctx, url, key, pg.cur, pairs, grant); err != nil {
			m.Logger.Error("read a version for its links", logURL(url), LogVersion, pg.cur.ID, LogError, err)
			return none, false
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if q, ok := r.ids[key]; !ok || q != p {
		return none, false // left the state meanwhile
	}
	rp := &r.pages[p]
	if known != pg.cur.ID {
		r.lists.release(rp.links)
		rp.version, rp.links = pg.cur.ID, r.lists.hold(links)
		r.versions++
	}
	r.to = r.to[:0]
	if rp.links != nil {
		for _, k := range rp.links.keys {
			if q, ok := r.ids[k]; ok {
				r.to = append(r.to, q)
			}
		}
	}
	if err := r.o.Read(p, r.to); err != nil {
		m.Logger.Error("read the importance", logURL(url), LogError, err)
		return none, false
	}
	rp.read = max(rp.read, now.Unix()) // not before another sentinel's next check (keep)
	imp := pageImportance{est: clampImportance(r.o.Estimate(p)), settled: r.o.Z() >= float64(rp.full)}
	if imp.store = movedImportance(float64(rp.stored), imp.est) && (imp.settled || rp.stored <= 0); imp.store {
		rp.stored = float32(imp.est)
	}
	r.sweep(now)
	return imp, true
}

// movedImportance reports whether an estimate est moved by
// importanceChange from stored, or is the first (stored is 0, est not).
func movedImportance(stored, est float64) bool {
	if stored <= 0 {
		return est > 0
	}
	return math.Abs(est-stored) > importanceChange*stored
}

// recordImportance sets the importance a check of j stores: the estimate
// of every page it read, the sentinel's becoming the largest (so that a
// sentinel on several pages is not set from some of them), if one is to
// be stored (pageImportance.store), or the sentinel has none yet, or the
// largest moved from the sentinel's and every page is settled; none else.
func recordImportance(j *job) {
	if len(j.imp) == 0 {
		return
	}
	largest := vigil.MaxImportance(j.imp)
	if j.impStore || j.s.Importance <= 0 && largest > 0 || j.impSettled && movedImportance(j.s.Importance, largest) {
		j.rec.Importance = j.imp
	}
}

// versionTree returns the tree of version id: the one a comparison of
// pairs parsed, else the body read now (storedTree, whose errors it
// returns: nil and no error for a body that does not parse, a page
// without links; an error if the body cannot be read now).
func (m *Monitor) versionTree(ctx context.Context, id int64, pairs map[[2]int64]*pairEval, grant *memoryGrant) (doc *tree.Document, asText bool, err error) {
	for _, pe := range pairs {
		if pe.cur == id && pe.new != nil {
			return pe.new, pe.pair != nil && pe.pair.NewReadAsText, nil
		}
	}
	doc, why, err := m.storedTree(ctx, id, grant)
	if err != nil || doc == nil {
		return nil, false, err
	}
	m.recordReadAsText(ctx, id, why)
	return doc, why != "", nil
}

// keep marks the pages of keys in the state, a checked sentinel's, as
// watched until next, its next check: the sweep deletes a page
// importanceStale after its last read or its sentinels' next check,
// whichever is later, so that a page fetched less often than that (every
// two weeks) stays between its reads, collecting the cash of the pages
// that link to it.
func (r *importance) keep(keys []uint64, next time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range keys {
		if p, ok := r.ids[k]; ok {
			r.pages[p].read = max(r.pages[p].read, next.Unix())
		}
	}
}

// sweep deletes from the state, at most once an hour, the pages not read
// for importanceStale, nor due to be (keep). The caller holds r.mu.
func (r *importance) sweep(now time.Time) {
	if now.Sub(r.swept) < time.Hour {
		return
	}
	r.swept = now
	old := now.Add(-importanceStale).Unix()
	for k, p := range r.ids {
		if r.pages[p].read < old && r.o.Delete(p) == nil {
			delete(r.ids, k)
			r.lists.release(r.pages[p].links)
			r.pages[p] = rankedPage{}
		}
	}
}
