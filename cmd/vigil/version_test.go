package main

import (
	"debug/buildinfo"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionText: vigil version says which module version, which
// commit (its time, and whether the tree had uncommitted changes) and
// which Go built the binary, from its build information; what the build
// did not record is said to be unknown. vigil had no way to tell. A
// binary with no version control information is not said to be built
// outside a checkout: GOFLAGS=-buildvcs=false leaves none from one.
func TestVersionText(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"release", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/vigil-web/vigil", Version: "v1.4.0"}},
			"vigil v1.4.0\nrevision unknown: no version control information recorded (built outside a checkout, or with -buildvcs=false)\ngo go1.26.1 " + platform + "\n"},
		{"checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/vigil-web/vigil", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "50b075bce7fdde3a4037a40c70918d52f42bcf4a"}, {Key: "vcs.time", Value: "2026-11-30T19:30:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			"vigil (devel)\nrevision 50b075bce7fdde3a4037a40c70918d52f42bcf4a\ncommitted 2026-11-30T19:30:00Z\ngo go1.26.8 " + platform + "\n"},
		{"modified checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/vigil-web/vigil", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "50b075bce7fd"}, {Key: "vcs.time", Value: "2026-11-30T19:30:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"vigil (devel)\nrevision 50b075bce7fd, with uncommitted changes\ncommitted 2026-11-30T19:30:00Z\ngo go1.26.8 " + platform + "\n"},
		// GOFLAGS=-buildvcs=false: a build from a checkout records none.
		{"-buildvcs=false", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/vigil-web/vigil", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "-buildvcs", Value: "false"}, {Key: "GOOS", Value: "linux"}}},
			"vigil (devel)\nrevision unknown: no version control information recorded (built outside a checkout, or with -buildvcs=false)\ngo go1.26.8 " + platform + "\n"},
		{"test binary", &debug.BuildInfo{GoVersion: "go1.26.8"},
			"vigil unknown\nrevision unknown: no version control information recorded (built outside a checkout, or with -buildvcs=false)\ngo go1.26.8 " + platform + "\n"},
		{"no build information", nil,
			"vigil unknown (the binary holds no build information)\ngo " + runtime.Version() + " " + platform + "\n"},
	} {
		if got := versionText(c.bi); got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
}

// TestVersionCommand: vigil version and vigil --version print the
// binary's version (versionText of its build information), and vigil
// help lists the command. A binary built from this checkout, as go build
// and go run build it by default, says its commit, commit time and Go
// version.
func TestVersionCommand(t *testing.T) {
	bi, _ := debug.ReadBuildInfo()
	want := versionText(bi)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if code, out, errOut := runVigil(t, "", args...); code != exitOK || out != want || errOut != "" {
			t.Errorf("vigil %s: exit %d, stdout %q, stderr %q; want 0 and %q", args[0], code, out, errOut, want)
		}
	}
	if _, out, _ := runVigil(t, "", "help"); !strings.Contains(out, "\n  version ") {
		t.Errorf("vigil help does not list version:\n%s", out)
	}

	// -buildvcs=auto, go build's default, which GOFLAGS may turn off.
	bin := filepath.Join(t.TempDir(), "vigil")
	if out, err := exec.Command("go", "build", "-buildvcs=auto", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	built, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("vigil --version: %v", err)
	}
	if string(out) != versionText(built) {
		t.Errorf("the built vigil --version:\n%s\nwant:\n%s", out, versionText(built))
	}
	said := []string{built.GoVersion}
	for _, s := range built.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.time" {
			said = append(said, s.Value)
		}
	}
	// In a git checkout, go build records its commit.
	if head, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		said = append(said, strings.TrimSpace(string(head)))
	}
	for _, w := range said {
		if !strings.Contains(string(out), w) {
			t.Errorf("the built vigil --version does not say %q:\n%s", w, out)
		}
	}
}
