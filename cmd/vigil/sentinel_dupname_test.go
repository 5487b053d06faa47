package main

import (
	"strings"
	"testing"
)

// TestSentinelDuplicateNameInFile: sentinel check and sentinel add tell a
// sentinel whose name an earlier one of the files has where that one is,
// with or without a store; they said "your sentinel s has it", as of a
// stored sentinel, with no store given and none holding it.
func TestSentinelDuplicateNameInFile(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "dup.ssl", "Create Sentinel s Using http://a.example/\nCreate Sentinel s Using http://b.example/\n")
	const want = "dup.ssl:2:17: sentinel name s is taken: your sentinel s at " + "%s:1:17 has it; choose another name\n"
	for _, args := range [][]string{
		{"sentinel", "check", file},
		{"sentinel", "add", "--data", dir + "/data", file},
	} {
		code, out, errOut := runVigil(t, "", args...)
		if code != exitChanged || !strings.Contains(out, strings.Replace(want, "%s", file, 1)) {
			t.Errorf("vigil %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(args, " "), code, out, errOut, strings.Replace(want, "%s", file, 1))
		}
	}
}
