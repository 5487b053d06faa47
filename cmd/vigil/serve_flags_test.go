package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeFlagValuesRefused: a count or a duration that vigil serve
// cannot use stops it before anything starts (no data directory is made),
// naming the flag, the value and what is wanted. Zero and negative
// workers, leases, host concurrencies and attempts fell back to the
// built-in defaults without a word, and a --max-interval below
// --min-interval was raised to it.
func TestServeFlagValuesRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--workers", "0"}, "--workers 0: want 1 or more"},
		{[]string{"--workers", "-3"}, "--workers -3: want 1 or more"},
		{[]string{"--host-concurrency", "0"}, "--host-concurrency 0: want 1 or more"},
		{[]string{"--max-attempts", "0"}, "--max-attempts 0: want 1 or more"},
		{[]string{"--max-attempts", "-1"}, "--max-attempts -1: want 1 or more"},
		{[]string{"--lease", "0"}, "--lease 0s: want a duration greater than 0"},
		{[]string{"--lease", "-1m"}, "--lease -1m0s: want a duration greater than 0"},
		{[]string{"--min-interval", "0"}, "--min-interval 0s: want a duration greater than 0"},
		{[]string{"--max-interval", "0"}, "--max-interval 0s: want a duration greater than 0"},
		{[]string{"--initial-interval", "-1s"}, "--initial-interval -1s: want a duration greater than 0"},
		{[]string{"--fetch-timeout", "0"}, "--fetch-timeout 0s: want a duration greater than 0"},
		{[]string{"--retry-base", "0"}, "--retry-base 0s: want a duration greater than 0"},
		{[]string{"--poll", "0"}, "--poll 0s: want a duration greater than 0"},
		{[]string{"--host-delay", "-1s"}, "--host-delay -1s: want 0 or more"},
		{[]string{"--compare-memory", "-1"}, "--compare-memory -1: want 0 (no bound) or more"},
		{[]string{"--failure-notice", "-1h"}, "--failure-notice -1h0m0s: want 0 (never) or more"},
		{[]string{"--min-interval", "2h", "--max-interval", "1h"}, "--max-interval 1h0m0s: want at least --min-interval (2h0m0s)"},
		{[]string{"--min-interval", "48h", "--initial-interval", "1h"}, "--initial-interval 1h0m0s: want between --min-interval (48h0m0s) and --max-interval (48h0m0s)"},
		{[]string{"--initial-interval", "30s"}, "--initial-interval 30s: want between --min-interval (1m0s) and --max-interval (24h0m0s)"},
		{[]string{"--initial-interval", "48h"}, "--initial-interval 48h0m0s: want between --min-interval (1m0s) and --max-interval (24h0m0s)"},
		{[]string{"--smtp-port", "0"}, `--smtp-port "0": want a port from 1 to 65535`},
		{[]string{"--smtp-port", "70000"}, `--smtp-port "70000": want a port from 1 to 65535`},
	} {
		data := filepath.Join(t.TempDir(), "data")
		// Under a context already done, a serve that took the value
		// ends at once instead of running on.
		var stdout, stderr bytes.Buffer
		env := &environment{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		code := run(ctx, env, append([]string{"serve", "--data", data, "--addr", "127.0.0.1:0"}, tc.args...))
		if want := "vigil serve: " + tc.want + "\n"; code != exitError || stderr.String() != want {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), want)
		}
		if _, err := os.Stat(data); !os.IsNotExist(err) {
			t.Errorf("%v: the data directory was made (%v)", tc.args, err)
		}
	}
}

// TestServeFlagZeroMeaning: the duration and count flags whose 0 means
// something of its own say what in their help; the others are refused at
// 0 (TestServeFlagValuesRefused), so no help promises a default for 0.
func TestServeFlagZeroMeaning(t *testing.T) {
	_, stdout, _ := runVigil(t, "", "serve", "-h")
	for _, want := range []string{
		"(0: no bound)",      // --compare-memory
		"0 never tells",      // --failure-notice
		"(0: no delay",       // --host-delay
		"(0: --min-interval", // --site-fresh
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("vigil serve -h does not say %q:\n%s", want, stdout)
		}
	}
}
