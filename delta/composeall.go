package delta

import (
	"errors"
	"fmt"
)

// ComposeAll returns the delta from the source of ds[0] to the target of
// its last delta: the consecutive deltas ds composed in order, as Compose
// composes two. A chain whose deltas do not follow each other (a source
// XID-map other than the previous target map, or a name, value or
// attribute found other than the previous deltas left it) is refused,
// naming the first delta that does not follow, by its number in ds from 1:
//
//	delta 3: deltas cannot be composed: operation 1 (au ...): ...
//
// without the "compose: " that begins Compose's errors: a caller that
// composes a chain says so already ("vigil compose: delta 3: ...").
//
// It composes neighbours pairwise, then the results pairwise, and so on (a
// balanced tree). A fold, one Compose after another, costs each step the
// size of everything composed so far, and a chain of n deltas that each
// change other nodes grows the composed delta at every step: n²/2 times
// the size of one step. The tree costs log₂ n times the size of the whole
// chain. The result applies as the fold's does; where two sets of moves are
// equally good, it may choose the other one.
func ComposeAll(ds []*Delta) (*Delta, error) {
	if len(ds) == 0 {
		return nil, errors.New("no delta to compose")
	}
	// What the balanced tree would not see: a change undone by a later
	// delta is gone before its neighbours are compared (see checkChain).
	if err := checkChain(ds); err != nil {
		return nil, err
	}
	level := ds
	for len(level) > 1 {
		next := make([]*Delta, 0, (len(level)+1)/2)
		for k := 0; k+1 < len(level); k += 2 {
			d, err := compose(level[k], level[k+1])
			if err != nil {
				return nil, foldError(ds, err)
			}
			next = append(next, d)
		}
		if len(level)%2 == 1 {
			next = append(next, level[len(level)-1])
		}
		level = next
	}
	return level[0], nil
}

// foldError finds the delta at which a fold of ds fails, once the balanced
// composition has failed on something checkChain does not check (the
// deltas disagree about the place of a node), and returns its error with
// the delta's number. The fold is slow, but runs only on a chain that does
// not compose. If the fold does not fail, the balanced composition's error
// is returned, as the error of the whole chain.
func foldError(ds []*Delta, balanced error) error {
	composed := ds[0]
	for k, d := range ds[1:] {
		var err error
		if composed, err = compose(composed, d); err != nil {
			return fmt.Errorf("delta %d: %w", k+2, err)
		}
	}
	return fmt.Errorf("deltas 1 to %d: %w", len(ds), balanced)
}
