package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestServeMaxPageSize: --max-page-size sets the largest page vigil
// serve's fetcher reads, in MiB, as sent and once decoded. A page of
// 24 MB failed at any setting ("Content-Length 24000026 exceeds the cap
// of 10485760 bytes"): no flag changed the cap. At the default (20 MiB)
// it is refused with an error that names the flag; raised, it is read.
func TestServeMaxPageSize(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	const head, tail, size = "<html><body><pre>", "</pre></body></html>", 24_000_026
	page := head + strings.Repeat("a", size-len(head)-len(tail)) + tail
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	url := srv.URL + "/big"
	data := t.TempDir()
	addSentinels(t, data, fmt.Sprintf("Create Sentinel big Using %s Monitor any change Fetch 1 second\n", url))
	db := openData(t, data)
	latest := func() *vigil.Version {
		r, err := db.FindResourceByURL(context.Background(), url)
		if err != nil {
			return nil
		}
		vs, _, err := db.FindVersions(context.Background(), vigil.VersionFilter{ResourceID: r.ID, Descending: true, Limit: 1})
		if err != nil || len(vs) == 0 {
			return nil
		}
		return vs[0]
	}
	flags := []string{"--allow-private-networks", "--ignore-robots", "--min-interval", "1s", "--poll", "50ms", "--host-delay", "0"}
	d := startDaemon(t, data, flags...)
	waitFor(t, 30*time.Second, "the page's first check", func() bool { return latest() != nil })
	const want = "20971520 bytes; raise it with --max-page-size (now 20 MiB)"
	if v := latest(); !strings.Contains(v.Error, want) {
		t.Errorf("at the default cap: version %+v, want the error %q", v, want)
	}
	d.stop(t)
	d = startDaemon(t, data, append(flags, "--max-page-size", "30")...)
	waitFor(t, 30*time.Second, "the page read", func() bool { v := latest(); return v != nil && v.Error == "" })
	if v := latest(); v.Size != size {
		t.Errorf("raised to 30 MiB: version of %d bytes, want %d", v.Size, size)
	}
	d.stop(t)
}
