package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

func addSentinels(t *testing.T, data, src string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "s.ssl")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return runBinary(t, "sentinel", "add", "--data", data, "--owner", "ops@example.test", file)
}

// TestServeRestartAfterSIGKILL kills the daemon with SIGKILL at a random
// moment after each change of a page, starts it again on the same data
// directory, and checks that every change is notified exactly once, by
// mail and by webhook: nothing lost, nothing notified twice. Delivery is
// at least once (internal/monitor's Deliverer): a kill between a channel's
// acceptance and the entry's mark as sent delivers that entry again when
// its lease ends, with the same X-Vigil-Delivery id for the receiver to
// deduplicate; so repeats are counted by delivery id, and a repeat must
// carry an id already received.
func TestServeRestartAfterSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	st := newSite(t)
	page := func(i int) string {
		return fmt.Sprintf("<!DOCTYPE html><html><body><h1>Status</h1><p>State: round %d</p></body></html>", i)
	}
	st.set("/status", page(0))
	box, smtpPort := startSMTP(t)
	hk := startHooks(t, "crash-secret-of-thirty-two-characters")
	data := t.TempDir()
	addSentinels(t, data, fmt.Sprintf(`Create Sentinel k1 Using %s/status
Monitor any change
Fetch 1 second
Notify By email ops@example.test, webhook %s/k1
Every immediate
`, st.srv.URL, hk.srv.URL))
	args := []string{"--allow-private-networks", "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms", "--lease", "2s",
		"--webhook-secret", "crash-secret-of-thirty-two-characters", "--smtp-host", "127.0.0.1", "--smtp-port", strconv.Itoa(smtpPort), "--smtp-tls", "none"}
	d := startDaemon(t, data, args...)
	db := openData(t, data)
	url := st.srv.URL + "/status"
	waitFor(t, 30*time.Second, "the first version", func() bool { return versionCount(t, db, url) == 1 })

	rng := rand.New(rand.NewPCG(7, 9))
	const rounds = 6
	for i := 1; i <= rounds; i++ {
		st.set("/status", page(i))
		time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond)
		d.kill()
		d = startDaemon(t, data, args...)
		marker := fmt.Sprintf(`"new":"State: round %d"`, i)
		waitFor(t, 20*time.Second, fmt.Sprintf("round %d notified", i), func() bool {
			n := 0
			for _, c := range hk.all() {
				if strings.Contains(c.raw, marker) {
					n++
				}
			}
			return n >= 1 && len(box.matching(fmt.Sprintf("round %d", i))) >= 1
		})
	}
	time.Sleep(4 * time.Second) // leases of anything interrupted run out; a repeat would show now
	// Each delivery once: a call or mail repeated after a kill has the
	// delivery id of one received before, and is one delivery.
	var calls []hookCall
	seen := map[string]bool{}
	for _, c := range hk.all() {
		if c.delivery == "" {
			t.Errorf("a webhook call without a delivery id: %s", c.raw)
		}
		if !seen[c.delivery] {
			seen[c.delivery] = true
			calls = append(calls, c)
		}
	}
	if len(calls) != rounds {
		t.Errorf("%d webhook deliveries for %d changes", len(calls), rounds)
	}
	mails := onePerDelivery(t, box.all())
	for i := 1; i <= rounds; i++ {
		n := 0
		for _, c := range calls {
			if strings.Contains(c.raw, fmt.Sprintf(`"new":"State: round %d"`, i)) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("round %d: %d webhook deliveries", i, n)
		}
		m := 0
		for _, mail := range mails {
			if strings.Contains(mail, fmt.Sprintf("State: round %d\r\n", i)) {
				m++
			}
		}
		if m != 1 {
			t.Errorf("round %d: %d mail deliveries", i, m)
		}
	}
	if len(mails) != rounds {
		t.Errorf("%d mail deliveries for %d changes", len(mails), rounds)
	}
	if out, err := db.IntegrityCheck(context.Background()); err != nil || out != "ok" {
		t.Errorf("integrity check: %q %v", out, err)
	}
	d.stop(t)
}

// TestServeBadInput points sentinels at pages that fail in every way the
// issue lists and checks that each failure is a version with its error in
// the history, that the daemon keeps running, and that a healthy sentinel
// beside them still reports its change.
func TestServeBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zw.Write(bytes.Repeat([]byte("<p>aaaaaaaa</p>"), 4<<20)) // 60 MiB of HTML in about 60 KiB
	zw.Close()
	st := newSite(t)
	st.set("/good", "<html><body><p>good 1</p></body></html>")
	mux := http.NewServeMux()
	mux.HandleFunc("/", st.serve)
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		chunk := bytes.Repeat([]byte("<p>a</p>"), 8<<10)
		for n := 0; n < 1<<30; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb.Bytes())
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/badencoding", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "x-unheard-of")
		io.WriteString(w, "<p>x</p>")
	})
	mux.HandleFunc("/binary", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte("\x7fELF\x02\x01\x01\x00\x00\x00"))
	})
	st.srv.Config.Handler = mux
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close()
	hk := startHooks(t, "bad-secret-of-thirty-two-characters")

	cases := map[string]string{
		"down":        downURL + "/page",
		"error500":    st.srv.URL + "/500",
		"slow":        st.srv.URL + "/slow",
		"huge":        st.srv.URL + "/huge",
		"bomb":        st.srv.URL + "/bomb",
		"loop":        st.srv.URL + "/loop",
		"badencoding": st.srv.URL + "/badencoding",
		"binary":      st.srv.URL + "/binary",
		"robots":      st.srv.URL + "/private/page",
	}
	wantErr := map[string]string{
		"down": "connect", "error500": "500", "slow": "deadline", "huge": "too large", "bomb": "decompression bomb",
		"loop": "redirect loop: ", "badencoding": "content coding", "binary": "binary", "robots": "robots.txt",
	}
	var src strings.Builder
	for name, u := range cases {
		fmt.Fprintf(&src, "Create Sentinel %s Using %s Monitor any change Fetch 1 second Notify By webhook %s/%s\n", name, u, hk.srv.URL, name)
	}
	fmt.Fprintf(&src, "Create Sentinel good Using %s/good Monitor any change Fetch 1 second Notify By webhook %s/good\n", st.srv.URL, hk.srv.URL)
	data := t.TempDir()
	addSentinels(t, data, src.String())
	// A page limit of 1 MiB lets the huge page reach it long before the
	// fetch timeout even on a loaded machine, where 20 MiB in 3 s was not
	// sure to arrive (CI once recorded the huge page's check as a timeout).
	d := startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--host-delay", "0", "--host-concurrency", "8",
		"--poll", "50ms", "--fetch-timeout", "3s", "--max-page-size", "1", "--webhook-secret", "bad-secret-of-thirty-two-characters")
	db := openData(t, data)
	errorOf := func(url string) string {
		r, err := db.FindResourceByURL(context.Background(), url)
		if err != nil {
			return ""
		}
		vs, _, err := db.FindVersions(context.Background(), vigil.VersionFilter{ResourceID: r.ID})
		if err != nil {
			return ""
		}
		for _, v := range vs {
			if v.Error != "" {
				return v.Error
			}
		}
		return ""
	}
	for name, u := range cases {
		waitFor(t, 20*time.Second, name+" recorded as a fetch error", func() bool { return errorOf(u) != "" })
		if e := errorOf(u); !strings.Contains(e, wantErr[name]) {
			t.Errorf("%s: error %q, want it to mention %q", name, e, wantErr[name])
		}
	}
	waitFor(t, 30*time.Second, "the good page's first version", func() bool { return versionCount(t, db, st.srv.URL+"/good") == 1 })
	st.set("/good", "<html><body><p>good 2</p></body></html>")
	waitFor(t, 15*time.Second, "the good sentinel's webhook", func() bool { return len(hk.of("good")) == 1 })
	if !d.alive() {
		t.Fatal("the daemon died")
	}
	if n := len(hk.all()); n != 1 {
		t.Errorf("%d webhook calls, want only the good page's", n)
	}
	d.stop(t)

	// Without the allow flag, loopback and metadata addresses are refused,
	// as names and as literals.
	data2 := t.TempDir()
	port := st.srv.URL[strings.LastIndex(st.srv.URL, ":")+1:]
	refused := map[string]string{
		"loopback":  st.srv.URL + "/good",
		"localhost": "http://localhost:" + port + "/good",
		"metadata":  "http://169.254.169.254/latest/meta-data/",
	}
	src.Reset()
	for name, u := range refused {
		fmt.Fprintf(&src, "Create Sentinel %s Using %s Monitor any change Fetch 1 second\n", name, u)
	}
	addSentinels(t, data2, src.String())
	d2 := startDaemon(t, data2, "--min-interval", "1s", "--poll", "50ms", "--fetch-timeout", "2s")
	db2, err := sqlite.Open(context.Background(), data2)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	db = db2
	for name, u := range refused {
		waitFor(t, 15*time.Second, name+" refused", func() bool { return errorOf(u) != "" })
		if e := errorOf(u); !strings.Contains(e, "address refused") {
			t.Errorf("%s: error %q, want an address refusal", name, e)
		}
	}
	d2.stop(t)
}

// onePerDelivery returns the mails with one of each X-Vigil-Delivery id,
// the first received (a repeat after a crash carries the same id).
func onePerDelivery(t *testing.T, mails []string) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	for _, m := range mails {
		_, rest, ok := strings.Cut(m, "X-Vigil-Delivery: ")
		id, _, _ := strings.Cut(rest, "\r\n")
		if !ok || id == "" {
			t.Errorf("a mail without a delivery id:\n%s", m)
			continue
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, m)
		}
	}
	return out
}
