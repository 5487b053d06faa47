package crawl

import (
	"slices"
	"testing"
)

// TestUpgradedScope: a written scope follows its start page to https
// only when the page is the https form of a URL the scope takes, out of
// it, on the start's origin moved to https alone; the prefixes of that
// origin move, the others stay.
func TestUpgradedScope(t *testing.T) {
	for name, tc := range map[string]struct {
		scope       []string
		start, page string
		want        []string // nil: not followed
	}{
		"the scope's directory": {[]string{"http://example.org/docs/"}, "http://example.org/docs/", "https://example.org/docs/",
			[]string{"https://example.org/docs/"}},
		"its prefixes of the origin": {[]string{"http://example.org/api/", "http://example.org/docs/", "http://example.net/"}, "http://example.org/docs/index.html", "https://example.org/docs/index.html",
			[]string{"http://example.net/", "https://example.org/api/", "https://example.org/docs/"}},
		"taken as it is":    {[]string{"http://example.org/docs/", "https://example.org/docs/"}, "http://example.org/docs/", "https://example.org/docs/", nil},
		"another directory": {[]string{"http://example.org/docs/"}, "http://example.org/docs/", "https://example.org/v2/docs/", nil},
		"another host":      {[]string{"http://example.org/docs/"}, "http://example.org/docs/", "https://www.example.org/docs/", nil},
		"another port":      {[]string{"http://example.org/docs/"}, "http://example.org/docs/", "https://example.org:8443/docs/", nil},
		"a port kept":       {[]string{"http://example.org:8080/docs/"}, "http://example.org:8080/docs/", "https://example.org:8080/docs/", nil},
		"start elsewhere":   {[]string{"http://example.org/docs/"}, "http://example.net/", "https://example.org/docs/", nil},
		"not moved":         {[]string{"http://example.org/docs/"}, "http://example.org/docs/", "http://example.org/docs/", nil},
	} {
		t.Run(name, func(t *testing.T) {
			got, ok := upgradedScope(tc.scope, tc.start, tc.page)
			if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
				t.Errorf("upgradedScope(%q, %s, %s) = %q, %v; want %q", tc.scope, tc.start, tc.page, got, ok, tc.want)
			}
		})
	}
}
