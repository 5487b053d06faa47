package tree_test

import (
	"math"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestFlattenCamera lays out the camera catalogue and checks the arrays
// against the tree: post-order, sizes, parents, positions, names, XIDs, and
// the tree built back.
func TestFlattenCamera(t *testing.T) {
	d := camera()
	d.Root.Children[0].SetAttr("lang", "en")
	d.Root.AppendChild(d.NewNode(tree.Comment, "", "end"))
	d.Root.Children[3].XID = 99
	f, nodes := tree.FlattenDocument(d)
	if f.Len() != 16 || len(nodes) != 16 {
		t.Fatalf("Len = %d, %d nodes; want 16", f.Len(), len(nodes))
	}
	want := tree.PostOrderNodes(d.Root)
	for i, n := range want {
		k := int32(i)
		if nodes[i] != n || n.Post != k+1 {
			t.Fatalf("node %d is not the tree's post-order node %d (Post %d)", i, i, n.Post)
		}
		if f.Kind[k] != n.Kind || f.Name(k) != n.Name || f.Value(k) != n.Value || !slices.Equal(f.Attrs(k), n.Attrs) || f.XID[k] != n.XID {
			t.Fatalf("node %d: %s %q %q %v %d, want %s %q %q %v %d", i, f.Kind[k], f.Name(k), f.Value(k), f.Attrs(k), f.XID[k], n.Kind, n.Name, n.Value, n.Attrs, n.XID)
		}
		if got := int(f.Size[k]); got != n.Size() {
			t.Fatalf("node %d: Size %d, want %d", i, got, n.Size())
		}
		if n.Parent != nil && (f.Parent[k] != n.Parent.Post-1 || int(f.Pos[k]) != n.Index()) {
			t.Fatalf("node %d: parent %d position %d, want %d %d", i, f.Parent[k], f.Pos[k], n.Parent.Post-1, n.Index())
		}
		if got := f.Path(k); got != tree.Path(n) {
			t.Fatalf("node %d: Path %s, want %s", i, got, tree.Path(n))
		}
		if f.ChildCount(k) != len(n.Children) {
			t.Fatalf("node %d: ChildCount %d, want %d", i, f.ChildCount(k), len(n.Children))
		}
	}
	if f.Parent[f.Root()] != -1 || f.NameID(0) == 0 && f.Kind[0] == tree.Element {
		t.Fatalf("root parent %d, first name id %d", f.Parent[f.Root()], f.NameID(0))
	}
	back := f.Document()
	if diff := tree.Diff(back.Root, d.Root, tree.ContentAndXIDs); diff != "" {
		t.Fatalf("built back: %s", diff)
	}
	if back.NextXID != d.NextXID {
		t.Fatalf("NextXID %d, want %d", back.NextXID, d.NextXID)
	}
	// Subtree leaves out what skip names: here every text node.
	disc := d.Root.Children[1].Post - 1
	sub := f.Subtree(disc, &tree.Document{}, func(i int32) bool { return f.Kind[i] == tree.Text })
	if sub.Size() != 4 || sub.Text() != "" || sub.Post != disc+1 {
		t.Fatalf("pruned subtree has %d nodes, text %q, Post %d; want 4, \"\", %d", sub.Size(), sub.Text(), sub.Post, disc+1)
	}
}

// TestMeasureFlatMatchesTree checks that signatures and weights do not
// depend on the way the tree was laid out: a flat tree built by the
// builder, node by node, measures as the *Node tree does.
func TestMeasureFlatMatchesTree(t *testing.T) {
	d := camera()
	var b tree.FlatBuilder
	// Category(Title("Digital Cameras"), Discount(Product(Name, Price)), NewProducts(...))
	product := func(name, price string) {
		m := b.Len()
		nm := b.Len()
		b.Leaf(tree.Text, "", name)
		b.Element(nm, "Name", nil)
		pr := b.Len()
		b.Leaf(tree.Text, "", price)
		b.Element(pr, "Price", nil)
		b.Element(m, "Product", nil)
	}
	root := b.Len()
	title := b.Len()
	b.Leaf(tree.Text, "", "Digital Cameras")
	b.Element(title, "Title", nil)
	disc := b.Len()
	product("tx123", "$499")
	b.Element(disc, "Discount", nil)
	np := b.Len()
	product("zy456", "$799")
	b.Element(np, "NewProducts", nil)
	b.Element(root, "Category", nil)
	f, err := b.Flat()
	if err != nil {
		t.Fatal(err)
	}
	got, want := tree.MeasureFlat(f), tree.MeasureTree(d.Root)
	if !slices.Equal(got.Signature, want.Signature) || !slices.Equal(got.Weight, want.Weight) {
		t.Fatalf("measures differ:\n%v %v\n%v %v", got.Signature, got.Weight, want.Signature, want.Weight)
	}
	if got.Signature[0] != tree.Label(d.Root.Children[0].Children[0]) {
		t.Fatalf("signature of a leaf differs from its label")
	}
}

// TestFlatBuilderOneRoot refuses a forest.
func TestFlatBuilderOneRoot(t *testing.T) {
	var b tree.FlatBuilder
	b.Leaf(tree.Text, "", "a")
	b.Leaf(tree.Text, "", "b")
	if _, err := b.Flat(); err == nil {
		t.Fatal("two roots accepted")
	}
	if _, err := b.Flat(); err == nil {
		t.Fatal("empty tree accepted")
	}
}

// TestHasAttrNamed: a name is found on any node, the first or the last,
// and not as a value or another node's name.
func TestHasAttrNamed(t *testing.T) {
	d := &tree.Document{}
	root := d.NewElement("r")
	a := d.NewElement("a")
	a.Attrs = []tree.Attr{{Name: "id", Value: "xmlns"}}
	b := d.NewElement("xmlns")
	b.Attrs = []tree.Attr{{Name: "k", Value: "1"}, {Name: "xmlns", Value: "urn:x"}}
	root.Children = []*tree.Node{a, b}
	a.Parent, b.Parent = root, root
	f, _ := tree.Flatten(root)
	for name, want := range map[string]bool{"xmlns": true, "id": true, "k": true, "r": false, "1": false, "": false} {
		if got := f.HasAttrNamed(name); got != want {
			t.Errorf("HasAttrNamed(%q) = %v, want %v", name, got, want)
		}
	}
	b.Attrs = b.Attrs[:1]
	if f, _ := tree.Flatten(root); f.HasAttrNamed("xmlns") {
		t.Error("HasAttrNamed found an attribute no node has")
	}
}

// TestFlattenOddTrees lays out trees no parser builds: an invalid kind, and
// children under a text node. They are kept, measured, and built back.
func TestFlattenOddTrees(t *testing.T) {
	d := &tree.Document{}
	b := builder{d}
	odd := d.NewNode(0, "", "")
	txt := b.tx("parent text")
	txt.AppendChild(b.el("under"))
	d.Root = b.el("r", odd, txt)
	f, _ := tree.FlattenDocument(d)
	if f.Len() != 4 || f.Size[f.Root()] != 4 {
		t.Fatalf("%d nodes, root size %d; want 4, 4", f.Len(), f.Size[f.Root()])
	}
	m := tree.MeasureFlat(f)
	if w := m.Weight[txt.Post-1]; w != float32(1+math.Log(float64(len("parent text")))) {
		t.Fatalf("weight of a text node with a child: %v", w)
	}
	if diff := tree.Diff(f.Document().Root, d.Root, tree.Content); diff != "" {
		t.Fatalf("built back: %s", diff)
	}
}

// TestFlattenAllocsIndependentOfText: Flatten sizes its values and
// attribute values once, as it does its per-node arrays, so that the
// allocations of a document of long texts are those of one of short
// ones. The values grew as they came, each growth a copy of all the
// text so far: a 10 MB page's two flattenings for the tree differ copied
// and cleared more memory than parsing it took.
func TestFlattenAllocsIndependentOfText(t *testing.T) {
	page := func(textLen int) *tree.Document {
		d := &tree.Document{}
		body := d.NewElement("body")
		for range 100 {
			p := d.NewElement("p")
			p.SetAttr("title", string(make([]byte, textLen)))
			p.AppendChild(d.NewText(string(make([]byte, textLen))))
			body.AppendChild(p)
		}
		d.Root = body
		return d
	}
	allocs := func(d *tree.Document) float64 {
		return testing.AllocsPerRun(5, func() { tree.Flatten(d.Root) })
	}
	short, long := allocs(page(10)), allocs(page(100_000))
	if long != short {
		t.Errorf("Flatten of 100 paragraphs of 100,000 bytes made %v allocations, of 10 bytes %v: the values grew step by step", long, short)
	}
}

// TestWeightsRoundedFromFloat64Sums: a weight is stored as the float32
// rounding of the float64 sum of its children's float64 weights, in
// order, not as a sum of float32 values nor as a float64 sum of the
// children's rounded weights. The three differ only where a sum falls near
// a float32 rounding boundary: the test takes the first list long enough
// for each of the other two to round apart from the right one.
func TestWeightsRoundedFromFloat64Sums(t *testing.T) {
	text := "a few words" // leaves' weights 1 + ln 11
	item := 1 + (1 + math.Log(float64(len(text))))
	want64, ofRounded := 1.0, 1.0
	var sum32 float32 = 1
	n := 0
	for n < 1<<20 && (sum32 == float32(want64) || float32(ofRounded) == float32(want64)) {
		want64 += item
		ofRounded += float64(float32(item))
		sum32 += float32(item)
		n++
	}
	if n == 1<<20 {
		t.Fatal("no list up to a million items tells the sums apart")
	}
	d := &tree.Document{}
	d.Root = d.NewElement("list")
	for range n {
		it, tx := d.NewElement("item"), d.NewText(text)
		tx.Parent, it.Parent = it, d.Root
		it.Children = []*tree.Node{tx}
		d.Root.Children = append(d.Root.Children, it)
	}
	got := tree.MeasureTree(d.Root).Weight
	if root := got[len(got)-1]; root != float32(want64) {
		t.Fatalf("%d items: root weight %v, want %v (the float64 sum, rounded; a float32 sum gives %v, a float64 sum of rounded weights %v)",
			n, root, float32(want64), sum32, float32(ofRounded))
	}
}

// TestMeasureBadNesting: a FlatBuilder told to close elements out of order
// (it does not check) gives a tree whose weights mean nothing, but
// measuring it does not panic.
func TestMeasureBadNesting(t *testing.T) {
	var b tree.FlatBuilder
	b.Leaf(tree.Text, "", "a")
	b.Leaf(tree.Text, "", "b")
	b.Element(0, "x", nil)
	b.Element(1, "y", nil)
	b.Element(0, "z", nil)
	f, err := b.Flat()
	if err != nil {
		return // a builder that refused it would do as well
	}
	if m := tree.MeasureFlat(f); len(m.Weight) != f.Len() {
		t.Fatalf("%d weights for %d nodes", len(m.Weight), f.Len())
	}
}
