package tree

// Walk visits n's subtree in pre-order (document order). When visit returns
// false, the children of that node are skipped. Walk is iterative, so deep
// trees do not grow the stack.
func Walk(n *Node, visit func(*Node) bool) {
	stack := []*Node{n}
	for len(stack) > 0 {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(m) {
			continue
		}
		for i := len(m.Children) - 1; i >= 0; i-- {
			stack = append(stack, m.Children[i])
		}
	}
}

// PostOrder visits n's subtree in post-order: every node after its
// descendants, siblings left to right. It is iterative.
func PostOrder(n *Node, visit func(*Node)) {
	type frame struct {
		node *Node
		next int // index of the next child to descend into
	}
	// Most subtrees walked are shallow: their stack stays in buf, off
	// the heap.
	var buf [32]frame
	stack := append(buf[:0], frame{n, 0})
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.node.Children) {
			c := top.node.Children[top.next]
			top.next++
			stack = append(stack, frame{c, 0})
			continue
		}
		visit(top.node)
		stack = stack[:len(stack)-1]
	}
}

// PostOrderNodes returns n's subtree as a slice in post-order: the node at
// index i is the (i+1)-th in the seed's postfix numbering.
//
// The subtree is counted first: the slice of a large document's nodes,
// grown by appends, would take some five times its size on the way.
func PostOrderNodes(n *Node) []*Node {
	if n == nil {
		return nil
	}
	out := make([]*Node, 0, n.Size())
	PostOrder(n, func(m *Node) { out = append(out, m) })
	return out
}

// Depth returns the number of ancestors of n (0 for a root).
func Depth(n *Node) int {
	d := 0
	for p := n.Parent; p != nil; p = p.Parent {
		d++
	}
	return d
}

// IsAncestor reports whether a is a proper ancestor of n.
func IsAncestor(a, n *Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}
