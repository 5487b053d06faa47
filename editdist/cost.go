package editdist

import "github.com/vigil-web/vigil/tree"

// MaxPairs bounds the number of node pairs an algorithm may tabulate.
const MaxPairs = 64 << 20

// forbidden is the cost of matching two nodes that cannot be matched.
const forbidden = 1 << 30

// relabelCost is the cost of turning node a into node b in place: 0 when
// equal, forbidden for different kinds.
func relabelCost(a, b *tree.Node) int {
	return labelCost(a.Kind, b.Kind, a.Name, b.Name, a.Value, b.Value, a.Attrs, b.Attrs)
}

// relabelFlatCost is relabelCost of node i of a and node j of b.
func relabelFlatCost(a *tree.Flat, i int32, b *tree.Flat, j int32) int {
	if a.Kind[i] != b.Kind[j] {
		return forbidden // without reading the rest
	}
	return labelCost(a.Kind[i], b.Kind[j], a.Name(i), b.Name(j), a.Value(i), b.Value(j), a.Attrs(i), b.Attrs(j))
}

// RelabelFlat returns the cost of turning node i of a into node j of b in
// place, as the matchers of this package count it (a text's changed
// value, an element's rename, each attribute inserted, deleted or
// changed), and false for nodes of different kinds, which they never
// match. It lets a caller that proves a matching minimal without the
// tables (treediff's recovery) count as they do.
func RelabelFlat(a *tree.Flat, i int32, b *tree.Flat, j int32) (int, bool) {
	c := relabelFlatCost(a, i, b, j)
	return c, c < forbidden
}

// labelCost is relabelCost given the kinds, names, values and attributes of
// both nodes.
func labelCost(ka, kb tree.Kind, na, nb, va, vb string, aa, ab []tree.Attr) int {
	if ka != kb {
		return forbidden
	}
	if ka != tree.Element {
		if va != vb || na != nb {
			return 1
		}
		return 0
	}
	c := 0
	if na != nb {
		c++
	}
	return c + attrCost(aa, ab)
}

// attrCost counts attribute inserts, deletes and updates between two sets.
func attrCost(a, b []tree.Attr) int {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	c := 0
	for _, x := range a {
		found := false
		for _, y := range b {
			if x.Name == y.Name {
				found = true
				if x.Value != y.Value {
					c++
				}
				break
			}
		}
		if !found {
			c++
		}
	}
	for _, y := range b {
		found := false
		for _, x := range a {
			if x.Name == y.Name {
				found = true
				break
			}
		}
		if !found {
			c++
		}
	}
	return c
}
