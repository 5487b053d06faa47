package quality

import (
	"fmt"
	"math"
	"slices"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/editdist"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// Case is a pair of versions to diff, with what is known of the change.
type Case struct {
	Name    string
	Old     *tree.Document // with XIDs
	New     *tree.Document // the new version, with the simulator's XIDs if simulated
	Perfect *delta.Delta   // the simulator's delta, nil for real pairs
	Moves   bool           // the change includes moves
}

// Simulated returns cases over every shape at the given change rate (the
// share of nodes changed, spread over the kinds of change), with documents
// of about size bytes, seeds 1..seeds. Without moves, the move share goes
// to the other kinds.
func Simulated(rate float64, moves bool, size, seeds int) ([]Case, error) {
	var cases []Case
	for _, shape := range simulate.Shapes {
		for s := 1; s <= seeds; s++ {
			old, err := simulate.Generate(shape, size, uint64(s))
			if err != nil {
				return nil, err
			}
			r := simulate.Spread(rate)
			if !moves {
				r = simulate.Rates{Delete: rate / 3, Update: rate / 3, Insert: rate / 3}
			}
			newDoc, perfect, err := simulate.Change(old, r, uint64(1000+s))
			if err != nil {
				return nil, err
			}
			cases = append(cases, Case{
				Name:    fmt.Sprintf("%s/%g%%/%d", shape, rate*100, s),
				Old:     old,
				New:     newDoc,
				Perfect: perfect,
				Moves:   moves,
			})
		}
	}
	return cases, nil
}

// Result is the measure of one case for one algorithm.
type Result struct {
	Case        string
	Cost        int     // C, of the measured delta
	RefCost     int     // C_ref, of the minimum script; -1 if not computed
	PerfectCost int     // C_perfect, of the simulator's delta; -1 for real pairs
	R           float64 // C / C_ref; NaN if not computed
	RPerfect    float64 // C / C_perfect; NaN if not computed
}

// Measure diffs the case with the given options, checks that the delta
// rebuilds the new version, and computes its cost against the exact
// reference (when reference is set and the case has no moves) and against
// the simulator's delta.
func Measure(c Case, opt *treediff.Options, reference bool) (Result, error) {
	res := Result{Case: c.Name, RefCost: -1, PerfectCost: -1, R: math.NaN(), RPerfect: math.NaN()}
	newDoc := stripped(c.New)
	d, err := treediff.Diff(c.Old, newDoc, opt)
	if err != nil {
		return res, fmt.Errorf("%s: %w", c.Name, err)
	}
	got, err := delta.Apply(c.Old, d)
	if err != nil {
		return res, fmt.Errorf("%s: the delta does not apply: %w", c.Name, err)
	}
	if diff := tree.Diff(got.Root, c.New.Root, tree.Content); diff != "" {
		return res, fmt.Errorf("%s: the delta does not rebuild the new version: %s", c.Name, diff)
	}
	moves := delta.MoveDeleteInsert
	if c.Moves {
		moves = delta.MoveUnit
	}
	res.Cost = delta.EditCost(d, c.Old, moves)
	if c.Perfect != nil {
		res.PerfectCost = delta.EditCost(c.Perfect, c.Old, moves)
		res.RPerfect = ratio(res.Cost, res.PerfectCost)
	}
	if reference && !c.Moves {
		ref, err := ReferenceCost(c.Old, c.New)
		if err != nil {
			return res, fmt.Errorf("%s: %w", c.Name, err)
		}
		res.RefCost = ref
		res.R = ratio(res.Cost, ref)
	}
	return res, nil
}

// ReferenceCost returns C_ref, the cost of the minimum edit script from
// old to new (moves as a delete and an insert): Selkow's exact distance
// between the root elements, plus one when what stands outside them
// (DOCTYPE, comments before and after) changed, the one operation any
// script needs for it, as a delta's cost counts it (delta.Delta.Cost).
func ReferenceCost(old, new *tree.Document) (int, error) {
	ref, err := editdist.Distance(old, stripped(new))
	if err != nil {
		return 0, err
	}
	if delta.OutsideChanged(old, new) {
		ref++
	}
	return ref, nil
}

// stripped returns a copy of d without XIDs, as a parser gives it.
func stripped(d *tree.Document) *tree.Document {
	c := d.Clone()
	tree.Walk(c.Root, func(n *tree.Node) bool { n.XID = 0; return true })
	c.NextXID = 0
	return c
}

func ratio(c, ref int) float64 {
	if ref == 0 {
		if c == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return float64(c) / float64(ref)
}

// Distribution summarises ratios: median, 90th percentile, maximum, and how
// many values it has.
type Distribution struct {
	N                int
	Median, P90, Max float64
}

// Summarise returns the distribution of the non-NaN values.
func Summarise(values []float64) Distribution {
	var v []float64
	for _, x := range values {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return Distribution{Median: math.NaN(), P90: math.NaN(), Max: math.NaN()}
	}
	slices.Sort(v)
	at := func(q float64) float64 { return v[int(math.Ceil(q*float64(len(v))))-1] }
	return Distribution{N: len(v), Median: at(0.5), P90: at(0.9), Max: v[len(v)-1]}
}

// String formats the distribution for reports; one of no values is "n=0".
func (d Distribution) String() string {
	if d.N == 0 {
		return "n=0"
	}
	return fmt.Sprintf("n=%d median=%.3f p90=%.3f max=%.3f", d.N, d.Median, d.P90, d.Max)
}
