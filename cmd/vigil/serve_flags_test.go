package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeFlagValuesRefused: a count or a duration that vigil serve
// cannot use stops it before anything starts (no data directory is made),
// naming the flag, the value and what is wanted. Zero and negative
// workers, leases, host concurrencies and attempts fell back to the
// built-in defaults without a word, and a --max-interval below a
// --min-interval given was raised to it.
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
		{[]string{"--notification-retention", "-24h"}, "--notification-retention -24h0m0s: want 0 (keep them all) or more"},
		{[]string{"--min-interval", "2h", "--max-interval", "1h"}, "--max-interval 1h0m0s: want at least --min-interval (2h0m0s)"},
		{[]string{"--min-interval", "48h", "--initial-interval", "1h"}, "--initial-interval 1h0m0s: want between --min-interval (48h0m0s) and --max-interval (48h0m0s)"},
		{[]string{"--min-interval", "2m", "--initial-interval", "30s"}, "--initial-interval 30s: want between --min-interval (2m0s) and --max-interval (24h0m0s)"},
		{[]string{"--max-interval", "24h", "--initial-interval", "48h"}, "--initial-interval 48h0m0s: want between --min-interval (1m0s) and --max-interval (24h0m0s)"},
		{[]string{"--max-page-size", "0"}, `--max-page-size "0": want a whole number of MiB from 1 to 256`},
		{[]string{"--max-page-size", "-5"}, `--max-page-size "-5": want a whole number of MiB from 1 to 256`},
		{[]string{"--max-page-size", "20MiB"}, `--max-page-size "20MiB": want a whole number of MiB from 1 to 256`},
		{[]string{"--max-page-size", "lots"}, `--max-page-size "lots": want a whole number of MiB from 1 to 256`},
		{[]string{"--max-page-size", ""}, `--max-page-size "": want a whole number of MiB from 1 to 256`},
		{[]string{"--max-page-size", "257"}, `--max-page-size "257": want a whole number of MiB from 1 to 256`},
		{[]string{"--smtp-port", "0"}, `--smtp-port "0": want a port from 1 to 65535`},
		{[]string{"--smtp-port", "70000"}, `--smtp-port "70000": want a port from 1 to 65535`},
		// Refused without --smtp-host too: the mistake is found when
		// the flags are written, not at the start that sets the host.
		{[]string{"--smtp-tls", "mandatroy"}, `--smtp-tls "mandatroy": want opportunistic, mandatory, implicit or none`},
		{[]string{"--smtp-tls", "none", "--smtp-from", "vigil at example.org"}, `--smtp-from "vigil at example.org": want an email address, such as Vigil <vigil@example.org>`},
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
		"0 keeps them all",   // --notification-retention
		"(0: no delay",       // --host-delay
		"(0: --min-interval", // --site-fresh
		"-max-page-size MiB",
		"(default $VIGIL_MAX_PAGE_SIZE or 20)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("vigil serve -h does not say %q:\n%s", want, stdout)
		}
	}
}

// TestServeIntervalDefaultsFollow: an interval flag given alone is never
// refused for a clash with the defaults of the two others, which follow
// it (--max-interval 30s lowers the default --min-interval to 30s,
// --initial-interval 48h raises the default --max-interval to 48h); only
// values given together that clash are refused.
func TestServeIntervalDefaultsFollow(t *testing.T) {
	const m, h = time.Minute, time.Hour
	for _, tc := range []struct {
		given         map[string]time.Duration
		min, max, ini time.Duration
		err           string
	}{
		{given: nil, min: m, max: 24 * h, ini: h},
		{given: map[string]time.Duration{"min-interval": 2 * h}, min: 2 * h, max: 24 * h, ini: 2 * h},
		{given: map[string]time.Duration{"min-interval": 48 * h}, min: 48 * h, max: 48 * h, ini: 48 * h},
		{given: map[string]time.Duration{"max-interval": 30 * m}, min: m, max: 30 * m, ini: 30 * m},
		{given: map[string]time.Duration{"max-interval": 30 * time.Second}, min: 30 * time.Second, max: 30 * time.Second, ini: 30 * time.Second},
		{given: map[string]time.Duration{"initial-interval": 30 * time.Second}, min: 30 * time.Second, max: 24 * h, ini: 30 * time.Second},
		{given: map[string]time.Duration{"initial-interval": 48 * h}, min: m, max: 48 * h, ini: 48 * h},
		{given: map[string]time.Duration{"max-interval": 30 * time.Second, "initial-interval": 10 * time.Second}, min: 10 * time.Second, max: 30 * time.Second, ini: 10 * time.Second},
		{given: map[string]time.Duration{"min-interval": 2 * h, "max-interval": h}, err: "--max-interval 1h0m0s: want at least --min-interval (2h0m0s)"},
		{given: map[string]time.Duration{"min-interval": 2 * h, "initial-interval": h}, err: "--initial-interval 1h0m0s: want between --min-interval (2h0m0s) and --max-interval (24h0m0s)"},
		{given: map[string]time.Duration{"max-interval": h, "initial-interval": 2 * h}, err: "--initial-interval 2h0m0s: want between --min-interval (1m0s) and --max-interval (1h0m0s)"},
	} {
		c := &serveConfig{workers: 1, hostConc: 1, maxAttempts: 1, lease: m, poll: m, fetchTimeout: m, retryBase: m,
			minInterval: m, maxInterval: 24 * h, initInterval: h, maxPage: "20"}
		for name, v := range tc.given {
			switch name {
			case "min-interval":
				c.minInterval = v
			case "max-interval":
				c.maxInterval = v
			case "initial-interval":
				c.initInterval = v
			}
		}
		err := c.checkValues(func(name string) bool { _, ok := tc.given[name]; return ok })
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("%v: error %v, want %q", tc.given, err, tc.err)
			}
		case err != nil:
			t.Errorf("%v: %v", tc.given, err)
		case c.minInterval != tc.min || c.maxInterval != tc.max || c.initInterval != tc.ini:
			t.Errorf("%v: min %v, max %v, initial %v; want %v, %v, %v", tc.given, c.minInterval, c.maxInterval, c.initInterval, tc.min, tc.max, tc.ini)
		}
	}
}

// TestServeSMTPEnvRefused: an SMTP setting refused that came from the
// environment names its variable beside the flag it stands for: a
// VIGIL_SMTP_TLS mistyped in a service's unit was named as a
// --smtp-tls that was never typed.
func TestServeSMTPEnvRefused(t *testing.T) {
	for _, tc := range []struct {
		name, value, want string
	}{
		{"VIGIL_SMTP_TLS", "mandatroy", `--smtp-tls "mandatroy" (from $VIGIL_SMTP_TLS): want opportunistic, mandatory, implicit or none`},
		{"VIGIL_SMTP_FROM", "vigil at example.org", `--smtp-from "vigil at example.org" (from $VIGIL_SMTP_FROM): want an email address, such as Vigil <vigil@example.org>`},
		{"VIGIL_SMTP_PORT", "0", `--smtp-port "0" (from $VIGIL_SMTP_PORT): want a port from 1 to 65535`},
		{"VIGIL_MAX_PAGE_SIZE", "0", `--max-page-size "0" (from $VIGIL_MAX_PAGE_SIZE): want a whole number of MiB from 1 to 256`},
		{"VIGIL_MAX_PAGE_SIZE", "big", `--max-page-size "big" (from $VIGIL_MAX_PAGE_SIZE): want a whole number of MiB from 1 to 256`},
	} {
		data := filepath.Join(t.TempDir(), "data")
		var stdout, stderr bytes.Buffer
		env := &environment{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string {
			if k == tc.name {
				return tc.value
			}
			return ""
		}}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // a serve that took the value ends at once
		code := run(ctx, env, []string{"serve", "--data", data, "--addr", "127.0.0.1:0"})
		if want := "vigil serve: " + tc.want + "\n"; code != exitError || stderr.String() != want {
			t.Errorf("%s=%s: exit %d, stderr %q; want 2 and %q", tc.name, tc.value, code, stderr.String(), want)
		}
	}
}

// TestServeDataFlagWithPostgres: vigil serve's help says what --data holds
// on PostgreSQL (the webhook key's copy for the receivers, the
// admin-password file, the keys an upgrade imports), where it said "holding
// the SQLite store" only, as if a daemon on PostgreSQL had no use for it
// and several could not be told apart by it.
func TestServeDataFlagWithPostgres(t *testing.T) {
	_, stdout, _ := runVigil(t, "", "serve", "-h")
	_, after, _ := strings.Cut(stdout, "-data directory")
	usage, _, _ := strings.Cut(after, "\n  -")
	usage = strings.Join(strings.Fields(usage), " ")
	for _, want := range []string{"SQLite store", "with --postgres", "webhook-secret", "admin-password"} {
		if !strings.Contains(usage, want) {
			t.Errorf("vigil serve -h: --data's help %q does not say %q", usage, want)
		}
	}
	_, stdout, _ = runVigil(t, "", "sentinel", "list", "-h")
	if strings.Contains(stdout, "admin-password") {
		t.Errorf("vigil sentinel list -h speaks of the daemon's files:\n%s", stdout)
	}
}
