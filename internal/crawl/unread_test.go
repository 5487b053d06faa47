package crawl

import (
	"maps"
	"testing"
)

// TestUnreadLinks: a URL that a page read links to and that is no page
// of the snapshot was left unread either by the page limit (a crawl cut
// short, linked from a page short of the depth) or by the depth (linked
// only from pages at MaxDepth); a page, a redirect and a URL that no page
// read links to are not unread links.
func TestUnreadLinks(t *testing.T) {
	snap := func(truncated bool) *Snapshot {
		return &Snapshot{
			Query:     Query{Start: "https://a.example/", MaxDepth: 2, MaxPages: 3},
			Truncated: truncated,
			Pages: []*Page{
				{URL: "https://a.example/", Depth: 0, Links: []Link{{Target: "https://a.example/b"}, {Target: "https://a.example/cut"}, {Target: "https://a.example/moved"}}},
				{URL: "https://a.example/b", Depth: 1, Links: []Link{{Target: "https://a.example/c"}, {Target: "https://a.example/"}}},
				{URL: "https://a.example/c", Depth: 2, Links: []Link{{Target: "https://a.example/deep"}, {Target: "https://a.example/cut"}}},
				{URL: "https://a.example/failed", Depth: 1, Error: "HTTP 500", Links: []Link{{Target: "https://a.example/x"}}},
			},
			Redirects: []Redirect{{From: "https://a.example/moved", To: "https://b.example/"}},
		}
	}
	want := map[string]UnreadReason{"https://a.example/cut": UnreadPages, "https://a.example/deep": UnreadDepth}
	if got := snap(true).UnreadLinks(); !maps.Equal(got, want) {
		t.Errorf("cut short: %v, want %v", got, want)
	}
	// Not cut short: what a page short of the depth links to was read.
	want = map[string]UnreadReason{"https://a.example/deep": UnreadDepth}
	if got := snap(false).UnreadLinks(); !maps.Equal(got, want) {
		t.Errorf("not cut short: %v, want %v", got, want)
	}
}
