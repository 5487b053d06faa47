package vigil_test

import (
	"net/url"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// TestPercentEncodingAgrees: the links a page names (intent.ResolveURL)
// spell their percent-encoding as the warehouse keys pages
// (vigil.CanonicalURL), so that a link and the page it leads to are one
// URL. Package intent may not import the domain and keeps its own copy of
// the rule; this keeps the two in step.
func TestPercentEncodingAgrees(t *testing.T) {
	base, err := url.Parse("http://example.com/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		"http://example.com/%7Euser/",
		"http://example.com/%7euser/",
		"http://example.com/~user/",
		"http://example.com/a%2Fb/c",
		"http://example.com/a%2fb/c",
		"http://example.com/caf%c3%a9",
		"http://example.com/%41%42%43",
		"http://example.com/x?q=%7e&r=a%2fb&s=%20",
		"http://example.com/x?q=%zz&r=%4",
		"https://example.com/a%20b?c=d%3De",
	} {
		want, err := vigil.CanonicalURL(in)
		if err != nil {
			t.Fatalf("CanonicalURL(%q): %v", in, err)
		}
		if got := intent.ResolveURL(base, in); got != want {
			t.Errorf("%s: intent.ResolveURL %s, vigil.CanonicalURL %s", in, got, want)
		}
	}
}
