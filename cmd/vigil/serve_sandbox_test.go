package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/fetch"
)

// TestServeChromiumSandbox: vigil serve renders in Chromium's sandbox
// unless --chromium-sandbox=false (or VIGIL_CHROMIUM_SANDBOX=false) says
// otherwise, and says once at start when it renders without it: as root,
// naming why and how to get it (run as another user), or as asked. The
// browser is not started (no page is rendered): any file stands for it.
func TestServeChromiumSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	browser := filepath.Join(t.TempDir(), "chromium")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	const (
		asRoot = `level=WARN msg="Chromium renders pages without its sandbox: vigil serve runs as root, where Chromium refuses to start in it, so a page that exploits the browser runs unconfined as root; run vigil serve as another user to render in the sandbox"`
		asked  = `level=WARN msg="Chromium renders pages without its sandbox, as --chromium-sandbox=false (or VIGIL_CHROMIUM_SANDBOX=false) asks: a page that exploits the browser runs unconfined as this user"`
	)
	// The warning where the sandbox is asked for: none, unless the daemon
	// runs as root (CI).
	onWarning := ""
	if os.Geteuid() == 0 {
		onWarning = asRoot
	}
	for _, tc := range []struct {
		name string
		env  string // VIGIL_CHROMIUM_SANDBOX
		args []string
		want string // the one warning; "" none
	}{
		{"default", "", nil, onWarning},
		{"flag on", "", []string{"--chromium-sandbox=true"}, onWarning},
		{"flag off", "", []string{"--chromium-sandbox=false"}, asked},
		{"variable off", "false", nil, asked},
		{"variable off, flag on", "false", []string{"--chromium-sandbox"}, onWarning},
		{"rendering off", "", []string{"--chromium", ""}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("VIGIL_CHROMIUM_SANDBOX", tc.env)
			d := startDaemon(t, filepath.Join(t.TempDir(), "data"), append([]string{"--chromium", browser}, tc.args...)...)
			d.stop(t)
			log := d.stderr.String()
			n := strings.Count(log, "Chromium renders pages without its sandbox")
			switch {
			case tc.want == "" && n != 0:
				t.Errorf("warned of the sandbox:\n%s", log)
			case tc.want != "" && (n != 1 || !strings.Contains(log, tc.want)):
				t.Errorf("want once %s\ngot %d:\n%s", tc.want, n, log)
			}
		})
	}
}

// TestServeChromiumSandboxConfig: the Chromium of vigil serve runs in its
// sandbox as --chromium-sandbox says, and a browser that cannot start in it
// names that flag and its variable as the way to turn it off.
func TestServeChromiumSandboxConfig(t *testing.T) {
	for _, sandbox := range []bool{true, false} {
		c := serveConfig{render: fetch.ChromiumPath, chromiumSandbox: sandbox}
		ch := c.newChromium(nil)
		if ch.NoSandbox == sandbox || ch.ExecPath != fetch.ChromiumPath {
			t.Errorf("--chromium-sandbox=%v: NoSandbox %v, ExecPath %q", sandbox, ch.NoSandbox, ch.ExecPath)
		}
		if !strings.Contains(ch.NoSandboxSetting, "--chromium-sandbox=false") || !strings.Contains(ch.NoSandboxSetting, "VIGIL_CHROMIUM_SANDBOX=false") {
			t.Errorf("the way to turn the sandbox off does not name the flag and its variable: %q", ch.NoSandboxSetting)
		}
	}
}

// TestServeChromiumSandboxVariable: a VIGIL_CHROMIUM_SANDBOX that is no
// yes-or-no value stops vigil serve, naming it; -h still shows the help.
func TestServeChromiumSandboxVariable(t *testing.T) {
	vars := map[string]string{"VIGIL_CHROMIUM_SANDBOX": "maybe"}
	code, _, stderr := runVigilEnv(t, vars, "serve", "--data", t.TempDir())
	if code != exitError || !strings.Contains(stderr, `VIGIL_CHROMIUM_SANDBOX="maybe": not a yes-or-no value`) {
		t.Errorf("VIGIL_CHROMIUM_SANDBOX=maybe: exit %d, %s; want 2 and the variable named", code, stderr)
	}
	code, stdout, stderr := runVigilEnv(t, vars, "serve", "-h")
	if usage := flagUsage(stdout+stderr, "-chromium-sandbox"); code != exitOK || !strings.Contains(usage, "$VIGIL_CHROMIUM_SANDBOX") {
		t.Errorf("VIGIL_CHROMIUM_SANDBOX=maybe, serve -h: exit %d, the flag's help:\n%s", code, usage)
	}
}
