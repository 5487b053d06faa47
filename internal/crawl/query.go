package crawl

import (
	"regexp"
	"slices"
	"strings"

	"github.com/vigil-web/vigil"
)

// Defaults of a Query made by NewQuery.
const (
	DefaultMaxDepth = 3
	DefaultMaxPages = 500
	// MaxMaxDepth bounds MaxDepth: a page's web tuple is its whole path
	// from the start (Snapshot.Table), so a table costs pages times depth.
	MaxMaxDepth = 64
	// MaxLinks is the most links in scope a page keeps: a hostile page of
	// a million links costs no more. (The URLs a crawl queues are bounded
	// by MaxPages too: see crawler.queued and frontierURLs.)
	MaxLinks = 10000
	// DefaultWorkers is how many pages are fetched and parsed at once when
	// Query.Workers is 0. The fetcher's politeness (one request at a time
	// to a host by default, spaced by its delay) still holds: the workers
	// overlap one page's parse with the next one's fetch, and fetch pages
	// of different hosts at once.
	DefaultWorkers = 4
)

// Query is a coupling query as a Go value (WHOWEDA's global web coupling,
// note 000 §5.1, reduced to what a site crawl needs): start at Start and
// follow the links whose target lies under one of the Scope prefixes and
// matches Match, at most MaxDepth links away from Start, fetching at most
// MaxPages URLs.
type Query struct {
	// Start is the page the crawl starts from, an absolute http or https
	// URL. It is always fetched, whatever the scope.
	Start string `json:"start"`
	// Scope holds URL prefixes: a link is followed only if its canonical
	// target URL lies under one of them, on the same scheme and host (in
	// canonical form: case and default port do not matter) and at a path
	// segment boundary: "https://example.org/docs" takes /docs, /docs/,
	// /docs/x and /docs?q, not /docs-old (see scope.go). Empty means the
	// directory of the start page on its host ("https://example.org/docs/"
	// for "https://example.org/docs/index.html"), taken after the start
	// page's redirects, so that a site that moved to https is crawled
	// there. A written scope follows a move to https alone too: when the
	// start page, asked on http, leads to the https form (the same host,
	// each scheme's default port) of a URL the scope takes, and not to a
	// URL it takes, the prefixes on the start's origin are taken in their
	// https form (upgradedScope), and the crawl records them so. The
	// prefixes are a set: a crawl records them in canonical
	// form, sorted, each once (CanonicalScope), so that their order does
	// not make two crawls of one site differ.
	Scope []string `json:"scope"`
	// Match, when not empty, is a regular expression (RE2 syntax) that the
	// canonical URL of a followed link must match too, anywhere in it
	// (anchor it with ^ and $ to match the whole URL).
	Match string `json:"match,omitempty"`
	// MaxDepth is the longest link distance from Start of a page that is
	// fetched: 0 fetches the start page alone; the links of a page at
	// MaxDepth are recorded but not followed.
	MaxDepth int `json:"maxDepth"`
	// MaxPages is the most URLs fetched, at least 1. A URL that redirects
	// to a page already in the snapshot takes one of them too, so a
	// snapshot may hold fewer pages than were fetched; a URL robots.txt
	// disallows (Page.Blocked) is never requested and takes none, so a
	// snapshot may hold more.
	MaxPages int `json:"maxPages"`
	// Bodies keeps each page's body (UTF-8 text) in the snapshot, so that
	// a later step can compare page contents.
	Bodies bool `json:"bodies,omitempty"`
	// Order is the order in which the frontier is fetched (order.go):
	// OrderImportance, NewQuery's, takes the URL with the most OPIC cash
	// first, so that a crawl that MaxPages cuts short has the most
	// important pages; OrderBreadth takes them layer by layer. Empty means
	// OrderBreadth, the order of the crawls made before there was a
	// choice. A crawl that MaxPages does not cut short finds the same
	// snapshot in either order.
	Order Order `json:"order,omitempty"`
	// Workers is how many pages are fetched and parsed at once
	// (DefaultWorkers when 0). It changes how fast a crawl goes, never what
	// it finds, so it is not part of the snapshot.
	Workers int `json:"-"`
}

// CrawlOrder returns the order the query's crawl fetches in: Order, or
// OrderBreadth when it is empty (the crawls made before there was a
// choice).
func (q *Query) CrawlOrder() Order {
	if q.Order == "" {
		return OrderBreadth
	}
	return q.Order
}

// NewQuery returns the query that crawls from start with the defaults: the
// start page's directory as the scope, DefaultMaxDepth, DefaultMaxPages
// and OrderImportance.
func NewQuery(start string) Query {
	return Query{Start: start, MaxDepth: DefaultMaxDepth, MaxPages: DefaultMaxPages, Order: OrderImportance}
}

// DefaultScope returns the scope of a query without one: the directory of
// the canonical form of start ("https://example.org/docs/" for
// "https://example.org/docs/a.html?x=1"). It returns EINVALID if start is
// not an absolute http or https URL.
func DefaultScope(start string) (string, error) {
	u, err := vigil.CanonicalURL(start)
	if err != nil {
		return "", err
	}
	u, _, _ = strings.Cut(u, "?")
	// The canonical form has a path, so there is a slash after "//host".
	return u[:strings.LastIndexByte(u, '/')+1], nil
}

// Validate returns an EINVALID error naming the first bad field: a start or
// a scope prefix that is not an absolute http or https URL, a Match that is
// not a regular expression, a negative MaxDepth, a MaxPages below 1, a
// negative Workers, an unknown Order.
func (q *Query) Validate() error {
	if _, err := vigil.CanonicalURL(q.Start); err != nil {
		return vigil.Errorf(vigil.EINVALID, "start: %s", vigil.ErrorMessage(err))
	}
	for i, p := range q.Scope {
		if _, err := vigil.CanonicalURL(p); err != nil {
			return vigil.Errorf(vigil.EINVALID, "scope %d: %s", i+1, vigil.ErrorMessage(err))
		}
	}
	if _, err := regexp.Compile(q.Match); err != nil {
		return vigil.Errorf(vigil.EINVALID, "match: %v", err)
	}
	switch {
	case q.MaxDepth < 0 || q.MaxDepth > MaxMaxDepth:
		return vigil.Errorf(vigil.EINVALID, "maxDepth: %d, want 0 to %d", q.MaxDepth, MaxMaxDepth)
	case q.MaxPages < 1:
		return vigil.Errorf(vigil.EINVALID, "maxPages: %d, want at least 1", q.MaxPages)
	case q.Workers < 0:
		return vigil.Errorf(vigil.EINVALID, "workers: %d is negative", q.Workers)
	case q.Order != "" && q.Order != OrderBreadth && q.Order != OrderImportance:
		return vigil.Errorf(vigil.EINVALID, "order: %q, want %q or %q", q.Order, OrderImportance, OrderBreadth)
	}
	return nil
}

// CanonicalScope returns scope prefixes as a crawl records them: each in
// canonical form (vigil.CanonicalURL; one that is not a URL as written),
// sorted, each once. The order and the repeats of the prefixes do not
// change what a crawl reaches, so two scopes with the same CanonicalScope
// are one scope. It never returns nil.
func CanonicalScope(scope []string) []string {
	out := make([]string, 0, len(scope))
	for _, p := range scope {
		if c, err := vigil.CanonicalURL(p); err == nil {
			p = c
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// resolved returns q validated, with Start and the scope prefixes in
// canonical form, the prefixes sorted and each once (CanonicalScope). An empty scope stays empty: the crawl fills it in from
// the start page's final URL.
func (q Query) resolved() (Query, error) {
	if err := q.Validate(); err != nil {
		return q, err
	}
	q.Start, _ = vigil.CanonicalURL(q.Start)
	q.Scope = CanonicalScope(q.Scope)
	if q.Workers == 0 {
		q.Workers = DefaultWorkers
	}
	return q, nil
}
