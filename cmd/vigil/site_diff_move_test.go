package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/fetch/proxytest"
)

// TestSiteDiffMovedToHTTPS: vigil site diff compares two crawls of a site
// that moved to https alone between them (NEW's scope, or its start and
// scope, the https form of OLD's) as the monitor does, page by page at
// the same paths, saying the site moved; a move to another host is still
// a different query, refused. Before, every such pair was refused.
//
// The sites are real loopback servers, http and https, reached by a
// public name on its default ports through a loopback proxy (proxytest).
func TestSiteDiffMovedToHTTPS(t *testing.T) {
	docs := func(guide string) crawltest.Release {
		return crawltest.Release{
			"/docs/index.html": []byte(`<title>Docs</title><a href="guide.html">Guide</a> <a href="http://example.com/docs/faq.html">FAQ</a>`),
			"/docs/guide.html": []byte(`<title>Guide</title><p>` + guide + `</p>`),
			"/docs/faq.html":   []byte(`<title>FAQ</title><p>Ask us.</p>`),
		}
	}
	plain := crawltest.NewSite(t, docs("Run the installer."))
	secure := crawltest.NewTLSSite(t, docs("Run the new installer."))
	p := proxytest.Start(t, map[string]string{
		"example.com:80":       plain.Srv.Listener.Addr().String(),
		"example.com:443":      secure.Srv.Listener.Addr().String(),
		"docs.example.com:443": secure.Srv.Listener.Addr().String(),
	})
	f := fetch.New(fetch.Options{AllowPrivateNetworks: true, Proxy: p.URL("", "")})
	pool := x509.NewCertPool()
	pool.AddCert(secure.Srv.Certificate())
	f.Transport().TLSClientConfig = &tls.Config{RootCAs: pool, ServerName: "example.com"}
	dir := t.TempDir()
	save := func(name, start string) string {
		t.Helper()
		snap, err := crawl.Crawl(context.Background(), f, crawl.NewQuery(start))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		if err := snap.Encode(out); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old := save("old.json", "http://example.com/docs/")
	plain.Mu.Lock()
	plain.Moved = map[string]string{"/docs/": "https://example.com/docs/"}
	plain.Mu.Unlock()

	for name, tc := range map[string]struct {
		start string // NEW's
		move  bool
	}{
		"the start page redirected":     {"http://example.com/docs/", true},
		"started from the https URL":    {"https://example.com/docs/", true},
		"started from another host too": {"https://docs.example.com/docs/", false},
	} {
		t.Run(name, func(t *testing.T) {
			new := save(strings.ReplaceAll(name, " ", "-")+".json", tc.start)
			code, out, errOut := runVigilEnv(t, nil, "site", "diff", old, new)
			if !tc.move {
				if code != exitError || !strings.Contains(errOut, "snapshots of different queries") {
					t.Errorf("exit %d, stderr %q; want 2 and the queries said different", code, errOut)
				}
				return
			}
			want := []string{
				"moved to https: " + old + "'s pages on http://example.com compared with " + new + "'s on https://example.com at the same paths\n",
				"~ changed  https://example.com/docs/guide.html",
				"total: 0 added, 0 removed, 1 changed, 2 unchanged",
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if code != exitChanged || !strings.HasPrefix(out, "moved to https") {
				t.Errorf("exit %d, stderr %q, output:\n%s\nwant exit 1 and the move said first", code, errOut, out)
			}
			code, out, errOut = runVigilEnv(t, nil, "site", "diff", "--format", "json", old, new)
			if code != exitChanged || !strings.Contains(errOut, "vigil site diff: note: moved to https") || !strings.HasPrefix(out, "{") {
				t.Errorf("--format json: exit %d, stderr %q, output %.80q; want exit 1, the move noted on stderr, JSON alone", code, errOut, out)
			}
			var got struct {
				MovedToHTTPS *siteMoveJSON `json:"movedToHTTPS"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("--format json: standard output is not JSON alone: %v", err)
			}
			if m := got.MovedToHTTPS; m == nil || m.From != "http://example.com" || m.To != "https://example.com" {
				t.Errorf("--format json: movedToHTTPS %+v, want from http://example.com to https://example.com", m)
			}
		})
	}
}
