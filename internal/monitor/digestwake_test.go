package monitor

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// countedPage is a loopback page that counts its reads and answers 500
// while failing.
type countedPage struct {
	mu      sync.Mutex
	reads   int
	failing bool
	text    string
}

func (p *countedPage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reads++
	if p.failing {
		http.Error(w, "down", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, pageWith(p.text))
}

func (p *countedPage) set(text string, failing bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.text, p.failing = text, failing
}

func (p *countedPage) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reads
}

// TestDigestKeepsCheckTime: a sentinel on a page or a site fetched every
// hour that sends a digest every minute is woken every minute for its
// digest, and reads its page only when its check is due: every hour
// while the page works, less often while it fails (the policy backs
// off). The digest's end pulled the check forward, and the page, failing
// or not, was read (the site crawled) every minute.
func TestDigestKeepsCheckTime(t *testing.T) {
	const hours = 3
	// At most once an hour while the page works; failing from the first
	// hour, at 1h and at 3h, the policy doubling its interval.
	maxReads := map[bool]int{false: hours + 1, true: 2}
	for _, using := range []string{"", "site "} {
		for _, failing := range []bool{false, true} {
			t.Run(fmt.Sprintf("%sfailing=%v", using, failing), func(t *testing.T) {
				ctx := context.Background()
				db, wh, u := testStore(t)
				page := &countedPage{text: "a0"}
				srv := httptest.NewServer(page)
				t.Cleanup(srv.Close)
				src := "Create Sentinel often Using " + using + srv.URL + "/ Monitor any change Fetch 1 hour" +
					" Notify By email owner@example.test Every 1 minute\n"
				sen := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "often", src)
				now := time.Now().UTC().Truncate(time.Microsecond) // as the stores keep it
				start := now
				m := siteMonitor(db, wh, fetch.Options{}, &now)
				runOnce(t, m, 1) // the first version; the digest's period starts
				page.set("a1", failing)
				first := page.count()
				wakes := 0
				for wakes < 10*60*hours {
					cur, err := db.FindSentinelByID(ctx, sen.ID)
					if err != nil {
						t.Fatal(err)
					}
					if cur.NextCheck.After(start.Add(hours * time.Hour)) {
						break
					}
					now = cur.NextCheck
					runOnce(t, m, 1)
					wakes++
				}
				reads := page.count() - first
				if reads == 0 || reads > maxReads[failing] {
					t.Errorf("the page was read %d times in %d hours (%d wake-ups), want 1 to %d",
						reads, hours, wakes, maxReads[failing])
				}
				if wakes < 60*hours/2 {
					t.Errorf("%d wake-ups in %d hours, want about one a minute for the digest", wakes, hours)
				}
				digests := 0
				for _, msg := range messagesOf(t, db, u, sen) {
					if msg.Digest {
						digests++
						if len(msg.Changes) != 1 {
							t.Errorf("digest %q carries %d changes, want 1", msg.Subject, len(msg.Changes))
						}
					}
				}
				if want := map[bool]int{false: 1, true: 0}[failing]; digests != want {
					t.Errorf("%d digests, want %d", digests, want)
				}
			})
		}
	}
}

// TestDigestWakeAskedCheck: a sentinel asked to be checked now (or
// edited, or resumed) whose digest is due when it is claimed reads its
// page: it is not woken for its digest alone.
func TestDigestWakeAskedCheck(t *testing.T) {
	for _, using := range []string{"", "site "} {
		t.Run("using "+using, func(t *testing.T) {
			ctx := context.Background()
			db, wh, u := testStore(t)
			page := &countedPage{text: "a0"}
			srv := httptest.NewServer(page)
			t.Cleanup(srv.Close)
			src := "Create Sentinel often Using " + using + srv.URL + "/ Monitor any change Fetch 1 hour" +
				" Notify By email owner@example.test Every 1 minute\n"
			sen := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "often", src)
			now := time.Now().UTC()
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			runOnce(t, m, 1)
			page.set("a1", false)
			// Check now, as the dashboard asks it: the sentinel is
			// updated, due at once; the monitor claims it a minute later,
			// its digest due too.
			cur, err := db.FindSentinelByID(ctx, sen.ID)
			if err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Minute)
			cur.NextCheck = now
			if err := db.UpdateSentinel(ctx, cur); err != nil {
				t.Fatal(err)
			}
			before := page.count()
			runOnce(t, m, 1)
			if page.count() == before {
				t.Errorf("a sentinel asked to be checked, its digest due, did not read its page")
			}
			if cs := changesOf(t, db, sen); len(cs) != 1 {
				t.Errorf("%d changes, want 1: the page changed before the check asked", len(cs))
			}
		})
	}
}
