package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestBenchDiffRerunsWithLazyRelease: vigil bench diff times its runs in a
// process of its own whose runtime gives memory back with MADV_FREE, and
// says so beside the page faults it counted; a caller's GODEBUG that says
// how to give memory back is kept, in one process.
func TestBenchDiffRerunsWithLazyRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the benchmark")
	}
	for _, tc := range []struct {
		godebug string
		want    string
	}{
		{"", "with MADV_FREE, madvdontneed=0"},
		{"gctrace=0", "with MADV_FREE, madvdontneed=0"},
		{"madvdontneed=1", `as GODEBUG="madvdontneed=1" says`},
	} {
		cmd := exec.Command(vigilBinary(t), "bench", "diff", "--size", "200000", "--runs", "2", "--memory=false")
		cmd.Env = append(withoutGODEBUG(os.Environ()), "GODEBUG="+tc.godebug)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GODEBUG=%q: bench diff: %v", tc.godebug, err)
		}
		if !strings.Contains(string(out), "page faults of the timed vigil diffs, run by run: [") || !strings.Contains(string(out), tc.want) {
			t.Errorf("GODEBUG=%q: output lacks the page faults or %q:\n%s", tc.godebug, tc.want, out)
		}
	}
}

// TestCallerEnviron: the processes a re-run bench starts get the caller's
// GODEBUG back, and not the re-run's marker.
func TestCallerEnviron(t *testing.T) {
	t.Setenv("GODEBUG", "gctrace=0,"+lazyRelease)
	t.Setenv(benchGODEBUG, "gctrace=0")
	env := callerEnviron()
	if !slices.Contains(env, "GODEBUG=gctrace=0") || slices.ContainsFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, benchGODEBUG) || strings.Contains(kv, lazyRelease)
	}) {
		t.Errorf("callerEnviron() = %q", env)
	}
	t.Setenv(benchGODEBUG, "")
	if env := callerEnviron(); slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GODEBUG=") }) {
		t.Errorf("a caller without GODEBUG: callerEnviron() = %q", env)
	}
}
