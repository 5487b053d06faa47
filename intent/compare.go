package intent

import (
	"fmt"

	"github.com/vigil-web/vigil/spec"
)

// VersionPair is a pair of 1-based version numbers to compare: Old is the
// reference version, New the later one.
type VersionPair struct {
	Old, New int
}

// Compare is a sentinel's compare option (§5.7 of the seed): which
// versions of a page are compared. The zero value is pairwise.
//
// With versions V1, V2, ... of a page:
//   - pairwise compares (Vi, Vi+1);
//   - every n compares (V1, V1+n), (V1+n, V1+2n), ...: the seed's formula
//     "Vi and Vi+n", the note's reading A (§7.7), under which "every 3"
//     fetched every 10 minutes compares what "pairwise" fetched every 30
//     minutes does;
//   - moving n compares (Vi, Vi+n-1) for every i: the seed's example,
//     "moving 4: V1 is the reference for V4, then V2 and V5".
//
// These are the readings the spec package documents for the language.
type Compare struct {
	Method spec.CompareMethod
	N      int
}

// CompareOf returns the compare option of a Compare clause; nil is
// pairwise.
func CompareOf(c *spec.CompareClause) Compare {
	if c == nil {
		return Compare{Method: spec.Pairwise}
	}
	return Compare{Method: c.Method, N: int(c.N)}
}

// Validate reports an option the pair selection cannot use.
func (c Compare) Validate() error {
	switch c.Method {
	case 0, spec.Pairwise:
		return nil
	case spec.EveryN, spec.MovingN:
		if c.N < 2 {
			return fmt.Errorf("intent: compare %v %d: n must be at least 2", c.Method, c.N)
		}
		return nil
	}
	return fmt.Errorf("intent: unknown compare method %v", c.Method)
}

// Reference returns the version that version v (1-based) is compared
// with, and false when v is not compared with anything (it is not a
// comparison point, or too early).
func (c Compare) Reference(v int) (int, bool) {
	if v < 2 || c.Validate() != nil {
		return 0, false
	}
	switch c.Method {
	case spec.EveryN:
		if (v-1)%c.N == 0 {
			return v - c.N, true
		}
		return 0, false
	case spec.MovingN:
		if ref := v - c.N + 1; ref >= 1 {
			return ref, true
		}
		return 0, false
	}
	return v - 1, true
}

// Pairs returns the pairs compared among versions 1..count, in the order
// of their newer version.
func (c Compare) Pairs(count int) []VersionPair {
	var out []VersionPair
	for v := 2; v <= count; v++ {
		if ref, ok := c.Reference(v); ok {
			out = append(out, VersionPair{ref, v})
		}
	}
	return out
}
