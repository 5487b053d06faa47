package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSentinelNFDName: a sentinel name written decomposed ("cafe" and a
// combining acute accent, as macOS keyboards write café) is added as the
// composed name, is taken by sentinel rm for the composed one, and the
// other way round; a sentinel that uses it, written either way, keeps it.
func TestSentinelNFDName(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	src := "Create Sentinel caf\u00e9 Using http://a.example Fetch 1 day\n" +
		"Create Sentinel the\u0301 Using http://b.example Fetch 1 day\n" +
		"Create Sentinel b Using cafe\u0301 Fetch 1 day\n"
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, "--owner", "ann@example.test", writeFile(t, dir, "s.ssl", src)); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	if _, out, _ := runVigil(t, "", "sentinel", "list", "--data", data); strings.Contains(out, "\u0301") || !strings.Contains(out, "th\u00e9") {
		t.Errorf("list: want thé composed:\n%s", out)
	}
	for _, tc := range []struct {
		arg, out, errOut string
		code             int
	}{
		{"cafe\u0301", "", "vigil sentinel rm: cafe\u0301: used by b; edit or remove it first\n", exitChanged},
		{"the\u0301", "removed sentinel 2\n", "", exitOK},
		{"b", "removed sentinel 3\n", "", exitOK},
		{"cafe\u0301", "removed sentinel 1\n", "", exitOK},
	} {
		code, out, errOut := runVigil(t, "", "sentinel", "rm", "--data", data, "--owner", "ann@example.test", tc.arg)
		if code != tc.code || out != tc.out || errOut != tc.errOut {
			t.Errorf("rm %q: exit %d, stdout %q, stderr %q; want %d, %q and %q", tc.arg, code, out, errOut, tc.code, tc.out, tc.errOut)
		}
	}
}
