package web

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
)

// TestDashboardListsPage: the sentinel and resource lists of the dashboard
// stopped at 500 and 1000 without a word; they are paged, saying which of
// how many they show, with links to the pages before and after, and their
// pages of a given size hold the whole list once.
func TestDashboardListsPage(t *testing.T) {
	s, u := newTestServer(t)
	ctx := context.Background()
	const n = 7
	for i := range n {
		url := fmt.Sprintf("http://a.example/page%d", i)
		createChecked(t, s, u, fmt.Sprintf("Create Sentinel s%d Using %s Fetch 1 hour", i, url))
		if _, err := s.Store.EnsureResource(ctx, url); err != nil {
			t.Fatal(err)
		}
	}
	c := newSignedIn(t, s, u)
	next := regexp.MustCompile(`<a href="([^"]*)" rel="next">`)
	for _, tc := range []struct {
		path string
		item *regexp.Regexp
	}{
		{"/sentinels?limit=3", regexp.MustCompile(`<a href="/sentinels/\d+">(s\d)</a>`)},
		{"/resources?limit=3", regexp.MustCompile(`<a href="/resources/\d+">(http://a.example/page\d)</a>`)},
	} {
		seen := map[string]bool{}
		path := tc.path
		for page := 0; path != ""; page++ {
			if page > n {
				t.Fatalf("%s: more pages than items", tc.path)
			}
			status, body := c.do("GET", path, "")
			if status != 200 {
				t.Fatalf("GET %s: %d", path, status)
			}
			items := tc.item.FindAllStringSubmatch(body, -1)
			first, last := page*3+1, min(page*3+3, n)
			if len(items) != last-first+1 {
				t.Errorf("GET %s: %d items, want %d", path, len(items), last-first+1)
			}
			for _, it := range items {
				if seen[it[1]] {
					t.Errorf("GET %s: %s again", path, it[1])
				}
				seen[it[1]] = true
			}
			if want := fmt.Sprintf("Showing %d–%d of %d.", first, last, n); !strings.Contains(body, want) {
				t.Errorf("GET %s: no %q", path, want)
			}
			if page > 0 && !strings.Contains(body, `rel="prev"`) {
				t.Errorf("GET %s: no link to the page before", path)
			}
			path = ""
			if m := next.FindStringSubmatch(body); m != nil {
				path = html.UnescapeString(m[1])
			}
		}
		if len(seen) != n {
			t.Errorf("%s: %d items over the pages, want %d", tc.path, len(seen), n)
		}
	}
	for _, path := range []string{"/sentinels?offset=-1", "/resources?limit=0", "/sentinels?limit=100000"} {
		if status, _ := c.do("GET", path, ""); status != 400 {
			t.Errorf("GET %s: %d, want 400", path, status)
		}
	}
}
