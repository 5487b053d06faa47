package spec

import (
	"fmt"
	"strings"
)

// URLs written without a scheme: the seed writes "www2.uta.edu/...", and
// the language takes it as "http://www2.uta.edu/...". The checked
// sentinel, the form that is stored and shown, holds the URL that is
// fetched; the parsed sentinel, and so vigil sentinel fmt, keeps the text
// as written.

// hasScheme reports whether raw, a URL as written, names its scheme.
func hasScheme(raw string) bool {
	return strings.Contains(strings.TrimSpace(raw), "://")
}

// noSchemeMessage is the warning of a URL written without a scheme,
// normalised to canonical: it is fetched with http, and https may be the
// one meant.
func noSchemeMessage(canonical string) string {
	return fmt.Sprintf("no scheme: read as %s (write %s if the site has HTTPS)",
		canonical, "https://"+strings.TrimPrefix(canonical, "http://"))
}

// noScheme warns at n of raw, a valid URL whose normal form is canonical,
// if it is written without a scheme; not for a stored sentinel, which was
// accepted as it is.
func (v *validator) noScheme(n Node, raw, canonical string) {
	if v.stored || v.warn == nil || hasScheme(raw) {
		return
	}
	v.warn(n, raw, noSchemeMessage(canonical))
}

// urlAt is the position of a site's URL, for a message about it: the
// SiteTarget's own position is that of the word "site".
type urlAt struct{ pos Pos }

func (u urlAt) Pos() Pos { return u.pos }

// canonicalTarget returns t with the URLs of its pages, and of its site
// and the site's scopes, in the form NormalizeURL gives (normalizeURL,
// not strict, for a stored sentinel), the ones fetched: "example.org"
// is "http://example.org/". The nodes it changes are copies, their
// positions kept; t is not changed. A URL that does not normalise is
// left as written (the validator reported it).
func canonicalTarget(t Target, strict bool) Target {
	canon := func(raw string) string {
		if u, err := normalizeURL(raw, strict); err == nil {
			return u
		}
		return raw
	}
	switch t := t.(type) {
	case *URLTarget:
		if u := canon(t.URL); u != t.URL {
			c := *t
			c.URL = u
			return &c
		}
	case *SiteTarget:
		c := *t
		c.URL = canon(t.URL)
		c.Scope = nil
		for _, s := range t.Scope {
			if s != nil {
				if u := canon(s.Value); u != s.Value {
					s = &Lit{ValuePos: s.ValuePos, Value: u}
				}
			}
			c.Scope = append(c.Scope, s)
		}
		return &c
	case *BinaryTarget:
		x, y := canonicalTarget(t.X, strict), canonicalTarget(t.Y, strict)
		if x != t.X || y != t.Y {
			c := *t
			c.X, c.Y = x, y
			return &c
		}
	}
	return t
}
