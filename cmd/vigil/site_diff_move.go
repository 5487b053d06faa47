package main

import (
	"strings"

	"github.com/vigil-web/vigil/internal/crawl"
)

// siteDiffMove is a site's move to https alone between two snapshots of
// vigil site diff: the origin OLD's pages were read on and the one NEW's
// are, as crawl.SchemeUpgrade returns them ("http://example.org",
// "https://example.org").
type siteDiffMove struct{ from, to string }

// movedToHTTPS returns old rekeyed to https (crawl.Snapshot.Rekeyed) when
// new's query is old's but for its start and scope, the prefixes of one
// origin moved to https alone (the same host, each scheme's default port:
// crawl.SchemeUpgrade), as a crawl of a site that came to redirect its
// http URLs to https records it (the start's directory followed there, a
// --scope written too), or as a crawl started from the https URL does:
// the site moved to https, and its pages are compared with themselves at
// their new URLs, as the monitor compares them. The start of old becomes
// new's when new's is its https form. Any other difference of the queries
// is no move: old is returned as it is, and nil, for sameQuery to refuse.
func movedToHTTPS(old, new *crawl.Snapshot) (*crawl.Snapshot, *siteDiffMove) {
	if sameQuery(old, new, "", "") == nil {
		return old, nil
	}
	for _, u := range append([]string{old.Query.Start}, old.Query.Scope...) {
		rest, ok := strings.CutPrefix(u, "http://")
		if !ok {
			continue
		}
		from, to, ok := crawl.SchemeUpgrade(u, "https://"+rest)
		if !ok {
			continue
		}
		r := old.Rekeyed(from, to)
		if start := to + strings.TrimPrefix(old.Query.Start, from); new.Query.Start == start && start != old.Query.Start {
			// Started from the https URL: the redirect from the http
			// start that Rekeyed keeps is from the https one, if it
			// still leads elsewhere.
			r.Query.Start = start
			redirects := r.Redirects[:0:0]
			for _, rd := range r.Redirects {
				if rd.From == old.Query.Start {
					rd.From = start
				}
				if rd.From != rd.To {
					redirects = append(redirects, rd)
				}
			}
			r.Redirects = redirects
		}
		if sameQuery(r, new, "", "") == nil && r.Validate() == nil {
			return r, &siteDiffMove{from: from, to: to}
		}
	}
	return old, nil
}
