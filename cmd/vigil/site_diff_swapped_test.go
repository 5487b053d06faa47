package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestSiteDiffSwappedUTC: the note of vigil site diff on snapshots given
// in the wrong order says when each was crawled in UTC, as the rest of
// its output says its times (a page's "last read", "failing since"),
// whatever offset the snapshot files wrote them with: it said the
// files' own, "2026-03-01T19:00:00+09:00" beside times in UTC.
func TestSiteDiffSwappedUTC(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<title>Docs</title>`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	crawled := siteCrawl(t, dir, "crawled.json", srv.URL+"/docs/")
	f, err := os.Open(crawled)
	if err != nil {
		t.Fatal(err)
	}
	s, err := crawl.Decode(f, 1<<20)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	tokyo := time.FixedZone("JST", 9*60*60)
	at := time.Date(2026, 3, 1, 19, 0, 0, 0, tokyo)
	write := func(name string, started time.Time) string {
		s.Started, s.Finished = started, started.Add(time.Second)
		path := filepath.Join(dir, name)
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Encode(out); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old := write("old.json", at)
	new := write("new.json", at.Add(-time.Hour))
	code, _, stderr := runVigilEnv(t, nil, "site", "diff", old, new)
	want := "vigil site diff: note: " + new + " was crawled (2026-03-01T09:00:00Z) before " + old + " (2026-03-01T10:00:00Z): are OLD and NEW swapped?\n"
	if code != exitOK || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 0 and %q", code, stderr, want)
	}
}
