package monitor

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// TestRedirectDisallowedByRobots: a watched page that redirects to a path
// its site's robots.txt disallows is a failed check, recorded with the
// fetcher's error, which names the redirect; the disallowed page is never
// requested. When the redirect leads to an allowed page again, that page
// is the page's version. The fetcher read robots.txt only for the URL
// asked: the disallowed page was fetched and stored as the page's version.
func TestRedirectDisallowedByRobots(t *testing.T) {
	var target atomic.Value
	target.Store("/private/page")
	var privateHits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		case "/page":
			http.Redirect(w, r, target.Load().(string), http.StatusFound)
		default:
			if strings.HasPrefix(r.URL.Path, "/private/") {
				privateHits.Add(1)
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body><p>"+r.URL.Path+"</p></body></html>")
		}
	}))
	defer srv.Close()
	w := watchPage(t, srv.URL+"/page")
	w.check()
	v := w.latest()
	if want := "redirect to " + srv.URL + "/private/page: disallowed by robots.txt"; !strings.Contains(v.Error, want) || v.Status != 0 {
		t.Errorf("the check of a page redirected to a disallowed one: version %+v, want status 0 and an error with %q", v, want)
	}
	if n := privateHits.Load(); n != 0 {
		t.Errorf("the disallowed page was requested %d times", n)
	}
	target.Store("/public/page")
	w.check()
	if v := w.latest(); v.Error != "" || v.Status != 200 {
		t.Errorf("the check of a page redirected to an allowed one: version %+v, want it read", v)
	}
}

// TestRedirectedVersionValidators: the validators a version of a
// watched page read through a redirect keeps are the page it led to's,
// and the next check sends them to that page only, never to the page
// asked for, whose answer to them says nothing of that page. A page that redirected to one last modified
// at T, then served its own content, last modified before T, answered
// 304 to If-Modified-Since T, and the check kept the other page's content
// as its version: the change was missed.
func TestRedirectedVersionValidators(t *testing.T) {
	targetDate := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	ownDate := targetDate.AddDate(0, -1, 0)
	var redirecting atomic.Bool
	redirecting.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/page":
			if redirecting.Load() {
				http.Redirect(w, r, "/target", http.StatusFound)
				return
			}
			w.Header().Set("Last-Modified", ownDate.Format(http.TimeFormat))
			if ims, err := http.ParseTime(r.Header.Get("If-Modified-Since")); err == nil && !ownDate.After(ims) {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body><p>the page's own content</p></body></html>")
		case "/target":
			w.Header().Set("Last-Modified", targetDate.Format(http.TimeFormat))
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body><p>the target</p></body></html>")
		}
	}))
	defer srv.Close()
	w := watchPage(t, srv.URL+"/page")
	w.check()
	if b := w.body(); !strings.Contains(b, "the target") {
		t.Fatalf("first check: version %q, want the target's content", b)
	}
	redirecting.Store(false)
	w.check()
	if b := w.body(); !strings.Contains(b, "the page's own content") {
		t.Errorf("the page no longer redirects: version %q, want its own content", b)
	}
}

// watchedPage is a page that a sentinel watches hourly, checked by a
// monitor that fetches through the real fetcher.
type watchedPage struct {
	t       *testing.T
	url     string
	db      *sqlite.DB
	wh      *warehouse.Warehouse
	u       *vigil.User // the sentinel's owner
	s       *vigil.Sentinel
	m       *Monitor
	now     time.Time
	checked bool
}

// watchPage returns the page at url, watched.
func watchPage(t *testing.T, url string) *watchedPage {
	return watchPageWith(t, url, "")
}

// watchPageWith returns the page at url, watched by a sentinel whose
// source ends with clauses (a Notify clause).
func watchPageWith(t *testing.T, url, clauses string) *watchedPage {
	w := &watchedPage{t: t, url: url, now: time.Now().UTC().Truncate(time.Minute)}
	w.db, w.wh, w.u = testStore(t)
	w.s = createSentinel(t, w.db, spec.NewChecker(w.now), w.u, "page", "Create Sentinel page Using "+url+" Monitor any change Fetch 1 hour "+clauses+"\n")
	f := fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second})
	w.m = &Monitor{Store: w.db, Warehouse: w.wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return w.now }}
	return w
}

// check runs the page's next check, two hours after the previous one.
func (w *watchedPage) check() {
	w.t.Helper()
	if w.checked {
		w.now = w.now.Add(2 * time.Hour)
		makeDue(w.t, w.db, w.s, w.now)
	}
	w.checked = true
	runOnce(w.t, w.m, 1)
}

// latest returns the page's newest version.
func (w *watchedPage) latest() *vigil.Version {
	w.t.Helper()
	ctx := context.Background()
	r, err := w.db.FindResourceByURL(ctx, w.url)
	if err != nil {
		w.t.Fatal(err)
	}
	v, err := w.db.LatestVersion(ctx, r.ID)
	if err != nil {
		w.t.Fatal(err)
	}
	return v
}

// body returns the body of the page's newest version.
func (w *watchedPage) body() string {
	w.t.Helper()
	b, err := w.wh.Body(context.Background(), w.latest().ID)
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}
