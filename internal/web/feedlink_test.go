package web

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify/feed"
)

// TestFeedLinksAbsolute: a sentinel's page gives its owner its Atom and
// RSS feeds as links whose text is their absolute URL, to paste in a
// feed reader: under the server's public URL (Server.BaseURL, its path
// kept, escaped in the page), or, without one, the URL the page was
// asked at. The page linked "Atom feed" to the bare path alone, which a
// reader given it cannot fetch, and said nothing of the RSS feed.
func TestFeedLinksAbsolute(t *testing.T) {
	for _, tc := range []struct {
		name, base string
		want       func(srv string) string // the feeds' base in the page
	}{
		{"the request's", "", func(srv string) string { return srv }},
		{"configured", "https://vigil.example/watch/", func(string) string { return "https://vigil.example/watch" }},
		{"escaped", "https://vigil.example/a&b", func(string) string { return "https://vigil.example/a&amp;b" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, u := newTestServer(t)
			s.BaseURL = tc.base
			s.FeedPath = func(sen *vigil.Sentinel, format string) string { return feed.Path(s.Secret, sen, format) }
			sen := createChecked(t, s, u, "Create Sentinel fed Using http://a.example/ Fetch 1 hour")
			c := newSignedIn(t, s, u)
			status, page := c.do("GET", "/sentinels/"+strconv.FormatInt(sen.ID, 10), "")
			if status != 200 {
				t.Fatalf("the sentinel's page: %d", status)
			}
			for _, format := range []string{"atom", "rss"} {
				abs := tc.want(c.srv.URL) + feed.Path(s.Secret, sen, format)
				if want := fmt.Sprintf(`<a href="%s" class="url">%s</a>`, abs, abs); !strings.Contains(page, want) {
					i := strings.Index(page, `id="feed"`)
					t.Errorf("the page does not link its %s feed as %s:\n%s", format, want, page[max(i, 0):min(max(i, 0)+600, len(page))])
				}
			}
		})
	}
}
