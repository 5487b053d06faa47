package monitor

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// plan is what the monitor needs of a sentinel's specification, decoded
// once and cached.
type plan struct {
	updated time.Time
	name    string
	// urls are the pages, each by its canonical URL (vigil.CanonicalURL,
	// as written if it refuses it): what is fetched, and the key of the
	// page's state and group; written are the same as the checked
	// specification writes them.
	urls    []string
	written []string
	// keys are the importance keys of urls (pageKey of each canonical
	// URL, 0 for one that is not valid), computed once a plan.
	keys []uint64
	// requires lists the alternatives of pages that must all change before
	// anything is reported (Checked.Requires as URLs); nil when a change
	// on any page is enough.
	requires [][]string
	expr     spec.Expr
	fetch    schedule.Plan
	render   bool
	confirm  time.Duration // 0: no confirmation
	compare  intent.Compare
	mode     spec.NotifyMode
	every    time.Duration // Periodic
	// calendar is the period of Every n days, weeks or months (zero for
	// one of seconds, minutes or hours): its periods end n, 2n, 3n of
	// them after the first began (state.DigestFrom), in the owner's
	// zone, at the first one's clock across daylight saving, and on the
	// day of the month the first began on or the month's last, which
	// every, 24 hours a day and 31 days a month, is not.
	calendar spec.Duration
	contacts []*spec.Contact
	lifespan schedule.Lifespan
	// site is the site watched, when the sentinel watches one (site.go);
	// urls is then its start URL alone.
	site *spec.Site
}

// planCache keeps decoded plans by sentinel id; it is bounded and simply
// emptied when full (plans are cheap to decode again). Their lifespans
// are in the zone each sentinel was saved in (sentinelLocation), the
// zone of m, the monitor whose cache it is (Monitor.Location, read there,
// not copied), for one saved before zones were kept.
type planCache struct {
	mu    sync.Mutex
	plans map[int64]*plan
	max   int
	m     *Monitor
}

func (c *planCache) get(s *vigil.Sentinel) (*plan, error) {
	c.mu.Lock()
	p := c.plans[s.ID]
	c.mu.Unlock()
	if p != nil && p.updated.Equal(s.UpdatedAt) {
		return p, nil
	}
	p, err := decodePlan(s)
	if err != nil {
		return nil, err
	}
	if p.lifespan.Location, err = sentinelLocation(s, c.m.Location); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.plans == nil || len(c.plans) >= c.max {
		c.plans = map[int64]*plan{}
	}
	c.plans[s.ID] = p
	c.mu.Unlock()
	return p, nil
}

// sentinelLocation returns the zone a sentinel's lifespan runs in: the
// one its dates were read in when it was saved (Sentinel.TimeZone), so
// that a later change of its owner's zone, or of the deployment's, does
// not move it; fallback (Monitor.Location) for a sentinel saved before
// zones were kept, UTC when that is nil too. A stored name the zone
// database no longer knows is an error: the sentinel's dates cannot be
// placed.
func sentinelLocation(s *vigil.Sentinel, fallback *time.Location) (*time.Location, error) {
	loc, err := vigil.ZoneOr(s.TimeZone, fallback)
	if err != nil {
		return nil, fmt.Errorf("sentinel %d: time zone %q: %w", s.ID, s.TimeZone, err)
	}
	return loc, nil
}

// decodePlan reads the checked specification stored with a sentinel.
func decodePlan(s *vigil.Sentinel) (*plan, error) {
	if len(s.Spec) == 0 {
		return nil, fmt.Errorf("sentinel %d has no checked specification", s.ID)
	}
	var c spec.Checked
	if err := json.Unmarshal(s.Spec, &c); err != nil {
		return nil, fmt.Errorf("sentinel %d: specification: %w", s.ID, err)
	}
	x := c.Sentinel
	if x == nil || len(c.URLs) == 0 {
		return nil, fmt.Errorf("sentinel %d: specification has no target URL", s.ID)
	}
	// Each page is fetched, grouped and kept in the state (state.follow
	// moves a page's state kept under the URL as written) by its
	// canonical URL, the key of its resource: without its fragment,
	// which a fetch does not send, and its dot segments resolved, so
	// that "/a/./b#x" and "/a/b" are one page, fetched once a round,
	// not each spelling on its own. A URL CanonicalURL refuses is kept as
	// written, to fail its fetch as it did; so is a site's start page,
	// crawled for its sentinel alone (its crawl canonicalises it) and
	// kept in the state under Site.URL.
	urls := make([]string, len(c.URLs))
	p := &plan{updated: s.UpdatedAt, name: s.Name, urls: urls, written: c.URLs, mode: spec.Immediate, site: c.Site}
	p.keys = make([]uint64, len(c.URLs))
	for i, u := range c.URLs {
		urls[i] = u
		if canon, err := vigil.CanonicalURL(u); err == nil {
			p.keys[i] = pageKey(canon)
			if c.Site == nil {
				urls[i] = canon
			}
		}
	}
	for _, alt := range c.Alternatives() {
		var alts []string
		for _, i := range alt {
			if i < 0 || i >= len(c.URLs) {
				return nil, fmt.Errorf("sentinel %d: specification requires page %d of %d", s.ID, i, len(c.URLs))
			}
			alts = append(alts, urls[i])
		}
		p.requires = append(p.requires, alts)
	}
	if x.Monitor != nil {
		p.expr = x.Monitor.X
	}
	if p.expr == nil {
		p.expr = &spec.ChangeType{Kind: spec.AnyChange}
	}
	if f := x.Fetch; f != nil {
		p.render = f.Render
		if f.OnChange || f.Interval == nil {
			p.fetch.OnChange = true
		} else if d, ok := f.Interval.Std(); ok {
			p.fetch.Interval = d
		} else {
			p.fetch.Interval = f.Interval.AddTo(time.Time{}).Sub(time.Time{})
		}
	} else {
		p.fetch.OnChange = true
	}
	if x.Confirm != nil && x.Confirm.After != nil {
		if d, ok := x.Confirm.After.Std(); ok {
			p.confirm = d
		}
	}
	p.compare = intent.CompareOf(x.Compare)
	if p.compare.Validate() != nil {
		p.compare = intent.Compare{Method: spec.Pairwise}
	}
	if e := x.Every; e != nil {
		p.mode = e.Mode
		if e.Mode == spec.Periodic && e.Interval != nil {
			if d, ok := e.Interval.Std(); ok {
				p.every = d
			} else {
				p.every = e.Interval.AddTo(time.Time{}).Sub(time.Time{})
			}
			switch e.Interval.Unit {
			case spec.Day, spec.Week, spec.Month:
				if e.Interval.N > 0 {
					p.calendar = e.Interval.Duration
				}
			}
		}
		if p.mode == spec.Periodic && p.every <= 0 {
			p.mode = spec.Immediate
		}
	}
	if x.Notify != nil {
		p.contacts = x.Notify.Contacts
	}
	p.lifespan = schedule.LifespanOf(&c)
	return p, nil
}

// alone reports whether a change on the page at url is enough to report:
// the sentinel has no AND, or url is an alternative by itself.
func (p *plan) alone(url string) bool {
	if p.requires == nil {
		return true
	}
	for _, alt := range p.requires {
		if len(alt) == 1 && alt[0] == url {
			return true
		}
	}
	return false
}

// wantsDelta reports whether a notification of the plan carries the tree
// delta (webhooks do; mail and chat show the change records).
func (p *plan) wantsDelta() bool {
	for _, c := range p.contacts {
		if c.Kind == spec.Webhook {
			return true
		}
	}
	return false
}
