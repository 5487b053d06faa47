package monitor

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
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
	text, _ := (&Monitor{}).render(j, items, lists, []string{"http://c.test/"})
	for _, want := range []string{"found changes on http://c.test/\n", "A -> Alpha (/a)", "Logo -> Company logo (/l.png)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "http://b.test/") {
		t.Errorf("names a page that did not change:\n%s", text)
	}
}
