package monitor

import (
	"bytes"
	"slices"
	"testing"
	"time"
)

// TestConfirmFileEarly: a page's change from or to a file that waits for
// its confirmation ("Confirm after") is neither told nor dropped at a
// check before its time (another event, a sentinel checked early),
// whatever the page answers then: the change is judged at its time, from
// the version before it to what the page answers at that time. Checked
// early as a file, as a page again, or, turned back into a page, as that
// page (the check of a page whose file's change waits: confirmFile).
func TestConfirmFileEarly(t *testing.T) {
	const back = "the file turned back into a page"
	file := bytes.Repeat([]byte{0, 1, 2, 3}, 1024)
	onEachStore(t, func(t *testing.T, open storeOpener) {
		for _, tc := range []struct {
			name string
			// turnBack: the file's change is confirmed and told, then the
			// page turns back into a page, whose confirmation is checked
			// early.
			turnBack bool
			early    bool // the page at the early check and at the confirmation: a page (else the file)
			want     []string
		}{
			{name: "still a file", want: []string{"/a: " + fileSummary}},
			{name: "a page again", early: true},
			{name: "turned back", turnBack: true, early: true, want: []string{"/a: " + back, "/a: " + fileSummary}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				p := newFilePages(t, open, "URL/a", "Fetch 1 hour Confirm after 10 minute")
				p.srv.set("/a", []byte(pageWith("a0")), false)
				p.check(0)
				p.srv.set("/a", file, true)
				p.check(time.Hour)
				before := 0
				if tc.turnBack {
					p.check(10 * time.Minute)
					_, changes := p.told()
					if !slices.Equal(changes, []string{"/a: " + fileSummary}) {
						t.Fatalf("at the file's confirmation: changes %q, want the file's", changes)
					}
					before = 1
					p.srv.set("/a", []byte(pageWith("a0")), false)
					p.check(time.Hour)
				}
				if tc.early {
					p.srv.set("/a", []byte(pageWith("a0")), false)
				}
				p.check(5 * time.Minute)
				if subjects, changes := p.told(); len(subjects) != before || len(changes) != before {
					t.Fatalf("checked before the confirmation: told %q, changes %q; want %d of each", subjects, changes, before)
				}
				p.check(5 * time.Minute)
				subjects, changes := p.told()
				if !slices.Equal(changes, tc.want) || len(subjects) != len(tc.want) {
					t.Errorf("at the confirmation: told %q, changes %q; want changes %q, as many messages", subjects, changes, tc.want)
				}
			})
		}
	})
}
