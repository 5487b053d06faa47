package crawl

import (
	"fmt"
	"slices"
	"time"

	"github.com/vigil-web/vigil"
)

// Carried says that a page of a snapshot was not read by its crawl, and
// holds instead the last version a crawl before read (its status, content
// type, title, version, hash, links, note, and body if kept): a page down
// for a moment (an error status, a timeout, a refusal) is neither removed
// from the site nor, once it answers again, added to it. A page that
// answers 404 or 410 (Page.Gone) is not carried: it is removed.
type Carried struct {
	// Status and Error are why this crawl did not read the page: its
	// failure (Page.Status and Page.Error of a page that failed), or no
	// status and "not read: ..." for a page linked only from carried
	// pages, which the crawl did not reach (CarryOver).
	Status int    `json:"status,omitempty"`
	Error  string `json:"error"`
	// Since is when the crawl that read the version kept started.
	Since time.Time `json:"since"`
}

// Failure names why a carried page was not read, as Page.Failure does a
// failed page's: "HTTP 503", else its error.
func (c *Carried) Failure() string {
	if c.Status != 0 && c.Status/100 != 2 {
		return fmt.Sprintf("HTTP %d", c.Status)
	}
	return c.Error
}

// Gone reports whether a page's failure says it is no more: HTTP 404 Not
// Found or 410 Gone. Any other failure may be a moment's, and a page that
// read before is carried over (Carried).
func (p *Page) Gone() bool { return p.Status == 404 || p.Status == 410 }

// carries returns the page a crawl of query q records for failed, a page
// that failed in it (not the start page), given before, the same URL in
// the snapshot prev: before carried over (Carried), unless failed is Gone
// or before did not read either (nil then). A crawl that keeps bodies
// carries only a page whose body was kept.
func carries(q *Query, prev *Snapshot, before, failed *Page) *Page {
	if before == nil || before.Failed() || !failed.Failed() || failed.Gone() || q.Bodies && before.Hash != "" && !prev.Query.Bodies {
		return nil
	}
	return carry(before, failed.Status, failed.Error, prev.Started, q.Bodies)
}

// carry returns a copy of before, a page read (or carried) by the crawl
// that started at read, carried over by a crawl that did not read it for
// the reason status and why, and that keeps bodies or not.
func carry(before *Page, status int, why string, read time.Time, bodies bool) *Page {
	p := *before
	p.Links = slices.Clone(before.Links)
	if !bodies {
		p.Body = ""
	}
	since := read
	if before.Carried != nil {
		since = before.Carried.Since
	}
	p.Carried = &Carried{Status: status, Error: why, Since: since}
	return &p
}

// CarryOver returns cur, a snapshot crawled after prev without it (Crawl,
// not CrawlAgain), with its pages carried over as CrawlAgain carries them:
// each page that failed in cur but for a 404 or a 410, and that prev read
// (or carried), is prev's page carried over (Carried); and so, at the
// depth after, is each page of prev that only carried pages link to and
// that cur did not reach (it has neither page nor redirect there), as not
// read, since the crawl did not follow the links its failed page had. The
// start page is never carried: its failure is the crawl's
// (Snapshot.StartFailure). The pages' importance is computed again. cur
// is not changed: it returns cur itself when it carries nothing over, and
// a copy otherwise.
func CarryOver(prev, cur *Snapshot) *Snapshot {
	if len(cur.Pages) == 0 || cur.StartFailure() != "" {
		return cur
	}
	sc, err := newScope(&cur.Query, cur.Format == FormatV1)
	if err != nil {
		return cur // Validate compiled it: cannot happen
	}
	before := prev.PagesByURL()
	out := *cur
	out.Pages = slices.Clone(cur.Pages)
	carried := false
	for i, p := range out.Pages {
		if i == 0 {
			continue
		}
		if c := carries(&out.Query, prev, before[p.URL], p); c != nil {
			c.Depth = p.Depth
			c.Links = slices.DeleteFunc(c.Links, func(l Link) bool { return !sc.contains(l.Target) })
			out.Pages[i] = c
			carried = true
		}
	}
	if !carried {
		return cur
	}
	out.carryUnreached(prev, before, sc)
	if err := out.setImportance(); err != nil {
		// The importance of the crawl's own pages stands: a page carried
		// over has none, which is no page's fault.
		for _, p := range out.Pages {
			if p.Carried != nil {
				p.Importance = 0
			}
		}
	}
	return &out
}

// carryUnreached adds to s, in which CarryOver carried pages over, the
// pages of prev (before: by URL) that only carried pages link to and that
// the crawl of s did not reach, as not read, each at the depth after the
// first carried page that links to it, within the query's depth, in
// order; and so on from those.
func (s *Snapshot) carryUnreached(prev *Snapshot, before map[string]*Page, sc *scope) {
	known := make(map[string]bool, len(s.Pages)+len(s.Redirects))
	for _, p := range s.Pages {
		known[p.URL] = true
	}
	for _, r := range s.Redirects {
		known[r.From] = true
	}
	// Linked from a page the crawl read: it left the page unread for a
	// bound of its own (UnreadLinks), not for a failure.
	for _, p := range s.Pages {
		if p.Carried == nil && !p.Failed() {
			for _, l := range p.Links {
				known[l.Target] = true
			}
		}
	}
	queue := slices.Clone(s.Pages)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p.Carried == nil || p.Depth >= s.Query.MaxDepth {
			continue
		}
		for _, l := range p.Links {
			b := before[l.Target]
			if known[l.Target] || b == nil || b.Failed() || !sc.contains(l.Target) || s.Query.Bodies && b.Hash != "" && !prev.Query.Bodies {
				continue
			}
			known[l.Target] = true
			c := carry(b, 0, "not read: linked only from "+vigil.RedactURL(p.URL)+", which was not read", prev.Started, s.Query.Bodies)
			c.Depth = p.Depth + 1
			c.Links = slices.DeleteFunc(c.Links, func(l Link) bool { return !sc.contains(l.Target) })
			s.Pages = append(s.Pages, c)
			queue = append(queue, c)
		}
	}
	slices.SortStableFunc(s.Pages, func(a, b *Page) int { return a.Depth - b.Depth })
}
