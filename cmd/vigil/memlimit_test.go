package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestLimitDiffMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	tests := []struct {
		name   string
		env    string
		input  int64
		want   int64
		preset int64
	}{
		{"large input", "", 100 << 20, diffMemoryFactor * 100 << 20, math.MaxInt64},
		{"small input gets the floor", "", 1 << 10, minDiffMemory, math.MaxInt64},
		{"GOMEMLIMIT wins", "1GiB", 100 << 20, 12345 << 20, 12345 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tt.env)
			debug.SetMemoryLimit(tt.preset)
			limitDiffMemory(tt.input)
			if got := debug.SetMemoryLimit(-1); got != tt.want {
				t.Errorf("limit = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestLiftDiffMemory: the function limitDiffMemory returns gives back
// the limit it replaced, and leaves a GOMEMLIMIT the user set alone.
func TestLiftDiffMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)
	lift := limitDiffMemory(100 << 20)
	if got := debug.SetMemoryLimit(-1); got != diffMemoryFactor*100<<20 {
		t.Fatalf("limit during the diff = %d, want %d", got, diffMemoryFactor*100<<20)
	}
	lift()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after lift = %d, want none (%d)", got, int64(math.MaxInt64))
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(12345 << 20)
	lift = limitDiffMemory(100 << 20)
	lift()
	if got := debug.SetMemoryLimit(-1); got != 12345<<20 {
		t.Errorf("GOMEMLIMIT set: limit after lift = %d, want %d", got, 12345<<20)
	}
}

// TestDiffXMLPatchExportsWithoutTheDiffLimit: vigil diff --format
// xmlpatch builds the pointer trees of its export (far larger than the
// flat trees the diff's limit is tuned for) under the limit the process
// had before the diff, where the diff's would keep the collector running;
// the other formats, written from the flat trees, keep it.
func TestDiffXMLPatchExportsWithoutTheDiffLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	t.Setenv("GOMEMLIMIT", "")
	for format, want := range map[string]int64{"xmlpatch": math.MaxInt64, "xydelta": minDiffMemory, "summary": minDiffMemory} {
		debug.SetMemoryLimit(math.MaxInt64)
		if code, _, errOut := runCLI(t, "", "diff", "--format", format, example+"v1.xml", example+"v2.xml"); code != exitChanged {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		// Nothing sets the limit after the export: this is the one it
		// ran under.
		if got := debug.SetMemoryLimit(-1); got != want {
			t.Errorf("--format %s: limit while writing = %d, want %d", format, got, want)
		}
	}
}
