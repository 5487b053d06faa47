package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The bench commands run end to end on small inputs and print their report
// lines; the figures themselves are recorded in BENCHMARKS.md.
func TestBenchCommands(t *testing.T) {
	code, out, errOut := runCLI(t, "", "bench", "diff", "--size", "200000", "--runs", "1", "--memory=false")
	if code != exitOK {
		t.Fatalf("bench diff: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"parse both", "linear growth: diff of the 195.3 KB pair takes", "the 19.5 KB pair", "speed bar:", "default vs plain xydiff:", "page faults of the vigil diffs, run by run: ["} {
		if !strings.Contains(out, want) {
			t.Errorf("bench diff output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI(t, "", "bench", "diff", "--curve", "--size", "200000", "--runs", "1")
	if code != exitOK {
		t.Fatalf("bench diff --curve: exit %d: %s", code, errOut)
	}
	if got := strings.Count(out, "ms per MB"); got != len(curveSizes) || !strings.Contains(out, "(1.00x the") {
		t.Errorf("bench diff --curve printed %d sizes of %d, or no base line:\n%s", got, len(curveSizes), out)
	}
	// Inside a test binary the memory measure refuses to re-run the binary
	// (it would run the tests again): an error, never a recursion.
	if code, _, errOut := runCLI(t, "", "bench", "diff", "--size", "20000", "--runs", "1"); code != exitError || !strings.Contains(errOut, "not a test binary") {
		t.Errorf("bench diff with the memory measure in a test: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut = runCLI(t, "", "bench", "quality", "--seeds", "1", "--size", "3000", "--corpus", "../../testdata/corpus")
	if code != exitOK {
		t.Fatalf("bench quality: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"10% vigil   r: n=4", "30% xydiff  r: n=4", "xml-sysmon-config"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench quality output lacks %q:\n%s", want, out)
		}
	}
	dir := t.TempDir()
	code, out, errOut = runCLI(t, "", "bench", "simulate", "--size", "5000", "--rate", "0.2", dir)
	if code != exitOK || !strings.Contains(out, "perfect delta") {
		t.Fatalf("bench simulate: exit %d: %s %s", code, out, errOut)
	}
	// The child command of the measures in fresh processes parses and
	// diffs the pair and prints its peak resident size and the diff's CPU
	// time in nanoseconds.
	code, out, errOut = runCLI(t, "", "bench", "diff-memory", filepath.Join(dir, "old.xml"), filepath.Join(dir, "new.xml"))
	if f := strings.Fields(out); code != exitOK || len(f) != 2 || !positive(f[0]) || !positive(f[1]) {
		t.Errorf("bench diff-memory: exit %d, output %q, want two positive numbers: %s", code, out, errOut)
	}
	// The simulated pair and its perfect delta agree: patching old with
	// perfect gives new.
	code, patched, errOut := runCLI(t, "", "patch", filepath.Join(dir, "old.xml"), filepath.Join(dir, "perfect.xml"))
	if code != exitOK {
		t.Fatalf("patch with the perfect delta: exit %d: %s", code, errOut)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "new.xml"))
	if code, diff, _ := runCLI(t, patched, "diff", "--format", "summary", "-", filepath.Join(dir, "new.xml")); code != exitOK {
		t.Errorf("patched old differs from new (%d bytes):\n%s", len(want), diff)
	}
}

// TestBenchRefusesBadArguments: a stray argument or a value the benchmark
// cannot use is refused by its flag's name before anything is generated or
// measured; they were ignored (bench diff extra), found after minutes of
// measuring (--corpus), or reported in the simulator's terms ("delete rate
// -0.25" for --rate -1), or gave NaN figures (--seeds 0).
func TestBenchRefusesBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "diff", "--memory=false", "extra"}, "want no arguments, got 1"},
		{[]string{"bench", "diff", "--memory=false", "--shape", "tree"}, `--shape "tree": want records, deep, flatlist or text`},
		{[]string{"bench", "diff", "--memory=false", "--rate", "-1"}, "--rate -1: want a share of nodes between 0 and 1"},
		{[]string{"bench", "quality", "extra"}, "want no arguments, got 1"},
		{[]string{"bench", "quality", "--seeds", "0"}, "--seeds 0: want at least 1"},
		{[]string{"bench", "quality", "--size", "0"}, "--size 0: want at least 1"},
		{[]string{"bench", "quality", "--corpus", "no-such-dir"}, "--corpus no-such-dir: stat no-such-dir: no such file or directory"},
		{[]string{"bench", "quality", "--corpus", example + "v1.xml"}, "--corpus " + example + "v1.xml: not a folder"},
		{[]string{"bench", "simulate", "--rate", "2", t.TempDir()}, "--rate 2: want a share of nodes between 0 and 1"},
		{[]string{"bench", "simulate", "--size", "0", t.TempDir()}, "--size 0: want at least 1"},
		{[]string{"bench", "simulate", "--shape", "tree", t.TempDir()}, `--shape "tree": want records, deep, flatlist or text`},
	} {
		code, out, errOut := runCLI(t, "", tc.args...)
		if code != exitError || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestBenchSimulateHelp: the help of the four rates says what their
// default gives, a quarter of --rate each (it said --rate).
func TestBenchSimulateHelp(t *testing.T) {
	_, out, _ := runCLI(t, "", "bench", "simulate", "-h")
	if strings.Count(out, "-1 for a quarter of --rate") != 4 || strings.Contains(out, "(default: --rate)") {
		t.Errorf("bench simulate -h:\n%s", out)
	}
}

// positive reports whether s is a decimal integer above zero.
func positive(s string) bool {
	n, err := strconv.ParseInt(s, 10, 64)
	return err == nil && n > 0
}

// TestFreshDiffCommand: the child of the measures in fresh processes runs
// with the GOMAXPROCS the runs in one process have (--procs), whatever the
// environment says, so that the two growths it prints side by side are
// taken alike.
func TestFreshDiffCommand(t *testing.T) {
	t.Setenv("GOMAXPROCS", "8")
	cmd := freshDiffCommand(context.Background(), "vigil", pairFiles{old: "old.xml", new: "new.xml"}, 1)
	if want := []string{"vigil", "bench", "diff-memory", "old.xml", "new.xml"}; !slices.Equal(cmd.Args, want) {
		t.Errorf("child's arguments %q, want %q", cmd.Args, want)
	}
	procs := ""
	for _, kv := range cmd.Environ() {
		if v, ok := strings.CutPrefix(kv, "GOMAXPROCS="); ok {
			procs = v
		}
	}
	if procs != "1" {
		t.Errorf("child's GOMAXPROCS %q, want 1 (--procs)", procs)
	}
}

// TestBenchQualityNoCorpus: run where no corpus is found by default, bench
// quality says that the real pairs are skipped, and how to name a corpus;
// their section was left out without a word. --corpus "" skips them
// quietly, as asked.
func TestBenchQualityNoCorpus(t *testing.T) {
	t.Chdir(t.TempDir())
	const note = "real pairs: skipped, no corpus found (../shared/corpus or testdata/corpus); --corpus DIR names one\n"
	code, out, errOut := runCLI(t, "", "bench", "quality", "--seeds", "1", "--size", "500")
	if code != exitOK || !strings.HasSuffix(out, note) {
		t.Errorf("no corpus: exit %d, %s\n%s\nwant it to end with %q", code, errOut, out, note)
	}
	if _, out, _ := runCLI(t, "", "bench", "quality", "--seeds", "1", "--size", "500", "--corpus", ""); strings.Contains(out, "real pairs") {
		t.Errorf(`--corpus "": a word on the real pairs:\n%s`, out)
	}
}
