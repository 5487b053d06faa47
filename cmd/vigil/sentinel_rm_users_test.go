package main

import (
	"path/filepath"
	"testing"
)

// TestSentinelRmWithUsers: sentinel rm given a sentinel and those that use
// it removes them all, whatever their order on the command line (it kept
// the one used, "used by b", although b was removed by the same command);
// a sentinel is kept only while one that stays uses it.
func TestSentinelRmWithUsers(t *testing.T) {
	const src = "Create Sentinel a Using http://a.example Fetch 1 day\n" +
		"Create Sentinel b Using a Fetch 1 day\n" +
		"Create Sentinel c Using http://c.example Fetch 1 day From start(b)\n" +
		"Create Sentinel d Using http://d.example Fetch 1 day\n"
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
		left   []string
	}{
		{"user after", []string{"a", "b", "c"}, exitOK, "removed sentinel 3\nremoved sentinel 2\nremoved sentinel 1\n", "", []string{"d"}},
		{"user before", []string{"c", "b", "a"}, exitOK, "removed sentinel 3\nremoved sentinel 2\nremoved sentinel 1\n", "", []string{"d"}},
		{"user left out", []string{"a", "b", "d"}, exitChanged, "removed sentinel 4\n",
			"vigil sentinel rm: a: used by b; edit or remove it first\nvigil sentinel rm: b: used by c; edit or remove it first\n",
			[]string{"a", "b", "c"}},
		{"by name and id", []string{"d", "4"}, exitOK, "removed sentinel 4\n", "", []string{"a", "b", "c"}},
		{"missing among", []string{"nosuch", "b", "c"}, exitChanged, "removed sentinel 3\nremoved sentinel 2\n",
			"vigil sentinel rm: ann@example.test has no sentinel nosuch\n", []string{"a", "d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			data := filepath.Join(dir, "data")
			if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, "--owner", "ann@example.test", writeFile(t, dir, "s.ssl", src)); code != exitOK {
				t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
			}
			args := append([]string{"sentinel", "rm", "--data", data, "--owner", "ann@example.test"}, tc.args...)
			code, out, errOut := runVigil(t, "", args...)
			if code != tc.code || out != tc.stdout || errOut != tc.stderr {
				t.Errorf("rm %v: exit %d, stdout %q, stderr %q; want %d, %q and %q", tc.args, code, out, errOut, tc.code, tc.stdout, tc.stderr)
			}
			for _, name := range tc.left {
				if code, _, errOut := runVigil(t, "", "sentinel", "feed", "--data", data, "--owner", "ann@example.test", name); code != exitOK {
					t.Errorf("sentinel %s is gone (%s)", name, errOut)
				}
			}
		})
	}
}
