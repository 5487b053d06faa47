package main

import (
	"path/filepath"
	"testing"
)

// TestSentinelIDOutOfRange: sentinel rm and sentinel feed given a number
// too large for an id say it is out of range, where they took it for a
// name ("ann@example.test has no sentinel 99999999999999999999"): a name
// begins with a letter or _, so a number is an id.
func TestSentinelIDOutOfRange(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, "--owner", "ann@example.test", writeFile(t, dir, "s.ssl", "Create Sentinel a Using http://a.example Fetch 1 day\n")); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	tests := map[string]struct {
		cmd, id, stderr string
	}{
		"rm too large":      {"rm", "99999999999999999999", "vigil sentinel rm: sentinel id 99999999999999999999 is out of range: ids are 1 to 9223372036854775807\n"},
		"rm one past":       {"rm", "9223372036854775808", "vigil sentinel rm: sentinel id 9223372036854775808 is out of range: ids are 1 to 9223372036854775807\n"},
		"rm too small":      {"rm", "-99999999999999999999", "vigil sentinel rm: sentinel id -99999999999999999999 is out of range: ids are 1 to 9223372036854775807\n"},
		"rm in range":       {"rm", "9223372036854775807", "vigil sentinel rm: no sentinel 9223372036854775807\n"},
		"feed too large":    {"feed", "99999999999999999999", "vigil sentinel feed: sentinel id 99999999999999999999 is out of range: ids are 1 to 9223372036854775807\n"},
		"feed a name still": {"feed", "nosuch", "vigil sentinel feed: ann@example.test has no sentinel nosuch\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runVigil(t, "", "sentinel", tc.cmd, "--data", data, "--owner", "ann@example.test", "--", tc.id)
			if code == exitOK || out != "" || errOut != tc.stderr {
				t.Errorf("sentinel %s %s: exit %d, stdout %q, stderr %q; want a failure, nothing and %q", tc.cmd, tc.id, code, out, errOut, tc.stderr)
			}
		})
	}
}
