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
// edit of its crawl does. A site that moves to https is held too, its
// pages all having new URLs.

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
