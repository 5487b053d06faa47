package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/monitor"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/web"
)

// lockedBuffer is a log's buffer that goroutines may write at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestKeepRunning: a panic, or a runtime.Goexit, that escapes one of
// vigil serve's loops (the monitor's, the outbox's), which run on a
// goroutine of their own, does not crash the process: it is logged at
// Error level, a panic with its value (its URLs redacted) and its stack
// and counted where it struck, and the loop is started again; the loop's
// own error ends it.
func TestKeepRunning(t *testing.T) {
	for _, tc := range []struct {
		name   string
		first  func()
		counts []string
	}{
		{"panic", func() { panic("claim from postgres://vigil:SECRET@db.example.test/vigil failed") }, []string{panicMonitor}},
		{"goexit", runtime.Goexit, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var logs lockedBuffer
			var counts []string
			runs := 0
			stopped := errors.New("stopped")
			err := keepRunning(ctx, slog.New(slog.NewJSONHandler(&logs, nil)), func(in string) { counts = append(counts, in) },
				panicMonitor, time.Millisecond, func() error {
					runs++
					if runs == 1 {
						tc.first()
					}
					return stopped
				})
			if err != stopped || runs != 2 {
				t.Errorf("keepRunning = %v after %d runs; want the loop's error after 2", err, runs)
			}
			if strings.Join(counts, ",") != strings.Join(tc.counts, ",") {
				t.Errorf("counted %v; want %v", counts, tc.counts)
			}
			log := logs.String()
			if !strings.Contains(log, `"level":"ERROR","msg":"the monitor loop `) {
				t.Errorf("not logged at Error level:\n%s", log)
			}
			if tc.name == "panic" && (!strings.Contains(log, `"panic":"claim from postgres://vigil:xxxxx@db.example.test/…`) || !strings.Contains(log, `"stack":"goroutine`)) {
				t.Errorf("the panic is not logged with its value and stack:\n%s", log)
			}
			if strings.Contains(log, "SECRET") {
				t.Errorf("the panic's secret is logged:\n%s", log)
			}
		})
	}
	// Stopped while waiting to start again: the stop's error.
	ctx, cancel := context.WithCancel(context.Background())
	err := keepRunning(ctx, slog.New(slog.DiscardHandler), nil, panicOutbox, time.Hour, func() error { cancel(); panic("x") })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("stopped after a panic: %v; want the stop's error", err)
	}
}

// panickingListener panics in Accept, as a bug in the server's own loop
// would.
type panickingListener struct{ net.Listener }

func (panickingListener) Accept() (net.Conn, error) { panic("accept: nil pointer") }

// TestServeHTTPPanic: a panic of the HTTP server's own goroutine (not a
// handler's, which net/http recovers) is sent as the server's error,
// which stops the daemon cleanly, and logged with its stack.
func TestServeHTTPPanic(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var logs lockedBuffer
	serveErr := make(chan error, 1)
	go serveHTTP(&http.Server{}, panickingListener{ln}, slog.New(slog.NewJSONHandler(&logs, nil)), serveErr)
	select {
	case err := <-serveErr:
		var pe *vigil.PanicError
		if !errors.As(err, &pe) || err.Error() != "panic: accept: nil pointer" {
			t.Errorf("serve error %v; want the panic", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no error from the server")
	}
	if log := logs.String(); !strings.Contains(log, `"msg":"serve HTTP: panicked"`) || !strings.Contains(log, `"stack":"goroutine`) {
		t.Errorf("the panic is not logged with its stack:\n%s", log)
	}
}

// TestPanicLabelsShown: every place the monitor, vigil serve and its HTTP
// handlers count a panic by is on the metrics from the start, at 0.
func TestPanicLabelsShown(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec := httptest.NewRecorder()
	daemonMetrics(st).Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, in := range append(monitor.Panics, panicMonitor, panicOutbox, panicRetention, web.PanicHTTP) {
		if want := `vigil_panics_total{in="` + in + `"} 0`; !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestPanicLabelsHelp: the help of vigil_panics_total names each of vigil
// serve's loops it counts a panic of.
func TestPanicLabelsHelp(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec := httptest.NewRecorder()
	daemonMetrics(st).Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	var help string
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "# HELP vigil_panics_total ") {
			help = line
		}
	}
	loops := help[strings.Index(help, "the daemon's loops"):]
	loops = loops[:strings.Index(loops, ")")]
	for _, in := range []string{panicMonitor, panicOutbox, panicRetention} {
		if !strings.Contains(loops, in) {
			t.Errorf("the help of vigil_panics_total names the daemon's loops %q, not %q", loops, in)
		}
	}
}
