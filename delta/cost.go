package delta

import "github.com/vigil-web/vigil/tree"

// MoveCost says how a move counts in the edit cost.
type MoveCost uint8

// The two ways of counting a move, as in the seed's experiments (thesis
// §5.6): one unit per moved subtree, or as much as deleting and inserting it.
const (
	MoveUnit         MoveCost = iota // a move costs 1
	MoveDeleteInsert                 // a move costs twice the size of the moved subtree
)

// EditCost is the cost model shared by every measure of delta quality: one
// per inserted or deleted node, one per text update, rename or attribute
// insert, delete or update, and a move as moves says. old is the version the
// delta applies to; it is needed only to size moved subtrees under
// MoveDeleteInsert.
func EditCost(d *Delta, old *tree.Document, moves MoveCost) int {
	if moves == MoveUnit || old == nil {
		return d.Cost(1)
	}
	var byXID map[tree.XID]*tree.Node
	cost := d.Cost(0)
	for i := range d.Ops {
		op := &d.Ops[i]
		if op.Kind != Delete || !op.Move {
			continue
		}
		if byXID == nil {
			byXID = old.ByXID()
		}
		size := 1
		if n := byXID[op.Root()]; n != nil {
			size = n.Size()
		}
		cost += 2 * size
	}
	return cost
}
