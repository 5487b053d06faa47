package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSentinelRmLongS: sentinel rm names and protects sentinels by their
// names as the store keys them (vigil.SameSentinelName), where "best" and
// "beſt" (a long s) are two, not as strings.EqualFold, which takes them
// for one. A best that beſt uses is kept, as any used sentinel; another
// owner's beſt is named alone as the one of that name, not with best.
func TestSentinelRmLongS(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	src := "Create Sentinel best Using http://a.example Fetch 1 day\n" +
		"Create Sentinel beſt Using best Fetch 1 day\n"
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, "--owner", "ann@example.test", writeFile(t, dir, "s.ssl", src)); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	for _, tc := range []struct {
		owner, arg string
		code       int
		want       string
	}{
		{"cy@example.test", "beſt", exitChanged, "vigil sentinel rm: cy@example.test has no sentinel beſt; ann@example.test has one: give its id, 2, or --owner ann@example.test\n"},
		{"ann@example.test", "best", exitChanged, "vigil sentinel rm: best: used by beſt; edit or remove it first\n"},
	} {
		code, out, errOut := runVigil(t, "", "sentinel", "rm", "--data", data, "--owner", tc.owner, tc.arg)
		if code != tc.code || out != "" || errOut != tc.want {
			t.Errorf("rm --owner %s %s: exit %d, stdout %q, stderr %q; want %d and %q", tc.owner, tc.arg, code, out, errOut, tc.code, tc.want)
		}
	}
	if code, out, errOut := runVigil(t, "", "sentinel", "rm", "--data", data, "--owner", "ann@example.test", "beſt", "best"); code != exitOK || out != "removed sentinel 2\nremoved sentinel 1\n" {
		t.Errorf("rm beſt best: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, out, _ := runVigil(t, "", "sentinel", "list", "--data", data); strings.Contains(out, "best") || strings.Contains(out, "beſt") {
		t.Errorf("left after removing both:\n%s", out)
	}
}
