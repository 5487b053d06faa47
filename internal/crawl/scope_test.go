package crawl

import (
	"slices"
	"testing"
)

// TestScopeContains: a scope prefix takes the URLs under it at a path
// segment boundary, on its own scheme and host; with a query, the URLs of
// its path whose query starts with it. Format 1's raw prefixes take any
// URL that starts with the prefix's text.
func TestScopeContains(t *testing.T) {
	for name, tc := range map[string]struct {
		prefix, url string
		want, raw   bool
	}{
		"the path itself":          {"https://example.org/docs", "https://example.org/docs", true, true},
		"its directory":            {"https://example.org/docs", "https://example.org/docs/", true, true},
		"below it":                 {"https://example.org/docs", "https://example.org/docs/x/y.html", true, true},
		"its query":                {"https://example.org/docs", "https://example.org/docs?q=1", true, true},
		"a longer segment":         {"https://example.org/docs", "https://example.org/docs-old/", false, true},
		"a longer name":            {"https://example.org/docs", "https://example.org/docsx", false, true},
		"a parent":                 {"https://example.org/docs", "https://example.org/", false, false},
		"directory prefix":         {"https://example.org/docs/", "https://example.org/docs/a.html", true, true},
		"directory without slash":  {"https://example.org/docs/", "https://example.org/docs", false, false},
		"file prefix":              {"https://example.org/docs/a.html", "https://example.org/docs/a.html?x", true, true},
		"file prefix, longer":      {"https://example.org/docs/a.html", "https://example.org/docs/a.html5", false, true},
		"root":                     {"https://example.org/", "https://example.org/anything?q", true, true},
		"another scheme":           {"https://example.org/docs", "http://example.org/docs/", false, false},
		"another port":             {"http://127.0.0.1:80/", "http://127.0.0.1:8080/", false, false},
		"a longer port":            {"http://127.0.0.1:1/", "http://127.0.0.1:12/", false, false},
		"another host":             {"https://example.org/", "https://example.org.evil.test/", false, false},
		"user information":         {"https://example.org/", "https://me@example.org/", false, false},
		"query prefix":             {"https://example.org/list?page=", "https://example.org/list?page=2", true, true},
		"query prefix, other":      {"https://example.org/list?page=", "https://example.org/list?sort=1", false, false},
		"query prefix, no query":   {"https://example.org/list?page=", "https://example.org/list", false, false},
		"query prefix, below path": {"https://example.org/list?page=", "https://example.org/list/x?page=2", false, false},
	} {
		for _, raw := range []bool{false, true} {
			q := Query{Start: "https://example.org/", Scope: []string{tc.prefix}, MaxPages: 1}
			r, err := q.resolved()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			s, err := newScope(&r, raw)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if raw {
				want = tc.raw
			}
			if got := s.contains(tc.url); got != want {
				t.Errorf("%s: scope %s (raw prefixes: %v) contains %s: %v, want %v", name, r.Scope[0], raw, tc.url, got, want)
			}
		}
	}
}

// TestCanonicalScope: a scope is a set of prefixes: the order they are
// given in and their repeats (in any spelling of one URL) do not change
// what a crawl reaches, so a query's resolved scope holds each canonical
// prefix once, sorted, and two crawls given the same prefixes in another
// order record the same scope.
func TestCanonicalScope(t *testing.T) {
	for name, tc := range map[string]struct {
		in, want []string
	}{
		"empty":     {nil, []string{}},
		"sorted":    {[]string{"https://b.example/x", "https://a.example/y"}, []string{"https://a.example/y", "https://b.example/x"}},
		"repeated":  {[]string{"https://a.example/docs", "HTTPS://A.example:443/docs", "https://a.example/docs#top"}, []string{"https://a.example/docs"}},
		"distinct":  {[]string{"https://a.example/docs/", "https://a.example/docs"}, []string{"https://a.example/docs", "https://a.example/docs/"}},
		"not a URL": {[]string{"ftp://a.example/", "https://a.example/"}, []string{"ftp://a.example/", "https://a.example/"}},
	} {
		if got := CanonicalScope(tc.in); !slices.Equal(got, tc.want) || got == nil {
			t.Errorf("%s: CanonicalScope(%q) = %#v, want %q", name, tc.in, got, tc.want)
		}
	}
	q := Query{Start: "https://a.example/", Scope: []string{"https://a.example/z", "https://a.example/a", "https://A.example/z"}, MaxPages: 1}
	r, err := q.resolved()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://a.example/a", "https://a.example/z"}; !slices.Equal(r.Scope, want) {
		t.Errorf("resolved scope %q, want %q", r.Scope, want)
	}
	if q.Scope[0] != "https://a.example/z" {
		t.Errorf("resolved changed the query's own scope: %q", q.Scope)
	}
}

// TestQueryUnderScope: UnderScope says whether a URL lies under the
// query's prefixes, as the crawl follows a link, whatever its Match, and
// under the start's directory without a scope; vigil site crawl asks it
// of the start page, which a scope need not take.
func TestQueryUnderScope(t *testing.T) {
	q := Query{Start: "https://example.org/", Scope: []string{"https://example.org/docs/", "https://example.org/blog"}, Match: "nothing"}
	for u, want := range map[string]bool{
		"https://example.org/":           false,
		"https://example.org/docs/a":     true,
		"https://example.org/blog?page=": true,
		"https://example.org/blog-old/":  false,
	} {
		if got := q.UnderScope(u); got != want {
			t.Errorf("UnderScope(%q) = %v, want %v", u, got, want)
		}
	}
	dflt := Query{Start: "https://example.org/docs/a.html"}
	if !dflt.UnderScope("https://example.org/docs/b.html") || dflt.UnderScope("https://example.org/blog/") {
		t.Errorf("without a scope, UnderScope does not take the start's directory alone")
	}
}

// TestScopeUpgraded: an http URL out of the scope is read as its https
// form when a prefix of https on the same host and default ports takes
// that form (a site that moved to https, linking its pages with their old
// scheme); never on another host or port, never a URL the scope takes as
// it is, never an https URL, never into a directory the scope does not
// take.
func TestScopeUpgraded(t *testing.T) {
	for name, tc := range map[string]struct {
		scope []string
		match string
		url   string
		want  string // "" for none
	}{
		"same host and directory":  {[]string{"https://example.org/docs/"}, "", "http://example.org/docs/a.html", "https://example.org/docs/a.html"},
		"with its query":           {[]string{"https://example.org/docs/"}, "", "http://example.org/docs/a?x=1", "https://example.org/docs/a?x=1"},
		"another directory":        {[]string{"https://example.org/docs/"}, "", "http://example.org/blog/a.html", ""},
		"another host":             {[]string{"https://example.org/docs/"}, "", "http://www.example.org/docs/a.html", ""},
		"a port on the link":       {[]string{"https://example.org/docs/"}, "", "http://example.org:8080/docs/a.html", ""},
		"a port on the scope":      {[]string{"https://example.org:8443/docs/"}, "", "http://example.org/docs/a.html", ""},
		"already https":            {[]string{"https://example.org/docs/"}, "", "https://example.org/blog/", ""},
		"taken as it is":           {[]string{"https://example.org/docs/", "http://example.org/docs/"}, "", "http://example.org/docs/a.html", ""},
		"the scope of http":        {[]string{"http://example.org/docs/"}, "", "http://example.org/blog/a.html", ""},
		"match refuses the https":  {[]string{"https://example.org/docs/"}, `^http://`, "http://example.org/docs/a.html", ""},
		"match takes the https":    {[]string{"https://example.org/docs/"}, `\.html$`, "http://example.org/docs/a.html", "https://example.org/docs/a.html"},
		"the other of two origins": {[]string{"https://example.org/docs/", "https://example.net/"}, "", "http://example.net/x", "https://example.net/x"},
	} {
		t.Run(name, func(t *testing.T) {
			s, err := newScope(&Query{Scope: tc.scope, Match: tc.match}, false)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := s.upgraded(tc.url)
			if ok != (tc.want != "") || got != tc.want {
				t.Errorf("upgraded(%s) = %q, %v; want %q", tc.url, got, ok, tc.want)
			}
		})
	}
}
