package monitor

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
)

// Scope notes of a site. A site sentinel's table, list or scope that names
// what no page of the site has finds no change anywhere on it, however the
// site changes: after each crawl, its pages read as pages (not as their
// source text, nor binary leaves) are looked at, the most important first
// and at most maxSiteScopePages of them, and what the Monitor clause looks
// at and none of them has is one note ("scope table#u matches nothing on
// site https://a.example/docs/ (12 pages looked at)"), kept in the
// sentinel's state (state.SiteNotes) and said with the page sentinels'
// notes (state.ScopeNotes, finish). A page that has it ends the look for
// it: a scope found on the first page costs that page alone. The pages are
// looked at again only when their versions or the clause change
// (state.SiteNotesOf), and the notes go while the site's start page fails,
// as a page's do while it fails, and while its checks fail otherwise (the
// crawl not compared, the change not recorded, the last crawl not read):
// a failed check says nothing of its crawl beside its failure.

// maxSiteScopePages bounds the pages of a site looked at for its scope
// notes, the most important first: the note says how many were.
const maxSiteScopePages = 1000

// maxSiteScopeNotes bounds the notes of a site: past it, the last says how
// many more of its scopes match nothing.
const maxSiteScopeNotes = 10

// maxSiteMissLen bounds, in bytes, what a site's note says matches nothing
// (a long selector is cut, "..." after it).
const maxSiteMissLen = 200

// pageCount is the count intent.ScopeMisses gives after a table or list
// named by index that a page lacks (" (the page has 2 tables)"): it
// differs from page to page, so the site's note says the miss without it.
var pageCount = regexp.MustCompile(` \(the (page|scope) has [0-9]+ (table|list)s?\)$`)

// siteScopePage is a page of a site's crawl looked at for its scope notes.
type siteScopePage struct {
	url        string
	version    int64
	importance float64
}

// siteScopePages returns the pages of the crawl cur that are looked at for
// the site's scope notes, the most important first (then by URL): those
// read as pages, with a version stored, at most maxSiteScopePages.
func siteScopePages(cur *siteRecord) []siteScopePage {
	var out []siteScopePage
	for _, p := range cur.Snapshot.Pages {
		if p.Failed() || p.Note != "" || (p.ContentType != "" && !vigil.IsTextMediaType(p.ContentType)) {
			continue // not read, read as text, or a binary leaf
		}
		if v := cur.Versions[p.URL]; v != 0 {
			out = append(out, siteScopePage{url: p.URL, version: v, importance: p.Importance})
		}
	}
	slices.SortFunc(out, func(a, b siteScopePage) int {
		return cmp.Or(cmp.Compare(b.importance, a.importance), cmp.Compare(a.url, b.url))
	})
	if len(out) > maxSiteScopePages {
		out = out[:maxSiteScopePages]
	}
	return out
}

// siteScopeRules numbers the rules the site notes are made by: a change
// to what is noted (2: an Ignore unused on every page, whatever their
// scopes) takes a new number, so that the notes every site sentinel
// kept are made again once, at its next check.
const siteScopeRules = 2

// siteScopeKey returns what the notes of pages for the Monitor clause of
// key (exprKey) are of: a short hash of the rules and the pages'
// versions, then key.
func siteScopeKey(pages []siteScopePage, key string) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "rules %d\n", siteScopeRules)
	for _, p := range pages {
		fmt.Fprintf(h, "%s %d\n", p.url, p.version)
	}
	return strconv.FormatUint(h.Sum64(), 36) + " " + key
}

// noteSiteScopeMisses records in j's state (SiteNotes) what j's Monitor
// clause looks at and no page of the site's crawl cur has, and the
// Ignores no page uses (siteIgnores), unless the state holds the notes of
// the same versions and clause already. A page
// that cannot be read is left out, and the notes looked at again at the
// next check; a selector that does not compile notes nothing.
func (m *Monitor) noteSiteScopeMisses(ctx context.Context, j *job, cur *siteRecord, grant *memoryGrant) {
	x := j.plan.expr
	if !needsScopeCheck(x) {
		j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
		return
	}
	pages := siteScopePages(cur)
	of := siteScopeKey(pages, exprKey(x))
	if j.st.SiteNotesOf == of {
		return
	}
	ignores := ignoresOf(x)
	var common []string // what every page looked at lacks, in the order of x
	looked, failed := 0, false
	for _, p := range pages {
		misses, ok, err := m.pageScopeMisses(ctx, p.version, x, grant)
		grant.done() // the page's look is over
		if err != nil {
			if ctx.Err() != nil {
				// Out of time (or shutting down): what was looked at
				// says nothing of the rest.
				j.st.SiteNotes, j.st.SiteNotesOf = nil, ""
				return
			}
			m.Logger.Warn("site scopes", LogSentinel, j.s.ID, logURL(p.url), LogVersion, p.version, LogError, err)
			failed = true
			continue
		}
		if !ok {
			continue
		}
		for i, miss := range misses {
			misses[i] = pageCount.ReplaceAllString(miss, "")
		}
		misses = ignores.unusedOn(misses)
		if looked == 0 {
			common = misses
		} else {
			common = commonMisses(common, misses)
		}
		looked++
		if len(common) == 0 {
			break
		}
	}
	j.st.SiteNotes = siteNotes(ignores.alone(common), j.plan.site.URL, looked)
	if failed {
		// Not the notes of these versions: looked at again next time.
		of = "- " + exprKey(x)
	}
	j.st.SiteNotesOf = of
}

// commonMisses returns the misses of common (what every page looked at so
// far lacks) that a page whose misses are misses lacks too, then those
// of misses that every page before lacked: a page lacks what it names,
// and what is under a scope it lacks ("scope table#u in css \"div.side\"
// matches nothing" on a page where "scope css \"div.side\" matches
// nothing", which intent.ScopeMisses says alone), so that a table under a
// scope that some pages have and none of them the table matches nothing
// on the site.
func commonMisses(common, misses []string) []string {
	var out []string
	for _, s := range common {
		if slices.Contains(misses, s) || underMissedScope(misses, s) {
			out = append(out, s)
		}
	}
	for _, s := range misses {
		if !slices.Contains(common, s) && underMissedScope(common, s) {
			out = append(out, s)
		}
	}
	return out
}

// underMissedScope reports whether miss names a table or a list in a
// scope ("scope table#u in css \"div.side\" matches nothing") that
// misses say matches nothing ("scope css \"div.side\" matches nothing").
func underMissedScope(misses []string, miss string) bool {
	for _, m := range misses {
		sel, ok := strings.CutPrefix(m, "scope ")
		if sel, found := strings.CutSuffix(sel, " matches nothing"); ok && found && strings.Contains(miss, " in "+sel+" matches nothing") {
			return true
		}
	}
	return false
}

// pageScopeMisses returns the scope misses of x on a version of a site's
// page (intent.ScopeMisses), read within grant (storedTree, whose errors
// it returns); ok is false for a version read as its source text, or not
// read into a tree at all, which has none.
func (m *Monitor) pageScopeMisses(ctx context.Context, version int64, x spec.Expr, grant *memoryGrant) (misses []string, ok bool, err error) {
	doc, why, err := m.storedTree(ctx, version, grant)
	if err != nil || doc == nil || why != "" {
		return nil, false, err
	}
	misses, err = intent.ScopeMisses(doc, x)
	return misses, err == nil, err
}

// siteNotes returns the notes of the misses of a site, at url, on the
// pages looked at: each miss cut at maxSiteMissLen, at most
// maxSiteScopeNotes notes, the last saying how many more when there are.
func siteNotes(misses []string, url string, looked int) []string {
	if len(misses) == 0 || looked == 0 {
		return nil
	}
	pages := "pages"
	if looked == 1 {
		pages = "page"
	}
	on := fmt.Sprintf(" on site %s (%d %s looked at)", vigil.RedactURL(url), looked, pages)
	var out []string
	for i, miss := range misses {
		if i == maxSiteScopeNotes-1 && len(misses) > maxSiteScopeNotes {
			out = append(out, fmt.Sprintf("and %d more scopes that match nothing%s", len(misses)-i, on))
			break
		}
		out = append(out, cutText(miss, maxSiteMissLen)+on)
	}
	return out
}

// cutText returns s, or its first bytes up to max, cut between runes, and
// "..." when it is longer.
func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if i > max {
			break
		}
		n = i
	}
	return s[:n] + "..."
}

// siteScopeNotes returns the notes of a site sentinel (SiteNotes) found
// for the Monitor clause of key (exprKey), sorted; none if they are of
// the clause before an edit (not looked at since).
func (s *state) siteScopeNotes(key string) []string {
	if !strings.HasSuffix(s.SiteNotesOf, " "+key) {
		return nil
	}
	out := slices.Clone(s.SiteNotes)
	slices.Sort(out)
	return out
}
