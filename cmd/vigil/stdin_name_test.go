package main

import (
	"strings"
	"testing"
)

// TestStdinName: every command names standard input "<stdin>" in what it
// reports, as diff, patch and compose do; the sentinel commands wrote
// "-:1:16: ...", a position in a file named "-".
func TestStdinName(t *testing.T) {
	const bad = "Create Sentinel\n"
	const warned = "Create Sentinel s1 Using http://a.example/\nMonitor all words OR any change\n"
	for _, tc := range []struct {
		args   []string
		stdin  string
		stderr bool // the report is on standard error
		want   string
	}{
		{[]string{"sentinel", "check", "-"}, bad, false, "<stdin>:1:16: expected sentinel name"},
		{[]string{"sentinel", "check", "-"}, warned, false, "<stdin>:2:"},
		{[]string{"sentinel", "fmt", "-"}, bad, true, "<stdin>:1:16: expected sentinel name"},
		{[]string{"sentinel", "add", "--data", t.TempDir(), "-"}, bad, false, "<stdin>:1:16: expected sentinel name"},
		{[]string{"diff", "-", "-"}, "", true, "only one of OLD and NEW can be standard input"},
		{[]string{"diff", "-", "x.xml"}, "", true, "<stdin>: empty document"},
	} {
		args := tc.args
		_, out, errOut := runVigil(t, tc.stdin, args...)
		got := out
		if tc.stderr {
			got = errOut
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%v: no %q in\n%s", args, tc.want, got)
		}
		if strings.Contains(out+errOut, "-:") {
			t.Errorf("%v: names standard input \"-\":\n%s%s", args, out, errOut)
		}
	}
}
