package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// runVigilEnv runs vigil in-process with the environment vars, for at
// most a minute (a serve that should have refused to start ends then).
func runVigilEnv(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return vars[k] }}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code := run(ctx, env, args)
	return code, stdout.String(), stderr.String()
}

// TestEnvBools: a yes-or-no setting written out as false is false (it
// turned the private-network guard off for being set), and one that is
// neither stops vigil serve before it starts.
func TestEnvBools(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
		ok   bool
	}{
		{"", false, true}, {"0", false, true}, {"false", false, true}, {"FALSE", false, true}, {"no", false, true}, {"off", false, true},
		{"1", true, true}, {"true", true, true}, {"Yes", true, true}, {" on ", true, true},
		{"maybe", false, false}, {"2", false, false},
	} {
		got, err := parseBool("VIGIL_X", tc.v)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("parseBool(%q) = %v, %v; want %v, ok %v", tc.v, got, err, tc.want, tc.ok)
		}
	}
	_, stdout, stderr := runVigilEnv(t, map[string]string{"VIGIL_ALLOW_PRIVATE_NETWORKS": "false"}, "serve", "-h")
	if usage := flagUsage(stdout+stderr, "-allow-private-networks"); usage == "" || strings.Contains(usage, "(default true)") {
		t.Errorf("VIGIL_ALLOW_PRIVATE_NETWORKS=false: the flag's default is not false:\n%s", stdout+stderr)
	}
	for _, name := range []string{"VIGIL_ALLOW_PRIVATE_NETWORKS", "VIGIL_METRICS_PUBLIC", "VIGIL_SECURE_COOKIES"} {
		code, _, stderr := runVigilEnv(t, map[string]string{name: "maybe"}, "serve", "--data", t.TempDir())
		if code != exitError || !strings.Contains(stderr, name+`="maybe"`) {
			t.Errorf("%s=maybe: exit %d, %s; want 2 and the variable named", name, code, stderr)
		}
		// -h still shows the help, which says what the variable takes.
		code, stdout, stderr = runVigilEnv(t, map[string]string{name: "maybe"}, "serve", "-h")
		if out := stdout + stderr; code != exitOK || !strings.Contains(out, "Usage: vigil serve") {
			t.Errorf("%s=maybe, serve -h: exit %d, no help:\n%s", name, code, out)
		}
	}
}

// TestUsageHidesSecrets: the usage text, shown on -h and after a mistyped
// flag, does not print the secrets that flags take from the environment.
func TestUsageHidesSecrets(t *testing.T) {
	vars := map[string]string{"VIGIL_POSTGRES_DSN": "postgres://u:S3cretPW@db.invalid/x", "VIGIL_WEBHOOK_SECRET": "whsecretWHSECRET"}
	for _, args := range [][]string{{"serve", "-h"}, {"serve", "--bogus"}, {"sentinel", "list", "--bogus"}, {"export", "warc", "--bogus"}, {"user", "webhook-key", "--bogus"}} {
		_, stdout, stderr := runVigilEnv(t, vars, args...)
		out := stdout + stderr
		if !strings.Contains(out, "-postgres") {
			t.Errorf("%v: no usage shown:\n%s", args, out)
		}
		if strings.Contains(out, "S3cretPW") || strings.Contains(out, "whsecretWHSECRET") {
			t.Errorf("%v: a secret in the usage text:\n%s", args, out)
		}
	}
}

// TestUsageOneDefault: a flag whose usage states its default, taken from
// the environment ("(default $VIGIL_DATA or ./vigil-data)"), is not given a
// second one by the flag package ("(default \"vigil-data\")"), which read as
// two defaults that disagree; every command's -h is read.
func TestUsageOneDefault(t *testing.T) {
	for name := range commands {
		args := append(strings.Fields(name), "-h")
		_, stdout, stderr := runVigilEnv(t, nil, args...)
		for _, line := range strings.Split(stdout+stderr, "\n") {
			if strings.Count(line, "(default") > 1 {
				t.Errorf("vigil %s -h: two defaults on a line: %s", name, strings.TrimSpace(line))
			}
		}
	}
}

// TestServeLogLevel: a --log-level that is not one of the four says which
// are; it said `slog: level string "verbose": unknown name`.
func TestServeLogLevel(t *testing.T) {
	code, _, stderr := runVigilEnv(t, nil, "serve", "--data", t.TempDir(), "--log-level", "verbose")
	want := `vigil serve: --log-level "verbose": want debug, info, warn or error` + "\n"
	if code != exitError || stderr != want {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
}

// TestUsageSecretsByEnvironment: the -h text of the flags that take a
// secret on the command line, which any local user reads in the process
// list (ps), names the environment variable that keeps it out of it.
func TestUsageSecretsByEnvironment(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		flag, env string
	}{
		{[]string{"serve", "-h"}, "-webhook-secret", "VIGIL_WEBHOOK_SECRET"},
		{[]string{"user", "webhook-key", "-h"}, "-webhook-secret", "VIGIL_WEBHOOK_SECRET"},
		{[]string{"serve", "-h"}, "-proxy", "VIGIL_PROXY"},
		{[]string{"site", "crawl", "-h"}, "-proxy", "VIGIL_PROXY"},
	} {
		_, stdout, stderr := runVigilEnv(t, nil, tc.args...)
		usage := flagUsage(stdout+stderr, tc.flag)
		if !strings.Contains(usage, "process list") || !strings.Contains(usage, "$"+tc.env) {
			t.Errorf("%v: %s does not say that $%s keeps it out of the process list:\n%s", tc.args, tc.flag, tc.env, usage)
		}
	}
}

// flagUsage returns the lines of help that describe flag: its own and the
// indented ones after it.
func flagUsage(help, flag string) string {
	var out []string
	in := false
	for _, line := range strings.Split(help, "\n") {
		if strings.HasPrefix(line, "  -") {
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "  "), " ")
			in = name == flag
		}
		if in {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
