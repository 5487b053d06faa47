package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

func init() {
	register(&command{name: "version", summary: "print vigil's version, the commit it was built from, and its Go version", run: runVersion})
}

// runVersion prints versionText of the binary's build information; vigil
// --version runs it too.
func runVersion(_ context.Context, env *environment, args []string) (int, error) {
	fs := newSentinelFlagSet(env, "version", "", "Version prints the version of vigil's module, the commit it was built from\n"+
		"(its time, and whether the tree had uncommitted changes), as go build and\n"+
		"go run record them in a git checkout, and the Go version that built it.\n"+
		"vigil --version prints the same.")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitError, errUsageShown
	}
	bi, _ := debug.ReadBuildInfo()
	if _, err := io.WriteString(env.stdout, versionText(bi)); err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// versionText is what vigil version prints of the build information bi
// (nil when the binary holds none): the main module's version ("(devel)"
// for a build from a checkout), the commit (vcs.revision, ", with
// uncommitted changes" when vcs.modified) and its time (vcs.time), and
// the Go version and platform, a line each. Without version control
// information it says none was recorded, which may be a build outside a
// checkout or one with -buildvcs=false.
func versionText(bi *debug.BuildInfo) string {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	if bi == nil {
		return fmt.Sprintf("vigil unknown (the binary holds no build information)\ngo %s %s\n", runtime.Version(), platform)
	}
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	var b strings.Builder
	version := bi.Main.Version
	if version == "" {
		version = "unknown"
	}
	fmt.Fprintf(&b, "vigil %s\n", version)
	if rev := vcs["vcs.revision"]; rev != "" {
		if vcs["vcs.modified"] == "true" {
			rev += ", with uncommitted changes"
		}
		fmt.Fprintf(&b, "revision %s\n", rev)
		if t := vcs["vcs.time"]; t != "" {
			fmt.Fprintf(&b, "committed %s\n", t)
		}
	} else {
		// Not "not built from a checkout": go build -buildvcs=false (as
		// GOFLAGS may set) records nothing from one either.
		b.WriteString("revision unknown: no version control information recorded (built outside a checkout, or with -buildvcs=false)\n")
	}
	fmt.Fprintf(&b, "go %s %s\n", bi.GoVersion, platform)
	return b.String()
}
