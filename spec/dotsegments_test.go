package spec

import "testing"

// TestNormalizeURLDotSegments: the dot segments of a sentinel's URL are
// resolved, as vigil.CanonicalURL resolves them for its resource
// (RFC 3986 remove_dot_segments), so that "/a/./b" and "/a/b" are one
// target to the checker; scheme and host are lower-cased and the default
// port dropped as before, and the fragment is kept as written (the
// monitor fetches and keys the page without it).
func TestNormalizeURLDotSegments(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"dot":                 {"http://h/a/./b", "http://h/a/b"},
		"dot and fragment":    {"http://h/a/./b#x", "http://h/a/b#x"},
		"dot dot":             {"http://h/a/x/../b", "http://h/a/b"},
		"both":                {"http://h/a/./x/../b", "http://h/a/b"},
		"past the root":       {"http://h/../../a", "http://h/a"},
		"trailing dot":        {"http://h/a/b/.", "http://h/a/b/"},
		"trailing dot dot":    {"http://h/a/b/..", "http://h/a/"},
		"percent-encoded dot": {"http://h/a/%2E/b/%2e%2E/c", "http://h/a/c"},
		"query kept":          {"http://h/a/./b?x=./y#f", "http://h/a/b?x=./y#f"},
		"dots in a name":      {"http://h/a/.b/c../d.e", "http://h/a/.b/c../d.e"},
		"case and port":       {"HTTP://H.Example:80/a/./b", "http://h.example/a/b"},
		"escape kept":         {"http://h/a/./b%2Fc", "http://h/a/b%2Fc"},
		"no path":             {"http://h", "http://h/"},
	} {
		if got, err := NormalizeURL(tc.in); err != nil || got != tc.want {
			t.Errorf("%s: NormalizeURL(%q) = %q, %v; want %q", name, tc.in, got, err, tc.want)
		}
	}
}

// TestSameTargetDotSegments: the checker refuses a sentinel whose targets
// are one page spelt with and without dot segments, as it refused one
// spelt with and without a fragment.
func TestSameTargetDotSegments(t *testing.T) {
	if targetKey(&URLTarget{URL: "http://h/a/./b#x"}) != targetKey(&URLTarget{URL: "http://h/a/b"}) {
		t.Errorf("http://h/a/./b#x and http://h/a/b are two targets, want one")
	}
}
