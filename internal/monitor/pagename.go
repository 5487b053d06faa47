package monitor

import (
	"fmt"
	"html"
	"net/url"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/intent"
)

// A message that tells the changes of several pages together ("Using A
// AND B") names, in its subject, the page of each change, so that two
// alike ("any change: 1 text changed") are told apart from the subject
// alone; its body names each page by its whole URL. A subject's line is
// short: a page is named by its host and path, the path clipped in its
// middle, and by more of its URL only where that is needed to tell two
// pages apart. A message on one page names none: its sentinel's name
// says it.

// maxPageName bounds a page's name in a subject (pageNames), unless
// clipped names would name two pages alike.
const maxPageName = 40

// minPathTail is the least of a path pageName keeps after a host too long
// for maxPageName.
const minPathTail = 20

// pageNames returns the names of the pages of a message's changes, urls
// (one for each change, in their order), in the same order: nil when
// they are all one page. Every page is named in the same way, the
// shortest of: its host and path (clipped to maxPageName: pageName),
// with its query, its host, path and query unclipped, that names no two
// pages alike; else its whole URL, without its password.
func pageNames(urls []string) []string {
	var pages []string
	for _, u := range urls {
		if !slices.Contains(pages, u) {
			pages = append(pages, u)
		}
	}
	if len(pages) < 2 {
		return nil
	}
	for _, way := range []struct{ query, clip bool }{{false, true}, {true, true}, {true, false}} {
		names := make(map[string]string, len(pages))
		seen := make(map[string]bool, len(pages))
		for _, u := range pages {
			n := pageName(u, way.query, way.clip)
			if seen[n] {
				break
			}
			seen[n], names[u] = true, n
		}
		if len(names) == len(pages) {
			out := make([]string, len(urls))
			for i, u := range urls {
				out[i] = names[u]
			}
			return out
		}
	}
	// Pages alike but for their scheme, user or fragment: their whole
	// URLs, without a password.
	out := make([]string, len(urls))
	for i, raw := range urls {
		out[i] = raw
		if u, err := url.Parse(raw); err == nil {
			out[i] = u.Redacted()
		}
	}
	return out
}

// pageName names the page at raw by its host and path, without its final
// "/", with its query if query; clipped to maxPageName if clip: its host,
// "/…/" and the end of its path from a "/", or "/…" and the last of it if
// its last segment alone is too long. It is raw itself if raw is no
// absolute URL.
func pageName(raw string, query, clip bool) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	rest := strings.TrimSuffix(u.EscapedPath(), "/")
	if query && u.RawQuery != "" {
		rest += "?" + u.RawQuery
	}
	host := u.Host
	if !clip || len([]rune(host+rest)) <= maxPageName {
		return host + rest
	}
	// A host too long to leave room for the path still gets the end of
	// the path: the name goes past maxPageName rather than lose the part
	// that tells two pages of the host apart.
	budget := max(maxPageName-len([]rune(host))-len([]rune("/…/")), minPathTail)
	if len([]rune(rest)) <= budget+1 {
		return host + rest
	}
	tail := ""
	for i := range rest {
		if rest[i] == '/' && len([]rune(rest[i+1:])) <= budget {
			tail = rest[i+1:]
			break
		}
	}
	if tail != "" {
		return host + "/…/" + tail
	}
	r := []rune(rest)
	return host + "/…" + string(r[charStart(r, len(r)-budget-1):])
}

// charStart returns from, or the place after it where a character of r, a
// percent-escaped URL or part of one, starts: not inside an escape, whose
// hex digits read alone would name another path, nor at an escape of a
// byte that continues a UTF-8 character.
func charStart(r []rune, from int) int {
	for from > 0 && from < len(r)-1 && (r[from-1] == '%' || from >= 2 && r[from-2] == '%' ||
		r[from] == '%' && strings.ContainsRune("89ABab", r[from+1])) {
		from++
	}
	return from
}

// changedPages returns the pages that changed, each once, in the order a
// message tells them, for its first line: for a site's sentinel, the
// pages its changes' records name (lists, a change's records each); for
// a sentinel on pages, the page of each change, pages, when known (a
// digest's span the sentinel's pages: with "Using A OR B", the one that
// changed, not both), else the sentinel's pages. A digest's are those
// that changed in its period, and a message's those of its changes.
func changedPages(p *plan, pages []string, lists [][]intent.Change) []string {
	if p.site != nil {
		pages = nil
		for _, list := range lists {
			for _, c := range list {
				if c.Kind == intent.KindPage && c.Page != nil {
					pages = append(pages, c.Page.URL)
				}
			}
		}
	} else if len(pages) == 0 {
		return p.urls
	}
	var changed []string
	for _, u := range pages {
		if !slices.Contains(changed, u) {
			changed = append(changed, u)
		}
	}
	return changed
}

// listPages lists pages for a message's first line: "A", "A and B", "A,
// B and C"; past maxPagesNamed, the first of them and how many more ("A,
// B, ..., J and 190 more pages"): a site may have hundreds, which the
// message's body lists.
func listPages(pages []string) string {
	switch n := len(pages); {
	case n < 2:
		return strings.Join(pages, "")
	case n <= maxPagesNamed:
		return strings.Join(pages[:n-1], ", ") + " and " + pages[n-1]
	case n == maxPagesNamed+1:
		return strings.Join(pages[:maxPagesNamed], ", ") + " and 1 more page"
	default:
		return strings.Join(pages[:maxPagesNamed], ", ") + fmt.Sprintf(" and %d more pages", n-maxPagesNamed)
	}
}

// pageLink is the HTML link to the page at u, named by u.
func pageLink(u string) string {
	return fmt.Sprintf("<a href=\"%s\">%s</a>", html.EscapeString(u), html.EscapeString(u))
}
