package delta

import (
	"fmt"

	"github.com/vigil-web/vigil/tree"
)

// nodeIndex finds nodes by XID: a slice for the dense range of XIDs a
// document usually has, a map for the others.
type nodeIndex struct {
	dense  []*tree.Node
	sparse map[tree.XID]*tree.Node
	n      int
}

func (x *nodeIndex) get(id tree.XID) (*tree.Node, bool) {
	if uint64(id) < uint64(len(x.dense)) {
		n := x.dense[id]
		return n, n != nil
	}
	n, ok := x.sparse[id]
	return n, ok
}

func (x *nodeIndex) set(id tree.XID, n *tree.Node) {
	if uint64(id) < uint64(len(x.dense)) {
		if x.dense[id] == nil {
			x.n++
		}
		x.dense[id] = n
		return
	}
	if x.sparse == nil {
		x.sparse = make(map[tree.XID]*tree.Node)
	}
	if _, ok := x.sparse[id]; !ok {
		x.n++
	}
	x.sparse[id] = n
}

func (x *nodeIndex) del(id tree.XID) {
	if uint64(id) < uint64(len(x.dense)) {
		if x.dense[id] != nil {
			x.n--
		}
		x.dense[id] = nil
		return
	}
	if _, ok := x.sparse[id]; ok {
		x.n--
		delete(x.sparse, id)
	}
}

func (x *nodeIndex) len() int { return x.n }

// indexTree indexes a tree by XID; every node must have one, unique. When
// want is not empty, the tree's XIDs in post-order must be want's.
func indexTree(root *tree.Node, want tree.XIDRanges, next tree.XID) (*nodeIndex, error) {
	nodes := tree.PostOrderNodes(root)
	var max tree.XID
	for _, n := range nodes {
		max = maxXID(max, n.XID)
	}
	idx := &nodeIndex{}
	if uint64(max) <= 4*uint64(len(nodes))+1024 {
		// Room for the XIDs a delta inserts, up to the next free one.
		size := uint64(max) + 1
		if uint64(next) > size && uint64(next) <= 4*uint64(len(nodes))+1024 {
			size = uint64(next)
		}
		idx.dense = make([]*tree.Node, size+uint64(len(nodes)/8))
	}
	check := want.Len() > 0
	cursor := want.Cursor()
	for _, n := range nodes {
		if check {
			if cursor.Done() || cursor.XID() != n.XID {
				got := make([]tree.XID, len(nodes))
				for k, m := range nodes {
					got[k] = m.XID
				}
				return nil, fmt.Errorf("%w: %v", ErrConflict, compareMap(tree.RangesOf(got, 0), want, "the document's XID-map", "the delta's source XID-map"))
			}
			cursor.Next()
		}
		if n.XID == 0 {
			return nil, fmt.Errorf("%w: node %s has no XID", ErrConflict, tree.Path(n))
		}
		if _, dup := idx.get(n.XID); dup {
			return nil, fmt.Errorf("%w: XID %d is used twice in the document", ErrConflict, n.XID)
		}
		idx.set(n.XID, n)
	}
	if want.Len() > len(nodes) {
		return nil, fmt.Errorf("%w: the document's XID-map has %d XIDs, the delta's source XID-map %d", ErrConflict, len(nodes), want.Len())
	}
	return idx, nil
}
