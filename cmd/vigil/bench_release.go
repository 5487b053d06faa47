package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The diff benches time, in one process, a small pair's diff and a large
// pair's diff in turn. Between two large diffs, the runtime gives the
// memory the large one freed back to the OS as the small runs go (its
// background scavenger keeps about the collector's goal, which the small
// pair lowers). On Linux it does so with MADV_DONTNEED: the pages are gone,
// and the next large diff faults each one back in, 0 to 10 000 faults
// (40 MB) and up to 100 ms of a 200 ms diff on the build machines, as far
// as the scavenger happened to get. That swung the growth from 10.5x to
// 16.7x between two invocations of one binary, none of it the diff's
// doing: the small diff, whose memory the runtime keeps, never pays it.
//
// So the benches time their runs in a process of their own whose runtime
// gives memory back with MADV_FREE (GODEBUG=madvdontneed=0): the kernel
// takes such pages only when it needs the memory, and a diff that uses
// them again before that finds them as they were, as the runs in one
// process are meant to (see pairFiles). The measure in fresh processes,
// where every diff faults in all its memory, runs with the caller's own
// GODEBUG. The runs print the page faults of the diffs they time.

// benchGODEBUG holds, in the process a bench re-runs itself in, the
// caller's GODEBUG (possibly empty), for the processes it starts in turn.
const benchGODEBUG = "VIGIL_BENCH_CALLER_GODEBUG"

// lazyRelease is the GODEBUG setting of that process.
const lazyRelease = "madvdontneed=0"

// rerunWithLazyRelease runs the bench named by args again, in a process
// of its own whose runtime gives memory back to the OS with MADV_FREE, and
// returns its exit code, with ran set. It runs nothing (ran false) in that
// process itself, inside a test binary (which would run the tests again),
// or when the caller's GODEBUG says how to give memory back.
func rerunWithLazyRelease(ctx context.Context, env *environment, args []string) (ran bool, code int, err error) {
	caller, rerun := os.LookupEnv(benchGODEBUG)
	if rerun || testing.Testing() || strings.Contains(caller, "madvdontneed") ||
		strings.Contains(os.Getenv("GODEBUG"), "madvdontneed") {
		return false, 0, nil
	}
	self, err := os.Executable()
	if err != nil {
		return true, exitError, fmt.Errorf("re-running the bench: %w", err)
	}
	callerGODEBUG := os.Getenv("GODEBUG")
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = append(withoutGODEBUG(os.Environ()),
		"GODEBUG="+strings.TrimPrefix(callerGODEBUG+","+lazyRelease, ","),
		benchGODEBUG+"="+callerGODEBUG)
	cmd.Stdout, cmd.Stderr = env.stdout, env.stderr
	// Stopped by a signal, the child gets the same one and stops as the
	// bench does (it removes its files, and its exit code names the
	// signal); it is killed only if it does not.
	cmd.Cancel = func() error {
		sig := os.Interrupt
		var stopped interrupted
		if errors.As(context.Cause(ctx), &stopped) {
			sig = stopped.sig
		}
		return cmd.Process.Signal(sig)
	}
	cmd.WaitDelay = 10 * time.Second
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, exitOK, nil
	case errors.As(err, &ee) && ee.Exited():
		return true, ee.ExitCode(), nil
	case ctx.Err() != nil:
		return true, exitError, errInterrupted
	}
	return true, exitError, fmt.Errorf("re-running the bench: %w", err)
}

// callerEnviron returns the environment for a process a bench starts: the
// caller's, with the GODEBUG the caller had when the bench re-ran itself.
func callerEnviron() []string {
	caller, rerun := os.LookupEnv(benchGODEBUG)
	if !rerun {
		return os.Environ()
	}
	var env []string
	for _, kv := range withoutGODEBUG(os.Environ()) {
		if !strings.HasPrefix(kv, benchGODEBUG+"=") {
			env = append(env, kv)
		}
	}
	if caller != "" {
		env = append(env, "GODEBUG="+caller)
	}
	return env
}

// withoutGODEBUG returns env without its GODEBUG entries.
func withoutGODEBUG(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GODEBUG=") {
			out = append(out, kv)
		}
	}
	return out
}

// releaseNote says, after the page faults of the runs in one process, how
// that process's runtime gives memory back to the OS.
func releaseNote() string {
	switch g := os.Getenv("GODEBUG"); {
	case strings.Contains(g, lazyRelease):
		return " (this process gives memory back with MADV_FREE, " + lazyRelease + ")"
	case strings.Contains(g, "madvdontneed"):
		return fmt.Sprintf(" (this process gives memory back as GODEBUG=%q says)", g)
	}
	return " (this process gives memory back as the runtime does by default, with MADV_DONTNEED on Linux)"
}
