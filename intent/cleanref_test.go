package intent

import (
	"net/url"
	"testing"
)

// TestResolveURLWrappedRef: a reference holding tabs or line breaks, as
// an editor's line wrapping leaves in a long href, resolves as a browser
// resolves it, those characters dropped (CleanRef), where it was shown as
// written, url.Parse refusing it.
func TestResolveURLWrappedRef(t *testing.T) {
	base, err := url.Parse("https://a.example/docs/index.html")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ref, want string
	}{
		{"guide/very-\n    long.html", "https://a.example/docs/guide/very-%20%20%20%20long.html"},
		{"\tfaq\t.html ", "https://a.example/docs/faq.html"},
		{"page\r\n2.html#top", "https://a.example/docs/page2.html#top"},
		{"https://B.example/\nx", "https://b.example/x"},
		{"plain.html", "https://a.example/docs/plain.html"},
	}
	for _, tc := range tests {
		if got := ResolveURL(base, tc.ref); got != tc.want {
			t.Errorf("ResolveURL(%q) = %q, want %q", tc.ref, got, tc.want)
		}
	}
}
