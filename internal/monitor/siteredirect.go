package monitor

import (
	"fmt"
	"slices"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
)

// A site sentinel written without a scope crawls the directory of its
// start page after the start page's redirects (crawl.Query.Scope). When
// the start page begins to redirect to another directory between two
// checks (/docs/ now leads to /v2/docs/), the crawl is of another site:
// its pages are all new, or all out of the scope the reference was
// crawled in. Before, that crawl silently became the reference (a query
// of another scope), and when the redirect ended the old directory became
// the reference again, silently too: what changed in between was never
// told.
//
// The check holds the previous crawl as the reference and fails, saying
// why (siteMovedFailure), as the sentinel's last error and, once it lasts,
// in a failure notice, as a start page that fails does; it does not follow
// the redirect. Following it would watch pages the user never chose (a
// redirect to a login page, the site's home, another product's
// documentation), report nothing comparable anyway (every URL differs),
// and a redirect of a moment (a maintenance page) would replace the
// reference twice and hide the changes made meanwhile. Held, a redirect
// that ends leaves the site compared with its reference as before, and
// one that lasts is the user's to accept: editing the sentinel (its URL to
// the new address, or a scope written) starts a new reference, as any
// edit of its crawl does.
//
// A site that moves to https alone is followed (siteMovedToHTTPS): its
// start page now redirects to the https form of its URL, on the same host,
// each on its scheme's default port, to the same path
// (crawl.SchemeUpgrade), as sites that turn https on do. That is the site
// the user chose, at the address its server now gives it: the crawl
// carries on under https, in the https form of the directory it was
// crawled in, and the previous crawl is rekeyed to https
// (crawl.Snapshot.Rekeyed) and stays the reference, so that each page is
// compared with itself at its new URL and only what changed is reported,
// not every page removed and added. A modified page's record names its
// version read at the http URL in its note rather than as its OldVersion,
// which is a version of another resource, and a page no longer reached is
// reported at the URL it was read at. A link still written with the old
// scheme (http://example.org/docs/a.html, absolute) is read by the crawl
// as its https form, where the site's redirect leads it (crawl's scope,
// upgraded), so that a page only such links reach is still a page of the
// site. The redirect is followed by the fetcher as any is, under its
// address guard. A move to another host,
// port or directory, or from https back to http, still fails as above.

// siteMovedFailure returns why cur, a crawl of a site sentinel whose
// scope is written (none: the start page's directory), cannot be compared
// with prev, its previous crawl: the start page now redirects out of the
// directory prev was crawled in, the query otherwise the same; "" if it
// can, or if the sentinel was edited to crawl otherwise (no comparison,
// cur is the new reference).
func siteMovedFailure(written []string, prev *siteRecord, cur *crawl.Snapshot) string {
	if len(written) > 0 || prev == nil || len(prev.Snapshot.Pages) == 0 || len(cur.Pages) == 0 {
		return ""
	}
	was := prev.Snapshot.Query
	if dir, err := crawl.DefaultScope(prev.Snapshot.Pages[0].URL); err != nil || !slices.Equal(was.Scope, []string{dir}) {
		return "" // crawled in a scope written then: edited since
	}
	q := cur.Query
	q.Scope = was.Scope
	if !sameSiteQuery(was, q) || sameSiteQuery(was, cur.Query) {
		return ""
	}
	return fmt.Sprintf("start page %s now redirects to %s, out of %s, the directory its site was crawled in: "+
		"the site is compared with its last crawl there again when the redirect ends; "+
		"to watch the new address, edit the sentinel's URL", vigil.RedactURL(cur.Query.Start),
		vigil.RedactURL(cur.Pages[0].URL), vigil.RedactURL(was.Scope[0]))
}

// siteMovedToHTTPS returns prev, the previous crawl of a site sentinel
// whose scope is written (none: the start page's directory), rekeyed to
// https when cur, this check's crawl, ran the same query but for a scope
// that is the https form of prev's (crawl.SchemeUpgrade): the site moved
// to https alone. The record returned maps each URL rekeyed to the URL it
// was read at (siteRecord.readAt), its versions keyed by the new URLs. It
// returns nil if the site did not move so.
func siteMovedToHTTPS(written []string, prev *siteRecord, cur *crawl.Snapshot) *siteRecord {
	if len(written) > 0 || prev == nil || len(prev.Snapshot.Pages) == 0 || len(cur.Pages) == 0 {
		return nil
	}
	was := prev.Snapshot.Query
	if dir, err := crawl.DefaultScope(prev.Snapshot.Pages[0].URL); err != nil || !slices.Equal(was.Scope, []string{dir}) {
		return nil // crawled in a scope written then: edited since
	}
	if len(cur.Query.Scope) != 1 {
		return nil
	}
	from, to, ok := crawl.SchemeUpgrade(was.Scope[0], cur.Query.Scope[0])
	if !ok {
		return nil
	}
	snap := prev.Snapshot.Rekeyed(from, to)
	if !sameSiteQuery(snap.Query, cur.Query) {
		return nil // edited otherwise too
	}
	out := &siteRecord{Snapshot: snap, Versions: make(map[string]int64, len(prev.Versions)), readAt: map[string]string{}}
	rekeyed := map[string]string{} // the URL read at: its new one
	for i, p := range prev.Snapshot.Pages {
		if u := snap.Pages[i].URL; u != p.URL {
			out.readAt[u], rekeyed[p.URL] = p.URL, u
		}
	}
	for u, id := range prev.Versions {
		if moved, ok := rekeyed[u]; ok {
			u = moved
		}
		out.Versions[u] = id
	}
	return out
}
