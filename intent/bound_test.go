package intent

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-web/vigil/spec"
)

// TestRecordsBoundLongTexts: a record holds at most maxRecordText bytes of
// each text, cut as Texts cuts what a reader is shown, from a little
// before the two sides' first difference: a page read as its source text
// (one leaf of megabytes) made every record of its change carry the whole
// source twice.
func TestRecordsBoundLongTexts(t *testing.T) {
	var b strings.Builder
	for i := range 40_000 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	long := b.String() // ~400 KB
	changed := strings.Replace(long, "line 23456\n", "line 23456 CHANGED\n", 1)
	page := func(text, item, link string) string {
		return "<html><body><pre>" + text + "</pre><ul><li>" + item + "</li></ul>" +
			`<a href="http://example.com/">` + link + "</a><table><tr><td>k</td><td>" + item + "</td></tr></table></body></html>"
	}
	tests := map[string]struct {
		old, new string
		ct       *spec.ChangeType
		shows    string // what the new side of the first record shows
	}{
		"text updated":    {page(long, "a", "a"), page(changed, "a", "a"), &spec.ChangeType{Kind: spec.AnyChange}, "line 23456 CHANGED"},
		"text inserted":   {page("", "a", "a"), page(long, "a", "a"), &spec.ChangeType{Kind: spec.AnyChange}, "line 0 line 1"},
		"list item":       {page("x", long, "a"), page("x", changed, "a"), &spec.ChangeType{Kind: spec.List}, "line 23456 CHANGED"},
		"table cell":      {page("x", long, "a"), page("x", changed, "a"), &spec.ChangeType{Kind: spec.Table}, "line 23456 CHANGED"},
		"link text":       {page("x", "a", long), page("x", "a", changed), &spec.ChangeType{Kind: spec.Links}, "line 23456 CHANGED"},
		"words of a text": {page(long, "a", "a"), page(changed, "a", "a"), &spec.ChangeType{Kind: spec.Words}, "CHANGED"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := evalType(t, tc.old, tc.new, tc.ct, nil)
			if len(r.Changes) == 0 {
				t.Fatal("no change found")
			}
			for _, c := range r.Changes {
				raw, err := json.Marshal(c)
				if err != nil {
					t.Fatal(err)
				}
				if len(raw) > 4*maxRecordText {
					t.Errorf("a %s record of %d bytes, want at most %d", c.Kind, len(raw), 4*maxRecordText)
				}
				for _, s := range []string{c.Old, c.New} {
					if len(s) > maxRecordText+2*len("…") || !utf8.ValidString(s) {
						t.Errorf("a text of %d bytes (valid UTF-8: %t), want at most %d between ellipses", len(s), utf8.ValidString(s), maxRecordText)
					}
				}
			}
			c := r.Changes[0]
			shown := c.New
			if c.Link != nil {
				shown = c.Link.NewText
			}
			if !strings.Contains(shown, tc.shows) {
				t.Errorf("the record's new side does not show %q: %.120q", tc.shows, shown)
			}
		})
	}
}
