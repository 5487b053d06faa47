package fetch

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Sandbox says whether the browser a Chromium starts runs in Chromium's
// sandbox, which confines the processes that run a page's scripts: without
// it, a page that exploits the browser runs with the rights of the
// process's user.
type Sandbox int

const (
	// SandboxOn: the browser runs in its sandbox.
	SandboxOn Sandbox = iota
	// SandboxOffAsRoot: the process runs as root, where Chromium refuses
	// to start in its sandbox; it is started with --no-sandbox.
	SandboxOffAsRoot
	// SandboxOffAsked: Chromium.NoSandbox turned the sandbox off.
	SandboxOffAsked
)

// String returns "on", "off (root)" or "off".
func (s Sandbox) String() string {
	switch s {
	case SandboxOn:
		return "on"
	case SandboxOffAsRoot:
		return "off (root)"
	case SandboxOffAsked:
		return "off"
	}
	return fmt.Sprintf("Sandbox(%d)", int(s))
}

// Sandbox returns whether the browser c starts runs in its sandbox, and if
// not, why.
func (c *Chromium) Sandbox() Sandbox {
	euid := os.Geteuid
	if c.euid != nil {
		euid = c.euid
	}
	switch {
	case c.NoSandbox:
		return SandboxOffAsked
	case euid() == 0:
		return SandboxOffAsRoot
	}
	return SandboxOn
}

// sandboxFailures are the words of Chromium that say it cannot start in
// its sandbox: without user namespaces ("No usable sandbox!", the
// namespace sandbox's credentials.cc failing to enter one), with a SUID
// helper that is not set up, or as root.
var sandboxFailures = []string{
	"No usable sandbox",
	"SUID sandbox",
	"without --no-sandbox",
	"Failed to move to new namespace",
	"credentials.cc",
}

// chromiumLogPrefix is the prefix of Chromium's log lines
// ("[7663:7663:1130/115336.535277:FATAL:zygote_host_impl_linux.cc:132] ").
var chromiumLogPrefix = regexp.MustCompile(`^\[[0-9]+:[0-9]+:[0-9/.]+:[A-Z]+:[^\]]*\] `)

// sandboxFailure returns the line of a failed start's error (chromedp's,
// which holds what the browser printed) in which Chromium says it cannot
// start in its sandbox, without its log prefix, or "" if none does.
func sandboxFailure(err error) string {
	for line := range strings.Lines(err.Error()) {
		for _, words := range sandboxFailures {
			if strings.Contains(line, words) {
				return strings.TrimSpace(chromiumLogPrefix.ReplaceAllString(line, ""))
			}
		}
	}
	return ""
}

// errNoSandbox is the error of a browser that cannot start in its sandbox.
var errNoSandbox = errors.New("it cannot start in its sandbox")

// sandboxError is the error of a browser that cannot start in its
// sandbox, quoting Chromium's words (said): rather than start it without
// one, which would run the pages' scripts unconfined without a word, the
// render fails, naming the two ways out.
func (c *Chromium) sandboxError(said string) error {
	setting := c.NoSandboxSetting
	if setting == "" {
		setting = "Chromium.NoSandbox"
	}
	return fmt.Errorf("start chromium: %w (Chromium says %q): let this user create user namespaces "+
		"(the kernel, AppArmor or the container's seccomp profile forbids them), or turn the sandbox off with %s, "+
		"which leaves the rendered pages' scripts unconfined", errNoSandbox, said, setting)
}
