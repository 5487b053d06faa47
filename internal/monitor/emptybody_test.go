package monitor

import (
	"net/http/httptest"
	"reflect"
	"testing"
	"time"
)

// TestEmptyBodyIsFailure: a page that had content and answers one check
// 200 with an empty (or white-space only) body, then its content again,
// reports no change: the empty answer is the page's failure, stored as
// one, and the run of failures it starts ends when the content is back.
// Before, the empty body was a version, and every sentinel reported the
// page emptied then filled again (a table's 4 rows removed, then added).
// A page empty from its first fetch is a version as any, and its content
// coming is a change. The failure names the page, as every other failure
// of a fetch does: a sentinel watching several pages shows it as its last
// error, which said "the page" without saying which.
func TestEmptyBodyIsFailure(t *testing.T) {
	const a = "<html><body><table><tr><td>1</td></tr><tr><td>2</td></tr><tr><td>3</td></tr><tr><td>4</td></tr></table></body></html>"
	for name, empty := range map[string]string{"empty": "", "white space": " \r\n\t\n"} {
		t.Run(name, func(t *testing.T) {
			fs := &flakyServer{pages: map[string]string{"/page": a}}
			srv := httptest.NewServer(fs)
			t.Cleanup(srv.Close)
			url := srv.URL + "/page"
			w := watchPageWith(t, url, "Notify By email owner@example.test")
			w.m.FailureNotice = 3 * time.Hour
			w.check() // A
			fs.setPage("/page", empty)
			w.check()
			v := w.latest()
			if want := "fetch " + url + ": the page answered 200 with an empty body"; v.Error != want || v.Status != 200 {
				t.Errorf("the empty answer is stored as status %d, error %q; want 200, %s", v.Status, v.Error, want)
			}
			if ps := pageStateOf(t, w.db, w.s, url); ps.FailingSince.IsZero() {
				t.Errorf("the page answering empty is not failing")
			}
			fs.setPage("/page", a)
			w.check()
			if got, want := versionTrace(t, w.db, w.wh, url), []string{"200 " + a, "200 failed", "200 " + a}; !reflect.DeepEqual(got, want) {
				t.Errorf("versions %q, want %q", got, want)
			}
			if n := len(changesOf(t, w.db, w.s)); n != 0 {
				t.Errorf("%d changes, want none", n)
			}
			if msgs := messagesOf(t, w.db, w.u, w.s); len(msgs) != 0 {
				t.Errorf("%d messages (the first %q), want none", len(msgs), msgs[0].Subject)
			}
			if ps := pageStateOf(t, w.db, w.s, url); !ps.FailingSince.IsZero() {
				t.Errorf("the page works again, and is still failing since %v", ps.FailingSince)
			}
		})
	}
	t.Run("empty from the first fetch", func(t *testing.T) {
		fs := &flakyServer{pages: map[string]string{"/page": ""}}
		srv := httptest.NewServer(fs)
		t.Cleanup(srv.Close)
		url := srv.URL + "/page"
		w := watchPageWith(t, url, "Notify By email owner@example.test")
		w.check()
		if v := w.latest(); v.Error != "" {
			t.Errorf("a page empty from its first fetch is stored as the failure %q, want a version", v.Error)
		}
		fs.setPage("/page", a)
		w.check()
		if n := len(changesOf(t, w.db, w.s)); n != 1 {
			t.Errorf("the empty page filled: %d changes, want 1", n)
		}
	})
}

// setPage makes path answer body.
func (s *flakyServer) setPage(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = body
}
