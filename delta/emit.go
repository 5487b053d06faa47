package delta

import (
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// This file writes the operations once the builder has paired the nodes
// and found the moves (build.go): renames and attributes, deletes in
// reverse post-order, inserts in pre-order, with the content and XID-maps
// each needs.

// xids returns a slice of n XIDs carved from a shared buffer, so that the
// XID-maps of many small operations cost one allocation.
func (b *builder) xids(n int) []tree.XID {
	if len(b.xidBuf) < n {
		b.xidBuf = make([]tree.XID, max(n, 4096))
	}
	s := b.xidBuf[:n:n]
	b.xidBuf = b.xidBuf[n:]
	return s
}

// subtreeXIDs returns the XIDs of the subtree n in post-order.
func (b *builder) subtreeXIDs(n *tree.Node) tree.XIDMap {
	size := 0
	tree.PostOrder(n, func(*tree.Node) { size++ })
	s := b.xids(size)
	k := 0
	tree.PostOrder(n, func(c *tree.Node) {
		s[k] = c.XID
		k++
	})
	return tree.XIDMap{XIDs: s}
}

// oneXID returns the XID-map of a single node.
func (b *builder) oneXID(x tree.XID) tree.XIDMap {
	s := b.xids(1)
	s[0] = x
	return tree.XIDMap{XIDs: s}
}

// emitNodeChanges writes renames and attribute operations of matched
// elements, in old post-order.
func (b *builder) emitNodeChanges(d *Delta) {
	// scan found them, in old post-order; identical subtrees have
	// none.
	for _, i := range b.nodeChanges {
		j := b.oldMatch[i]
		x := b.old.XID[i]
		if on, nn := b.old.Name(i), b.new.Name(j); on != nn {
			d.Ops = append(d.Ops, Op{Kind: Rename, Node: x, OldValue: on, NewValue: nn})
		}
		oa, na := b.old.Attrs(i), b.new.Attrs(j)
		oldAttr, newAttr := attrFinder(oa), attrFinder(na)
		for _, a := range oa {
			switch v, ok := newAttr(a.Name); {
			case !ok:
				d.Ops = append(d.Ops, Op{Kind: AttrDelete, Node: x, Name: a.Name, OldValue: a.Value})
			case v != a.Value:
				d.Ops = append(d.Ops, Op{Kind: AttrUpdate, Node: x, Name: a.Name, OldValue: a.Value, NewValue: v})
			}
		}
		for _, a := range na {
			if _, ok := oldAttr(a.Name); !ok {
				d.Ops = append(d.Ops, Op{Kind: AttrInsert, Node: x, Name: a.Name, NewValue: a.Value})
			}
		}
	}
}

// emitDeletes writes the deletes in XyScript order: the old tree in reverse
// post-order (children right to left, then the node), so that positions
// refer to the old version and descendants go before their ancestors.
func (b *builder) emitDeletes(d *Delta) {
	b.deletes = childrenFirst(b.old, b.deletes)
	for _, i := range b.deletes {
		p := b.old.Parent[i]
		matched := b.oldMatch[i] >= 0
		var op Op
		if !b.fillHalf(&op, b.old, b.oldMatch, i, matched && b.moved(i), matched && b.valueChanged(i), !matched && b.oldMatch[p] >= 0) {
			continue
		}
		op.Kind, op.Parent, op.Pos = Delete, b.old.XID[p], int(b.oldPos[i])+1
		d.Ops = append(d.Ops, op)
	}
}

// emitInserts writes the inserts in XyScript order: the new tree in
// pre-order, so that positions refer to the new version and ancestors go
// before their descendants.
func (b *builder) emitInserts(d *Delta) {
	// Pre-order is the reverse of the order children right to left, then
	// the node.
	b.inserts = childrenFirst(b.new, b.inserts)
	slices.Reverse(b.inserts)
	for _, j := range b.inserts {
		p := b.new.Parent[j]
		i := b.newMatch[j]
		matched := i >= 0
		var op Op
		if !b.fillHalf(&op, b.new, b.newMatch, j, matched && b.moved(i), matched && b.valueChanged(i), !matched && b.newMatch[p] >= 0) {
			continue
		}
		op.Kind, op.Parent, op.Pos = Insert, b.new.XID[p], int(b.newPos[j])+1
		d.Ops = append(d.Ops, op)
	}
}

// childrenFirst reorders nodes of t, given from the last index back (each
// node before its descendants, and after the nodes to its right), into the
// order of a walk that visits a node's children right to left, then the
// node. It keeps on a stack the nodes whose descendants may still come:
// a node that does not hold the next one has had all of them. The result
// is in nodes's array.
func childrenFirst(t *tree.Measure, nodes []int32) []int32 {
	stack := make([]int32, 0, 64)
	out := nodes[:0] // written no faster than read: a node is out after it is in
	for _, x := range nodes {
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if x > top-t.Size[top] {
				break // x is in top's subtree, [top-size+1, top]
			}
			out = append(out, top)
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, x)
	}
	for k := len(stack) - 1; k >= 0; k-- {
		out = append(out, stack[k])
	}
	return out
}

// fillHalf fills what the delete or the insert half of an operation on node
// k of version t carries, and reports whether k has one: a moved node (its
// XID, or, if its value changed too, its content: a moved leaf is deleted
// and inserted with its new value), the root of a deleted or inserted
// region (its content without the matched nodes inside, which have
// operations of their own, and their XIDs), or a leaf updated in place.
// match is t's pairing with the other version.
func (b *builder) fillHalf(op *Op, t *tree.Measure, match []int32, k int32, moved, changed, region bool) bool {
	switch {
	case moved && changed:
		op.Content = t.Subtree(k, b.arena, nil)
		op.XIDs = b.oneXID(t.XID[k])
	case moved:
		op.Move = true
		op.XIDs = b.oneXID(t.XID[k])
	case region:
		op.Content = t.Subtree(k, b.arena, func(c int32) bool { return match[c] >= 0 })
		op.XIDs = b.subtreeXIDs(op.Content)
		b.bindPrefixes(t, k, op)
		b.bindDefault(t, k, op)
	case changed:
		op.Update = true
		op.Content = t.Subtree(k, b.arena, nil)
		op.XIDs = b.oneXID(t.XID[k])
	default:
		return false
	}
	return true
}
