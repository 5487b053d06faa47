package monitor

import (
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// flakyServer serves pages with an ETag of their body and answers 304
// Not Modified to a request that sends it back (unless it ignores
// validators: a full 200 every time). A page given a status answers it
// instead: a 500, or a 304 whatever the request.
type flakyServer struct {
	mu     sync.Mutex
	pages  map[string]string // bodies by path
	status map[string]int    // answered instead of the page, by path
	no304  bool              // validators ignored
	not    int               // 304 answers to validators
}

func (s *flakyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if code := s.status[r.URL.Path]; code != 0 {
		w.WriteHeader(code)
		return
	}
	body, ok := s.pages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	etag := `"` + strconv.Itoa(len(body)) + "-" + strconv.Itoa(int(crc32.ChecksumIEEE([]byte(body)))) + `"`
	w.Header().Set("ETag", etag)
	if !s.no304 && r.Header.Get("If-None-Match") == etag {
		s.not++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, body)
}

// setStatus makes path answer code (0: its page again).
func (s *flakyServer) setStatus(path string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status == nil {
		s.status = map[string]int{}
	}
	s.status[path] = code
}

// notModified returns the number of 304 answers to validators so far.
func (s *flakyServer) notModified() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.not
}

// versionTrace names each stored version of a resource, oldest first:
// "200 <body>" for a page read, "<status> failed" for a failure.
func versionTrace(t *testing.T, st Store, wh *warehouse.Warehouse, url string) []string {
	t.Helper()
	ctx := context.Background()
	r, err := st.FindResourceByURL(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	vs, _, err := st.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range vs {
		if v.Error != "" {
			out = append(out, fmt.Sprintf("%d failed", v.Status))
			continue
		}
		b, err := wh.Body(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d %s", v.Status, b))
	}
	return out
}

// pageStateOf returns sentinel s's stored state of its page url.
func pageStateOf(t *testing.T, st Store, s *vigil.Sentinel, url string) *pageState {
	t.Helper()
	states, err := st.SentinelStates(context.Background(), []int64{s.ID})
	if err != nil {
		t.Fatal(err)
	}
	ps := decodeState(states[s.ID]).Pages[url]
	if ps == nil {
		t.Fatalf("sentinel %d has no state of %s", s.ID, url)
	}
	return ps
}

// TestPageBackFromFailure: a page read as A, then failing long enough
// for its owner to be told, then answering 304 Not Modified to A's
// validators works again: A's body is stored again as its newest
// version, and the sentinel is told it works again, exactly as when the
// page answers a 200 with A's body. The check took A as the page's
// content and stored nothing: the store's newest version stayed the
// failure, which the dashboard and the API showed as the page's state.
func TestPageBackFromFailure(t *testing.T) {
	const a = "<html><body><p>A</p></body></html>"
	type trace struct {
		Versions []string // the page's versions, oldest first
		Messages []string // the subjects of the messages, their dates cut
		Changes  int
		Seen     int64 // the versions the sentinel saw
		Failing  bool  // in a run of failures
		LastSeen bool  // the sentinel's last version seen is the newest
	}
	want := trace{
		Versions: []string{"200 " + a, "500 failed", "200 " + a},
		Messages: []string{"fails since", "works again"},
		Seen:     2, LastSeen: true,
	}
	for name, no304 := range map[string]bool{"304 to the last good version's ETag": false, "200 with its body": true} {
		t.Run(name, func(t *testing.T) {
			fs := &flakyServer{pages: map[string]string{"/page": a}, no304: no304}
			srv := httptest.NewServer(fs)
			t.Cleanup(srv.Close)
			url := srv.URL + "/page"
			w := watchPageWith(t, url, "Notify By email owner@example.test")
			w.m.FailureNotice = 3 * time.Hour
			w.check() // A
			fs.setStatus("/page", 500)
			for range 3 {
				w.check() // fails for 4 hours: told
			}
			fs.setStatus("/page", 0)
			w.check() // works again
			w.check() // unchanged
			if got := fs.notModified(); no304 && got != 0 || !no304 && got != 2 {
				t.Fatalf("%d answers 304: the server did not answer as the case says", got)
			}

			var got trace
			got.Versions = versionTrace(t, w.db, w.wh, url)
			for _, msg := range messagesOf(t, w.db, w.u, w.s) {
				switch {
				case strings.Contains(msg.Subject, " fails since "):
					got.Messages = append(got.Messages, "fails since")
				case strings.HasSuffix(msg.Subject, " works again"):
					got.Messages = append(got.Messages, "works again")
				default:
					got.Messages = append(got.Messages, msg.Subject)
				}
			}
			got.Changes = len(changesOf(t, w.db, w.s))
			ps := pageStateOf(t, w.db, w.s, url)
			got.Seen, got.Failing = ps.Count, !ps.FailingSince.IsZero() || ps.FailureSent
			got.LastSeen = ps.last() == w.latest().ID
			if !reflect.DeepEqual(got, want) {
				t.Errorf("after the page came back:\n got %+v\nwant %+v", got, want)
			}
			if _, v, err := w.db.LatestVersionByURL(context.Background(), url); err != nil || v.Error != "" {
				t.Errorf("LatestVersionByURL = %+v, %v; want the page's body, not its failure", v, err)
			}
		})
	}
}

// TestPageNotModifiedWithoutGoodVersion: a page that never worked (its
// only version is a failure) and then answers 304 Not Modified, to a
// request that had no validators to send, has not come back: the check
// fails, the newest version stays a failure and the run of failures goes
// on.
func TestPageNotModifiedWithoutGoodVersion(t *testing.T) {
	fs := &flakyServer{pages: map[string]string{"/page": "<html><body><p>A</p></body></html>"}}
	fs.setStatus("/page", 500)
	srv := httptest.NewServer(fs)
	t.Cleanup(srv.Close)
	url := srv.URL + "/page"
	w := watchPageWith(t, url, "Notify By email owner@example.test")
	w.m.FailureNotice = 3 * time.Hour
	w.check()
	since := w.now
	fs.setStatus("/page", http.StatusNotModified)
	w.check()
	w.check() // failing for 4 hours: told
	if v := w.latest(); v.Error == "" || !strings.Contains(v.Error, "304") {
		t.Errorf("newest version %+v: want a failure naming the 304", v)
	}
	ps := pageStateOf(t, w.db, w.s, url)
	if !ps.FailingSince.Equal(since) || ps.Count != 0 {
		t.Errorf("page state %+v: want failing since %v, no version seen", ps, since)
	}
	msgs := messagesOf(t, w.db, w.u, w.s)
	if len(msgs) != 1 || !strings.Contains(msgs[0].Subject, " fails since ") {
		t.Errorf("messages %v: want one failure notice", msgs)
	}
}

// siteWatch is a site sentinel on a flakyServer, checked as a
// watchedPage is (two hours apart), its owner told of failures after
// three hours.
type siteWatch struct {
	fs  *flakyServer
	srv *httptest.Server
	w   *watchedPage // the store, the owner, the sentinel and its monitor
}

func watchSite(t *testing.T, pages map[string]string) *siteWatch {
	fs := &flakyServer{pages: pages}
	srv := httptest.NewServer(fs)
	t.Cleanup(srv.Close)
	w := &watchedPage{t: t, url: srv.URL + "/", now: time.Now().UTC().Truncate(time.Minute)}
	w.db, w.wh, w.u = testStore(t)
	w.s = createSentinel(t, w.db, spec.NewChecker(w.now), w.u, "site",
		"Create Sentinel site Using site "+srv.URL+"/ Notify By email owner@example.test Every immediate")
	w.m = siteMonitor(w.db, w.wh, fetch.Options{}, &w.now)
	w.m.FailureNotice = 3 * time.Hour
	return &siteWatch{fs: fs, srv: srv, w: w}
}

// TestSitePageBackFromFailure: a site's start page read as A, then
// failing long enough for the owner to be told, then serving A again,
// works again, as a watched page does (TestPageBackFromFailure): A's body
// is the newest version of the start page again, the owner is told it
// works again, and no change of the site is reported. A failure stored
// as the newest version sends no validators: the crawl reads the page in
// full.
func TestSitePageBackFromFailure(t *testing.T) {
	const (
		index = `<html><body><a href="/a">A</a></body></html>`
		a     = `<html><body><p>A one.</p></body></html>`
	)
	sw := watchSite(t, map[string]string{"/": index, "/a": a, "/robots.txt": "User-agent: *\n"})
	w := sw.w
	w.check()
	sw.fs.setStatus("/", 500)
	for range 3 {
		w.check()
	}
	sw.fs.setStatus("/", 0)
	w.check() // works again
	w.check() // unchanged: 304s
	if got, want := versionTrace(t, w.db, w.wh, w.url), []string{"200 " + index, "500 failed", "200 " + index}; !reflect.DeepEqual(got, want) {
		t.Errorf("the start page's versions %q, want %q", got, want)
	}
	var subjects []string
	for _, msg := range messagesOf(t, w.db, w.u, w.s) {
		subjects = append(subjects, msg.Subject)
	}
	if len(subjects) != 2 || !strings.Contains(subjects[0], " fails since ") || !strings.HasSuffix(subjects[1], " works again") {
		t.Errorf("messages %q: want a failure notice, then works again", subjects)
	}
	if cs := changesOf(t, w.db, w.s); len(cs) != 0 {
		t.Errorf("%d changes of the site, want none: %s", len(cs), cs[0].Summary)
	}
	if ps := pageStateOf(t, w.db, w.s, w.url); !ps.FailingSince.IsZero() || ps.FailureSent {
		t.Errorf("the start page's run of failures after it worked again: %+v", ps)
	}
	if n := sw.fs.notModified(); n != 3 {
		t.Errorf("%d answers 304, want 3 (/a when the start page came back, then both)", n)
	}
}

// TestSitePageNotModifiedWithoutGoodVersion: a site's page that has no
// stored version to ask for conditionally (none at all, or only its
// failure) and answers 304 Not Modified all the same has not been read:
// it is a page that failed, in the crawl, not a page read with an empty
// body. A start page that does so fails the check and goes on failing.
func TestSitePageNotModifiedWithoutGoodVersion(t *testing.T) {
	const index = `<html><body><a href="/a">A</a></body></html>`
	for name, path := range map[string]string{"a page never stored": "/a", "a start page that failed": "/"} {
		t.Run(name, func(t *testing.T) {
			sw := watchSite(t, map[string]string{"/": index, "/a": `<html><body><p>A one.</p></body></html>`, "/robots.txt": "User-agent: *\n"})
			w := sw.w
			url := sw.srv.URL + path
			if path == "/" {
				sw.fs.setStatus(path, 500)
				w.check()
			}
			since := w.now
			sw.fs.setStatus(path, http.StatusNotModified)
			w.check()
			if path == "/a" {
				r := siteRecordOf(t, w.db, w.s)
				var a *crawl.Page
				for _, p := range r.Snapshot.Pages {
					if p.URL == url {
						a = p
					}
				}
				if a == nil || !a.Failed() || !strings.Contains(a.Error, "304") {
					t.Errorf("page /a in the crawl: %+v, want a failure naming the 304", a)
				}
				if id := r.Versions[url]; id != 0 {
					t.Errorf("page /a has version %d in the crawl, want none", id)
				}
				return
			}
			if v := w.latest(); v.Error == "" || !strings.Contains(v.Error, "304") {
				t.Errorf("the start page's newest version %+v: want a failure naming the 304", v)
			}
			if ps := pageStateOf(t, w.db, w.s, url); !ps.FailingSince.Equal(since) {
				t.Errorf("the start page's run of failures: %+v, want one since %v", ps, since)
			}
			if _, _, err := w.db.SiteSnapshot(context.Background(), w.s.ID); vigil.ErrorCode(err) != vigil.ENOTFOUND {
				t.Errorf("a crawl whose start page was not read became the reference: %v", err)
			}
		})
	}
}
