package monitor

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
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

// importanceStale is how long a page may go unread before it leaves the
// OPIC state, its cash back to the virtual page: a page no sentinel
// watches any more would otherwise keep the virtual page's payouts and
// the cash of the pages linking to it, taking them out of the flow.
const importanceStale = 7 * 24 * time.Hour

// importance is the monitor's on-line page importance (Cobéna's thesis
// ch. 7; package opic): adaptive OPIC with Interpolation history over the
// graph of the pages the monitor checks. A check that reads a page is an
// OPIC read: the page's cash goes a share α to the virtual page and the
// rest to the watched pages it links to, or all to the virtual page if it
// links to none, and its estimate H/T is stored on its resource (and on
// its sentinel, which the claims order by: vigil.ClaimPriority). The link
// graph is not stored: each page's links are read from its newest
// version, once a version.
//
// The state lives in the process. Only each page's estimate is stored: a
// page joining the state (a restart, a new sentinel) starts from the
// estimate stored on its resource, the cash in flight being lost. Several workers on one store each keep a state of their own over
// the pages they check, each an estimate of the same importance; the
// store keeps the newest.
type importance struct {
	mu    sync.Mutex
	o     *opic.OPIC             // nil until the first page joins
	ids   map[string]opic.PageID // pages by canonical URL
	read  []time.Time            // when each page was last read or joined
	gen   int                    // grows when pages join: the links known are resolved again
	links map[string]pageLinks   // the watched pages each page links to, by canonical URL
	swept time.Time              // when stale pages were last looked for
}

// pageLinks are the pages a version of a page links to, resolved at a
// generation of the state.
type pageLinks struct {
	version int64
	gen     int
	to      []opic.PageID
}

// maxPageLinks bounds the pages whose links are kept; past it, they are
// all forgotten and read again from their versions.
const maxPageLinks = 1 << 14

// joinImportance makes the pages of urls pages of the OPIC state, each
// starting from the importance stored on its resource. A state that has
// none yet is created with them (opic.Resume: the cash spread as the
// importances are); later pages join with none, as pages a crawl
// discovers do (opic.OPIC.ResumeHistory).
func (m *Monitor) joinImportance(ctx context.Context, urls []string, now time.Time) {
	r := &m.rank
	var fresh []string
	r.mu.Lock()
	for _, u := range urls {
		if key, err := vigil.CanonicalURL(u); err == nil && !slices.Contains(fresh, key) {
			if _, ok := r.ids[key]; !ok {
				fresh = append(fresh, key)
			}
		}
	}
	r.mu.Unlock()
	if len(fresh) == 0 {
		return
	}
	stored := make([]float64, len(fresh))
	for i, u := range fresh {
		res, err := m.Store.FindResourceByURL(ctx, u)
		if err == nil {
			stored[i] = res.Importance
			m.rememberResource(u, res.ID)
		} else if vigil.ErrorCode(err) != vigil.ENOTFOUND {
			m.Logger.Error("read the stored importance", LogURL, u, LogError, err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	cfg := opic.Config{Alpha: opic.DefaultAlpha, History: opic.Interpolation{Window: importanceWindow}}
	if r.o == nil {
		// None has joined yet, so every page of fresh is new: the state
		// starts with them, their cash spread as their importances are
		// (opic.Resume), rather than the first to join taking it all.
		o, err := opic.Resume(stored, cfg)
		if err != nil {
			m.Logger.Error("resume the importance", LogError, err)
			if o, err = opic.New(len(fresh), cfg); err != nil {
				panic(err) // a constant configuration
			}
		}
		r.o, r.ids, r.links = o, map[string]opic.PageID{}, map[string]pageLinks{}
		for i, u := range fresh {
			r.ids[u] = opic.PageID(i)
			r.read = append(r.read, now)
		}
	}
	for i, u := range fresh {
		if _, ok := r.ids[u]; ok {
			continue // joined above, or meanwhile
		}
		p := r.o.AddPage()
		r.ids[u] = p
		r.read = append(r.read, now)
		if err := r.o.ResumeHistory(p, stored[i]*importanceWindow); err != nil {
			m.Logger.Error("resume the importance", LogURL, u, LogError, err)
		}
	}
	r.gen++
}

// readImportance records a check's read of the page at url (pg, whose
// newest content version was read) in the OPIC state and returns the
// page's estimate, false if there is none. The page's links are those of
// its version: known from a read of the same version, taken from the
// tree a comparison of this check parsed (pairs), or parsed now.
func (m *Monitor) readImportance(ctx context.Context, url string, pg *page, pairs map[[2]int64]*pairEval, grant *memoryGrant, now time.Time) (float64, bool) {
	key, err := vigil.CanonicalURL(url)
	if err != nil {
		return 0, false
	}
	m.joinImportance(ctx, []string{key}, now)
	r := &m.rank
	r.mu.Lock()
	p, ok := r.ids[key]
	known, cached := r.links[key]
	gen := r.gen
	r.mu.Unlock()
	if !ok {
		return 0, false // left the state meanwhile (stale)
	}
	need := !cached || known.version != pg.cur.ID || known.gen != gen
	var doc *tree.Document
	if need {
		if doc, err = m.versionTree(ctx, pg.cur.ID, pairs, grant); err != nil {
			// Its links are not known now: the page is not read, rather
			// than read as if it had none, and waits for its next check.
			m.Logger.Error("read a version for its links", LogURL, url, LogVersion, pg.cur.ID, LogError, err)
			return 0, false
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if q, ok := r.ids[key]; !ok || q != p {
		return 0, false // left the state meanwhile
	}
	links := known.to
	if need {
		// Resolved at gen: if pages joined meanwhile, the next read
		// resolves them again. A version that cannot be read has no
		// links, and is not read again for them.
		links = r.resolve(key, warehouse.ExtractLinks(doc, url))
		if len(r.links) >= maxPageLinks {
			r.links = map[string]pageLinks{}
		}
		r.links[key] = pageLinks{version: pg.cur.ID, gen: gen, to: links}
	}
	if err := r.o.Read(p, links); err != nil {
		m.Logger.Error("read the importance", LogURL, url, LogError, err)
		return 0, false
	}
	r.read[p] = now
	est := min(max(r.o.Estimate(p), 0), 1)
	r.sweep(now)
	return est, true
}

// versionTree returns the tree of version id: the one a comparison of
// pairs parsed, else the body read now; nil if the body does not parse
// (larger than the parsers take: a page without links). It returns an
// error if the body cannot be read now.
func (m *Monitor) versionTree(ctx context.Context, id int64, pairs map[[2]int64]*pairEval, grant *memoryGrant) (*tree.Document, error) {
	for _, pe := range pairs {
		if pe.cur == id && pe.new != nil {
			return pe.new, nil
		}
	}
	b, err := m.body(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := grant.add(ctx, int64(len(b.data))); err != nil {
		return nil, err
	}
	doc, why, err := m.document(b, id)
	if err != nil {
		return nil, nil // not read, ever: a page without links
	}
	m.recordReadAsText(ctx, id, why)
	return doc, nil
}

// resolve returns the pages of the state that links from the page key
// lead to, each once, the page itself left out: a page votes once for
// another (as opic.NewGraph has it). The caller holds r.mu.
func (r *importance) resolve(key string, links []*vigil.Link) []opic.PageID {
	var to []opic.PageID
	for _, l := range links {
		t, err := vigil.CanonicalURL(l.Target) // without its fragment
		if err != nil || t == key {
			continue
		}
		if p, ok := r.ids[t]; ok {
			to = append(to, p)
		}
	}
	slices.Sort(to)
	return slices.Compact(to)
}

// sweep deletes from the state, at most once an hour, the pages not read
// for importanceStale. The caller holds r.mu.
func (r *importance) sweep(now time.Time) {
	if now.Sub(r.swept) < time.Hour {
		return
	}
	r.swept = now
	for u, p := range r.ids {
		if now.Sub(r.read[p]) > importanceStale && r.o.Delete(p) == nil {
			delete(r.ids, u)
			delete(r.links, u)
		}
	}
}
