package monitor

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestPasswordNotShown: a URL's password stays out of what the monitor
// stores as a page's failure, the failure notice it queues and everything
// it logs. Every check of a sentinel refuses a URL with credentials
// (spec.NormalizeURL, its error showing the password as xxxxx), so a
// watched page meets them through a redirect (refused by the fetcher) or
// through a checked specification that holds one in its URLs, written
// here by hand as no check writes it: its page is fetched as stored (the
// resource is keyed by the URL as given) and fails with a 500. The
// fetcher's errors, and the monitor's log records and failure notices,
// named the URL as given.
func TestPasswordNotShown(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path == "/moved" {
			w.Header().Set("Location", "http://user:s3cret@"+r.Host+"/page")
			w.WriteHeader(http.StatusFound)
			return
		}
		http.Error(w, "broken", http.StatusInternalServerError)
	}))
	defer srv.Close()
	withPassword := strings.Replace(srv.URL, "://", "://user:s3cret@", 1) + "/"
	now := time.Now().UTC().Truncate(time.Minute)
	checker := spec.NewChecker(now)
	if _, err := checker.Check(mustParse(t, "Create Sentinel refused Using "+withPassword+"\n")); err == nil ||
		strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "user:xxxxx@") {
		t.Fatalf("a sentinel on a URL with a password: %v; want it refused, the password hidden", err)
	}
	for name, tc := range map[string]struct{ url, stored string }{
		"checked URL with a password": {url: srv.URL + "/", stored: withPassword},
		"redirect to one":             {url: srv.URL + "/moved"},
	} {
		t.Run(name, func(t *testing.T) {
			db, wh, u := testStore(t)
			s := createSentinel(t, db, checker, u, "page", "Create Sentinel page Using "+tc.url+
				" Monitor any change Fetch 1 hour Notify By email owner@example.test\n")
			page := tc.url
			if tc.stored != "" {
				page = tc.stored
				s.Spec = withURLs(t, s.Spec, page)
				if err := db.UpdateSentinel(context.Background(), s); err != nil {
					t.Fatal(err)
				}
			}
			var logged bytes.Buffer
			clock := now
			m := &Monitor{Store: db, Warehouse: wh, Policy: schedule.Policy{MinInterval: time.Minute},
				Fetcher:       fetch.New(fetch.Options{AllowPrivateNetworks: true, TotalTimeout: 5 * time.Second}),
				Now:           func() time.Time { return clock },
				FailureNotice: time.Hour,
				Logger:        slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))}
			runOnce(t, m, 1)
			clock = clock.Add(2 * time.Hour)
			makeDue(t, db, s, clock)
			runOnce(t, m, 1)

			r, err := db.FindResourceByURL(context.Background(), page)
			if err != nil || r.URL != page {
				t.Fatalf("resource of %s: %+v, %v; want it keyed by the URL as given", page, r, err)
			}
			v, err := db.LatestVersion(context.Background(), r.ID)
			if err != nil || v.Error == "" {
				t.Fatalf("the page's newest version: %+v, %v; want a failure", v, err)
			}
			msgs := messagesOf(t, db, u, s)
			if len(msgs) != 1 || msgs[0].Failure == nil {
				t.Fatalf("messages: %+v; want one failure notice", msgs)
			}
			notice, err := json.Marshal(msgs[0])
			if err != nil {
				t.Fatal(err)
			}
			for what, text := range map[string]string{"stored failure": v.Error, "failure notice": string(notice), "log": logged.String()} {
				if strings.Contains(text, "s3cret") {
					t.Errorf("the password is in the %s:\n%s", what, text)
				}
			}
			if !strings.Contains(logged.String(), "127.0.0.1") || !strings.Contains(v.Error, "127.0.0.1") {
				t.Errorf("the failure does not name the page:\n%s\n%s", v.Error, logged.String())
			}
		})
	}
}

// mustParse parses the source of one sentinel.
func mustParse(t *testing.T, src string) *spec.Sentinel {
	t.Helper()
	ps, err := spec.ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// withURLs returns a checked specification with its URLs replaced.
func withURLs(t *testing.T, js json.RawMessage, urls ...string) json.RawMessage {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	m["urls"] = urls
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
