package web

import (
	"bytes"
	"errors"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
)

// lockedBuffer is a log's output, written by the server's goroutines and
// read by the test's.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// panicSecret is in the value of the test handlers' panics, in a URL, as
// a chat service's token is in a failed delivery's.
const panicSecret = "s3cr3t-t0ken"

// TestRecover: a handler that panics, on the API, on the dashboard,
// after its answer began, or with http.ErrAbortHandler, through the
// routing table the daemon serves (Register, then Recover).
func TestRecover(t *testing.T) {
	s, u := newTestServer(t)
	var logs lockedBuffer
	s.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	s.Metrics = NewMetrics(s.Store)
	mux := http.NewServeMux()
	s.Register(mux)
	boom := func() { panic("deliver https://hooks.example.com/services/" + panicSecret + ": nil map") }
	mux.Handle("GET /api/v1/test-panic", s.apiHandler(func(http.ResponseWriter, *http.Request, *vigil.User) error {
		boom()
		return nil
	}))
	mux.Handle("GET /test-panic", s.pageHandler(func(http.ResponseWriter, *http.Request, *session) error {
		boom()
		return nil
	}))
	mux.Handle("GET /test-panic-late", s.pageHandler(func(w http.ResponseWriter, _ *http.Request, _ *session) error {
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "half a page")
		w.(http.Flusher).Flush()
		boom()
		return nil
	}))
	mux.Handle("GET /test-abort", s.pageHandler(func(w http.ResponseWriter, _ *http.Request, _ *session) error {
		panic(http.ErrAbortHandler)
	}))
	srv := httptest.NewUnstartedServer(s.Recover(mux))
	var serverLog lockedBuffer // net/http's own log of the panics it recovers
	srv.Config.ErrorLog = log.New(&serverLog, "", 0)
	srv.Start()
	t.Cleanup(srv.Close)
	cookie, err := s.newSessionCookie(u)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) (*http.Response, string, error) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, string(b), err
	}
	panics := func() float64 { return counterValue(t, s.Metrics, `vigil_panics_total{in="http"}`) }

	for _, tc := range []struct {
		name, path string
		// wantType is the answer's Content-Type, want in its body.
		wantType, want string
	}{
		{name: "API", path: "/api/v1/test-panic", wantType: "application/json",
			want: `"code": "EINTERNAL",` + "\n" + `    "message": "Internal error."`},
		{name: "dashboard", path: "/test-panic", wantType: "text/html", want: "Internal error."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, logged := panics(), len(logs.String())
			resp, body, err := get(tc.path)
			if err != nil {
				t.Fatalf("the connection was dropped: %v", err)
			}
			if resp.StatusCode != http.StatusInternalServerError {
				t.Errorf("status %d, want 500", resp.StatusCode)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, tc.wantType) {
				t.Errorf("Content-Type %q, want %s", ct, tc.wantType)
			}
			if !strings.Contains(body, tc.want) || strings.Contains(body, panicSecret) || strings.Contains(body, "nil map") {
				t.Errorf("body %q: want %q, and nothing of the panic", body, tc.want)
			}
			if resp.Header.Get("X-Frame-Options") != "DENY" {
				t.Errorf("the security headers are lost: %v", resp.Header)
			}
			if got := panics(); got != before+1 {
				t.Errorf("vigil_panics_total{in=\"http\"} %v, want %v", got, before+1)
			}
			line := logs.String()[logged:]
			if strings.Count(line, "http handler panicked") != 1 || !strings.Contains(line, "hooks.example.com") ||
				!strings.Contains(line, "level=ERROR") || !strings.Contains(line, "recover_test.go") {
				t.Errorf("log %q: want one Error line with the redacted value and the stack", line)
			}
			if strings.Contains(line, panicSecret) || strings.Contains(line, cookie) {
				t.Errorf("log %q holds a secret", line)
			}
			if serverLog.String() != "" {
				t.Errorf("net/http logged: %q", serverLog.String())
			}
		})
	}

	t.Run("answer begun", func(t *testing.T) {
		before := panics()
		_, body, err := get("/test-panic-late")
		if err == nil {
			t.Errorf("the answer was completed: %q", body)
		}
		if got := panics(); got != before+1 {
			t.Errorf("vigil_panics_total{in=\"http\"} %v, want %v", got, before+1)
		}
		if strings.Contains(logs.String(), panicSecret) || serverLog.String() != "" {
			t.Errorf("logs: %q; net/http's: %q", logs.String(), serverLog.String())
		}
	})

	t.Run("ErrAbortHandler", func(t *testing.T) {
		before, logged := panics(), len(logs.String())
		if _, body, err := get("/test-abort"); err == nil {
			t.Errorf("the connection was not aborted: %q", body)
		}
		if got := panics(); got != before {
			t.Errorf("vigil_panics_total{in=\"http\"} %v, want %v: an abort is no bug", got, before)
		}
		if line := logs.String()[logged:]; line != "" {
			t.Errorf("an abort was logged: %q", line)
		}
	})

	// Recover passes http.ErrAbortHandler on as it is, for net/http.
	t.Run("ErrAbortHandler passed on", func(t *testing.T) {
		defer func() {
			if r := recover(); r == nil || !errors.Is(r.(error), http.ErrAbortHandler) {
				t.Errorf("recovered %v, want http.ErrAbortHandler", r)
			}
		}()
		s.Recover(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })).
			ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	})
}

// counterValue returns the value of the series named series (name and
// labels, as the text format writes them) on m's page, -1 if it lacks it.
func counterValue(t *testing.T, m *Metrics, series string) float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for line := range strings.Lines(rec.Body.String()) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	return -1
}
