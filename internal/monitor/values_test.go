package monitor

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// listing is a shop's page listing cameras, a row for each name and price.
func listing(rows ...[2]string) string {
	var b strings.Builder
	b.WriteString(`<html><body><h1>Cameras</h1><table>`)
	for _, r := range rows {
		fmt.Fprintf(&b, `<tr><td>%s</td><td class="price">%s</td></tr>`, r[0], r[1])
	}
	b.WriteString(`</table></body></html>`)
	return b.String()
}

// TestValuesEachReported: a value sentinel on a listing reports each
// price that meets its condition, a record each, and its message (text
// and HTML) gives a line to each, naming its camera, with one price cut
// and with five; AND NOT with a phrase still holds the report back.
func TestValuesEachReported(t *testing.T) {
	names := []string{"Canon EOS R8", "Nikon Z5", "Sony A7 IV", "Fujifilm X-T5", "Panasonic S5 II"}
	prices := func(cut ...int) [][2]string {
		rows := make([][2]string, len(names))
		for i, n := range names {
			p := 1000 + 100*i
			for _, c := range cut {
				if c == i {
					p -= 50
				}
			}
			rows[i] = [2]string{n, fmt.Sprintf("$%d", p)}
		}
		return rows
	}
	tests := []struct {
		name   string
		before string
		after  string
		lines  []string // the message's lines of the changed values
		count  string   // the summary's count
	}{
		{"one price cut", listing(prices()...), listing(prices(1)...),
			[]string{"~ value decreased by 50 in Nikon Z5: $1100 -> $1050"}, "1 value changed"},
		{"five prices cut", listing(prices()...), listing(prices(0, 1, 2, 3, 4)...),
			[]string{
				"~ value decreased by 50 in Canon EOS R8: $1000 -> $950",
				"~ value decreased by 50 in Nikon Z5: $1100 -> $1050",
				"~ value decreased by 50 in Sony A7 IV: $1200 -> $1150",
				"~ value decreased by 50 in Fujifilm X-T5: $1300 -> $1250",
				"~ value decreased by 50 in Panasonic S5 II: $1400 -> $1350",
			}, "5 values changed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, wh, u := testStore(t)
			s := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "cameras",
				"Create Sentinel cameras Using "+pageA+` Monitor value In css ".price" decreases AND NOT phrase {"sold out"} Fetch 1 hour Notify By email owner@example.test`+"\n")
			f := &pagesFetcher{pages: map[string]string{pageA: tc.before}}
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}}
			check := func() {
				t.Helper()
				makeDue(t, db, s, time.Now().UTC())
				runOnce(t, m, 1)
			}
			check()
			f.set(pageA, tc.after)
			check()
			changes := changesOf(t, db, s)
			if len(changes) != 1 {
				t.Fatalf("%d changes stored, want 1", len(changes))
			}
			var recs []intent.Change
			if err := json.Unmarshal(changes[0].Records, &recs); err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(tc.lines) {
				t.Errorf("%d records, want %d: %s", len(recs), len(tc.lines), changes[0].Records)
			}
			if want := `value In css ".price" decreases AND NOT phrase {"sold out"}: ` + tc.count; changes[0].Summary != want {
				t.Errorf("summary %q, want %q", changes[0].Summary, want)
			}
			msgs := messagesOf(t, db, u, s)
			if len(msgs) != 1 {
				t.Fatalf("%d messages, want 1", len(msgs))
			}
			text, html := msgs[0].Text, msgs[0].HTML
			for _, line := range tc.lines {
				if !strings.Contains(text, "\n  "+line+"\n") {
					t.Errorf("text: no line %q in\n%s", line, text)
				}
			}
			// The HTML gives each its line too, the item named once.
			if n := strings.Count(html, "<li>value decreased by 50 in "); n != len(tc.lines) {
				t.Errorf("HTML: %d lines of values, want %d:\n%s", n, len(tc.lines), html)
			}
			if !strings.Contains(html, "<li>value decreased by 50 in Nikon Z5: <del>$1100</del> <ins>$1050</ins></li>") {
				t.Errorf("HTML: no line for the Nikon in\n%s", html)
			}

			// Sold out on the page: the price cut is held back.
			f.set(pageA, strings.Replace(listing(prices(0, 1, 2, 3, 4)...), "<h1>Cameras</h1>", "<h1>Cameras</h1><p>Sold out</p>", 1))
			check()
			if n := len(changesOf(t, db, s)); n != 1 {
				t.Errorf("%d changes stored once sold out, want still 1", n)
			}
		})
	}
}

// TestValuesSpaceGroupedPrice: a price whose thousands a space groups, as
// French and many European shops write it, after a brand's name or not,
// is watched as the whole amount: its record holds it and its message
// line reports the change of it (Samsung 2 499 € falling to 1 999 € is a
// decrease of 500, not a rise from 499).
func TestValuesSpaceGroupedPrice(t *testing.T) {
	page := func(lang, price string) string {
		return `<html lang="` + lang + `"><body><h1>Galaxy Z Fold6</h1><p class="price">` + price + `</p></body></html>`
	}
	for _, tc := range []struct {
		lang, before, after string
		old, new            float64
		line                string
	}{
		{"fr", "2 499 €", "2 299 €", 2499, 2299, "~ value decreased by 200: 2 499 € -> 2 299 €"},
		{"fr", "Samsung 2 499 €", "Samsung 2 299 €", 2499, 2299, "~ value decreased by 200: Samsung 2 499 € -> Samsung 2 299 €"},
		{"", "Samsung 2 499 €", "Samsung 1 999 €", 2499, 1999, "~ value decreased by 500: Samsung 2 499 € -> Samsung 1 999 €"},
		{"fr", "Samsung 2\u202f499,99\u00a0€", "Samsung 2\u202f299,99\u00a0€", 2499.99, 2299.99, "~ value decreased by 200: Samsung 2\u202f499,99\u00a0€ -> Samsung 2\u202f299,99\u00a0€"},
	} {
		t.Run(tc.before+" -> "+tc.after, func(t *testing.T) {
			db, wh, u := testStore(t)
			s := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "fold",
				"Create Sentinel fold Using "+pageA+` Monitor value In css ".price" decreases Fetch 1 hour Notify By email owner@example.test`+"\n")
			f := &pagesFetcher{pages: map[string]string{pageA: page(tc.lang, tc.before)}}
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}}
			check := func() {
				t.Helper()
				makeDue(t, db, s, time.Now().UTC())
				runOnce(t, m, 1)
			}
			check()
			f.set(pageA, page(tc.lang, tc.after))
			check()
			changes := changesOf(t, db, s)
			if len(changes) != 1 {
				t.Fatalf("%d changes stored, want 1", len(changes))
			}
			var recs []intent.Change
			if err := json.Unmarshal(changes[0].Records, &recs); err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0].Value == nil || recs[0].Value.Old == nil || recs[0].Value.New == nil {
				t.Fatalf("records %s, want one value change", changes[0].Records)
			}
			if v := recs[0].Value; *v.Old != tc.old || *v.New != tc.new {
				t.Errorf("value %v -> %v, want %v -> %v", *v.Old, *v.New, tc.old, tc.new)
			}
			msgs := messagesOf(t, db, u, s)
			if len(msgs) != 1 {
				t.Fatalf("%d messages, want 1", len(msgs))
			}
			if !strings.Contains(msgs[0].Text, "\n  "+tc.line+"\n") {
				t.Errorf("text: no line %q in\n%s", tc.line, msgs[0].Text)
			}
		})
	}
}
