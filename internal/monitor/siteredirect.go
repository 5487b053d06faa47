package monitor

import (
	"fmt"
	"slices"
	"strings"

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
//
// A written scope follows a move to https alone too: the crawl takes the
// https form of the written prefixes on the start page's origin once
// the start page leads to the https form of a URL they take
// (crawl.Query.Scope), and the previous crawl is rekeyed as above. The
// user asked to watch that site, and it is where the site now is; a
// written scope that no longer took the site's pages would leave the
// crawl with its start page alone, every other page reported no longer
// reached, and asking the user to edit a scope for a move the server
// made would only delay what they want. A written scope whose start page
// took it and now leads out of it otherwise (another host, port or
// directory, or back to http) fails as a start page leaving its
// directory does: before, the crawl silently kept the start page alone.

// siteMovedFailure returns why cur, a crawl of a site sentinel whose
// scope is written (none: the start page's directory), cannot be compared
// with prev, its previous crawl: the start page now leads out of the
// scope prev was crawled in, the query otherwise the same; "" if it
// can, or if the sentinel was edited to crawl otherwise (no comparison,
// cur is the new reference). A move to https alone was followed before
// (siteMovedToHTTPS: prev is then rekeyed, and cur in its scope).
func siteMovedFailure(written []string, prev *siteRecord, cur *crawl.Snapshot) string {
	if prev == nil || len(prev.Snapshot.Pages) == 0 || len(cur.Pages) == 0 || !crawledAsWritten(written, prev.Snapshot) {
		return ""
	}
	was := prev.Snapshot.Query
	if len(written) > 0 {
		// A written scope is the crawl's whatever the start page leads
		// to; one that took the start page no longer does, or no longer
		// in the form the site was crawled in.
		q := cur.Query
		q.Scope = was.Scope
		now := cur.Pages[0].URL
		if !sameSiteQuery(was, q) || !was.UnderScope(prev.Snapshot.Pages[0].URL) || was.UnderScope(now) {
			return ""
		}
		return fmt.Sprintf("start page %s now leads to %s, out of %s, the scope its site was crawled in: "+
			"the site is compared with its last crawl there again when the redirect ends; "+
			"to watch the new address, edit the sentinel's URL or scope", vigil.RedactURL(cur.Query.Start),
			vigil.RedactURL(now), redactedScope(was.Scope))
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

// crawledAsWritten reports whether snap, a site sentinel's previous
// crawl, was crawled in the scope the sentinel writes now: the written
// scope, or its https form when the site moved there (crawl.SchemeUpgrade
// of one of its prefixes' origins, crawl.RekeyedScope); with none
// written, the start page's directory. A crawl of another scope was
// made before an edit, which starts a new reference.
func crawledAsWritten(written []string, snap *crawl.Snapshot) bool {
	was := crawl.CanonicalScope(snap.Query.Scope)
	if len(written) == 0 {
		dir, err := crawl.DefaultScope(snap.Pages[0].URL)
		return err == nil && slices.Equal(was, []string{dir})
	}
	scope := crawl.CanonicalScope(written)
	if slices.Equal(was, scope) {
		return true
	}
	for _, p := range scope {
		if from, to, ok := crawl.SchemeUpgrade(p, httpsForm(p)); ok && slices.Equal(was, crawl.RekeyedScope(scope, from, to)) {
			return true
		}
	}
	return false
}

// httpsForm returns an http URL with the scheme https, other URLs as they
// are.
func httpsForm(u string) string {
	if rest, ok := strings.CutPrefix(u, "http://"); ok {
		return "https://" + rest
	}
	return u
}

// redactedScope returns scope prefixes for a message: each redacted, one
// space between them.
func redactedScope(scope []string) string {
	out := make([]string, len(scope))
	for i, p := range scope {
		out[i] = vigil.RedactURL(p)
	}
	return strings.Join(out, " ")
}

// siteMovedToHTTPS returns prev, the previous crawl of a site sentinel
// whose scope is written (none: the start page's directory), rekeyed to
// https when cur, this check's crawl, ran the same query but for a scope
// that is the https form of prev's, the prefixes of one origin moved
// (crawl.SchemeUpgrade): the site moved to https alone, and the crawl
// followed it (a written scope as the start page's directory:
// crawl.Query.Scope). The record returned maps each URL rekeyed to the
// URL it was read at (siteRecord.readAt), its versions keyed by the new
// URLs. It returns nil if the site did not move so, or if prev was
// crawled in a scope the sentinel no longer writes (crawledAsWritten).
func siteMovedToHTTPS(written []string, prev *siteRecord, cur *crawl.Snapshot) *siteRecord {
	if prev == nil || len(prev.Snapshot.Pages) == 0 || len(cur.Pages) == 0 || !crawledAsWritten(written, prev.Snapshot) {
		return nil
	}
	was := prev.Snapshot.Query
	if sameSiteQuery(was, cur.Query) {
		return nil
	}
	var snap *crawl.Snapshot
	for _, p := range crawl.CanonicalScope(was.Scope) {
		from, to, ok := crawl.SchemeUpgrade(p, httpsForm(p))
		if !ok {
			continue
		}
		if s := prev.Snapshot.Rekeyed(from, to); sameSiteQuery(s.Query, cur.Query) {
			snap = s
			break
		}
	}
	if snap == nil {
		return nil // moved otherwise, or edited
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
			if _, both := prev.Versions[moved]; both {
				// Read at both URLs: the https page's own
				// version is its reference, whatever the
				// map's order.
				continue
			}
			u = moved
		}
		out.Versions[u] = id
	}
	return out
}
