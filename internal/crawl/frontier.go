package crawl

import (
	"math"
	"slices"

	"github.com/vigil-web/vigil/opic"
)

// frontierURLs is the most URLs the frontier of a crawl fetching at most
// maxPages keeps, besides its start: every link of the start page, and
// four for each page fetched. It is more than the 2·maxPages URLs a crawl
// can fetch or find pages by redirects (crawler.queued), so a crawl whose
// URLs do not fit could not have read them all: it is cut short. A
// maxPages too large for that sum (vigil site crawl takes any) gives the
// largest int: no bound.
func frontierURLs(maxPages int) int {
	if maxPages > (math.MaxInt-MaxLinks)/4 {
		return math.MaxInt
	}
	return MaxLinks + 4*maxPages
}

// node is a URL the greedy crawl knows: a page of its OPIC state.
type node struct {
	url   string
	depth int // the shortest link distance from the start known so far
	// fetched is set once the URL was taken from the frontier (fetched,
	// or made a page by a redirect to it).
	fetched bool
	links   []opic.PageID // a page's distinct link targets known, once read
	// pending are the links of a page read beyond MaxDepth-1, whose
	// targets were not known then: they are added when a shorter path
	// brings the page within MaxDepth-1 (lower).
	pending []Link
	// led is the page a redirect from the URL led to, when ledTo is set:
	// that page is at the URL's depth, however near the start the URL is
	// found later.
	led   opic.PageID
	ledTo bool
	slot  int     // index in frontier.heap, -1 when not in it
	key   float64 // the cash C, less frontier.paid, when in the heap
}

// frontier is the bookkeeping of OrderImportance: an OPIC state (α =
// opic.DefaultAlpha) with a page for every URL the crawl knows, read when
// its page is read (Read with its distinct link targets: a page without
// links pays the virtual page), and a max-heap of the URLs that may be
// fetched (not fetched yet, within MaxDepth) keyed on their cash.
//
// The URLs known are those that could be fetched: the targets of the
// links of pages within MaxDepth-1 (and the pages redirects led to), at
// most maxURLs of them. A link to a URL that is not known (beyond
// MaxDepth, or past maxURLs) pays its share to the virtual page, as a link
// to a deleted page does: it is a link to sink, a page deleted at once.
//
// The virtual page pays every page alike, so it does not change which
// URL of the heap has the most cash: a key is the URL's cash less the
// cash per page the virtual page has paid so far (paid), which changes
// only when a page read links to the URL. Ties go to the URL found first.
type frontier struct {
	o        *opic.OPIC
	nodes    []node
	ids      map[string]opic.PageID
	heap     []opic.PageID
	paid     float64 // the cash per page the virtual page has paid
	vh       float64 // o.VirtualHistory() when paid was brought up to date
	maxDepth int
	sink     opic.PageID
	// found counts the URLs known from links, at most maxURLs; truncated
	// is set when a link to a URL within MaxDepth was left out for it.
	found, maxURLs int
	truncated      bool
}

// newFrontier returns the frontier of a crawl from start that knows at
// most maxURLs URLs from links: one page, in the heap at depth 0, with all
// the cash.
func newFrontier(start string, maxDepth, maxURLs int) (*frontier, error) {
	o, err := opic.New(0, opic.Config{Alpha: opic.DefaultAlpha})
	if err != nil {
		return nil, err
	}
	fr := &frontier{o: o, ids: map[string]opic.PageID{}, maxDepth: maxDepth, maxURLs: maxURLs}
	fr.lower(fr.id(start), 0)
	fr.sink = fr.o.AddPage()
	fr.nodes = append(fr.nodes, node{depth: math.MaxInt, fetched: true, slot: -1})
	if err := fr.o.Delete(fr.sink); err != nil {
		return nil, err
	}
	fr.sync()
	return fr, nil
}

// id returns the page of URL u, added (undiscovered: at no depth) if new.
func (fr *frontier) id(u string) opic.PageID {
	if id, ok := fr.ids[u]; ok {
		return id
	}
	id := fr.o.AddPage()
	fr.sync()
	fr.ids[u] = id
	fr.nodes = append(fr.nodes, node{url: u, depth: math.MaxInt, slot: -1})
	return id
}

// discover returns the page of URL u, a link's target within MaxDepth,
// added if new and the frontier has room; false if it has none (the
// frontier is then truncated).
func (fr *frontier) discover(u string) (opic.PageID, bool) {
	if id, ok := fr.ids[u]; ok {
		return id, true
	}
	if fr.found >= fr.maxURLs {
		fr.truncated = true
		return 0, false
	}
	fr.found++
	return fr.id(u), true
}

// sync brings paid up to date after an OPIC operation: the virtual page
// pays what it receives to the live pages at once.
func (fr *frontier) sync() {
	if vh := fr.o.VirtualHistory(); vh != fr.vh {
		fr.paid += (vh - fr.vh) / float64(fr.o.Live())
		fr.vh = vh
	}
}

// lower records that URL id is at most d links from the start, and
// carries the shorter distance along the links of the pages read: a URL
// that comes within MaxDepth joins the heap.
func (fr *frontier) lower(id opic.PageID, d int) {
	type step struct {
		id opic.PageID
		d  int
	}
	work := []step{{id, d}}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		n := &fr.nodes[s.id]
		if s.d >= n.depth {
			continue
		}
		n.depth = s.d
		if !n.fetched {
			if s.d <= fr.maxDepth && n.slot < 0 {
				fr.push(s.id)
			}
			continue
		}
		if n.pending != nil && s.d < fr.maxDepth {
			fr.track(s.id)
			n = &fr.nodes[s.id]
		}
		for _, t := range n.links {
			work = append(work, step{t, s.d + 1})
		}
		if n.ledTo {
			work = append(work, step{n.led, s.d})
		}
	}
}

// take removes the richest URL from the heap and returns it.
func (fr *frontier) take() (opic.PageID, bool) {
	if len(fr.heap) == 0 {
		return 0, false
	}
	id := fr.heap[0]
	fr.remove(id)
	fr.nodes[id].fetched = true
	return id, true
}

// track adds the pending links of the fetched page id, which came within
// MaxDepth-1, to the URLs known and its links.
func (fr *frontier) track(id opic.PageID) {
	pending := fr.nodes[id].pending
	fr.nodes[id].pending = nil
	links := fr.nodes[id].links
	for _, l := range pending {
		if t, ok := fr.discover(l.Target); ok {
			links = append(links, t)
		}
	}
	slices.Sort(links)
	fr.nodes[id].links = slices.Compact(links)
}

// read records the page of URL id as read, with its links (canonical
// URLs, in scope): its OPIC read, the keys of the URLs it paid, and the
// distances through it. The targets of a page within MaxDepth-1 become
// known (discover); those of a deeper page only if they were, the others
// pending.
func (fr *frontier) read(id opic.PageID, links []Link) error {
	fr.remove(id)
	n := &fr.nodes[id]
	n.fetched = true
	within := n.depth < fr.maxDepth
	targets := make([]opic.PageID, 0, len(links))
	var unknown map[string]bool // the distinct targets not known
	for _, l := range links {
		t, ok := fr.ids[l.Target]
		if !ok && within {
			t, ok = fr.discover(l.Target)
		}
		if ok {
			targets = append(targets, t)
		} else if !unknown[l.Target] {
			if unknown == nil {
				unknown = map[string]bool{}
			}
			unknown[l.Target] = true
		}
	}
	slices.Sort(targets)
	targets = slices.Compact(targets)
	// The node may have moved: discover appended to fr.nodes.
	n = &fr.nodes[id]
	n.links = targets
	if !within && len(unknown) > 0 {
		n.pending = links
	}
	// A URL that led elsewhere before (a site that changed during the
	// crawl) is recorded without cash, but its links are followed as any
	// page's are.
	if !fr.o.Deleted(id) {
		paid := targets
		if len(unknown) > 0 {
			// Each link to a URL not known pays the virtual page its share.
			paid = slices.Grow(slices.Clip(targets), len(unknown))
			for range len(unknown) {
				paid = append(paid, fr.sink)
			}
		}
		if err := fr.o.Read(id, paid); err != nil {
			return err
		}
		fr.sync()
		for _, t := range targets {
			if fr.nodes[t].slot >= 0 {
				fr.fix(t)
			}
		}
	}
	d := n.depth
	for _, t := range targets {
		fr.lower(t, d+1)
	}
	return nil
}

// merge records that URL from led by a redirect to the page of URL into:
// from's cash and history go to into, and into is at most from's depth
// from now on (lower).
func (fr *frontier) merge(from, into opic.PageID) error {
	fr.nodes[from].led, fr.nodes[from].ledTo = into, true
	if fr.o.Deleted(into) || fr.o.Deleted(from) {
		return fr.drop(from) // a site that changed during the crawl
	}
	fr.remove(from)
	fr.nodes[from].fetched = true
	if err := fr.o.Merge(from, into); err != nil {
		return err
	}
	if fr.nodes[into].slot >= 0 {
		fr.fix(into)
	}
	return nil
}

// drop records that URL id is no page: it led out of the scope. Its cash
// goes to the virtual page, and links to it pay the virtual page.
func (fr *frontier) drop(id opic.PageID) error {
	fr.remove(id)
	fr.nodes[id].fetched = true
	if fr.o.Deleted(id) {
		return nil
	}
	if err := fr.o.Delete(id); err != nil {
		return err
	}
	fr.sync()
	return nil
}

// The heap: a binary max-heap of page ids on key, ties to the lower id.

func (fr *frontier) before(a, b opic.PageID) bool {
	ka, kb := fr.nodes[a].key, fr.nodes[b].key
	return ka > kb || ka == kb && a < b
}

func (fr *frontier) push(id opic.PageID) {
	fr.nodes[id].key = fr.o.Cash(id) - fr.paid
	fr.nodes[id].slot = len(fr.heap)
	fr.heap = append(fr.heap, id)
	fr.up(len(fr.heap) - 1)
}

// fix follows a change of id's cash.
func (fr *frontier) fix(id opic.PageID) {
	fr.nodes[id].key = fr.o.Cash(id) - fr.paid
	i := fr.nodes[id].slot
	fr.up(i)
	fr.down(fr.nodes[id].slot)
}

func (fr *frontier) remove(id opic.PageID) {
	i := fr.nodes[id].slot
	if i < 0 {
		return
	}
	last := len(fr.heap) - 1
	fr.nodes[id].slot = -1
	if i != last {
		fr.heap[i] = fr.heap[last]
		fr.nodes[fr.heap[i]].slot = i
	}
	fr.heap = fr.heap[:last]
	if i < last {
		fr.up(i)
		fr.down(fr.nodes[fr.heap[i]].slot)
	}
}

func (fr *frontier) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !fr.before(fr.heap[i], fr.heap[parent]) {
			return
		}
		fr.swap(i, parent)
		i = parent
	}
}

func (fr *frontier) down(i int) {
	for {
		best, l, r := i, 2*i+1, 2*i+2
		if l < len(fr.heap) && fr.before(fr.heap[l], fr.heap[best]) {
			best = l
		}
		if r < len(fr.heap) && fr.before(fr.heap[r], fr.heap[best]) {
			best = r
		}
		if best == i {
			return
		}
		fr.swap(i, best)
		i = best
	}
}

func (fr *frontier) swap(i, j int) {
	fr.heap[i], fr.heap[j] = fr.heap[j], fr.heap[i]
	fr.nodes[fr.heap[i]].slot = i
	fr.nodes[fr.heap[j]].slot = j
}
