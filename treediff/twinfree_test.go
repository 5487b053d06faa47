package treediff

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestTwinFreeChecksKeys: an element built in code with one attribute name
// twice has the signature of the same attributes in another order, but
// another ID key (the first value). Heaviest-first matching must not take
// it as an anchor for its ancestors: the new first s holds the q subtree
// that the old second s holds, and is matched with that one.
func TestTwinFreeChecksKeys(t *testing.T) {
	el := func(name string, attrs []tree.Attr, kids ...*tree.Node) *tree.Node {
		n := &tree.Node{Kind: tree.Element, Name: name, Attrs: attrs}
		for _, k := range kids {
			k.Parent = n
			n.Children = append(n.Children, k)
		}
		return n
	}
	long := func(s string) *tree.Node { return &tree.Node{Kind: tree.Text, Value: strings.Repeat(s, 40)} }
	doc := func(ids [2]string, swapped bool) *tree.Document {
		p := el("p", []tree.Attr{{Name: "id", Value: ids[0]}, {Name: "id", Value: ids[1]}},
			el("t", nil, long("alpha ")), el("t", nil, long("beta ")), el("t", nil, long("gamma ")), el("t", nil, long("delta ")))
		xs := el("q", nil, el("u", nil, long("xray1 ")), el("u", nil, long("xray2 ")))
		ys := el("q", nil, el("u", nil, long("yank1 ")), el("u", nil, long("yank2 ")))
		if swapped {
			xs, ys = ys, xs
		}
		return &tree.Document{Root: el("r", nil, el("s", nil, p, xs), el("s", nil, ys))}
	}
	of, _ := tree.FlattenDocument(doc([2]string{"1", "2"}, false))
	nf, _ := tree.FlattenDocument(doc([2]string{"2", "1"}, true))
	m, err := match(of, nf, &Options{Algorithm: XyDiff, KeyAttrs: []string{"id"}})
	if err != nil {
		t.Fatal(err)
	}
	// Post-order: the first s is the node after its q, the second s the
	// node before the root.
	firstS := func(f *tree.Flat) int32 {
		for i := range int32(f.Len()) {
			if f.Name(i) == "s" {
				return i
			}
		}
		return -1
	}
	secondS := of.Root() - 1
	if got := m.newMatch[firstS(nf)]; got != secondS {
		t.Errorf("the new first s is matched with old node %d, want %d (the old second s, which holds its q)", got, secondS)
	}
	for j := range int32(nf.Len()) {
		if nf.Name(j) == "p" && m.newMatch[j] >= 0 {
			t.Errorf("p, whose ID key differs, is matched with old node %d", m.newMatch[j])
		}
	}
}
