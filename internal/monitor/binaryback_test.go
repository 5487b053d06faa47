package monitor

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestBinaryPageTurnsBack: a watched page that answers a file for one
// check, then a page again, through the real fetcher on loopback. Its
// texts are compared with each other across the file (the file, whose
// body is not kept, is no base of comparison): a keywords and list
// sentinel is told nothing when the page comes back as it was, and only
// what changed since before the file when it comes back otherwise; a
// sentinel monitoring any change, told that the page turned into a file,
// is told that it turned back, and what changed since before the file if
// anything did. Before, the file's version was the sentinel's last one
// and the page that came back was compared with it, with no body: all
// its keywords and list items added. It runs on both stores (onEachStore).
func TestBinaryPageTurnsBack(t *testing.T) {
	const (
		before  = `<html><body><p>Report</p><ul><li>one</li><li>two</li></ul></body></html>`
		after   = `<html><body><p>Report</p><ul><li>one</li><li>two</li><li>three</li></ul></body></html>`
		toFile  = "the page turned into a file Vigil does not read (application/octet-stream, 4096 bytes)"
		toPage  = "the file turned back into a page"
		anyText = "any change: 1 text added"
		listAdd = "keywords {Report} OR list: 1 list item added"
	)
	for _, tc := range []struct {
		name, monitor, back string
		want                []string // the changes' summaries, oldest first
	}{
		{"any change, same page", "any change", before, []string{toFile, toPage}},
		{"any change, another page", "any change", after, []string{toFile, toPage, anyText}},
		{"keywords, same page", "keywords {Report} OR list", before, nil},
		{"keywords, another page", "keywords {Report} OR list", after, []string{listAdd}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			onEachStore(t, func(t *testing.T, open storeOpener) {
				p := newFilePagesMonitoring(t, open, "URL/report", tc.monitor, "Fetch 1 hour")
				latest := func() int64 {
					t.Helper()
					_, v, err := p.db.LatestVersionByURL(context.Background(), p.base+"/report")
					if err != nil {
						t.Fatal(err)
					}
					return v.ID
				}
				p.srv.set("/report", []byte(before), false)
				p.check(0)
				first := latest()
				p.srv.set("/report", bytes.Repeat([]byte{0, 1, 2, 3}, 1<<10), true)
				p.check(2 * time.Hour)
				p.srv.set("/report", []byte(tc.back), false)
				p.check(2 * time.Hour)
				last := latest()
				cs := changesOf(t, p.db, p.s)
				slices.SortFunc(cs, func(a, b *vigil.Change) int { return int(a.ID - b.ID) })
				var got []string
				for _, c := range cs {
					got = append(got, c.Summary)
				}
				if !slices.Equal(got, tc.want) {
					t.Fatalf("changes %q; want %q", got, tc.want)
				}
				for _, c := range cs {
					if c.Summary == anyText || c.Summary == listAdd {
						if c.FromVersion != first || c.ToVersion != last {
							t.Errorf("change %q from version %d to %d; want from %d, the page before the file, to %d", c.Summary, c.FromVersion, c.ToVersion, first, last)
						}
					}
					if c.Summary == toPage && c.ToVersion != last {
						t.Errorf("change %q to version %d; want %d", c.Summary, c.ToVersion, last)
					}
				}
				var subjects []string
				for _, msg := range p.messages() {
					subjects = append(subjects, msg.Subject)
				}
				var want []string
				for _, s := range tc.want {
					want = append(want, "[Vigil] pages: "+s)
				}
				if !slices.Equal(subjects, want) {
					t.Errorf("messages %q; want %q", subjects, want)
				}
				for _, msg := range p.messages() {
					if strings.HasSuffix(msg.Subject, toPage) && !strings.Contains(msg.Text, "\n"+toPage+" (") {
						t.Errorf("message %q says %q; want that the file turned back into a page", msg.Subject, msg.Text)
					}
				}
			})
		})
	}
}
