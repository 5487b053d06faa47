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
