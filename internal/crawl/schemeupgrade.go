package crawl

import (
	"net/url"
	"strings"

	"github.com/vigil-web/vigil"
)

// SchemeUpgrade reports whether the scope prefix to is the prefix from
// moved to https alone, as a site does that comes to redirect its http
// URLs to their https form: from is an http URL and to the https URL of
// the same host, user information, path and query, each on its scheme's
// default port (no port written in canonical form). A move to another
// host, another port, another path, or from https to http is none. It
// returns the two origins ("http://example.org", "https://example.org"),
// which Snapshot.Rekeyed takes.
func SchemeUpgrade(from, to string) (oldOrigin, newOrigin string, ok bool) {
	f, err1 := vigil.CanonicalURL(from)
	t, err2 := vigil.CanonicalURL(to)
	if err1 != nil || err2 != nil {
		return "", "", false
	}
	rest, isHTTP := strings.CutPrefix(f, "http://")
	if !isHTTP || t != "https://"+rest {
		return "", "", false
	}
	u, err := url.Parse(f)
	if err != nil || u.Port() != "" {
		return "", "", false
	}
	origin, _, _, _ := splitURL(f)
	return origin, "https://" + strings.TrimPrefix(origin, "http://"), true
}

// Rekeyed returns a copy of s whose URLs on the origin from are on the
// origin to instead ("http://example.org/docs/a.html" becomes
// "https://example.org/docs/a.html" for the origins SchemeUpgrade
// returns): the pages' URLs, their links' targets, the redirects, the
// scope prefixes and the sites. Query.Start, the URL the crawl was asked
// to start from, is kept, as is a redirect's from that is Start: the next
// crawl starts from it too, and is led from it to the first page. It is a
// reference crawled before a site moved to https read as if crawled
// after, so that its pages are matched with the same pages at their new
// URLs rather than all deleted and added. The pages are copies; their
// bodies, versions and hashes are kept. s is not changed.
func (s *Snapshot) Rekeyed(from, to string) *Snapshot {
	move := func(u string) string { return rekey(u, from, to) }
	out := *s
	out.Query.Scope = RekeyedScope(s.Query.Scope, from, to)
	out.Pages = make([]*Page, len(s.Pages))
	for i, p := range s.Pages {
		c := *p
		c.URL = move(p.URL)
		c.Links = make([]Link, len(p.Links))
		for j, l := range p.Links {
			c.Links[j] = Link{Target: move(l.Target), Label: l.Label}
		}
		if p.Links == nil {
			c.Links = nil
		}
		out.Pages[i] = &c
	}
	// A redirect from Query.Start keeps its from, as Start is kept: it
	// leads to the first page, at its new URL. A first page that was
	// Start itself is now where Start redirects to, as it does now.
	out.Redirects = nil
	redirected := map[string]bool{}
	if len(s.Pages) > 0 && s.Pages[0].URL == s.Query.Start && out.Pages[0].URL != s.Query.Start {
		out.Redirects = append(out.Redirects, Redirect{From: s.Query.Start, To: out.Pages[0].URL})
		redirected[s.Query.Start] = true
	}
	for _, r := range s.Redirects {
		moved := Redirect{From: move(r.From), To: move(r.To)}
		if r.From == s.Query.Start {
			moved.From = r.From
		}
		if moved.From == moved.To || redirected[moved.From] {
			continue // was from http to https already, or met at both
		}
		redirected[moved.From] = true
		out.Redirects = append(out.Redirects, moved)
	}
	if s.Sites != nil {
		out.Sites = make([]Site, len(s.Sites))
		for i, site := range s.Sites {
			site.Origin = move(site.Origin)
			out.Sites[i] = site
		}
	}
	return &out
}

// rekey returns u on the origin to if it is on the origin from, else u.
func rekey(u, from, to string) string {
	if rest, ok := strings.CutPrefix(u, from); ok && (rest == "" || rest[0] == '/' || rest[0] == '?') {
		return to + rest
	}
	return u
}

// RekeyedScope returns the scope prefixes with those on the origin from
// moved to the origin to, in canonical order (CanonicalScope), as
// Rekeyed moves a snapshot's. scope is not changed.
func RekeyedScope(scope []string, from, to string) []string {
	out := make([]string, len(scope))
	for i, p := range scope {
		out[i] = rekey(p, from, to)
	}
	return CanonicalScope(out)
}

// upgradedScope returns a written scope (the query's, canonical) followed
// to https, when the start page, asked at start, led to page, a URL the
// scope does not take but whose http form it does, on start's origin
// moved to https alone (SchemeUpgrade: the same host, each scheme's
// default port): the site moved to https, and its pages are now at the
// https form of the scope's. The prefixes on start's origin are moved to
// https (RekeyedScope), the others kept. A start page led anywhere else
// leaves the scope as written.
func upgradedScope(scope []string, start, page string) ([]string, bool) {
	written, err := newScope(&Query{Scope: scope}, false)
	rest, isHTTPS := strings.CutPrefix(page, "https://")
	if err != nil || !isHTTPS || written.contains(page) || !written.contains("http://"+rest) {
		return nil, false
	}
	from, to, ok := SchemeUpgrade("http://"+rest, page)
	if origin, _, _, _ := splitURL(start); !ok || origin != from {
		return nil, false
	}
	return RekeyedScope(scope, from, to), true
}
