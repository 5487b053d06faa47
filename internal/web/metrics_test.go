package web

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMetricsPanics: the checks and deliveries that panicked, recovered
// by the daemon (monitor.Monitor.Panicked, monitor.Deliverer.Panicked),
// are counted apart from failed fetches, by where they struck, so that a
// bug shows on the metrics as well as in the log.
func TestMetricsPanics(t *testing.T) {
	s, _ := newTestServer(t)
	m := NewMetrics(s.Store)
	m.CountPanic("check")
	m.CountPanic("check")
	m.CountPanic("delivery")
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{`vigil_panics_total{in="check"} 2`, `vigil_panics_total{in="delivery"} 1`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q:\n%s", want, body)
		}
	}
}
