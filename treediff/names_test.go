package treediff

import (
	"fmt"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestNameClasses checks that two nodes share a name class exactly when
// they have the same kind and name, within a version and across both,
// in two bytes a node and in four.
func TestNameClasses(t *testing.T) {
	m := matchingOf(t,
		`<r><a>x</a><b/><?a data?><!--c--><a/></r>`,
		`<r><c/><a>y</a><?a other?><d/><!--e--></r>`)
	old, new := m.old.Flat, m.new.Flat
	key := func(kind fmt.Stringer, name string) string { return kind.String() + " " + name }
	for _, wide := range []bool{true, false} {
		oc, nc := classesOf(old, new, wide)
		type node struct {
			key   string
			class int32
		}
		var nodes []node
		for i := range old.Len() {
			nodes = append(nodes, node{key(old.Kind[i], old.Name(int32(i))), oc.at(int32(i))})
		}
		for j := range new.Len() {
			nodes = append(nodes, node{key(new.Kind[j], new.Name(int32(j))), nc.at(int32(j))})
		}
		for _, x := range nodes {
			for _, y := range nodes {
				if (x.key == y.key) != (x.class == y.class) {
					t.Errorf("wide %v: %q has class %d, %q class %d", wide, x.key, x.class, y.key, y.class)
				}
			}
		}
	}
}

// TestNameClassesOtherKinds checks that nodes of a kind none of the four
// (a tree built by hand) get classes of their own, by kind and name: the
// packed classes leave no room for them.
func TestNameClassesOtherKinds(t *testing.T) {
	el := func(name string, kids ...*tree.Node) *tree.Node {
		return &tree.Node{Kind: tree.Element, Name: name, Children: kids}
	}
	odd := func(kind tree.Kind, name string) *tree.Node { return &tree.Node{Kind: kind, Name: name} }
	old, _ := tree.Flatten(el("r", odd(7, "a"), el("a"), odd(9, "a")))
	new, _ := tree.Flatten(el("r", odd(9, "a"), odd(7, "a"), odd(7, "b")))
	oc, nc := nameClasses(old, new)
	// Old: a(7)=0 a=1 a(9)=2 r=3; new: a(9)=0 a(7)=1 b(7)=2 r=3.
	for _, c := range []struct {
		i, j int32
		same bool
	}{{0, 1, true}, {2, 0, true}, {0, 0, false}, {1, 0, false}, {1, 1, false}, {0, 2, false}, {3, 3, true}} {
		if got := oc.at(c.i) == nc.at(c.j); got != c.same {
			t.Errorf("old node %d and new node %d share a class: %v, want %v", c.i, c.j, got, c.same)
		}
	}
}
