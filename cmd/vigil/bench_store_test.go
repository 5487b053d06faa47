package main

import (
	"strings"
	"testing"
)

func TestBenchStore(t *testing.T) {
	out, errOut, code := runCmd(t, nil, "bench", "store", "--versions", "12", "--size", "6000", "--change", "0.02", "-k", "4", "--runs", "1")
	if code != exitOK {
		t.Fatalf("bench store: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"baseline, every version zstd-compressed in full", "   4  none", "   4  last 16", "   4  all", "2 writers on 2 resources", "k=4: ratio"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Named with two dashes, as the other flags are.
	if _, errOut, code := runCmd(t, nil, "bench", "store", "-k", "0"); code != exitError || !strings.Contains(errOut, `--k "0": want comma-separated whole numbers of 1 or more`) {
		t.Errorf("-k 0: exit %d, stderr %q", code, errOut)
	}
}
