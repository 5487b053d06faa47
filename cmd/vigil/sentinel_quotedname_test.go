package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSentinelFileNameQuoted: sentinel check, fmt and add name a file
// whose name holds a line break quoted, as diff and site diff do
// (inputName), so that each problem stays one line file:line:col:
// message; the name was written as it is, splitting the line.
func TestSentinelFileNameQuoted(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "my\nsentinels.ssl", "Create Sentinel a Using http://a.example/\n\tFetch 0 hours\n")
	broken := writeFile(t, dir, "more\tsentinels.ssl", "Create Sentinel b Using\n")
	quoted := strconv.Quote(bad)
	for _, c := range []struct {
		args   []string
		stdout bool
		want   string
	}{
		{[]string{"sentinel", "check", "-now", "11/01/2002", bad}, true, quoted + ":2:8: Fetch 0 hours: interval must be greater than 0\n"},
		{[]string{"sentinel", "check", "-now", "11/01/2002", broken}, true, strconv.Quote(broken) + ":1:24: expected URL or sentinel name, found end of file\n"},
		{[]string{"sentinel", "fmt", broken}, false, strconv.Quote(broken) + ":1:24: expected URL or sentinel name, found end of file\n"},
		{[]string{"sentinel", "add", "--data", filepath.Join(dir, "data"), bad}, true, quoted + ":2:8: Fetch 0 hours: interval must be greater than 0\n"},
	} {
		code, out, errOut := runVigil(t, "", c.args...)
		got := errOut
		if c.stdout {
			got = out
		}
		if code != exitChanged || got != c.want {
			t.Errorf("%q: exit %d\nstdout %q\nstderr %q\nwant   %q", c.args, code, out, errOut, c.want)
		}
		for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if !strings.HasPrefix(line, `"`) {
				t.Errorf("%q: line %q does not begin with the file's quoted name", c.args, line)
			}
		}
	}
}
