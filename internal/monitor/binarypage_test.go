package monitor

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestBinaryPage: a watched page that turns into a binary file (100 KB of
// application/octet-stream), then into another, through the real
// fetcher on loopback: each is stored as the version saying so, with its
// content type, the page is not failing (no failure notice however long
// it stays so), and a sentinel monitoring any change is told each time it
// changes, the same file answered again being no change. Before, the
// file was only ever the page's failure: no change, and after
// FailureNotice a notice that the page failed.
func TestBinaryPage(t *testing.T) {
	html := []byte("<html><body><p>Report</p></body></html>")
	fileA := bytes.Repeat([]byte{0, 1, 2, 3}, 25<<10)
	fileB := bytes.Repeat([]byte{0, 1, 2, 4}, 25<<10)
	var mu sync.Mutex
	var cur []byte
	var binary bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		body, bin := cur, binary
		mu.Unlock()
		if bin {
			w.Header().Set("Content-Type", "application/octet-stream")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		io.Copy(w, bytes.NewReader(body))
	}))
	t.Cleanup(srv.Close)
	serve := func(body []byte, bin bool) {
		mu.Lock()
		cur, binary = body, bin
		mu.Unlock()
	}
	serve(html, false)
	w := watchPageWith(t, srv.URL+"/report", "Notify By email owner@example.test")
	w.m.FailureNotice = time.Hour
	w.check()
	serve(fileA, true)
	w.check()
	v := w.latest()
	if v.ContentType != "application/octet-stream" || v.Status != 200 || !strings.Contains(v.Error, "application/octet-stream is not a text document") {
		t.Errorf("the binary answer is stored as status %d, content type %q, error %q; want 200, application/octet-stream and why",
			v.Status, v.ContentType, v.Error)
	}
	first := v.ID
	w.check() // the same file: no change, and not failing for 2 hours
	if w.latest().ID != first {
		t.Errorf("the same file answered again is stored again")
	}
	serve(fileB, true)
	w.check()
	var subjects []string
	for _, msg := range messagesOf(t, w.db, w.u, w.s) {
		subjects = append(subjects, msg.Subject)
	}
	if n := len(changesOf(t, w.db, w.s)); n != 2 || len(subjects) != 2 || strings.Contains(strings.Join(subjects, "\n"), "fails since") {
		t.Errorf("%d changes, messages %q; want the page turned into a file and the file changed, 2 changes and their 2 messages", n, subjects)
	}
	if len(subjects) == 2 && (!strings.HasSuffix(subjects[0], ": the page turned into a file Vigil does not read (application/octet-stream, 102400 bytes)") ||
		!strings.HasSuffix(subjects[1], ": the file changed (application/octet-stream, 102400 bytes)")) {
		t.Errorf("messages %q; want the page turned into a file, then the file changed", subjects)
	}
	if ps := pageStateOf(t, w.db, w.s, w.url); !ps.FailingSince.IsZero() {
		t.Errorf("a page answering a binary file is failing since %v", ps.FailingSince)
	}
}

// TestBinaryPageAndSite: a PDF watched by a page sentinel and read by a
// site sentinel's crawl is stored as one version by both, so that
// neither takes the other's version as its file changed: the PDF given
// a new text, then unchanged over several checks of each, is one change
// of each sentinel. Before the site's version said less than the page
// sentinel's, and the page sentinel took each as its file changed.
func TestBinaryPageAndSite(t *testing.T) {
	db, wh, u := testStore(t)
	draft := crawltest.FirstPDFRun()
	final := draft
	final.Text = "Hello, World"
	site := crawltest.NewSite(t, crawltest.Release{
		"/index.html": []byte(`<html><head><title>Reports</title></head><body><a href="report.pdf">Report</a></body></html>`),
		"/report.pdf": crawltest.PDF(draft),
	})
	now := time.Now().UTC()
	checker := spec.NewChecker(now)
	pageSen := createSentinel(t, db, checker, u, "report", "Create Sentinel report Using "+site.URL("/report.pdf")+" Monitor any change Every immediate")
	siteSen := createSentinel(t, db, checker, u, "reports", "Create Sentinel reports Using site "+site.URL("/index.html")+" Monitor any change Every immediate")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 2)
	site.Set(crawltest.Release{
		"/index.html": []byte(`<html><head><title>Reports</title></head><body><a href="report.pdf">Report</a></body></html>`),
		"/report.pdf": crawltest.PDF(final),
	}, nil)
	for range 3 {
		now = now.Add(time.Hour)
		makeDue(t, db, pageSen, now)
		makeDue(t, db, siteSen, now)
		runOnce(t, m, 2)
	}
	var got []string
	for _, c := range changesOf(t, db, pageSen) {
		got = append(got, c.Summary)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "the file changed (application/pdf") {
		t.Errorf("the page sentinel's changes %q; want the file changed, once", got)
	}
	if n := len(changesOf(t, db, siteSen)); n != 1 {
		t.Errorf("the site sentinel has %d changes, want 1 (the report's new text)", n)
	}
}
