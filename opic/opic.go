package opic

import (
	"errors"
	"fmt"
	"math"
)

// PageID is the index of a page in an OPIC state, a graph or a scheduler.
// The crawler keeps the URL to PageID map; the library never sees URLs.
type PageID uint32

// Errors a caller may branch on.
var (
	// ErrNoPage is returned for a page id that was never added.
	ErrNoPage = errors.New("no such page")
	// ErrDeleted is returned for a page that was deleted or merged away.
	ErrDeleted = errors.New("page deleted")
)

// DefaultAlpha is the share α of a page's cash sent to the virtual page
// when the page is read. With α = 0.15 the ranking OPIC converges to is
// PageRank with damping 0.85.
const DefaultAlpha = 0.15

// Config sets up an OPIC state. The zero Config is the seed's Fig. 7.1
// (α = 0, cumulative history).
type Config struct {
	// Alpha is the share of a page's cash that goes to the virtual page on
	// each read, in [0, 1). Dangling pages send all their cash there.
	Alpha float64
	// History is the history policy: Cumulative (nil means Cumulative),
	// Interpolation, VariableWindow or FixedWindow.
	History History
}

// page is the in-memory state of one page: 24 bytes. TestPageSize keeps it
// so.
type page struct {
	// cash is C[i] - g: the page's effective cash is cash + OPIC.g, so that
	// the virtual page pays every page in O(1) by raising g.
	cash float64
	// zlast is Z[i], the global Z when the page was last read (or added);
	// a negative value marks a deleted page.
	zlast float64
	// hist is H[i]: cumulative, or the Interpolation window value.
	hist float32
	// pos is the page's slot in the Greedy heap (noSlot if none). It lives
	// here, not in the heap, to save a cache miss per link followed.
	pos uint32
}

func (p *page) deleted() bool { return p.zlast < 0 }

// deletedMark is the zlast of a deleted page.
const deletedMark = -1

// OPIC is the on-line page importance state of a crawl: cash and history
// per page, the virtual page, and the global Z. It does not store the link
// graph: the crawler hands over the out-links of each page it reads.
//
// An OPIC is not safe for concurrent use.
type OPIC struct {
	alpha  float64
	kind   histKind
	window float64 // T, in Z units, for Interpolation
	win    windowStore

	pages []page
	live  int
	n0    int                // pages 0 .. n0-1 started with cash 1/n0 (C0)
	c0    map[PageID]float64 // initial cash merged into a page, beyond 1/n0

	z     float64 // Z: the total cash ever read, virtual page included
	hv    float64 // H of the virtual page
	cv    float64 // cash of the virtual page not yet paid out
	g     float64 // uniform payout of the virtual page since the last rebase
	reads uint64

	heap *cashHeap // non-nil while a Greedy policy is attached
}

type histKind uint8

const (
	kindCumulative histKind = iota
	kindInterpolation
	kindWindow
)

// New returns the state of a crawl that knows n pages, each with cash 1/n
// (the seed's initialisation), no history, and Z = 0.
func New(n int, cfg Config) (*OPIC, error) {
	if n < 0 || int64(n) > math.MaxUint32 {
		return nil, fmt.Errorf("opic: %d pages: out of range", n)
	}
	if !(cfg.Alpha >= 0 && cfg.Alpha < 1) {
		return nil, fmt.Errorf("opic: alpha %v: want 0 <= alpha < 1", cfg.Alpha)
	}
	o := &OPIC{alpha: cfg.Alpha}
	if err := o.setHistory(cfg.History); err != nil {
		return nil, err
	}
	o.pages = make([]page, n)
	if n == 0 {
		o.cv = 1
	} else {
		for i := range o.pages {
			o.pages[i] = page{cash: 1 / float64(n), pos: noSlot}
		}
	}
	o.live, o.n0 = n, n
	if o.win != nil {
		o.win.grow(n, 0)
	}
	return o, nil
}

// Alpha returns α, the share of cash sent to the virtual page.
func (o *OPIC) Alpha() float64 { return o.alpha }

// Len returns the number of page entries, deleted ones included; page ids
// are 0 .. Len()-1.
func (o *OPIC) Len() int { return len(o.pages) }

// Live returns the number of pages not deleted.
func (o *OPIC) Live() int { return o.live }

// Reads returns the number of page reads so far.
func (o *OPIC) Reads() uint64 { return o.reads }

// Z returns the global Z: the sum of all histories, the virtual page's
// included (the clock of adaptive OPIC).
func (o *OPIC) Z() float64 { return o.z }

// ZPerRead returns the mean growth of Z per page read so far (about 1/n for
// Random, 2/n for Greedy, plus the virtual page's share), or 0 before the
// first read. It converts a window counted in reads into Z units.
func (o *OPIC) ZPerRead() float64 {
	if o.reads == 0 {
		return 0
	}
	return o.z / float64(o.reads)
}

// VirtualHistory returns H of the virtual page: the cash it has paid out.
func (o *OPIC) VirtualHistory() float64 { return o.hv }

// VirtualCash returns the cash the virtual page holds and has not paid out
// (non-zero only while no page is live).
func (o *OPIC) VirtualCash() float64 { return o.cv }

// Deleted reports whether page p was deleted or merged away.
func (o *OPIC) Deleted(p PageID) bool {
	return int(p) < len(o.pages) && o.pages[p].deleted()
}

// Cash returns C[p], the cash page p received since it was last read.
func (o *OPIC) Cash(p PageID) float64 {
	if int(p) >= len(o.pages) || o.pages[p].deleted() {
		return 0
	}
	return o.pages[p].cash + o.g
}

// History returns H[p]: the total cash read from p (Cumulative and window
// policies) or its Interpolation value, cash per window T.
func (o *OPIC) History(p PageID) float64 {
	if int(p) >= len(o.pages) {
		return 0
	}
	return float64(o.pages[p].hist)
}

// LastRead returns Z[p], the global Z when p was last read or added.
func (o *OPIC) LastRead(p PageID) float64 {
	if int(p) >= len(o.pages) || o.pages[p].deleted() {
		return 0
	}
	return o.pages[p].zlast
}

// Read records that page p was read and that its out-links are links: the
// seed's loop body. H[p] takes p's cash (as the history policy says), p's
// cash goes a share α to the virtual page and (1-α)/len(links) to each
// link (all of it to the virtual page if links is empty), Z grows by the
// cash read, and the virtual page pays its cash uniformly to all live
// pages. Links to deleted pages pay the virtual page. Duplicate links are
// counted as often as they occur.
//
// Read changes nothing and returns an error wrapping ErrNoPage or
// ErrDeleted if p or a link is unknown, or p is deleted.
func (o *OPIC) Read(p PageID, links []PageID) error {
	n := PageID(len(o.pages))
	if p >= n {
		return fmt.Errorf("opic: read page %d of %d: %w", p, n, ErrNoPage)
	}
	pg := &o.pages[p]
	if pg.deleted() {
		return fmt.Errorf("opic: read page %d: %w", p, ErrDeleted)
	}
	for _, j := range links {
		if j >= n {
			return fmt.Errorf("opic: read page %d: link to page %d of %d: %w", p, j, n, ErrNoPage)
		}
	}
	c := pg.cash + o.g
	switch o.kind {
	case kindCumulative:
		pg.hist = float32(float64(pg.hist) + c)
	case kindInterpolation:
		pg.hist = float32(Interpolate(float64(pg.hist), c, o.z-pg.zlast, o.window))
	case kindWindow:
		pg.hist = float32(float64(pg.hist) + c)
		o.win.record(p, c, o.z)
	}
	pg.zlast = o.z
	pg.cash = -o.g
	o.z += c
	o.reads++
	h := o.heap
	if h != nil {
		h.update(p, pg.cash)
	}
	toV := c
	if len(links) > 0 {
		toV = c * o.alpha
		share := (c - toV) / float64(len(links))
		var touch float32
		for _, j := range links {
			q := &o.pages[j]
			if q.deleted() {
				toV += share
				continue
			}
			q.cash += share
			if h != nil && q.pos != noSlot {
				touch += h.e[q.pos].key // a prefetch, see below
			}
		}
		// The heap follows in a second pass, so that the first pass's
		// independent loads of pages and heap slots overlap in memory.
		if h != nil {
			h.touch = touch
			for _, j := range links {
				if q := &o.pages[j]; !q.deleted() {
					h.update(j, q.cash)
				}
			}
		}
	}
	o.cv += toV
	o.payVirtual()
	return nil
}

// payVirtual reads the virtual page: its cash goes uniformly to the live
// pages, in O(1) through g.
func (o *OPIC) payVirtual() {
	if o.live == 0 || o.cv == 0 {
		return
	}
	c := o.cv
	o.cv = 0
	o.hv += c
	o.z += c
	o.g += c / float64(o.live)
	if o.g > rebaseFactor/float64(o.live) {
		o.rebase()
	}
}

// rebaseFactor bounds g, in units of the mean cash 1/live, before it is
// folded into the pages' cash. A small g keeps cash - g, the greedy heap's
// float32 key, precise.
const rebaseFactor = 4

// rebase folds g into every live page's cash: O(n), once every few passes.
func (o *OPIC) rebase() {
	g := o.g
	for i := range o.pages {
		if !o.pages[i].deleted() {
			o.pages[i].cash += g
		}
	}
	o.g = 0
	if o.heap != nil {
		o.heap.rekey(o, g)
	}
}

// AddPage adds a page with no cash and no history, discovered now (Z[p] is
// the current Z); the crawler calls it when a URL is first linked. It
// returns the new page's id, which is Len()-1.
func (o *OPIC) AddPage() PageID {
	p := PageID(len(o.pages))
	if int64(p) >= math.MaxUint32 {
		panic("opic: page id space exhausted")
	}
	o.pages = append(o.pages, page{cash: -o.g, zlast: o.z, pos: noSlot})
	o.live++
	if o.win != nil {
		o.win.grow(len(o.pages), o.z)
	}
	if o.heap != nil {
		o.heap.update(p, -o.g)
	}
	if o.live == 1 {
		o.payVirtual()
	}
	return p
}

// Delete removes page p (gone, or answering 404): its cash returns to the
// virtual page, which pays it out to the live pages, so the total cash is
// unchanged. Its history stays counted in Z. A deleted page is never
// selected again and links to it pay the virtual page.
func (o *OPIC) Delete(p PageID) error {
	if err := o.check("delete", p); err != nil {
		return err
	}
	pg := &o.pages[p]
	o.cv += pg.cash + o.g
	o.kill(p)
	o.payVirtual()
	return nil
}

// Merge records that page from redirects to page into, or that both URLs
// name one page: from's cash and history move to into and from is
// deleted. Totals of cash and history do not change.
func (o *OPIC) Merge(from, into PageID) error {
	if err := o.check("merge", from); err != nil {
		return err
	}
	if err := o.check("merge into", into); err != nil {
		return err
	}
	if from == into {
		return fmt.Errorf("opic: merge page %d into itself", from)
	}
	f, t := &o.pages[from], &o.pages[into]
	if c := o.InitialCash(from); c != 0 {
		if o.c0 == nil {
			o.c0 = map[PageID]float64{}
		}
		o.c0[into] += c
		delete(o.c0, from)
	}
	t.cash += f.cash + o.g
	t.hist = float32(float64(t.hist) + float64(f.hist))
	f.hist = 0
	if o.win != nil {
		o.win.merge(from, into)
	}
	if o.heap != nil {
		o.heap.update(into, t.cash)
	}
	o.kill(from)
	return nil
}

func (o *OPIC) check(op string, p PageID) error {
	if int(p) >= len(o.pages) {
		return fmt.Errorf("opic: %s page %d of %d: %w", op, p, len(o.pages), ErrNoPage)
	}
	if o.pages[p].deleted() {
		return fmt.Errorf("opic: %s page %d: %w", op, p, ErrDeleted)
	}
	return nil
}

func (o *OPIC) kill(p PageID) {
	o.pages[p].cash = 0
	o.pages[p].zlast = deletedMark
	o.live--
	if o.heap != nil {
		o.heap.remove(p)
	}
}

// Importance returns the seed's estimate from history alone: H[p]/Z for
// Cumulative history (the seed's X_t, on the graph with the virtual page),
// H[p]/T for Interpolation, and the window rate for window policies.
func (o *OPIC) Importance(p PageID) float64 {
	if int(p) >= len(o.pages) || o.pages[p].deleted() {
		return 0
	}
	pg := &o.pages[p]
	switch o.kind {
	case kindInterpolation:
		return float64(pg.hist) / o.window
	case kindWindow:
		return o.win.rate(p, 0, pg.zlast)
	}
	if o.z == 0 {
		return 0
	}
	return float64(pg.hist) / o.z
}

// Estimate returns the estimate that counts the cash not yet read as well:
// (H[p] + C[p]) / (Z + 1) for Cumulative history (the seed's "marginally
// better" estimate; 1 is the total cash); for Interpolation the update rule
// evaluated as of now, divided by T; for window policies the rate over the
// stored measures and the current cash.
func (o *OPIC) Estimate(p PageID) float64 {
	if int(p) >= len(o.pages) || o.pages[p].deleted() {
		return 0
	}
	pg := &o.pages[p]
	c := pg.cash + o.g
	switch o.kind {
	case kindInterpolation:
		return Interpolate(float64(pg.hist), c, o.z-pg.zlast, o.window) / o.window
	case kindWindow:
		return o.win.rate(p, c, o.z)
	}
	return (float64(pg.hist) + c) / (o.z + 1)
}

// InitialCash returns C0[p], the cash page p started with: 1/n for the n
// pages of New, 0 for pages added later, plus what merges brought.
func (o *OPIC) InitialCash(p PageID) float64 {
	c := o.c0[p]
	if int(p) < o.n0 {
		c += 1 / float64(o.n0)
	}
	return c
}

// Propagated returns (H[p] + C[p] − C0[p]) / Z for Cumulative history. By
// the seed's Lemma 7.3.3, H + C − C0 is the history of p's parents times
// their link weights, H·L': the history moved one more step along the
// links, without the initial cash that biases rarely read pages. With
// Greedy it converges much faster than H/Z and (H + C)/(Z + 1) (see
// BENCHMARKS.md); with Random it is noisier. Other history policies return
// Estimate.
func (o *OPIC) Propagated(p PageID) float64 {
	if o.kind != kindCumulative {
		return o.Estimate(p)
	}
	if int(p) >= len(o.pages) || o.pages[p].deleted() || o.z == 0 {
		return 0
	}
	pg := &o.pages[p]
	c := pg.cash + o.g
	return (float64(pg.hist) + c - o.InitialCash(p)) / o.z
}

// Estimator selects the estimate Importances returns.
type Estimator int

const (
	// EstimateSeed is Estimate: (H + C)/(Z + 1) for Cumulative history, the
	// as-of-now estimate of the other policies.
	EstimateSeed Estimator = iota
	// EstimateHistory is Importance: H/Z, H/T, or the window rate.
	EstimateHistory
	// EstimatePropagated is Propagated: (H + C − C0)/Z.
	EstimatePropagated
)

// String returns the estimator's formula.
func (e Estimator) String() string {
	switch e {
	case EstimateHistory:
		return "H/Z"
	case EstimatePropagated:
		return "(H+C-C0)/Z"
	}
	return "(H+C)/(Z+1)"
}

// Importances fills dst (grown to Len()) with the estimate e of every page,
// normalised to sum to 1 over the live pages (deleted pages get 0): the
// vector to compare with PageRank on the real pages.
func (o *OPIC) Importances(dst []float64, e Estimator) []float64 {
	dst = grow(dst, len(o.pages))
	sum := 0.0
	for i := range o.pages {
		var v float64
		switch e {
		case EstimateHistory:
			v = o.Importance(PageID(i))
		case EstimatePropagated:
			v = o.Propagated(PageID(i))
		default:
			v = o.Estimate(PageID(i))
		}
		v = max(v, 0)
		dst[i] = v
		sum += v
	}
	if sum > 0 {
		for i := range dst {
			dst[i] /= sum
		}
	}
	return dst
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// TotalCash returns the cash of all live pages plus the virtual page's:
// constant (1) by the seed's Lemma 7.3.2, up to rounding.
func (o *OPIC) TotalCash() float64 {
	sum := o.cv
	for i := range o.pages {
		if !o.pages[i].deleted() {
			sum += o.pages[i].cash + o.g
		}
	}
	return sum
}

// TotalHistory returns the sum of H over all pages, deleted and virtual
// pages included. With Cumulative (and window) history it equals Z, up to
// rounding; Interpolation histories are windows and do not sum to Z.
func (o *OPIC) TotalHistory() float64 {
	sum := o.hv
	for i := range o.pages {
		sum += float64(o.pages[i].hist)
	}
	return sum
}
