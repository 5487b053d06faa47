package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
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
		runAsNobody(t, "TestRenderChromiumSandboxed")
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
		body, seccomp, err := renderProbe(t, chrome)
		if errors.Is(err, errNoSandbox) {
			t.Skipf("Chromium's sandbox cannot start for user %d on this machine, so the sandboxed render is not tested: %v", os.Geteuid(), err)
		}
		if err != nil {
			t.Fatalf("NoSandbox %v: %v", tc.noSandbox, err)
		}
		if !strings.Contains(body, "sandboxed script") {
			t.Errorf("NoSandbox %v: the rendered page lacks the script's text:\n%s", tc.noSandbox, body)
		}
		if len(seccomp) == 0 {
			t.Fatalf("NoSandbox %v: no renderer process of the browser found while it loaded the page", tc.noSandbox)
		}
		for _, mode := range seccomp {
			if mode != tc.seccomp {
				t.Errorf("NoSandbox %v: renderers' seccomp modes %q; want %s for each", tc.noSandbox, seccomp, tc.seccomp)
				break
			}
		}
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

// renderersSeccomp returns the seccomp mode of each process with
// --type=renderer that shares the --user-data-dir of the browser process
// pid, a temporary directory of its own.
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
		for line := range strings.Lines(string(status)) {
			if mode, ok := strings.CutPrefix(line, "Seccomp:"); ok {
				modes = append(modes, strings.TrimSpace(mode))
			}
		}
	}
	return modes
}

// runAsNobody runs the test named of this test binary again as the user
// nobody, from a copy of the binary that user can run, and passes,
// fails or skips as it does; it skips, saying why, where the copy cannot
// be made or run as nobody.
func runAsNobody(t *testing.T, name string) {
	t.Helper()
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody to render as (%v): the sandboxed render is not tested", err)
	}
	uid, err1 := strconv.ParseUint(nobody.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(nobody.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		t.Skipf("user nobody has ids %q and %q: the sandboxed render is not tested", nobody.Uid, nobody.Gid)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A directory of its own that nobody can enter (t.TempDir's are
	// root's alone), with a home that nobody owns.
	dir, err := os.MkdirTemp("", "vigil-sandbox-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	bin := filepath.Join(dir, "fetch.test")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, int(uid), int(gid)); err != nil {
		t.Fatal(err)
	}
	if err := copyExecutable(self, bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+name+"$", "-test.v", "-test.count=1", "-test.timeout=3m")
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "TMPDIR="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &exit):
		t.Skipf("cannot run the test binary as nobody (%v): the sandboxed render is not tested", err)
	case bytes.Contains(out, []byte("--- SKIP: "+name)):
		t.Skipf("as nobody: %s", out)
	case err != nil || !bytes.Contains(out, []byte("--- PASS: "+name)):
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	t.Logf("as nobody:\n%s", out)
}

// copyExecutable copies the file at from to a new file at to, which
// every user may read and run.
func copyExecutable(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
