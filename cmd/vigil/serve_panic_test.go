package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/monitor"
	"github.com/vigil-web/vigil/internal/notify/feed"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// panickyStore is a store whose FindSentinels panics once armed, with a
// URL and its token in the panic's value.
type panickyStore struct {
	vigil.Store
	armed atomic.Bool
}

func (s *panickyStore) FindSentinels(ctx context.Context, f vigil.SentinelFilter) ([]*vigil.Sentinel, int, error) {
	if s.armed.Load() {
		panic("query https://db.example/?token=s3cr3t-t0ken")
	}
	return s.Store.FindSentinels(ctx, f)
}

// TestServePanicRecovered: a panic of a route the daemon mounts itself
// (/healthz, beside the feeds) is recovered by the routing table vigil
// serve builds (newServeMux, with the dashboard mounted): 500 with the
// error page, one log line without the panic's secret, and counted in
// vigil_panics_total{in="http"}; net/http left nothing to recover.
func TestServePanicRecovered(t *testing.T) {
	t.Setenv("VIGIL_ADMIN_PASSWORD", "pw")
	sqlst, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sqlst.Close()
	st := &panickyStore{Store: sqlst}
	var logs bytes.Buffer
	secret := []byte(strings.Repeat("k", 32))
	d := &daemon{dataDir: t.TempDir(), store: st, secret: secret, logger: slog.New(slog.NewTextHandler(&logs, nil)),
		feeds: &feed.Server{Store: st, Secret: secret}, deliverer: &monitor.Deliverer{}, publicMetrics: true}
	h := newServeMux(d)
	st.armed.Store(true)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "Internal error.") {
		t.Errorf("/healthz: %d %q, want 500 and the error page", rec.Code, rec.Body.String())
	}
	if got := logs.String(); strings.Count(got, "http handler panicked") != 1 || strings.Contains(got, "s3cr3t") ||
		!strings.Contains(got, "route=\"GET /healthz\"") {
		t.Errorf("log %q: want one line, the route named, the token not", got)
	}
	st.armed.Store(false) // the scrape reads the sentinels too
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	if want := `vigil_panics_total{in="http"} 1`; !strings.Contains(string(body), want) {
		t.Errorf("metrics lack %q", want)
	}
}
