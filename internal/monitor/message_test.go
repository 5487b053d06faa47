package monitor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
)

// TestRenderNamesWhatChanged: a message names the page that changed, not
// every page the sentinel watches, and a link or image whose target stayed
// shows the text or alternative text that changed.
func TestRenderNamesWhatChanged(t *testing.T) {
	j := &job{s: &vigil.Sentinel{Name: "tor"}, plan: &plan{urls: []string{"http://b.test/", "http://c.test/"}}}
	items := []*vigil.MessageItem{{Change: &vigil.Change{Summary: "any change: 2 node updates", DetectedAt: time.Unix(0, 0)}}}
	lists := [][]intent.Change{{
		{Kind: intent.KindLink, Op: intent.Update, Link: &intent.LinkInfo{OldHref: "/a", NewHref: "/a", OldText: "A", NewText: "Alpha"}},
		{Kind: intent.KindImage, Op: intent.Update, Image: &intent.ImageInfo{OldSrc: "/l.png", NewSrc: "/l.png", OldAlt: "Logo", NewAlt: "Company logo"}},
	}}
	text, _, _ := (&Monitor{}).render(context.Background(), j, items, lists, []string{"http://c.test/"}, nil)
	for _, want := range []string{"found changes on http://c.test/\n", "A -> Alpha (/a)", "Logo -> Company logo (/l.png)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "http://b.test/") {
		t.Errorf("names a page that did not change:\n%s", text)
	}
}

// TestRenderLinksDashboard: a message links to the sentinel's page on the
// dashboard, where its changes are shown in place, as well as to its
// feed; it linked to the feed alone, an XML document in a browser. The
// feed's link is made from the sentinel as claimed, at its current feed
// generation: a link of a rotated feed's earlier one would not be found.
func TestRenderLinksDashboard(t *testing.T) {
	j := &job{s: &vigil.Sentinel{ID: 7, Name: "prices", FeedGeneration: 3}, plan: &plan{urls: []string{"http://shop.test/"}}}
	items := []*vigil.MessageItem{{Change: &vigil.Change{Summary: "any change: 1 node update", DetectedAt: time.Unix(0, 0)}}}
	m := &Monitor{
		MessageLink: func(s *vigil.Sentinel) string {
			return fmt.Sprintf("https://vigil.test/feeds/%d/token%d/atom.xml", s.ID, s.FeedGeneration)
		},
		DashboardLink: func(id int64) string { return "https://vigil.test/sentinels/7" },
	}
	text, html, feed := m.render(context.Background(), j, items, [][]intent.Change{nil}, nil, nil)
	if feed != "https://vigil.test/feeds/7/token3/atom.xml" {
		t.Errorf("feed link %q", feed)
	}
	for _, want := range []string{"https://vigil.test/sentinels/7\n", "https://vigil.test/feeds/7/token3/atom.xml\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("text: no %q in\n%s", want, text)
		}
	}
	for _, want := range []string{`<a href="https://vigil.test/sentinels/7">`, `<a href="https://vigil.test/feeds/7/token3/atom.xml">`} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML: no %q in\n%s", want, html)
		}
	}
}

// TestSummaryOfLongExpression: a change's summary, which its notices and
// webhook bodies repeat, names the expression that matched by its label
// (spec.Label): whole when short, and cut to spec.MaxLabel bytes and "..."
// for a Monitor clause of thousands of change types, where it repeated
// hundreds of kilobytes.
func TestSummaryOfLongExpression(t *testing.T) {
	changes := []intent.Change{{Kind: intent.KindKeyword, Op: intent.Insert, New: "w1"}}
	short, err := spec.ParseSentinel("s", []byte("Create Sentinel s Using http://a.test/ Monitor (keywords {w0} OR all links) AND NOT all images"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summarize(&plan{expr: short.Monitor.X}, nil, changes), "(keywords {w0} OR all links) AND NOT all images: 1 keyword added"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	terms := make([]string, 10000)
	for i := range terms {
		terms[i] = fmt.Sprintf("keywords {w%d}", i)
	}
	long, err := spec.ParseSentinel("s", []byte("Create Sentinel s Using http://a.test/ Monitor "+strings.Join(terms, " OR ")))
	if err != nil {
		t.Fatal(err)
	}
	got := summarize(&plan{expr: long.Monitor.X}, nil, changes)
	if len(got) > spec.MaxLabel+100 || !strings.HasPrefix(got, "keywords {w0} OR keywords {w1} OR ") || !strings.HasSuffix(got, "...: 1 keyword added") {
		t.Errorf("summary of %d bytes: %.100q ... %q", len(got), got, got[max(0, len(got)-40):])
	}
}
