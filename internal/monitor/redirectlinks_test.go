package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// TestRedirectedPageLinks: a watched page that redirects to a page in
// another directory (/old -> 301 -> /new/page) has its relative links and
// image sources resolved against the page its body was read from, and
// that page's base element, not against the URL asked for: its version
// records that final URL, and the changes of its links and images name
// /new/c.html, not /c.html. A redirect that comes to lead to another
// directory, the body unchanged, is a new version whose links moved with
// it. The links were resolved against /old: a link to /new/b.html was
// told as one to /b.html, a page that does not exist.
func TestRedirectedPageLinks(t *testing.T) {
	page := func(head, link, img string) string {
		return "<!DOCTYPE html><html><head>" + head + "</head><body><p><a href=\"" + link + "\">next</a> <img src=\"" + img + "\" alt=\"pic\"></p></body></html>"
	}
	type step struct {
		target, body string // where /old redirects, and what every page serves
	}
	for _, tc := range []struct {
		name        string
		first, then step
		version     string   // the final URL of the second version, after the server's address
		want        []string // the records of the second check: op, kind, the URL
	}{
		{"the page changes",
			step{"/new/page", page("", "b.html", "img/a.png")},
			step{"/new/page", page("", "c.html", "img/b.png")},
			"/new/page",
			[]string{"update link /new/b.html -> /new/c.html", "update image /new/img/a.png -> /new/img/b.png"}},
		{"a relative base element",
			step{"/new/page", page(`<base href="docs/">`, "b.html", "img/a.png")},
			step{"/new/page", page(`<base href="docs/">`, "c.html", "img/b.png")},
			"/new/page",
			[]string{"update link /new/docs/b.html -> /new/docs/c.html", "update image /new/docs/img/a.png -> /new/docs/img/b.png"}},
		{"the redirect moves, the body does not",
			step{"/new/page", page("", "b.html", "img/a.png")},
			step{"/newer/page", page("", "b.html", "img/a.png")},
			"/newer/page",
			[]string{"update link /new/b.html -> /newer/b.html", "update image /new/img/a.png -> /newer/img/a.png"}},
		{"the redirect stops",
			step{"/new/page", page("", "b.html", "img/a.png")},
			step{"", page("", "b.html", "img/a.png")},
			"",
			[]string{"update link /new/b.html -> /b.html", "update image /new/img/a.png -> /img/a.png"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			cur := tc.first
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				s := cur
				mu.Unlock()
				switch {
				case r.URL.Path == "/robots.txt":
					http.NotFound(w, r)
				case r.URL.Path == "/old" && s.target != "":
					http.Redirect(w, r, s.target, http.StatusMovedPermanently)
				default:
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					io.WriteString(w, s.body)
				}
			}))
			defer srv.Close()
			now := time.Now().UTC().Truncate(time.Minute)
			db, wh, u := testStore(t)
			s := createSentinel(t, db, spec.NewChecker(now), u, "moved", "Create Sentinel moved Using "+srv.URL+"/old"+
				" Monitor all links OR all images Fetch 1 hour Notify By email owner@example.test\n")
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
				Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return now }}
			w := &watchedPage{t: t, url: srv.URL + "/old", db: db, wh: wh}
			runOnce(t, m, 1)
			if v := w.latest(); v.URL != srv.URL+tc.first.target {
				t.Errorf("the first version was read from %q, want %q", v.URL, srv.URL+tc.first.target)
			}
			mu.Lock()
			cur = tc.then
			mu.Unlock()
			now = now.Add(2 * time.Hour)
			makeDue(t, db, s, now)
			runOnce(t, m, 1)
			want := ""
			if tc.version != "" {
				want = srv.URL + tc.version
			}
			if v := w.latest(); v.URL != want || v.Seq != 2 {
				t.Errorf("the second version: seq %d, read from %q; want seq 2, read from %q", v.Seq, v.URL, want)
			}

			cs := changesOf(t, db, s)
			if len(cs) != 1 {
				t.Fatalf("%d changes, want 1", len(cs))
			}
			var records []struct{ Kind, Op, Old, New string }
			if err := json.Unmarshal([]byte(cs[0].Records), &records); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range records {
				got = append(got, r.Op+" "+r.Kind+" "+r.Old+" -> "+r.New)
			}
			var wantRecords []string
			for _, r := range tc.want {
				var op, kind, old, arrow, new string
				if _, err := fmt.Sscan(r, &op, &kind, &old, &arrow, &new); err != nil {
					t.Fatal(err)
				}
				wantRecords = append(wantRecords, op+" "+kind+" "+srv.URL+old+" -> "+srv.URL+new)
			}
			slices.Sort(got)
			slices.Sort(wantRecords)
			if !slices.Equal(got, wantRecords) {
				t.Errorf("records\n%q\nwant\n%q", got, wantRecords)
			}
		})
	}
}

// TestRedirectedLinkKeys: the links a redirected page votes for in the
// importance state are those of the page its body was read from: an
// HTML body scanned for its hrefs, one with a base element, and one of
// another type read from its tree alike. They were resolved against the
// URL asked for.
func TestRedirectedLinkKeys(t *testing.T) {
	const resource, final = "http://a.example/old", "http://a.example/new/page"
	for _, tc := range []struct {
		name, contentType, body string
		want                    []string
	}{
		{"scanned", "text/html", `<html><body><a href="b.html">b</a> <a href="/c.html">c</a></body></html>`,
			[]string{"http://a.example/new/b.html", "http://a.example/c.html"}},
		{"a base element", "text/html", `<html><head><base href="docs/"></head><body><a href="b.html">b</a></body></html>`,
			[]string{"http://a.example/new/docs/b.html"}},
		{"read from its tree", "application/xhtml+xml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><a href="b.html">b</a></body></html>`,
			[]string{"http://a.example/new/b.html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, wh, _ := testStore(t)
			m := &Monitor{Store: db, Warehouse: wh}
			v, err := wh.Put(context.Background(), &warehouse.Fetch{URL: resource, FinalURL: final, FetchedAt: time.Now(), Status: 200,
				ContentType: tc.contentType, Charset: "utf-8", Body: []byte(tc.body)})
			if err != nil {
				t.Fatal(err)
			}
			keys, err := m.linkKeys(context.Background(), resource, pageKey(resource), v, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []uint64
			for _, u := range tc.want {
				want = append(want, pageKey(u))
			}
			slices.Sort(want)
			if !slices.Equal(keys, want) {
				t.Errorf("keys %v, want those of %q", keys, tc.want)
			}
		})
	}
}

// TestRedirectWithAnotherQuery: a page that redirects to itself with a
// new query at each fetch (a session id, a cache buster), its body the
// same, is one version, not a new one a check: its relative links resolve
// alike against either URL (vigil.SameLinkBase).
func TestRedirectWithAnotherQuery(t *testing.T) {
	body := `<!DOCTYPE html><html><body><p><a href="b.html">next</a></p></body></html>`
	var mu sync.Mutex
	fetches := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case r.URL.Path == "/old":
			mu.Lock()
			fetches++
			n := fetches
			mu.Unlock()
			http.Redirect(w, r, fmt.Sprintf("/new/page?sid=%d", n), http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, body)
		}
	}))
	defer srv.Close()
	now := time.Now().UTC().Truncate(time.Minute)
	db, wh, u := testStore(t)
	s := createSentinel(t, db, spec.NewChecker(now), u, "session", "Create Sentinel session Using "+srv.URL+"/old"+
		" Monitor any change OR all links Fetch 1 hour Notify By email owner@example.test\n")
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
		Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return now }}
	w := &watchedPage{t: t, url: srv.URL + "/old", db: db, wh: wh}
	runOnce(t, m, 1)
	first := w.latest()
	if want := srv.URL + "/new/page?sid=1"; first.URL != want {
		t.Errorf("the first version was read from %q, want %q", first.URL, want)
	}
	now = now.Add(2 * time.Hour)
	makeDue(t, db, s, now)
	runOnce(t, m, 1)
	if fetches != 2 {
		t.Fatalf("%d fetches of the page, want 2", fetches)
	}
	if v := w.latest(); v.ID != first.ID {
		t.Errorf("a new version (seq %d, read from %q) for the same body read with another query", v.Seq, v.URL)
	}
	if cs := changesOf(t, db, s); len(cs) != 0 {
		t.Errorf("%d changes, want none", len(cs))
	}
}
