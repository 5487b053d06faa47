package vigil_test

import (
	"strings"
	"testing"
	"time"

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
		// A URL's credentials are a secret: the version's URL, shown
		// by the API and resolving the page's links, holds none.
		"credentials":              {"http://a.example/old", "http://user:secret@a.example/new/page", "http://a.example/new/page"},
		"credentials, the same":    {"http://a.example/old", "http://user:secret@a.example/old", ""},
		"a resource's credentials": {"http://user:secret@a.example/old", "http://user:secret@a.example/new", "http://a.example/new"},
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

// TestVersionURLCredentialsRefused: a version whose URL carries
// credentials is refused, as they would be shown with it.
func TestVersionURLCredentialsRefused(t *testing.T) {
	v := &vigil.Version{ResourceID: 1, FetchedAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
		ContentHash: strings.Repeat("0", 64), URL: "http://user:secret@a.example/new/page"}
	err := v.Validate()
	if vigil.ErrorCode(err) != vigil.EINVALID {
		t.Fatalf("Validate of a version URL with credentials: %v, want EINVALID", err)
	}
	if strings.Contains(err.Error(), "secret") {
		t.Errorf("the error shows the password: %v", err)
	}
}

// TestVersionShownURL: the API shows a version's final URL with the
// query values a redirect added hidden (a session token, a signature),
// and those of the URL watched as written.
func TestVersionShownURL(t *testing.T) {
	for name, tc := range map[string]struct{ resource, url, want string }{
		"not moved":         {"http://a.example/old", "", ""},
		"no query":          {"http://a.example/old", "http://a.example/new", "http://a.example/new"},
		"a session added":   {"http://a.example/old", "http://a.example/new?sid=8f3a91&lang=en", "http://a.example/new?sid=xxxxx&lang=xxxxx"},
		"the watched query": {"http://a.example/old?id=7", "http://a.example/new?id=7", "http://a.example/new?id=7"},
		"a value changed":   {"http://a.example/old?id=7", "http://a.example/new?id=8", "http://a.example/new?id=xxxxx"},
		"one added":         {"http://a.example/old?id=7&x", "http://a.example/new?id=7&token=abc&x", "http://a.example/new?id=7&token=xxxxx&x"},
		"a bare token":      {"http://a.example/old", "http://a.example/new?8f3a91", "http://a.example/new?xxxxx"},
		"an empty value":    {"http://a.example/old", "http://a.example/new?a=&&b", "http://a.example/new?a=xxxxx&&xxxxx"},
		"an encoded value":  {"http://a.example/old?q=a%26b", "http://a.example/new?q=a%26b&s=a%3Db", "http://a.example/new?q=a%26b&s=xxxxx"},
	} {
		t.Run(name, func(t *testing.T) {
			v := &vigil.Version{URL: tc.url}
			if got := v.ShownURL(tc.resource); got != tc.want {
				t.Errorf("ShownURL(%q) of %q = %q, want %q", tc.resource, tc.url, got, tc.want)
			}
		})
	}
	if got := (*vigil.Version)(nil).ShownURL("http://a.example/old"); got != "" {
		t.Errorf("ShownURL of no version = %q, want \"\"", got)
	}
}
