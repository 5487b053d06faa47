package main

import (
	"os"
	"runtime/debug"
)

// diffMemoryFactor is the soft memory limit of a diff, in multiples of the
// size of its two inputs.
//
// At its peak a diff holds about five times its input: both flat trees,
// their signatures and weights, the pairing and the delta being built.
// Left to its default (GOGC=100), the collector lets the heap grow to twice
// what was live at its last cycle before it runs again, which takes the
// peak past ten times the input. A soft limit makes it run sooner near the
// peak instead, at the cost of a cycle or two more (a cycle is cheap here:
// the flat trees hold almost no pointers). Should the live heap ever pass
// the limit, the runtime caps the collector at half the CPU rather than
// failing: the limit bounds memory, never correctness.
const diffMemoryFactor = 8

// minDiffMemory is the least soft limit given, so that small diffs never
// collect more than they would by default.
const minDiffMemory = 64 << 20

// limitDiffMemory sets the soft memory limit of a process about to diff
// inputs of n bytes in all, unless the user set one with GOMEMLIMIT. It
// returns lift, which gives back the limit it replaced.
//
// The limit is tuned for the flat trees of the diff, and for nothing
// else: call lift before building pointer trees (tree.Document) of the
// versions after the diff, as an RFC 5261 export does. Those hold several
// times the flat trees, with pointers in every node: under the diff's
// limit the live heap would stand near or past it, and the collector
// would run again and again, each cycle scanning them all (32 s for a
// diff of 0.4 s). Under the process's own limit (none, by default) the
// collector paces itself on the live heap, as it does everywhere else.
func limitDiffMemory(n int64) (lift func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	before := debug.SetMemoryLimit(max(diffMemoryFactor*n, minDiffMemory))
	return func() { debug.SetMemoryLimit(before) }
}
