package vigil_test

import (
	"testing"

	"github.com/vigil-web/vigil"
)

// TestVersionURL: a version records the final URL of its fetch only
// when a redirect led away from its resource's URL, in its canonical
// form, so that a fetch that did not move records none.
func TestVersionURL(t *testing.T) {
	for name, tc := range map[string]struct{ resource, final, want string }{
		"no final URL":          {"http://a.example/old", "", ""},
		"the same":              {"http://a.example/old", "http://a.example/old", ""},
		"the same, spelt apart": {"http://a.example/old", "HTTP://A.example:80/old#top", ""},
		"redirected":            {"http://a.example/old", "http://a.example/new/page", "http://a.example/new/page"},
		"redirected, canonical": {"http://a.example/old", "HTTP://B.example:80/new/./page#x", "http://b.example/new/page"},
		"not a URL":             {"http://a.example/old", "ftp://a.example/x", ""},
	} {
		t.Run(name, func(t *testing.T) {
			if got := vigil.VersionURL(tc.resource, tc.final); got != tc.want {
				t.Errorf("VersionURL(%q, %q) = %q, want %q", tc.resource, tc.final, got, tc.want)
			}
		})
	}
}

// TestVersionPageURL: a version's links resolve against the URL it was
// read from, its resource's unless it records another.
func TestVersionPageURL(t *testing.T) {
	for name, tc := range map[string]struct {
		v    *vigil.Version
		want string
	}{
		"no version": {nil, "http://a.example/old"},
		"not moved":  {&vigil.Version{}, "http://a.example/old"},
		"redirected": {&vigil.Version{URL: "http://a.example/new/page"}, "http://a.example/new/page"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := tc.v.PageURL("http://a.example/old"); got != tc.want {
				t.Errorf("PageURL = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSameLinkBase: two page URLs are one base for relative links when
// they differ only in their queries and fragments.
func TestSameLinkBase(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"http://a.example/new/page", "http://a.example/new/page", true},
		{"http://a.example/new/page?sid=1", "http://a.example/new/page?sid=2", true},
		{"http://a.example/new/page", "http://a.example/new/page?sid=2#top", true},
		{"http://a.example/new/page", "http://a.example/newer/page", false},
		{"http://a.example/new/page", "http://a.example/new/", false},
		{"http://a.example/new/page", "https://a.example/new/page", false},
		{"http://a.example/new/page?x", "http://b.example/new/page?x", false},
	} {
		if got := vigil.SameLinkBase(c.a, c.b); got != c.want {
			t.Errorf("SameLinkBase(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
