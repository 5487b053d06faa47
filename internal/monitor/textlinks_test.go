package monitor

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestTextPageLinks: a sentinel watching the links of a page served as
// text/plain (a list of download URLs), fetched from a loopback server by
// the real fetcher, reports exactly the URLs added and removed, and its
// message says "link added: URL" as for a page's links. It found none:
// a page read as text has no a elements. So does one watching JSON
// written with its slashes escaped (https:\/\/dl.example\/v1.3.tar.gz),
// or text whose URLs start with www. (GitHub's autolinks), which found
// none or URLs cut at the first \/. A page served as text/html
// whose <pre> lists URLs has no links but its a elements: its sentinel
// reports nothing.
func TestTextPageLinks(t *testing.T) {
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	for _, tc := range []struct {
		name, contentType string
		old, new          string
		want              []string // the message's lines of changes
	}{
		{"text/plain", "text/plain; charset=utf-8",
			lines("Downloads:", "https://dl.example/v1.0.tar.gz", "https://dl.example/v1.1.tar.gz (stable).", "https://dl.example/v1.2.tar.gz"),
			lines("Downloads:", "https://dl.example/v1.1.tar.gz (stable).", "https://dl.example/v1.2.tar.gz", "https://dl.example/v1.3.tar.gz, signed: https://dl.example/v1.3.tar.gz.sig"),
			[]string{"- link removed: https://dl.example/v1.0.tar.gz", "+ link added: https://dl.example/v1.3.tar.gz", "+ link added: https://dl.example/v1.3.tar.gz.sig"}},
		// JSON written with its slashes escaped (PHP's json_encode): the
		// same links, found unescaped. Then URLs written from www., no
		// scheme: links to http://www....
		{"application/json, slashes escaped", "application/json",
			`{"downloads":["https:\/\/dl.example\/v1.0.tar.gz","https:\/\/dl.example\/v1.1.tar.gz","https:\/\/dl.example\/v1.2.tar.gz"]}`,
			`{"downloads":["https:\/\/dl.example\/v1.1.tar.gz","https:\/\/dl.example\/v1.2.tar.gz","https:\/\/dl.example\/v1.3.tar.gz","https:\/\/dl.example\/v1.3.tar.gz.sig"]}`,
			[]string{"- link removed: https://dl.example/v1.0.tar.gz", "+ link added: https://dl.example/v1.3.tar.gz", "+ link added: https://dl.example/v1.3.tar.gz.sig"}},
		{"text/plain, www", "text/plain; charset=utf-8",
			lines("Downloads:", "www.dl.example/v1.0.tar.gz", "https://dl.example/v1.1.tar.gz (stable).", "https://dl.example/v1.2.tar.gz"),
			lines("Downloads:", "https://dl.example/v1.1.tar.gz (stable).", "https://dl.example/v1.2.tar.gz", "(www.dl.example/v1.3.tar.gz), signed: www.dl.example/v1.3.tar.gz.sig"),
			[]string{"- link removed: http://www.dl.example/v1.0.tar.gz", "+ link added: http://www.dl.example/v1.3.tar.gz", "+ link added: http://www.dl.example/v1.3.tar.gz.sig"}},
		{"a page's pre", "text/html; charset=utf-8",
			"<!DOCTYPE html><html><body><pre>\nhttps://dl.example/v1.0.tar.gz\nhttps://dl.example/v1.1.tar.gz\n</pre></body></html>",
			"<!DOCTYPE html><html><body><pre>\nhttps://dl.example/v1.1.tar.gz\nhttps://dl.example/v1.3.tar.gz\n</pre></body></html>",
			nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			body := tc.old
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/downloads" {
					http.NotFound(w, r)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				w.Header().Set("Content-Type", tc.contentType)
				io.WriteString(w, body)
			}))
			defer srv.Close()
			now := time.Now().UTC().Truncate(time.Minute)
			db, wh, u := testStore(t)
			s := createSentinel(t, db, spec.NewChecker(now), u, "downloads", "Create Sentinel downloads Using "+srv.URL+"/downloads"+
				" Monitor all links Fetch 1 hour Notify By email owner@example.test\n")
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
				Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return now }}
			runOnce(t, m, 1)
			mu.Lock()
			body = tc.new
			mu.Unlock()
			now = now.Add(2 * time.Hour)
			makeDue(t, db, s, now)
			runOnce(t, m, 1)

			cs := changesOf(t, db, s)
			msgs := messagesOf(t, db, u, s)
			if tc.want == nil {
				if len(cs) != 0 || len(msgs) != 0 {
					t.Fatalf("%d changes and %d messages, want none: %+v", len(cs), len(msgs), cs)
				}
				return
			}
			if len(cs) != 1 || len(msgs) != 1 {
				t.Fatalf("%d changes and %d messages, want 1 of each", len(cs), len(msgs))
			}
			var records []struct{ Kind, Op, Old, New string }
			if err := json.Unmarshal([]byte(cs[0].Records), &records); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range records {
				if r.Kind != "link" {
					t.Errorf("a %s record, want links only", r.Kind)
				}
				got = append(got, r.Op+" "+r.Old+r.New)
			}
			var want []string // the records the message's lines tell
			for _, line := range tc.want {
				if url, ok := strings.CutPrefix(line, "- link removed: "); ok {
					want = append(want, "delete "+url)
				} else if url, ok := strings.CutPrefix(line, "+ link added: "); ok {
					want = append(want, "insert "+url)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("records %q, want %q", got, want)
			}
			if want := "all links: 1 link removed, 2 links added"; cs[0].Summary != want {
				t.Errorf("summary %q, want %q", cs[0].Summary, want)
			}
			for _, line := range tc.want {
				if !strings.Contains(msgs[0].Text, "  "+line+"\n") {
					t.Errorf("the message lacks %q:\n%s", line, msgs[0].Text)
				}
			}
			n := 0
			for _, line := range strings.Split(msgs[0].Text, "\n") {
				if strings.HasPrefix(line, "  ") {
					n++
				}
			}
			if n != len(tc.want) {
				t.Errorf("the message tells %d link changes, want %d:\n%s", n, len(tc.want), msgs[0].Text)
			}
			if added := strings.TrimPrefix(tc.want[1], "+ link added: "); !strings.Contains(msgs[0].HTML, "link added: <ins>"+added+"</ins>") {
				t.Errorf("the message's HTML lacks the link added:\n%s", msgs[0].HTML)
			}
		})
	}
}
