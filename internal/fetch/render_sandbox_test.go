package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vigil-web/vigil"
)

// TestRenderChromiumSandboxed renders a page in the real browser as a user
// other than root: Chromium starts in its sandbox, whose renderers run
// under a seccomp filter; with NoSandbox they run without one. Run as
// root (CI), the test runs its own binary again as nobody; it skips,
// saying why, where that cannot be done or where Chromium's sandbox cannot
// start for that user (no user namespaces), which the machine decides,
// not Vigil.
func TestRenderChromiumSandboxed(t *testing.T) {
	needChromium(t)
	if os.Geteuid() == 0 {
		runAsNobody(t, "TestRenderChromiumSandboxed", false)
		return
	}
	for _, tc := range []struct {
		noSandbox bool
		sandbox   Sandbox
		seccomp   string // each renderer's mode: 2 a filter, 0 none
	}{{false, SandboxOn, "2"}, {true, SandboxOffAsked, "0"}} {
		chrome := &Chromium{NoSandbox: tc.noSandbox}
		defer chrome.Close()
		if s := chrome.Sandbox(); s != tc.sandbox {
			t.Fatalf("as user %d with NoSandbox %v the sandbox is %v, want %v", os.Geteuid(), tc.noSandbox, s, tc.sandbox)
		}
		// What this machine decides skips the test: whether Chromium
		// can start in its sandbox, or at all, as this user, and what
		// /proc shows of its processes.
		body, seccomp, err := renderProbe(t, chrome)
		switch {
		case errors.Is(err, errNoSandbox):
			t.Skipf("Chromium's sandbox cannot start for user %d on this machine, so the sandboxed render is not tested: %v", os.Geteuid(), err)
		case err != nil && strings.Contains(err.Error(), "start chromium"):
			t.Skipf("Chromium does not start for user %d on this machine (NoSandbox %v), so the sandboxed render is not tested: %v", os.Geteuid(), tc.noSandbox, err)
		case err != nil:
			t.Fatalf("NoSandbox %v: %v", tc.noSandbox, err)
		}
		if !strings.Contains(body, "sandboxed script") {
			t.Errorf("NoSandbox %v: the rendered page lacks the script's text:\n%s", tc.noSandbox, body)
		}
		if len(seccomp) == 0 || slices.Contains(seccomp, "") {
			t.Skipf("NoSandbox %v: /proc on this machine shows no renderer of the browser, or not its seccomp mode (%q), so the sandbox is not seen", tc.noSandbox, seccomp)
		}
		for _, mode := range seccomp {
			if mode != tc.seccomp {
				t.Errorf("NoSandbox %v: renderers' seccomp modes %q; want %s for each", tc.noSandbox, seccomp, tc.seccomp)
				break
			}
		}
	}
}

// TestRenderChromiumNoUsableSandbox renders in the real browser where its
// user cannot create user namespaces, so that Chromium has no sandbox to
// start in ("No usable sandbox!"): the render fails, saying so and how to
// turn the sandbox off, rather than render without it; with NoSandbox it
// renders. It runs as nobody in a user namespace of its own, which the
// test, as root, makes (runAsNobody); it skips, saying why, where that
// cannot be done.
func TestRenderChromiumNoUsableSandbox(t *testing.T) {
	needChromium(t)
	if os.Getenv(noUsernsEnv) == "" {
		if os.Geteuid() != 0 {
			t.Skip("only root can run Chromium where its user cannot create user namespaces: the refused render is not tested")
		}
		runAsNobody(t, "TestRenderChromiumNoUsableSandbox", true)
		return
	}
	chrome := &Chromium{NoSandboxSetting: "the test's switch"}
	defer chrome.Close()
	_, seccomp, err := renderProbe(t, chrome)
	if err == nil {
		if len(seccomp) > 0 && !slices.ContainsFunc(seccomp, func(m string) bool { return m != "2" }) {
			t.Skip("Chromium started in its sandbox without user namespaces (a SUID sandbox helper?): the refused render is not tested")
		}
		t.Fatalf("Chromium rendered where it cannot start in its sandbox; its renderers' seccomp modes: %q", seccomp)
	}
	if !errors.Is(err, errNoSandbox) {
		t.Fatalf("the render's error does not say that Chromium cannot start in its sandbox: %v", err)
	}
	for _, want := range []string{"No usable sandbox", "the test's switch"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the render's error lacks %q: %v", want, err)
		}
	}
	off := &Chromium{NoSandbox: true}
	defer off.Close()
	if body, _, err := renderProbe(t, off); err != nil || !strings.Contains(body, "sandboxed script") {
		t.Errorf("with NoSandbox: %v\n%s", err, body)
	}
}

// renderProbe renders a page with chrome, and returns the rendered page
// and the seccomp mode (/proc/PID/status) of each renderer process of the
// browser while the page loads its image.
func renderProbe(t *testing.T, chrome *Chromium) (body string, seccomp []string, err error) {
	t.Helper()
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/probe.png" {
			chrome.mu.Lock()
			proc := chromedp.FromContext(chrome.browser).Browser.Process()
			chrome.mu.Unlock()
			modes := renderersSeccomp(t, proc.Pid)
			mu.Lock()
			seccomp = append(seccomp, modes...)
			mu.Unlock()
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><p id="out">static</p><img src="/probe.png">
<script>document.getElementById("out").textContent = "sandboxed " + "script";</script></body></html>`)
	}))
	defer srv.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
	if err != nil {
		return "", nil, err
	}
	mu.Lock()
	defer mu.Unlock()
	return string(res.Body), seccomp, nil
}

// procArgs returns the words of a process's command line: its arguments,
// split at NULs, or at spaces where the process rewrote its title as
// Chromium's zygote children do (an argument with a space is split too).
func procArgs(cmdline []byte) []string {
	return strings.Fields(strings.ReplaceAll(string(cmdline), "\x00", " "))
}

// renderersSeccomp returns the seccomp mode ("" if /proc does not say) of
// each process with --type=renderer that shares the --user-data-dir of the
// browser process pid, a temporary directory of its own.
func renderersSeccomp(t *testing.T, pid int) []string {
	t.Helper()
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		t.Error(err)
		return nil
	}
	var dir string
	for _, a := range procArgs(cmdline) {
		if strings.HasPrefix(a, "--user-data-dir=") {
			dir = a
		}
	}
	if dir == "" {
		t.Errorf("the browser has no --user-data-dir: %q", cmdline)
		return nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Error(err)
		return nil
	}
	var modes []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue // it exited
		}
		args := procArgs(b)
		if !slices.Contains(args, "--type=renderer") || !slices.Contains(args, dir) {
			continue
		}
		status, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		mode := "" // a kernel that does not say
		for line := range strings.Lines(string(status)) {
			if m, ok := strings.CutPrefix(line, "Seccomp:"); ok {
				mode = strings.TrimSpace(m)
			}
		}
		modes = append(modes, mode)
	}
	return modes
}
