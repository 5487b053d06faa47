package crawl

import (
	"fmt"
	"regexp"
	"strings"
)

// scope decides which link targets a crawl follows: the URLs under one of
// the query's prefixes that match its regular expression.
//
// A prefix is a canonical URL, cut in three: its origin (scheme, user
// information, host and port), its path and its query. A URL is under it
// when the origins are equal and
//
//   - without a query in the prefix, the URL's path is the prefix's path,
//     or goes on from it at a segment boundary: "/docs" takes "/docs",
//     "/docs/", "/docs/x" and "/docs?q", not "/docs-old"; a path that ends
//     in "/" ("/docs/") takes the paths that start with it;
//   - with a query ("/list?page="), the paths are equal and the URL's
//     query starts with the prefix's (a query has no segments).
//
// Snapshots of format 1 were crawled with the prefixes as raw string
// prefixes of the URL (so "/docs" took "/docs-old/"); they are validated
// with that rule (rawPrefixes).
type scope struct {
	prefixes []scopePrefix
	raw      []string // the prefixes as given, for rawPrefixes
	// rawPrefixes matches the URL against the prefixes as strings, as
	// format 1 did.
	rawPrefixes bool
	match       *regexp.Regexp // nil: every URL
}

// scopePrefix is one prefix of a scope, cut as splitURL cuts.
type scopePrefix struct {
	origin, path, query string
	hasQuery            bool
}

// newScope returns the scope of q, its prefixes matched at a path
// segment boundary, or as raw string prefixes when rawPrefixes is set.
func newScope(q *Query, rawPrefixes bool) (*scope, error) {
	s := &scope{raw: q.Scope, rawPrefixes: rawPrefixes}
	for _, p := range q.Scope {
		var sp scopePrefix
		sp.origin, sp.path, sp.query, sp.hasQuery = splitURL(p)
		s.prefixes = append(s.prefixes, sp)
	}
	if q.Match != "" {
		re, err := regexp.Compile(q.Match)
		if err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
		s.match = re
	}
	return s, nil
}

// UnderScope reports whether the canonical URL u lies under one of q's
// Scope prefixes, as a crawl of q follows a link, leaving Match aside; a
// query without Scope takes its start's directory (DefaultScope). The
// start page is crawled whatever its scope, which need not take it.
func (q *Query) UnderScope(u string) bool {
	prefixes := q.Scope
	if len(prefixes) == 0 {
		dir, err := DefaultScope(q.Start)
		if err != nil {
			return false
		}
		prefixes = []string{dir}
	}
	s, err := newScope(&Query{Scope: prefixes}, false)
	return err == nil && s.contains(u)
}

// contains reports whether the canonical URL u is in the scope.
func (s *scope) contains(u string) bool {
	if s.match != nil && !s.match.MatchString(u) {
		return false
	}
	if s.rawPrefixes {
		for _, p := range s.raw {
			if strings.HasPrefix(u, p) {
				return true
			}
		}
		return false
	}
	origin, path, query, hasQuery := splitURL(u)
	for _, p := range s.prefixes {
		if p.origin == origin && p.under(path, query, hasQuery) {
			return true
		}
	}
	return false
}

// upgraded returns the https form of u, an http URL on its scheme's
// default port, when that form is in the scope and u is not: a link of a
// site that moved to https, written absolute with its old scheme
// ("http://example.org/docs/a.html" in a crawl of
// "https://example.org/docs/"), which the site redirects to its https
// form. Only the scheme changes: the same host, user information, path
// and query (SchemeUpgrade), each scheme's default port; the prefix that
// takes the https form is on https's default port too, since it is of
// the same origin. A URL the scope takes as it is, or one on another
// host or port, is never upgraded, so the scope is not widened.
func (s *scope) upgraded(u string) (string, bool) {
	rest, ok := strings.CutPrefix(u, "http://")
	if !ok || s.rawPrefixes || s.contains(u) {
		return "", false
	}
	up := "https://" + rest
	if _, _, ok := SchemeUpgrade(u, up); !ok || !s.contains(up) {
		return "", false
	}
	return up, true
}

// under reports whether a path and query of the prefix's origin lie under
// the prefix.
func (p *scopePrefix) under(path, query string, hasQuery bool) bool {
	if p.hasQuery {
		return path == p.path && hasQuery && strings.HasPrefix(query, p.query)
	}
	rest, ok := strings.CutPrefix(path, p.path)
	return ok && (rest == "" || rest[0] == '/' || strings.HasSuffix(p.path, "/"))
}

// splitURL cuts a canonical URL into its origin ("https://example.org:8080",
// user information included), its path ("/" at least) and its query.
func splitURL(u string) (origin, path, query string, hasQuery bool) {
	host := strings.Index(u, "://")
	if host < 0 {
		return u, "/", "", false
	}
	host += len("://")
	end := strings.IndexAny(u[host:], "/?")
	if end < 0 {
		return u, "/", "", false
	}
	origin, rest := u[:host+end], u[host+end:]
	path, query, hasQuery = strings.Cut(rest, "?")
	if path == "" {
		path = "/"
	}
	return origin, path, query, hasQuery
}
