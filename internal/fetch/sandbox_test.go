package fetch

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestChromiumSandboxChoice: Chromium runs in its sandbox unless the
// process runs as root, where Chromium refuses it, or NoSandbox asks for
// none.
func TestChromiumSandboxChoice(t *testing.T) {
	for name, tc := range map[string]struct {
		euid      int
		noSandbox bool
		want      Sandbox
	}{
		"not root":      {1000, false, SandboxOn},
		"root":          {0, false, SandboxOffAsRoot},
		"not root, off": {1000, true, SandboxOffAsked},
		"root, off":     {0, true, SandboxOffAsked},
		"nobody":        {65534, false, SandboxOn},
		"nobody, off":   {65534, true, SandboxOffAsked},
	} {
		t.Run(name, func(t *testing.T) {
			c := &Chromium{NoSandbox: tc.noSandbox, euid: func() int { return tc.euid }}
			if got := c.Sandbox(); got != tc.want {
				t.Errorf("euid %d, NoSandbox %v: %v, want %v", tc.euid, tc.noSandbox, got, tc.want)
			}
			if on := tc.want == SandboxOn; on != (c.Sandbox().String() == "on") {
				t.Errorf("%v reads %q", c.Sandbox(), c.Sandbox().String())
			}
		})
	}
}

// fakeChromium writes a browser that records its arguments to args and
// prints output, then exits with status 1, as a Chromium that cannot
// start does.
func fakeChromium(t *testing.T, output string) (path, args string) {
	t.Helper()
	dir := t.TempDir()
	path, args = filepath.Join(dir, "chromium"), filepath.Join(dir, "args")
	out := filepath.Join(dir, "output")
	if err := os.WriteFile(out, []byte(output), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + args + "'\ncat '" + out + "' >&2\nexit 1\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, args
}

// startFake renders with a Chromium of path, as euid, and returns the
// arguments the browser was started with and the render's error.
func startFake(t *testing.T, path, argsFile string, euid int, noSandbox bool) ([]string, error) {
	t.Helper()
	c := &Chromium{ExecPath: path, NoSandbox: noSandbox, NoSandboxSetting: "the test's switch",
		Dial:  (&net.Dialer{}).DialContext,
		Allow: func(context.Context, string) error { return nil },
		euid:  func() int { return euid }}
	defer c.Close()
	_, err := c.Render(context.Background(), "http://127.0.0.1:1/")
	if err == nil {
		t.Fatal("a browser that exits at once rendered a page")
	}
	b, rerr := os.ReadFile(argsFile)
	if rerr != nil {
		t.Fatalf("the browser was not started: %v (the render: %v)", rerr, err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n"), err
}

// TestChromiumSandboxFlag starts a browser that records its arguments:
// --no-sandbox is among them as root or with NoSandbox, and only then.
func TestChromiumSandboxFlag(t *testing.T) {
	for _, tc := range []struct {
		euid      int
		noSandbox bool
		want      bool // --no-sandbox
	}{{1000, false, false}, {0, false, true}, {1000, true, true}, {0, true, true}} {
		path, args := fakeChromium(t, "/usr/lib/chromium/chromium: error while loading shared libraries: libnss3.so: cannot open shared object file\n")
		got, err := startFake(t, path, args, tc.euid, tc.noSandbox)
		if slices.Contains(got, "--no-sandbox") != tc.want {
			t.Errorf("euid %d, NoSandbox %v: started with %q; want --no-sandbox %v", tc.euid, tc.noSandbox, got, tc.want)
		}
		if errors.Is(err, errNoSandbox) || strings.Contains(err.Error(), "the test's switch") {
			t.Errorf("euid %d, NoSandbox %v: a start that failed for another reason blames the sandbox: %v", tc.euid, tc.noSandbox, err)
		}
	}
}

// TestChromiumNoUsableSandbox: a browser that cannot start in its sandbox
// fails the render with an error that quotes Chromium's words and says
// how to turn the sandbox off, rather than a render without it.
func TestChromiumNoUsableSandbox(t *testing.T) {
	const noise = "[7686:7719:1130/115337.057392:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Could not parse server address\n"
	for name, tc := range map[string]struct {
		output string
		quote  string // the words the error quotes
	}{
		"no user namespaces": {
			noise + "[7663:7663:1130/115336.535277:FATAL:content/browser/zygote_host/zygote_host_impl_linux.cc:132] No usable sandbox! If you are running on Ubuntu 23.10+ or another Linux distro that has disabled unprivileged user namespaces with AppArmor, see https://chromium.googlesource.com/chromium/src/+/main/docs/security/apparmor-userns-restrictions.md. If you want to live dangerously and need an immediate workaround, you can try using --no-sandbox.\n",
			"No usable sandbox! If you are running on Ubuntu 23.10+",
		},
		"SUID helper": {
			"[1:1:1130/115336.535277:FATAL:setuid_sandbox_host.cc(163)] The SUID sandbox helper binary was found, but is not configured correctly. Rather than run without sandboxing I'm aborting now.\n",
			"The SUID sandbox helper binary was found",
		},
		"root": {
			"[7663:7663:1130/115336.535277:ERROR:content/browser/zygote_host/zygote_host_impl_linux.cc:103] Running as root without --no-sandbox is not supported. See https://crbug.com/638180.\n" + noise,
			"Running as root without --no-sandbox is not supported.",
		},
		"namespace": {
			"Failed to move to new namespace: PID namespaces supported, Network namespace supported, but failed: errno = Operation not permitted\n",
			"Failed to move to new namespace",
		},
	} {
		t.Run(name, func(t *testing.T) {
			path, args := fakeChromium(t, tc.output)
			got, err := startFake(t, path, args, 1000, false)
			if slices.Contains(got, "--no-sandbox") {
				t.Fatalf("started without the sandbox: %q", got)
			}
			if !errors.Is(err, errNoSandbox) {
				t.Errorf("not errNoSandbox: %v", err)
			}
			msg := err.Error()
			for _, want := range []string{tc.quote, "sandbox", "the test's switch", "user namespaces"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the error lacks %q:\n%s", want, msg)
				}
			}
			if strings.Contains(msg, "dbus") || strings.Contains(msg, "1130/115336") {
				t.Errorf("the error quotes more than Chromium's words on its sandbox:\n%s", msg)
			}
		})
	}
}
