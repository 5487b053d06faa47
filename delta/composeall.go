package delta

import (
	"errors"
	"fmt"
)

// ComposeAll returns the delta from the source of ds[0] to the target of
// its last delta: the consecutive deltas ds composed in order, as Compose
// composes two. It fails, naming the step, where Compose would fail in a
// left-to-right fold:
//
//	delta 3: compose: the deltas are not composable: ...
//
// It composes neighbours pairwise, then the results pairwise, and so on (a
// balanced tree; Compose is associative). A fold costs each step the size
// of everything composed so far, and a chain of n deltas that each change
// other nodes grows the composed delta at every step: n²/2 times the size
// of one step. The tree costs log₂ n times the size of the whole chain.
func ComposeAll(ds []*Delta) (*Delta, error) {
	if len(ds) == 0 {
		return nil, errors.New("compose: no delta")
	}
	if len(ds) == 1 {
		// Validated, as a composition would be.
		if err := ds[0].Validate(); err != nil {
			return nil, fmt.Errorf("delta 1: %w", err)
		}
		return ds[0], nil
	}
	level := ds
	for len(level) > 1 {
		next := make([]*Delta, 0, (len(level)+1)/2)
		for k := 0; k+1 < len(level); k += 2 {
			d, err := Compose(level[k], level[k+1])
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

// foldError finds the step at which a left-to-right fold of ds fails, once
// the balanced composition has failed, and returns its error with the
// step's number. The fold is slow, but runs only on a chain that does not
// compose. If the fold does not fail (the two orders disagree), the
// balanced composition's error is returned as it is.
func foldError(ds []*Delta, balanced error) error {
	composed := ds[0]
	if err := composed.Validate(); err != nil {
		return fmt.Errorf("delta 1: %w", err)
	}
	for k, d := range ds[1:] {
		var err error
		if composed, err = Compose(composed, d); err != nil {
			return fmt.Errorf("delta %d: %w", k+2, err)
		}
	}
	return balanced
}
