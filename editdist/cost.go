package editdist

import "github.com/vigil-web/vigil/tree"

// MaxPairs bounds the number of node pairs an algorithm may tabulate.
const MaxPairs = 64 << 20

// forbidden is the cost of matching two nodes that cannot be matched.
const forbidden = 1 << 30

// relabelCost is the cost of turning node a into node b in place: 0 when
// equal, forbidden for different kinds.
func relabelCost(a, b *tree.Node) int {
	if a.Kind != b.Kind {
		return forbidden
	}
	if a.Kind != tree.Element {
		if a.Value != b.Value || a.Name != b.Name {
			return 1
		}
		return 0
	}
	c := 0
	if a.Name != b.Name {
		c++
	}
	return c + attrCost(a.Attrs, b.Attrs)
}

// relabelFlatCost is relabelCost of node i of a and node j of b.
func relabelFlatCost(a *tree.Flat, i int32, b *tree.Flat, j int32) int {
	if a.Kind[i] != b.Kind[j] {
		return forbidden
	}
	if a.Kind[i] != tree.Element {
		if a.Value(i) != b.Value(j) || a.Name(i) != b.Name(j) {
			return 1
		}
		return 0
	}
	c := 0
	if a.Name(i) != b.Name(j) {
		c++
	}
	return c + attrCost(a.Attrs(i), b.Attrs(j))
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
