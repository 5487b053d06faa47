package monitor

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/schedule"
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

// TestLifespanEndNotice: a sentinel whose lifespan ends tells its contacts
// so, once, however often it is looked at after, and after the digest of
// its last period: the notice is its last word. An interactive one, which
// notifies no one, stays quiet. It ended silently, and a sentinel written
// without a To, which lives a year, stopped with no word.
func TestLifespanEndNotice(t *testing.T) {
	end := time.Now().UTC().Add(5 * time.Hour).Format("01/02/2006 15:04")
	p := newDigestPages(t, " To "+end) // a digest a day
	p.run(t, 0)
	p.change("a1")
	p.run(t, 2*time.Hour)
	if got := endNotices(t, p); got != 0 {
		t.Fatalf("%d end notices before the end", got)
	}
	p.run(t, 6*time.Hour) // past the end
	p.run(t, 7*time.Hour)
	p.run(t, 8*time.Hour)
	if got := endNotices(t, p); got != 1 {
		t.Fatalf("%d end notices after the end, want 1", got)
	}
	msgs := messagesOf(t, p.db, p.u, p.s)
	if len(msgs) != 2 || !msgs[0].Digest {
		t.Fatalf("messages %d, want the last period's digest then the end notice", len(msgs))
	}
	last := msgs[1]
	if !strings.Contains(last.Text, "ended at") || !strings.Contains(last.Text, "later To") || len(last.Changes) != 0 || last.Ended.IsZero() {
		t.Errorf("end notice: subject %q, text %q", last.Subject, last.Text)
	}

	q := newDigestPages(t, "")
	q.edit(t, digestSource("interactive", " To "+end))
	q.run(t, 0)
	q.run(t, 6*time.Hour) // past the end
	if got := len(messagesOf(t, q.db, q.u, q.s)); got != 0 {
		t.Errorf("an interactive sentinel that ended sent %d messages", got)
	}
}

// endNotices counts the messages of p's sentinel that say it ended.
func endNotices(t *testing.T, p *onePage) int {
	t.Helper()
	n := 0
	for _, msg := range messagesOf(t, p.db, p.u, p.s) {
		if strings.HasSuffix(msg.Subject, ": ended, checked no more") {
			n++
		}
	}
	return n
}

// TestLifespanAt: the status an ended sentinel's next check starts from
// is the ended one its state records, unless its To was edited since to
// one not reached yet: that check takes it up again, and the views (the
// dashboard's page an edit leads to, the API's answer to the PUT, vigil
// sentinel list) say so, not "ended, checked no more" of a sentinel due at
// once.
func TestLifespanAt(t *testing.T) {
	to := func(p *onePage, d time.Duration) string {
		return " To " + p.start.Add(d).Format("01/02/2006 15:04")
	}
	for _, tc := range []struct {
		name string
		edit func(p *onePage) string
		at   time.Duration // when it is asked, and checked
		want schedule.Phase
	}{
		{"to a later To", func(p *onePage) string { return digestSource("immediate", to(p, 20*time.Hour)) }, 6*time.Hour + 50*time.Minute, schedule.Active},
		{"to a To passed since", func(p *onePage) string { return digestSource("immediate", to(p, 7*time.Hour)) }, 7*time.Hour + 10*time.Minute, schedule.Ended},
		// To Now + 5 hour, resolved again at the edit, is the same clause.
		{"in another clause", func(p *onePage) string { return digestSource("interactive", " To Now + 5 hour") }, 6*time.Hour + 50*time.Minute, schedule.Ended},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newDigestPages(t, "")
			p.edit(t, digestSource("immediate", " To Now + 5 hour"))
			p.run(t, 0)
			p.run(t, 6*time.Hour+10*time.Minute) // past the end
			st := lifespanOf(t, p)
			if st.Phase() != schedule.Ended {
				t.Fatalf("past its end: %v, want ended", st.Phase())
			}
			p.clock = p.start.Add(6*time.Hour + 40*time.Minute)
			p.edit(t, tc.edit(p))
			cur, err := p.db.FindSentinelByID(context.Background(), p.s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := LifespanAt(st, cur, p.start.Add(tc.at)).Phase(); got != tc.want {
				t.Errorf("edited %s, before its next check: %v, want %v", tc.name, got, tc.want)
			}
			// Its next check agrees.
			p.run(t, tc.at)
			if got := lifespanOf(t, p).Phase(); got != tc.want {
				t.Errorf("edited %s, after its next check: %v, want %v", tc.name, got, tc.want)
			}
		})
	}
}

// lifespanOf reads the lifespan status the state of p's sentinel records.
func lifespanOf(t *testing.T, p *onePage) schedule.Status {
	t.Helper()
	states, err := p.db.SentinelStates(context.Background(), []int64{p.s.ID})
	if err != nil {
		t.Fatal(err)
	}
	return Lifespan(states[p.s.ID])
}
