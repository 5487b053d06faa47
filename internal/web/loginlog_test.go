package web

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// logBuffer is a log written by several goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.FieldsFunc(l.b.String(), func(r rune) bool { return r == '\n' })
}

// newLoopbackServer serves s on loopback, wrapped as cmd/vigil wires it,
// and returns its URL.
func newLoopbackServer(t *testing.T, s *Server) string {
	t.Helper()
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(Secure(s.NotFoundPages(mux)))
	t.Cleanup(srv.Close)
	return srv.URL
}

// summaryRE reads the counts of a summary line of refused sign-ins.
var summaryRE = regexp.MustCompile(`refused=(\d+) rate_limited=(\d+) wrong_password=(\d+) addresses=(\d+)`)

// TestLoginRefusalsLogBounded: an attacker's 1000 refused sign-ins, wrong
// passwords then rate-limited ones, through a real server, wrote one
// warning each; now the first are logged one by one and the rest in one
// summary line that says how many of each, from how many addresses, and
// the log never holds the passwords or the accounts tried.
func TestLoginRefusalsLogBounded(t *testing.T) {
	defer func(d time.Duration, i time.Duration) { failedLoginDelay, refusalInterval = d, i }(failedLoginDelay, refusalInterval)
	failedLoginDelay = 0
	refusalInterval = time.Hour // flushed below, not by the clock
	var log logBuffer
	s, _ := newTestServer(t)
	s.Logger = slog.New(slog.NewTextHandler(&log, nil))
	srv := newLoopbackServer(t, s)
	const n, workers = 1000, 8
	const password = "hunter2-never-logged"
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				form := url.Values{"email": {fmt.Sprintf("victim%d@example.com", i%50)}, "password": {password}, csrfField: {strings.Repeat("t", 32)}}
				req, _ := http.NewRequest("POST", srv+"/login", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.AddCookie(&http.Cookie{Name: loginCookie, Value: strings.Repeat("t", 32)})
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				mu.Lock()
				codes[resp.StatusCode]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if codes[http.StatusUnauthorized]+codes[http.StatusTooManyRequests] != n || codes[http.StatusTooManyRequests] == 0 {
		t.Fatalf("answers %v: want %d refusals, some rate-limited", codes, n)
	}
	before := len(log.lines())
	if before > refusalLines {
		t.Errorf("%d lines logged during the flood, want at most %d:\n%s", before, refusalLines, strings.Join(log.lines(), "\n"))
	}
	s.refusals.flush()
	lines := log.lines()
	if len(lines) > refusalLines+1 {
		t.Errorf("%d lines logged for %d refused sign-ins, want at most %d", len(lines), n, refusalLines+1)
	}
	one, summaries := 0, 0
	for _, l := range lines {
		if strings.Contains(l, password) || strings.Contains(l, "victim") {
			t.Errorf("the log holds a password or an account: %s", l)
		}
		if strings.Contains(l, `msg="sign-in refused: `) {
			one++
			if !strings.Contains(l, "address=127.0.0.1") {
				t.Errorf("a refusal logged without its address: %s", l)
			}
		}
		if m := summaryRE.FindStringSubmatch(l); m != nil {
			summaries++
			want := []int{n, codes[http.StatusTooManyRequests], codes[http.StatusUnauthorized], 1}
			for i, w := range want {
				if got, _ := strconv.Atoi(m[i+1]); got != w {
					t.Errorf("summary %s: %s, want %d", []string{"refused", "rate_limited", "wrong_password", "addresses"}[i], m[i+1], w)
				}
			}
			wantMsg := fmt.Sprintf(`msg="%d sign-ins refused in the last hour, %d rate-limited, from 1 address"`, n, codes[http.StatusTooManyRequests])
			if !strings.Contains(l, wantMsg) {
				t.Errorf("summary %s: want %s", l, wantMsg)
			}
		}
	}
	if one != refusalLines || summaries != 1 {
		t.Errorf("%d refusals logged one by one and %d summaries, want %d and 1:\n%s", one, summaries, refusalLines, strings.Join(lines, "\n"))
	}
}

// TestRefusalLogInterval: the summary of an interval is written when it
// ends, by the clock, though no refusal follows; a flood that goes on
// gets one summary an interval and no more lines one by one, until an
// interval passes without refusals not logged.
func TestRefusalLogInterval(t *testing.T) {
	defer func(i time.Duration) { refusalInterval = i }(refusalInterval)
	refusalInterval = 50 * time.Millisecond
	var log logBuffer
	r := newRefusalLog(slog.New(slog.NewTextHandler(&log, nil)))
	for i := range refusalLines + 5 {
		r.refused(fmt.Sprintf("192.0.2.%d", i), i%2 == 0)
	}
	waitFor := func(summaries int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if strings.Count(strings.Join(log.lines(), "\n"), "wrong_password=") >= summaries {
				return
			}
		}
		t.Fatalf("no summary %d by the clock:\n%s", summaries, strings.Join(log.lines(), "\n"))
	}
	waitFor(1)
	if m := summaryRE.FindStringSubmatch(strings.Join(log.lines(), "\n")); m == nil || m[1] != strconv.Itoa(refusalLines+5) || m[4] != strconv.Itoa(refusalLines+5) {
		t.Errorf("summary %q: want %d refused from %d addresses", m, refusalLines+5, refusalLines+5)
	}
	// The flood goes on: no line one by one, a summary.
	before := len(log.lines())
	r.refused("192.0.2.1", false)
	r.refused("192.0.2.1", false)
	if got := len(log.lines()); got != before {
		t.Errorf("a refusal of a flood that goes on logged one by one:\n%s", strings.Join(log.lines(), "\n"))
	}
	waitFor(2)
	// A quiet interval: the next refusals are logged one by one again.
	for deadline := time.Now().Add(10 * time.Second); !r.quiet(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no quiet interval after the flood")
		}
	}
	before = len(log.lines())
	r.refused("192.0.2.1", false)
	if got := len(log.lines()); got != before+1 {
		t.Errorf("after a quiet interval, a refusal logged %d lines, want 1", got-before)
	}
}

// TestRefusalLogAddressesBounded: the addresses of a flood from many
// addresses are counted in a bounded table; the summary says there were
// more than it holds.
func TestRefusalLogAddressesBounded(t *testing.T) {
	var log logBuffer
	r := newRefusalLog(slog.New(slog.NewTextHandler(&log, nil)))
	for i := range 3 * maxRefusalAddresses {
		r.refused(fmt.Sprintf("10.0.%d.%d", i>>8, i&255), true)
		if got := len(r.addresses); got > maxRefusalAddresses {
			t.Fatalf("%d addresses held, max %d", got, maxRefusalAddresses)
		}
	}
	r.flush()
	all := strings.Join(log.lines(), "\n")
	want := fmt.Sprintf("%d sign-ins refused in the last minute, %d rate-limited, from more than %d addresses", 3*maxRefusalAddresses, 3*maxRefusalAddresses, maxRefusalAddresses)
	if !strings.Contains(all, want) {
		t.Errorf("want %q in\n%s", want, all)
	}
}
