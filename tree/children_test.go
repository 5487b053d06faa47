package tree_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// wideTree builds a document whose elements have from none to 120 children
// of mixed sizes, on both sides of the fanout from which a Flat keeps a
// node's list of children, nested in one another.
func wideTree() *tree.Node {
	var d tree.Document
	var grow func(depth, fanout int) *tree.Node
	grow = func(depth, fanout int) *tree.Node {
		e := d.NewElement(fmt.Sprintf("e%d", fanout))
		for k := range fanout {
			var c *tree.Node
			switch {
			case k%7 == 3 && depth < 2:
				c = grow(depth+1, []int{31, 32, 33, 64}[k%4])
			case k%3 == 1:
				c = d.NewElement("x")
				c.Children = []*tree.Node{d.NewText("t"), d.NewElement("y")}
			default:
				c = d.NewText(fmt.Sprint(k))
			}
			e.Children = append(e.Children, c)
		}
		return e
	}
	return grow(0, 120)
}

// TestChildrenOfWideNodes checks ChildList, AppendChildren, Children and
// ChildCount against the parents of the nodes, at every node of a tree
// laid out by Flatten and by the parser's FlatBuilder: the lists a Flat
// keeps of the children of wide nodes are the ones its Size gives, and a
// caller that changes a list it was given changes nothing of the Flat's.
func TestChildrenOfWideNodes(t *testing.T) {
	root := wideTree()
	flat, _ := tree.Flatten(root)
	var b tree.FlatBuilder
	var build func(n *tree.Node)
	build = func(n *tree.Node) {
		mark := b.Len()
		for _, c := range n.Children {
			build(c)
		}
		if n.Kind == tree.Element {
			b.Element(mark, n.Name, nil)
		} else {
			b.Leaf(n.Kind, "", n.Value)
		}
	}
	build(root)
	built, err := b.Flat()
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*tree.Flat{"Flatten": flat, "FlatBuilder": built} {
		want := make([][]int32, f.Len())
		for c := range int32(f.Len()) {
			if p := f.Parent[c]; p >= 0 {
				want[p] = append(want[p], c)
			}
		}
		wide := 0
		for i := range int32(f.Len()) {
			if len(want[i]) >= 32 {
				wide++
			}
			got := f.ChildList(i, nil)
			if !slices.Equal(got, want[i]) && len(got)+len(want[i]) > 0 {
				t.Fatalf("%s: ChildList(%d) = %v, want %v", name, i, got, want[i])
			}
			if len(got) > 0 {
				got[0] = -7
				if again := f.ChildList(i, nil); again[0] != want[i][0] {
					t.Fatalf("%s: ChildList(%d) changed by its caller", name, i)
				}
			}
			last := slices.Clone(want[i])
			slices.Reverse(last)
			if got := f.AppendChildren([]int32{-1}, i); !slices.Equal(got, append([]int32{-1}, last...)) {
				t.Fatalf("%s: AppendChildren(%d) = %v, want -1 then %v", name, i, got, last)
			}
			var visited []int32
			f.Children(i, func(c int32) { visited = append(visited, c) })
			if !slices.Equal(visited, last) && len(visited)+len(last) > 0 {
				t.Fatalf("%s: Children(%d) visits %v, want %v", name, i, visited, last)
			}
			if n := f.ChildCount(i); n != len(want[i]) {
				t.Fatalf("%s: ChildCount(%d) = %d, want %d", name, i, n, len(want[i]))
			}
		}
		if wide < 5 {
			t.Errorf("%s: %d nodes with 32 children or more, want the tree to have several", name, wide)
		}
	}
}
