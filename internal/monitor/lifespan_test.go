package monitor

import (
	"testing"
	"time"
)

// TestEndedSentinelEditedLivesOn: a sentinel that ended and is then edited
// to a later To is checked again, until that To; one that is not edited
// stays ended. An ended status used to survive every edit.
func TestEndedSentinelEditedLivesOn(t *testing.T) {
	at := func(p *onePage, d time.Duration) string {
		return " To " + p.start.Add(d).Format("01/02/2006 15:04")
	}
	p := newDigestPages(t, "")
	p.edit(t, digestSource("immediate", at(p, 5*time.Hour)))
	p.run(t, 0)
	p.run(t, 6*time.Hour) // past the end
	p.change("a1")
	p.run(t, 6*time.Hour+30*time.Minute)
	if got := len(changesOf(t, p.db, p.s)); got != 0 {
		t.Fatalf("an ended sentinel found %d changes", got)
	}
	p.clock = p.start.Add(6*time.Hour + 40*time.Minute)
	p.edit(t, digestSource("immediate", at(p, 20*time.Hour)))
	p.run(t, 7*time.Hour)
	if got := len(changesOf(t, p.db, p.s)); got != 1 {
		t.Fatalf("the sentinel edited to live on found %d changes, want 1", got)
	}
	p.run(t, 21*time.Hour) // past the new end
	p.change("a2")
	p.run(t, 22*time.Hour)
	if got := len(changesOf(t, p.db, p.s)); got != 1 {
		t.Errorf("after its new end, %d changes, want 1", got)
	}
}

// TestEndedSentinelEditedElsewhereStaysEnded: an ended sentinel whose To
// is relative to Now stays ended when another of its clauses is edited,
// though the checker resolves Now + 5 hour again, at the edit.
func TestEndedSentinelEditedElsewhereStaysEnded(t *testing.T) {
	src := func(fetch string) string {
		return "Create Sentinel daily Using " + pageA + " Monitor any change Fetch " + fetch + " Notify By email owner@example.test Every immediate To Now + 5 hour\n"
	}
	p := newDigestPages(t, "")
	p.edit(t, src("1 hour"))
	p.run(t, 0)
	p.run(t, 6*time.Hour) // past the end
	p.clock = p.start.Add(6*time.Hour + 10*time.Minute)
	p.edit(t, src("2 hour"))
	p.change("a1")
	p.run(t, 7*time.Hour)
	if got := len(changesOf(t, p.db, p.s)); got != 0 {
		t.Errorf("an ended sentinel edited in its Fetch found %d changes", got)
	}
}
