package crawl

import (
	"fmt"
	"slices"
	"time"
)

// The bounds of carrying a page over (Carry): a page is kept from the
// previous crawl in at most MaxCarriedCrawls crawls in a row, and only
// while the first crawl that failed to read it (Carried.Since) began at
// most MaxCarriedAge before, whichever bound comes first. Past either, the
// page is what the crawl found: failing, and deleted from the web table
// (vigil site diff's "now failing", a site sentinel's page removed). A
// deploy, a rate limit or a restart lasts minutes, not three crawls or a
// day; a page failing that long is failing, and its readers should hear
// of it. The age is counted from the first failure, not from the last
// read: a site crawled once a day or less often read its pages more than
// a day before any failure, and would never have one carried.
const (
	MaxCarriedCrawls = 3
	MaxCarriedAge    = 24 * time.Hour
)

// NotFetched is the Failure of a page carried over that the crawl did not
// fetch: only pages carried over link to it (Carry).
const NotFetched = "not fetched: linked only from pages kept from the last crawl"

// Carried says why a page of a snapshot is its last good read, kept from
// the previous crawl (Page.Carried, Carry).
type Carried struct {
	// Status and Error are this crawl's failure of the page (Status 0 if
	// no answer came); both empty for a page the crawl did not fetch,
	// because only pages carried over link to it.
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	// Read is when the page was last read: the start of the crawl whose
	// read this is.
	Read time.Time `json:"read"`
	// Since is the start of the first crawl in a row that failed to read
	// the page (or did not fetch it): the crawl that first carried it.
	Since time.Time `json:"since"`
	// Crawls counts the crawls in a row that carried the page over, this
	// one included: 1 to MaxCarriedCrawls.
	Crawls int `json:"crawls"`
}

// Fetched reports whether the crawl fetched the page carried over, and it
// failed for a moment; if not, only pages carried over link to it
// (NotFetched).
func (c *Carried) Fetched() bool { return c.Status != 0 || c.Error != "" }

// Failure says why the page was carried over, as Page.Failure says why
// a page failed: its status ("HTTP 503"), else its error, or NotFetched.
func (c *Carried) Failure() string {
	switch {
	case c.Status != 0 && c.Status/100 != 2:
		return fmt.Sprintf("HTTP %d", c.Status)
	case c.Error != "":
		return c.Error
	}
	return NotFetched
}

// Carry returns cur, a crawl's snapshot, with each page that failed for a
// moment (Page.Momentary: a 5xx or 429 answer, a timeout, a connection
// refused or reset) replaced by its last good read in prev, the previous
// snapshot of the same query, marked Carried: its version, title and
// links are that read's, and the pages of prev that only carried pages
// link to (which the crawl could not reach) are carried over too, not
// fetched; a URL that a page the crawl read links to is the crawl's, a
// page of it or a link it left unread (UnreadLinks: cut by the page limit
// or the depth), never carried. So a page down for a moment during a deploy is neither deleted
// by this crawl nor added again by the next, and neither are the pages
// reached through it. A page is carried at most MaxCarriedCrawls crawls
// in a row and MaxCarriedAge after the first of them; the start page, a page
// that failed otherwise (404, 410, 403, a DNS name that does not exist,
// a body too large, robots.txt's rules) and a page prev did not read are never
// carried.
//
// cur is not changed: the pages carried are in a new snapshot, whose other
// pages are copies of cur's, with the importance of its new link graph. A
// crawl shared by several site sentinels is carried by each from its own
// previous snapshot. Carry returns cur itself when it carries nothing, or
// when prev is nil or of another query (start, scope, match, depth,
// pages), or cur is not of Format (only its crawls tell a momentary
// failure). Its error, for a result that would not validate, cannot
// happen.
func Carry(prev, cur *Snapshot) (*Snapshot, error) {
	// Most crawls have no page failing for a moment: they are returned
	// before anything is copied or indexed.
	if prev == nil || cur.Format != Format || !slices.ContainsFunc(cur.Pages, mayCarry) || !sameQuery(prev.Query, cur.Query) {
		// Only a crawl of this format tells a momentary failure.
		return cur, nil
	}
	sc, err := newScope(&cur.Query, false)
	if err != nil {
		return nil, fmt.Errorf("carry: %w", err)
	}
	before := prev.PagesByURL()
	out := *cur
	out.Pages = make([]*Page, len(cur.Pages))
	known := make(map[string]bool, len(cur.Pages)+len(cur.Redirects))
	for _, r := range cur.Redirects {
		known[r.From] = true
	}
	var carried []*Page
	for i, p := range cur.Pages {
		known[p.URL] = true
		for _, l := range p.Links {
			// Linked from a page the crawl read: a page of the crawl,
			// or one it left unread (UnreadLinks: the page limit, the
			// depth), as it would without a page carried; never one
			// reached only through a carried page.
			known[l.Target] = true
		}
		cp := *p
		out.Pages[i] = &cp
		if i == 0 || !mayCarry(p) {
			continue
		}
		c := carry(before[p.URL], prev, cur, &Carried{Status: p.Status, Error: p.Error})
		if c == nil {
			continue
		}
		c.Depth = p.Depth
		out.Pages[i] = c
		carried = append(carried, c)
	}
	if len(carried) == 0 {
		return cur, nil
	}
	// The pages of prev that only carried pages link to, breadth first.
	for len(carried) > 0 {
		p := carried[0]
		carried = carried[1:]
		links := p.Links[:0:0]
		for _, l := range p.Links {
			if known[l.Target] || sc.contains(l.Target) {
				links = append(links, l)
			}
		}
		p.Links = links
		if p.Depth >= cur.Query.MaxDepth {
			continue
		}
		for _, l := range p.Links {
			if known[l.Target] {
				continue
			}
			c := carry(before[l.Target], prev, cur, &Carried{})
			if c == nil {
				continue
			}
			known[c.URL] = true
			c.Depth = p.Depth + 1
			out.Pages = append(out.Pages, c)
			carried = append(carried, c)
		}
	}
	slices.SortStableFunc(out.Pages, func(a, b *Page) int { return a.Depth - b.Depth })
	if err := out.setImportance(); err != nil {
		return nil, fmt.Errorf("carry: importance: %w", err)
	}
	if err := out.validate(false); err != nil {
		return nil, fmt.Errorf("carry: %w", err)
	}
	return &out, nil
}

// mayCarry reports whether the page p of a crawl, unless it is the
// start page, may be carried over: it failed for a moment.
func mayCarry(p *Page) bool { return p.Failed() && p.Momentary && !p.Blocked }

// carry returns a copy of page before of prev, carried over into cur
// with the failure c (filled in here with the read's time and the
// crawls), or nil if it may not be: it is not a page read, or the bounds
// (MaxCarriedCrawls, MaxCarriedAge) are past, or cur keeps bodies and
// prev did not keep its body (a binary leaf has none in either).
func carry(before *Page, prev, cur *Snapshot, c *Carried) *Page {
	if before == nil || before.Failed() {
		return nil
	}
	c.Read, c.Since, c.Crawls = prev.Started, cur.Started, 1
	if before.Carried != nil {
		c.Read, c.Since, c.Crawls = before.Carried.Read, before.Carried.Since, before.Carried.Crawls+1
	}
	if c.Crawls > MaxCarriedCrawls || cur.Started.Sub(c.Since) > MaxCarriedAge || c.Since.After(cur.Started) || !c.Read.Before(c.Since) {
		return nil
	}
	p := *before
	switch {
	case !cur.Query.Bodies:
		p.Body = ""
	case p.Hash != "" && !p.BinaryLeaf() && int64(len(p.Body)) != p.Size:
		// prev was crawled without the bodies cur keeps (a binary
		// leaf's hash is of a body no crawl keeps).
		return nil
	}
	p.Carried, p.Momentary, p.Importance = c, false, 0
	return &p
}

// sameQuery reports whether two queries find the same pages: the same
// start, scope (as a set), match, depth and pages; the bodies kept, the
// workers and the order aside.
func sameQuery(a, b Query) bool {
	return a.Start == b.Start && slices.Equal(CanonicalScope(a.Scope), CanonicalScope(b.Scope)) && a.Match == b.Match &&
		a.MaxDepth == b.MaxDepth && a.MaxPages == b.MaxPages
}
