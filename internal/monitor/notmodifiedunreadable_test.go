package monitor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
)

// TestNotModifiedWithUnreadableGoodBody: a page whose newest version is a
// failure, and whose last good version's body cannot be read (its blob
// corrupt), answers 304 Not Modified to that version's validators. The
// check asks again without them and stores the page's body as it comes,
// so that the page works again (and the corrupt blob is replaced), where
// the check failed for not reading the body the 304 stood for, and did
// at every check until the page changed.
func TestNotModifiedWithUnreadableGoodBody(t *testing.T) {
	const a = "<html><body><p>A</p></body></html>"
	ctx := context.Background()
	fs := &flakyServer{pages: map[string]string{"/page": a}}
	srv := httptest.NewServer(fs)
	t.Cleanup(srv.Close)
	url := srv.URL + "/page"
	w := watchPageWith(t, url, "")
	w.check() // A
	good := w.latest()
	fs.setStatus("/page", 500)
	w.check() // fails
	if err := w.db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: good.ID, Encoding: vigil.BodyFull},
		&vigil.Blob{Hash: good.ContentHash, Size: good.Size, Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.wh.Body(ctx, good.ID); err == nil {
		t.Fatal("the corrupt body reads")
	}
	// A monitor started afresh: no body of its own in memory.
	w.m = &Monitor{Store: w.m.Store, Warehouse: w.m.Warehouse, Fetcher: w.m.Fetcher, Policy: w.m.Policy, Now: w.m.Now}
	fs.setStatus("/page", 0)
	w.check() // works again
	if n := fs.notModified(); n != 1 {
		t.Fatalf("%d answers 304, want 1: the server did not answer as the test says", n)
	}
	if v := w.latest(); v.Error != "" {
		t.Fatalf("newest version failed: %s", v.Error)
	}
	want := []string{"200 " + a, "500 failed", "200 " + a}
	if got := versionTrace(t, w.db, w.wh, url); !reflect.DeepEqual(got, want) {
		t.Errorf("versions %q, want %q", got, want)
	}
	ps := pageStateOf(t, w.db, w.s, url)
	if ps.last() != w.latest().ID || !ps.FailingSince.IsZero() {
		t.Errorf("the sentinel's state of the page %+v: want the newest version seen and no failure", ps)
	}
}

// TestNotModifiedWithoutValidatorsUnreadableGoodBody: as above, but the
// page answers 304 to the request without validators too: it has not been
// read, and the check is a failure naming that 304.
func TestNotModifiedWithoutValidatorsUnreadableGoodBody(t *testing.T) {
	const a = "<html><body><p>A</p></body></html>"
	ctx := context.Background()
	fs := &flakyServer{pages: map[string]string{"/page": a}}
	srv := httptest.NewServer(fs)
	t.Cleanup(srv.Close)
	url := srv.URL + "/page"
	w := watchPageWith(t, url, "")
	w.check() // A
	good := w.latest()
	fs.setStatus("/page", 500)
	w.check() // fails
	if err := w.db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: good.ID, Encoding: vigil.BodyFull},
		&vigil.Blob{Hash: good.ContentHash, Size: good.Size, Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	w.m = &Monitor{Store: w.m.Store, Warehouse: w.m.Warehouse, Fetcher: w.m.Fetcher, Policy: w.m.Policy, Now: w.m.Now}
	fs.setStatus("/page", http.StatusNotModified)
	w.check()
	if v := w.latest(); !strings.Contains(v.Error, "304 Not Modified to a request without validators") {
		t.Errorf("newest version %+v: want a failure naming the 304 without validators", v)
	}
}

// TestSitePageNotModifiedUnreadableBody: a site's page that answers 304
// Not Modified to the validators of its stored version, whose body cannot
// be read (its blob corrupt), is asked again without them and stored as
// it comes (the corrupt blob replaced), so that the crawl reads it and
// reports no change, where the page failed in every crawl until it
// changed.
func TestSitePageNotModifiedUnreadableBody(t *testing.T) {
	const (
		index = `<html><body><a href="/a">A</a></body></html>`
		a     = `<html><body><p>A one.</p></body></html>`
	)
	ctx := context.Background()
	sw := watchSite(t, map[string]string{"/": index, "/a": a, "/robots.txt": "User-agent: *\n"})
	w := sw.w
	w.check()
	aURL := sw.srv.URL + "/a"
	r, v, err := w.db.LatestVersionByURL(ctx, aURL)
	if err != nil || v == nil {
		t.Fatalf("page /a: %v, %v", v, err)
	}
	if err := w.db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v.ID, Encoding: vigil.BodyFull},
		&vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	// A monitor started afresh: no body of its own in memory.
	w.m = siteMonitor(w.db, w.wh, fetch.Options{}, &w.now)
	w.check()
	if n := sw.fs.notModified(); n != 2 {
		t.Fatalf("%d answers 304, want 2 (both pages): the server did not answer as the test says", n)
	}
	rec := siteRecordOf(t, w.db, w.s)
	for _, p := range rec.Snapshot.Pages {
		if p.Failed() {
			t.Errorf("page %s failed in the crawl: %s", p.URL, p.Error)
		}
	}
	if id := rec.Versions[aURL]; id == 0 {
		t.Errorf("page /a has no version in the crawl")
	}
	if cs := changesOf(t, w.db, w.s); len(cs) != 0 {
		t.Errorf("%d changes of the site, want none: %s", len(cs), cs[0].Summary)
	}
	want := []string{"200 " + a, "200 " + a}
	if got := versionTrace(t, w.db, w.wh, r.URL); !reflect.DeepEqual(got, want) {
		t.Errorf("page /a's versions %q, want %q", got, want)
	}
}
