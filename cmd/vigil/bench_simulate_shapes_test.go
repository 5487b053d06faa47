package main

import (
	"path/filepath"
	"testing"
)

// TestBenchSimulateFilesReadAsTheirTrees: the files of bench simulate read
// back, as vigil diff and patch read them by default, as the trees the
// simulator made, for every shape, so that perfect.xml patches old.xml into
// new.xml and undoes it with --reverse. The text shape's documents have an
// html root: read as HTML, a p the simulator moved into a p was taken out of
// it again, and patch gave another tree than new.xml (or refused --reverse).
func TestBenchSimulateFilesReadAsTheirTrees(t *testing.T) {
	for _, shape := range []string{"records", "deep", "flatlist", "text"} {
		t.Run(shape, func(t *testing.T) {
			dir := t.TempDir()
			if code, _, errOut := runCLI(t, "", "bench", "simulate", "--shape", shape, "--size", "20000", "--rate", "0.3", dir); code != exitOK {
				t.Fatalf("bench simulate: exit %d: %s", code, errOut)
			}
			old, new, perfect := filepath.Join(dir, "old.xml"), filepath.Join(dir, "new.xml"), filepath.Join(dir, "perfect.xml")
			code, patched, errOut := runCLI(t, "", "patch", old, perfect)
			if code != exitOK {
				t.Fatalf("patch old.xml perfect.xml: exit %d: %s", code, errOut)
			}
			if code, diff, errOut := runCLI(t, patched, "diff", "--format", "summary", new, "-"); code != exitOK {
				t.Errorf("patched old.xml differs from new.xml: exit %d:\n%s%s", code, diff, errOut)
			}
			code, reverted, errOut := runCLI(t, "", "patch", "--reverse", new, perfect)
			if code != exitOK {
				t.Fatalf("patch --reverse new.xml perfect.xml: exit %d: %s", code, errOut)
			}
			if code, diff, errOut := runCLI(t, reverted, "diff", "--format", "summary", old, "-"); code != exitOK {
				t.Errorf("new.xml patched back differs from old.xml: exit %d:\n%s%s", code, diff, errOut)
			}
		})
	}
}
