package main

// End-to-end tests of vigil serve: the real binary, started on port :0
// with a temporary data directory, against a local web site whose pages
// change on a script, a real SMTP server (emersion/go-smtp) and a webhook
// receiver, all on loopback.

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify/webhook"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// ---- the binary

var (
	buildOnce sync.Once
	builtPath string
	buildErr  error
)

// vigilBinary builds cmd/vigil once per test run.
func vigilBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "vigil-e2e-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtPath = filepath.Join(dir, "vigil")
		out, err := exec.Command("go", "build", "-o", builtPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtPath
}

// daemonProc is a running vigil serve.
type daemonProc struct {
	cmd    *exec.Cmd
	addr   string
	stderr *syncBuffer
	done   chan struct{}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startDaemon starts vigil serve on 127.0.0.1:0 and waits for its
// "listening on ADDR" line, which it prints once its store is ready.
func startDaemon(t *testing.T, dataDir string, extra ...string) *daemonProc {
	t.Helper()
	d, lines := launchDaemon(t, dataDir, extra...)
	select {
	case d.addr = <-lines:
	case <-d.done:
		t.Fatalf("vigil serve exited: %s", d.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("vigil serve did not say where it listens: %s", d.stderr.String())
	}
	resp, err := http.Get("http://" + d.addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"ok"`) {
		t.Fatalf("healthz: %d %s", resp.StatusCode, body)
	}
	return d
}

// launchDaemon starts vigil serve on 127.0.0.1:0 (extra may give another
// --addr) and returns it with the channel that gets the address of its
// "listening on ADDR" line.
func launchDaemon(t *testing.T, dataDir string, extra ...string) (*daemonProc, <-chan string) {
	t.Helper()
	args := append([]string{"serve", "--data", dataDir, "--addr", "127.0.0.1:0", "--log-level", "debug"}, extra...)
	cmd := exec.Command(vigilBinary(t), args...)
	cmd.Env = append(os.Environ(), "VIGIL_DATA=", "VIGIL_POSTGRES_DSN=")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	d := &daemonProc{cmd: cmd, stderr: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = d.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); close(d.done) }()
	t.Cleanup(func() {
		d.kill()
		if t.Failed() {
			t.Logf("daemon log:\n%s", d.stderr.String())
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				lines <- addr
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	return d, lines
}

func (d *daemonProc) kill() {
	if d.cmd.Process != nil {
		d.cmd.Process.Signal(syscall.SIGKILL)
		<-d.done
	}
}

func (d *daemonProc) stop(t *testing.T) {
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(20 * time.Second):
		t.Errorf("vigil serve did not stop on SIGTERM")
		d.kill()
	}
}

func (d *daemonProc) alive() bool {
	select {
	case <-d.done:
		return false
	default:
		return true
	}
}

// runVigil runs a vigil subcommand with the binary and returns its output.
func runBinary(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(vigilBinary(t), args...)
	cmd.Env = append(os.Environ(), "VIGIL_DATA=", "VIGIL_POSTGRES_DSN=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("vigil %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// ---- the local web site

type site struct {
	mu    sync.Mutex
	pages map[string]string
	types map[string]string // a page's Content-Type, when not HTML
	hits  map[string]int
	srv   *httptest.Server
}

func newSite(t *testing.T) *site {
	s := &site{pages: map[string]string{}, types: map[string]string{}, hits: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *site) set(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = body
}

// setTyped sets a page served with a Content-Type other than HTML.
func (s *site) setTyped(path, contentType, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path], s.types[path] = body, contentType
}

func (s *site) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, ok := s.pages[r.URL.Path]
	ctype := cmp.Or(s.types[r.URL.Path], "text/html; charset=utf-8")
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	if r.URL.Path == "/robots.txt" && !ok {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256([]byte(body))
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", ctype)
	io.WriteString(w, body)
}

// ---- the mail server

type mailbox struct {
	mu   sync.Mutex
	msgs []string
}

func (b *mailbox) NewSession(*smtp.Conn) (smtp.Session, error) { return &mailSession{box: b}, nil }

type mailSession struct{ box *mailbox }

func (s *mailSession) Reset()                               {}
func (s *mailSession) Logout() error                        { return nil }
func (s *mailSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *mailSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *mailSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.box.mu.Lock()
	s.box.msgs = append(s.box.msgs, string(b))
	s.box.mu.Unlock()
	return nil
}

// all returns the mails received, with quoted-printable soft line breaks
// removed so that tests can look for text.
func (b *mailbox) all() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, len(b.msgs))
	for i, m := range b.msgs {
		out[i] = strings.NewReplacer("=\r\n", "", "=\n", "").Replace(m)
	}
	return out
}

// matching returns the mails whose text contains every string of want.
func (b *mailbox) matching(want ...string) []string {
	var out []string
	for _, m := range b.all() {
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(m, w)
		}
		if ok {
			out = append(out, m)
		}
	}
	return out
}

func startSMTP(t *testing.T) (*mailbox, int) {
	box := &mailbox{}
	srv := smtp.NewServer(box)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return box, l.Addr().(*net.TCPAddr).Port
}

// ---- the webhook receiver

type hookCall struct {
	delivery string
	event    string
	msg      vigil.Message
	raw      string
}

type hooks struct {
	mu     sync.Mutex
	calls  []hookCall
	secret []byte
	badSig int
	srv    *httptest.Server
}

func startHooks(t *testing.T, secret string) *hooks {
	h := &hooks{secret: []byte(secret)}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		defer h.mu.Unlock()
		if webhook.Verify(h.secret, r.Header, body, time.Now()) != nil {
			h.badSig++
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		c := hookCall{delivery: r.Header.Get(webhook.DeliveryHeader), event: r.Header.Get(webhook.EventHeader), raw: string(body)}
		json.Unmarshal(body, &c.msg)
		h.calls = append(h.calls, c)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hooks) all() []hookCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hookCall(nil), h.calls...)
}

func (h *hooks) of(sentinel string) []hookCall {
	var out []hookCall
	for _, c := range h.all() {
		if c.msg.SentinelName == sentinel {
			out = append(out, c)
		}
	}
	return out
}

// ---- helpers

// Timeouts are generous (30 s where a step takes a second or two): the
// package's tests run in parallel with Chromium, and a loaded build machine
// once starved the daemon past 10 s.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// openData opens the daemon's store beside it (SQLite in WAL mode lets
// the test read while the daemon writes).
func openData(t *testing.T, dir string) *sqlite.DB {
	db, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// versionCount returns the number of versions of a URL.
func versionCount(t *testing.T, db *sqlite.DB, url string) int {
	r, err := db.FindResourceByURL(context.Background(), url)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return 0
	} else if err != nil {
		t.Fatal(err)
	}
	_, n, err := db.FindVersions(context.Background(), vigil.VersionFilter{ResourceID: r.ID})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// settle waits until the sentinels have checked the page again after its
// latest version and a little more, so that notifications that would be
// sent have been.
func settle(d time.Duration) { time.Sleep(d) }

const schedulePage = `<!DOCTYPE html><html><head><title>Class schedule</title></head><body>
<h1>Class schedule, Spring 2003</h1>
<table id="schedule">
<tr><th>Course</th><th>Title</th><th>Room</th></tr>
<tr><td>5331</td><td>Web Data Management</td><td>Room 101</td></tr>
<tr><td>5324</td><td>Information Retrieval</td><td>Room 102</td></tr>
<tr><td>5360</td><td>Computer Networks</td><td>Room 103</td></tr>
</table>
</body></html>`

const coursePage = `<!DOCTYPE html><html><head><title>CSE 5331/4331 course schedule</title></head><body>
<h1>Course schedule</h1>
<ul><li>Jan 14: Introduction</li><li>Jan 21: XML and semi-structured data</li></ul>
<p>Instructor: Sharma Chakravarthy</p>
</body></html>`

// TestServeScenarios runs the seed's scenarios s1-s3 (spec/testdata/
// scenarios/webvigil.ssl) against local copies of the pages, with the
// dates and intervals scaled to seconds: s1 watches keywords 5331 and 5324
// of the class schedule (email and webhook, best effort); s2 watches any
// change of the course page for as long as s1 runs and wants a digest every
// 4 seconds (the seed's "Every 1 day"); s3 uses s1 and watches the phrase
// "Optical Network". Every mail and webhook is checked, and that nothing
// is sent when nothing a sentinel watches changed.
func TestServeScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	st := newSite(t)
	st.set("/class/schedule", schedulePage)
	coursePath := "/sharma/courses/cse5331And4331/Spring2003/General/course_schedule.htm"
	st.set(coursePath, coursePage)
	box, smtpPort := startSMTP(t)
	hk := startHooks(t, "e2e-secret-of-thirty-two-characters")
	data := t.TempDir()

	src := strings.NewReplacer("SITE", st.srv.URL, "HOOK", hk.srv.URL, "HOSTPORT", strings.TrimPrefix(st.srv.URL, "http://")).Replace(`
# Scenario 1: Jill watches the class schedule for two course numbers.
Create Sentinel s1 Using SITE/class/schedule
Monitor keyword (5331, 5324)
Fetch 1 second
From Now To Now + 1 day
Notify By email jill@example.test, webhook HOOK/s1
Every best effort
Compare pairwise

# Scenario 2: any change to the course page, for as long as s1 runs.
Create Sentinel s2
Using HOSTPORT/sharma/courses/cse5331And4331/Spring2003/General/course_schedule.htm
Monitor all words OR anychange
Fetch on change
From start (s1) To end (s1)
Notify By email jill@example.test
Every 4 second
Compare pairwise

# Scenario 3: the same page and properties as s1, for a phrase.
Create Sentinel s3
Using s1
Monitor phrase ("Optical Network")
`)
	file := filepath.Join(t.TempDir(), "scenarios.ssl")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runBinary(t, "sentinel", "add", "--data", data, "--owner", "jill@example.test", file)
	for _, name := range []string{"s1", "s2", "s3"} {
		if !strings.Contains(out, " "+name+" feed /feeds/") {
			t.Fatalf("sentinel add output lacks %s:\n%s", name, out)
		}
	}
	if list := runBinary(t, "sentinel", "list", "--data", data); !strings.Contains(list, "s3") || !strings.Contains(list, "/class/schedule") {
		t.Fatalf("sentinel list:\n%s", list)
	}

	d := startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--max-interval", "2s", "--initial-interval", "1s",
		"--host-delay", "0", "--poll", "100ms", "--lease", "5s", "--webhook-secret", "e2e-secret-of-thirty-two-characters",
		"--smtp-host", "127.0.0.1", "--smtp-port", strconv.Itoa(smtpPort), "--smtp-tls", "none", "--smtp-from", "vigil@example.test")
	db := openData(t, data)
	scheduleURL := st.srv.URL + "/class/schedule"
	courseURL := st.srv.URL + coursePath

	// Baseline: both pages fetched once, nothing to report.
	waitFor(t, 30*time.Second, "first versions", func() bool {
		return versionCount(t, db, scheduleURL) == 1 && versionCount(t, db, courseURL) == 1
	})
	settle(2500 * time.Millisecond)
	if n := len(box.all()) + len(hk.all()); n != 0 {
		t.Fatalf("%d messages sent for the first sighting", n)
	}

	// 1. A change nothing watches (a room number): a new version, no message.
	st.set("/class/schedule", strings.Replace(schedulePage, "Room 103", "Room 203", 1))
	waitFor(t, 30*time.Second, "version 2 of the schedule", func() bool { return versionCount(t, db, scheduleURL) == 2 })
	settle(3 * time.Second)
	if n := len(box.all()) + len(hk.all()); n != 0 {
		t.Fatalf("%d messages sent for an unwatched change: %v", n, box.all())
	}

	// 2. Course 5324 is cancelled: s1 reports the keyword deleted, by mail
	// and webhook; s3 (phrase) stays silent.
	st.set("/class/schedule", strings.Replace(strings.Replace(schedulePage, "Room 103", "Room 203", 1),
		"<tr><td>5324</td><td>Information Retrieval</td><td>Room 102</td></tr>\n", "", 1))
	waitFor(t, 15*time.Second, "s1's webhook", func() bool { return len(hk.of("s1")) == 1 })
	waitFor(t, 30*time.Second, "s1's mail", func() bool { return len(box.matching("Subject: [Vigil] s1")) == 1 })
	call := hk.of("s1")[0]
	if call.event != "change" || call.delivery == "" || len(call.msg.Changes) != 1 {
		t.Fatalf("s1 webhook: %+v", call)
	}
	ch := call.msg.Changes[0].Change
	if ch.ID == 0 || ch.SentinelID == 0 || ch.FromVersion == 0 || ch.ToVersion <= ch.FromVersion {
		t.Errorf("s1 change: %+v", ch)
	}
	var recs []struct{ Kind, Op, Old, New string }
	json.Unmarshal(ch.Records, &recs)
	if len(recs) != 1 || recs[0].Kind != "keyword" || recs[0].Op != "delete" || recs[0].Old != "5324" {
		t.Errorf("s1 records: %s", ch.Records)
	}
	if len(call.msg.Changes[0].Delta) == 0 {
		t.Errorf("s1 webhook has no delta")
	}
	mail := box.matching("Subject: [Vigil] s1")[0]
	dashboard := fmt.Sprintf("http://%s/sentinels/%d", d.addr, call.msg.SentinelID)
	for _, want := range []string{"To: <jill@example.test>", "multipart/alternative", "text/plain", "text/html", "- keyword removed: 5324", "<del>5324</del>", "/feeds/",
		"On the dashboard: " + dashboard + "\r\n", `<a href=3D"` + dashboard + `">`} { // the HTML part is quoted-printable
		if !strings.Contains(mail, want) {
			t.Errorf("s1 mail lacks %q:\n%s", want, mail)
		}
	}

	// 3. A course on optical networks appears: s3 reports the phrase; s1
	// (keywords unchanged) stays silent.
	st.set("/class/schedule", strings.Replace(strings.Replace(schedulePage, "Room 103", "Room 203", 1),
		"<tr><td>5324</td><td>Information Retrieval</td><td>Room 102</td></tr>\n", "<tr><td>5390</td><td>Optical Network Design</td><td>Room 104</td></tr>\n", 1))
	waitFor(t, 15*time.Second, "s3's mail", func() bool { return len(box.matching("Subject: [Vigil] s3")) == 1 })
	waitFor(t, 30*time.Second, "s3's webhook", func() bool { return len(hk.of("s3")) == 1 })
	if s3 := box.matching("Subject: [Vigil] s3")[0]; !strings.Contains(s3, "Optical Network") {
		t.Errorf("s3 mail lacks the phrase:\n%s", s3)
	}

	// 4. The course page changes twice: s2 sends one digest with both
	// changes at the end of its period.
	st.set(coursePath, strings.Replace(coursePage, "Jan 21", "Jan 23", 1))
	waitFor(t, 30*time.Second, "version 2 of the course page", func() bool { return versionCount(t, db, courseURL) == 2 })
	st.set(coursePath, strings.Replace(strings.Replace(coursePage, "Jan 21", "Jan 23", 1), "Introduction", "Overview", 1))
	waitFor(t, 30*time.Second, "version 3 of the course page", func() bool { return versionCount(t, db, courseURL) == 3 })
	// Both changes arrive in digests (one, or two if a period ended
	// between them), each digest once.
	waitFor(t, 20*time.Second, "s2's digests", func() bool {
		all := strings.Join(box.matching("Subject: [Vigil] s2"), "\n")
		return strings.Contains(all, "Jan 23") && strings.Contains(all, "Overview")
	})
	digests := box.matching("Subject: [Vigil] s2")
	if len(digests) > 2 {
		t.Errorf("%d digests for two changes", len(digests))
	}
	for _, dg := range digests {
		if !(strings.Contains(dg, " 1 change since") || strings.Contains(dg, " 2 changes since")) || !strings.Contains(dg, "text/html") {
			t.Errorf("s2 digest:\n%s", dg)
		}
	}

	// Nothing else was sent: s1 one mail + one webhook, s3 the same, s2
	// digests only; no bad signatures.
	settle(3 * time.Second)
	if n := len(box.matching("Subject: [Vigil] s1")); n != 1 {
		t.Errorf("s1: %d mails", n)
	}
	if n := len(box.matching("Subject: [Vigil] s3")); n != 1 {
		t.Errorf("s3: %d mails", n)
	}
	if n := len(hk.all()); n != 2 {
		t.Errorf("%d webhook calls, want 2", n)
	}
	if hk.badSig != 0 {
		t.Errorf("%d webhook calls with a bad signature", hk.badSig)
	}
	// The feeds carry the changes.
	feedPath := ""
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, " s1 feed ") {
			feedPath = line[strings.Index(line, "/feeds/"):]
		}
	}
	resp, err := http.Get("http://" + d.addr + feedPath)
	if err != nil {
		t.Fatal(err)
	}
	feedBody, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(feedBody), "keyword") {
		t.Errorf("s1 feed: %d %s", resp.StatusCode, feedBody)
	}
	d.stop(t)
}

// TestServeShortWebhookSecret: a webhook key shorter than a secret needs,
// given by flag or by the environment, stops vigil serve before it starts,
// without repeating the key; a short key could be found by trying keys
// against one signed request.
func TestServeShortWebhookSecret(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		args []string
	}{
		{nil, []string{"--webhook-secret", "hunter2hunter2"}},
		{map[string]string{"VIGIL_WEBHOOK_SECRET": "hunter2hunter2"}, nil},
	} {
		data := filepath.Join(t.TempDir(), "data")
		args := append([]string{"serve", "--data", data, "--addr", "127.0.0.1:0"}, tc.args...)
		code, stdout, stderr := runVigilEnv(t, tc.env, args...)
		if code != exitError || !strings.Contains(stderr, "holds 14 bytes, fewer than the 32 a secret needs") {
			t.Errorf("%v %v: exit %d, %s; want 2 and the length named", tc.env, tc.args, code, stderr)
		}
		if strings.Contains(stdout+stderr, "hunter2") {
			t.Errorf("%v %v: the key was shown: %s", tc.env, tc.args, stdout+stderr)
		}
		if _, err := os.Stat(data); err == nil {
			t.Errorf("%v %v: the data directory was made", tc.env, tc.args)
		}
	}
}

// TestServePoll: a --poll that is not greater than 0 stops vigil serve
// before it starts; taken, it made the idle loops spin on the store at
// full CPU.
func TestServePoll(t *testing.T) {
	for _, poll := range []string{"0s", "-1s"} {
		data := filepath.Join(t.TempDir(), "data")
		code, _, stderr := runVigilEnv(t, nil, "serve", "--data", data, "--addr", "127.0.0.1:0", "--poll", poll)
		if code != exitError || !strings.Contains(stderr, "--poll "+poll+": want a duration greater than 0") {
			t.Errorf("--poll %s: exit %d, %s; want 2 and the flag named", poll, code, stderr)
		}
		if _, err := os.Stat(data); err == nil {
			t.Errorf("--poll %s: the data directory was made", poll)
		}
	}
}
