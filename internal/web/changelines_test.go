package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// TestChangePageLines: the page of a change a sentinel reported says
// what it found, a line each record, as its message does: with one value
// cut on a listing, with five, each named by its item, and with one more
// than a page lists, the last line counting the rest.
func TestChangePageLines(t *testing.T) {
	e := newReadAsTextEnv(t)
	names := []string{"Canon EOS R8", "Nikon Z5", "Sony A7 IV", "Fujifilm X-T5", "Panasonic S5 II"}
	value := func(i int) intent.Change {
		o, n := float64(1000+100*i), float64(950+100*i)
		name := fmt.Sprintf("Camera %d", i)
		if i < len(names) {
			name = names[i]
		}
		return intent.Change{Kind: intent.KindValue, Op: intent.Update, Old: fmt.Sprintf("$%.0f", o), New: fmt.Sprintf("$%.0f", n),
			OldPos: i + 1, NewPos: i + 1, Fields: []string{"value"},
			Value: &intent.ValueInfo{Old: &o, New: &n, Delta: -50, Direction: "decreased", Item: name}}
	}
	values := func(n int) []intent.Change {
		out := make([]intent.Change, n)
		for i := range out {
			out[i] = value(i)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		recs []intent.Change
	}{
		{"one value", []intent.Change{value(1)}},
		{"five values", values(5)},
		{"one more than a page lists", values(maxChangeLines + 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			c := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: e.vs[0].ID, ToVersion: e.vs[2].ID,
				DetectedAt: time.Now().UTC(), Summary: "value In css \".price\" decreases: " + intent.Count(tc.recs), Records: raw}
			if err := e.s.Store.CreateChange(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			page := e.get("/resources/" + strconv.FormatInt(e.res, 10) + "/diff?from=" + strconv.FormatInt(c.FromVersion, 10) +
				"&to=" + strconv.FormatInt(c.ToVersion, 10) + "&view=inline&change=" + strconv.FormatInt(c.ID, 10))
			_, list, ok := strings.Cut(page, `<ul class="change-lines">`)
			if !ok {
				t.Fatalf("no list of the change's records in\n%s", page)
			}
			list, _, _ = strings.Cut(list, "</ul>")
			shown, more := tc.recs, ""
			if len(shown) > maxChangeLines {
				shown, more = shown[:maxChangeLines], fmt.Sprintf("<li>... and %d more</li>", len(tc.recs)-maxChangeLines)
			}
			want := len(shown)
			if more != "" {
				want++
			}
			if n := strings.Count(list, "<li>"); n != want {
				t.Errorf("%d lines, want %d:\n%s", n, want, list)
			}
			if more != "" && !strings.HasSuffix(list, more) {
				t.Errorf("list does not end with %q:\n%s", more, list)
			}
			for _, r := range shown {
				want := fmt.Sprintf("<li>~ value decreased by 50 in %s: %s -&gt; %s</li>", r.Value.Item, r.Old, r.New)
				if !strings.Contains(list, want) {
					t.Errorf("no %q in\n%s", want, list)
				}
			}
		})
	}
}
