package tree_test

import (
	"fmt"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// mixedList returns a root holding items of two names, texts, comments and
// processing instructions of two targets, interleaved, with children of
// their own.
func mixedList(n int) *tree.Document {
	d := &tree.Document{}
	b := builder{d}
	root := d.NewElement("list")
	for i := range n {
		switch i % 5 {
		case 0:
			root.AppendChild(b.el("item", b.tx(fmt.Sprint(i)), b.el("note")))
		case 1:
			root.AppendChild(b.el("other", b.el("item")))
		case 2:
			root.AppendChild(b.tx(fmt.Sprint("t", i)))
		case 3:
			root.AppendChild(d.NewNode(tree.Comment, "", "c"))
		case 4:
			root.AppendChild(d.NewNode(tree.ProcInst, []string{"pa", "pb"}[i/5%2], "data"))
		}
	}
	d.Root = root
	return d
}

// TestPaths checks every way of naming a node by path against the paths
// written out for a small tree, and against each other on every node of a
// larger one.
func TestPaths(t *testing.T) {
	d := mixedList(10)
	f, nodes := tree.FlattenDocument(d)
	fp := tree.NewFlatPaths(f)
	var np tree.NodePaths
	want := map[string]bool{
		"/list[1]":                               true,
		"/list[1]/item[1]/text()[1]":             true,
		"/list[1]/item[1]/note[1]":               true,
		"/list[1]/item[2]":                       true,
		"/list[1]/other[2]/item[1]":              true,
		"/list[1]/text()[2]":                     true,
		"/list[1]/comment()[2]":                  true,
		"/list[1]/processing-instruction(pa)[1]": true,
		"/list[1]/processing-instruction(pb)[1]": true,
		"/list[1]/processing-instruction(pb)[2]": false, // only one pb among ten children
		"/list[1]/processing-instruction(pa)[2]": false,
		"/list[1]/other[1]/item[1]":              true,
		"/list[1]/item[2]/note[1]":               true,
		"/list[1]/comment()[3]":                  false,
	}
	seen := map[string]bool{}
	for i, n := range nodes {
		k := int32(i)
		p := tree.Path(n)
		if got := f.Path(k); got != p {
			t.Errorf("node %d: Flat.Path %s, Path %s", i, got, p)
		}
		if got := fp.Path(k); got != p {
			t.Errorf("node %d: FlatPaths.Path %s, Path %s", i, got, p)
		}
		if got := np.Path(n); got != p {
			t.Errorf("node %d: NodePaths.Path %s, Path %s", i, got, p)
		}
		seen[p] = true
	}
	for p, present := range want {
		if seen[p] != present {
			t.Errorf("path %s: present %v, want %v", p, seen[p], present)
		}
	}
	if len(seen) != len(nodes) {
		t.Errorf("%d distinct paths for %d nodes", len(seen), len(nodes))
	}

	d = mixedList(2000)
	f, nodes = tree.FlattenDocument(d)
	fp, np = tree.NewFlatPaths(f), tree.NodePaths{}
	for i := len(nodes) - 1; i >= 0; i -= 7 {
		p := tree.Path(nodes[i])
		if got, got2, got3 := f.Path(int32(i)), fp.Path(int32(i)), np.Path(nodes[i]); got != p || got2 != p || got3 != p {
			t.Fatalf("node %d: Flat.Path %s, FlatPaths %s, NodePaths %s; Path %s", i, got, got2, got3, p)
		}
	}
}

// BenchmarkPaths names every node of a list of n items: Flat.Path counts
// the siblings each time (quadratic in n), FlatPaths numbers them once.
func BenchmarkPaths(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		f, nodes := tree.FlattenDocument(mixedList(n))
		b.Run(fmt.Sprintf("Flat.Path/%d", n), func(b *testing.B) {
			for range b.N {
				for i := range int32(f.Len()) {
					_ = f.Path(i)
				}
			}
		})
		b.Run(fmt.Sprintf("FlatPaths/%d", n), func(b *testing.B) {
			for range b.N {
				p := tree.NewFlatPaths(f)
				for i := range int32(f.Len()) {
					_ = p.Path(i)
				}
			}
		})
		b.Run(fmt.Sprintf("NodePaths/%d", n), func(b *testing.B) {
			for range b.N {
				var p tree.NodePaths
				for _, x := range nodes {
					_ = p.Path(x)
				}
			}
		})
	}
}

// TestIndexes checks Indexes.Of against Node.Index on every node of a list
// and of its items, asked in an order that is not the document's.
func TestIndexes(t *testing.T) {
	d := mixedList(300)
	nodes := tree.PostOrderNodes(d.Root)
	var x tree.Indexes
	for k := len(nodes) - 1; k >= 0; k -= 3 {
		if got, want := x.Of(nodes[k]), nodes[k].Index(); got != want {
			t.Fatalf("node %d: Of %d, Index %d", k, got, want)
		}
	}
	for k := range nodes {
		if got, want := x.Of(nodes[k]), nodes[k].Index(); got != want {
			t.Fatalf("node %d: Of %d, Index %d", k, got, want)
		}
	}
	if got := x.Of(d.Root); got != -1 {
		t.Errorf("root: Of %d, want -1", got)
	}
}
