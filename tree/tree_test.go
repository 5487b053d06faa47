package tree_test

import (
	"math"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// builder makes small trees for tests: el("a", tx("x"), el("b")).
type builder struct{ doc *tree.Document }

func (b builder) el(name string, kids ...*tree.Node) *tree.Node {
	n := b.doc.NewElement(name)
	for _, k := range kids {
		n.AppendChild(k)
	}
	return n
}

func (b builder) tx(s string) *tree.Node { return b.doc.NewText(s) }

// camera returns version 1 of the seed's camera catalogue (figure 3.2).
func camera() *tree.Document {
	d := &tree.Document{}
	b := builder{d}
	d.Root = b.el("Category",
		b.el("Title", b.tx("Digital Cameras")),
		b.el("Discount", b.el("Product", b.el("Name", b.tx("tx123")), b.el("Price", b.tx("$499")))),
		b.el("NewProducts", b.el("Product", b.el("Name", b.tx("zy456")), b.el("Price", b.tx("$799")))),
	)
	d.AssignXIDs()
	return d
}

func TestAssignXIDsCamera(t *testing.T) {
	d := camera()
	if got, want := d.XIDMap().String(), "(1-15|16)"; got != want {
		t.Fatalf("XIDMap = %s, want %s", got, want)
	}
	// The seed's postfix numbering: Product tx123 is 7 with map (3-7).
	product := d.Root.Children[1].Children[0]
	if product.XID != 7 {
		t.Errorf("Product tx123 XID = %d, want 7", product.XID)
	}
	if got := tree.SubtreeXIDMap(product).String(); got != "(3-7)" {
		t.Errorf("Product tx123 map = %s, want (3-7)", got)
	}
	idx := d.ByXID()
	if idx[11].Value != "$799" || idx[13].Name != "Product" || idx[15] != d.Root {
		t.Errorf("ByXID: 11=%q 13=%q 15 root=%v", idx[11].Value, idx[13].Name, idx[15] == d.Root)
	}
}

func TestWeightsCamera(t *testing.T) {
	// Weights recomputed from the seed's formulas (notes 001a, section 3.3).
	d := camera()
	m := tree.MeasureTree(d.Root)
	root := float64(m.Weight[len(m.Weight)-1])
	title := tree.WeightOf(d.Root.Children[0])
	if math.Abs(title-(2+math.Log(15))) > 1e-6 { // stored as float32
		t.Errorf("Title weight = %v, want 2+ln 15", title)
	}
	// The seed's notes give 23.2 for version 2; version 1 has "tx123" and
	// "$499" in place of "abc" and "$699": 1 + 4.71 + 9.00 + 9.00 = 23.70.
	if math.Abs(root-23.70) > 0.005 {
		t.Errorf("root weight = %.3f, want 23.70", root)
	}
	if w := tree.WeightOf(d.Root.Children[0].Children[0]); math.Abs(w-(1+math.Log(15))) > 1e-6 {
		t.Errorf("text weight = %v", w)
	}
}

func TestSignature(t *testing.T) {
	d := &tree.Document{}
	b := builder{d}
	withAttrs := func(n *tree.Node, kv ...string) *tree.Node {
		for i := 0; i < len(kv); i += 2 {
			n.SetAttr(kv[i], kv[i+1])
		}
		return n
	}
	tests := []struct {
		name  string
		a, b  *tree.Node
		equal bool
	}{
		{"same", b.el("a", b.tx("x")), b.el("a", b.tx("x")), true},
		{"text differs", b.el("a", b.tx("x")), b.el("a", b.tx("y")), false},
		{"name differs", b.el("a"), b.el("b"), false},
		{"child order", b.el("a", b.el("x"), b.el("y")), b.el("a", b.el("y"), b.el("x")), false},
		{"attr order ignored", withAttrs(b.el("a"), "p", "1", "q", "2"), withAttrs(b.el("a"), "q", "2", "p", "1"), true},
		{"attr value", withAttrs(b.el("a"), "p", "1"), withAttrs(b.el("a"), "p", "2"), false},
		{"attr swap values", withAttrs(b.el("a"), "p", "1", "q", "2"), withAttrs(b.el("a"), "p", "2", "q", "1"), false},
		{"text vs comment", b.tx("x"), d.NewNode(tree.Comment, "", "x"), false},
		{"nesting", b.el("a", b.el("b", b.el("c"))), b.el("a", b.el("b"), b.el("c")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tree.SignatureOf(tt.a) == tree.SignatureOf(tt.b)
			if got != tt.equal {
				t.Errorf("signatures equal = %v, want %v", got, tt.equal)
			}
			if tree.Equal(tt.a, tt.b) != tt.equal {
				t.Errorf("Equal = %v, want %v", !tt.equal, tt.equal)
			}
		})
	}
}

func TestXIDMapString(t *testing.T) {
	tests := []struct {
		in   string
		xids []tree.XID
		next tree.XID
		err  string
	}{
		{in: "(1-4;10;12;14-15|100)", xids: []tree.XID{1, 2, 3, 4, 10, 12, 14, 15}, next: 100},
		{in: "(3-7)", xids: []tree.XID{3, 4, 5, 6, 7}},
		{in: "(1-2;9-13;8;16-20;14-15|21)", xids: []tree.XID{1, 2, 9, 10, 11, 12, 13, 8, 16, 17, 18, 19, 20, 14, 15}, next: 21},
		{in: "(42)", xids: []tree.XID{42}},
		{in: "()", xids: nil},
		{in: "1-4", err: "column 1: expected '('"},
		{in: "(1-4", err: "column 5: expected ';', '|' or ')'"},
		{in: "(4-1)", err: "descending"},
		{in: "(0)", err: "invalid XID"},
		{in: "(1;;2)", err: "column 4: expected an XID"},
		{in: "(1-99999999999999)", err: "longer than"},
		// A range of every XID after another: the count must not wrap.
		{in: "(5;1-18446744073709551615)", err: "longer than"},
		{in: "(1)x", err: "unexpected text"},
		{in: "(99999999999999999999999)", err: "invalid XID"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := tree.ParseXIDMap(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(m.XIDs) != len(tt.xids) || m.Next != tt.next {
				t.Fatalf("got %v|%d, want %v|%d", m.XIDs, m.Next, tt.xids, tt.next)
			}
			for i := range m.XIDs {
				if m.XIDs[i] != tt.xids[i] {
					t.Fatalf("got %v, want %v", m.XIDs, tt.xids)
				}
			}
			if got := m.String(); got != tt.in {
				t.Errorf("String = %s, want %s", got, tt.in)
			}
		})
	}
}

func TestSetXIDMap(t *testing.T) {
	d := camera()
	m, _ := tree.ParseXIDMap("(1-2;9-13;8;16-20;14-15|21)")
	if err := d.SetXIDMap(m); err != nil {
		t.Fatal(err)
	}
	// Post-order index 6 (Product tx123) takes the map's 7th XID, 13.
	if d.Root.Children[1].Children[0].XID != 13 || d.NextXID != 21 {
		t.Errorf("after SetXIDMap: Product XID %d, next %d", d.Root.Children[1].Children[0].XID, d.NextXID)
	}
	short, _ := tree.ParseXIDMap("(1-3)")
	if err := d.SetXIDMap(short); err == nil || !strings.Contains(err.Error(), "3 XIDs for a subtree of 15 nodes") {
		t.Errorf("short map: err = %v", err)
	}
	dup, _ := tree.ParseXIDMap("(1-14;3)")
	if err := d.SetXIDMap(dup); err == nil || !strings.Contains(err.Error(), "repeats XID 3") {
		t.Errorf("duplicate map: err = %v", err)
	}
	largest, _ := tree.ParseXIDMap("(1-14;18446744073709551615)")
	if err := d.SetXIDMap(largest); err == nil || !strings.Contains(err.Error(), "18446744073709551615") {
		t.Errorf("map holding the largest XID: err = %v, NextXID %d", err, d.NextXID)
	}
	// The next XID to allocate the largest: the one after it wraps to 0.
	lastNext, _ := tree.ParseXIDMap("(1-14;16|18446744073709551615)")
	if err := d.SetXIDMap(lastNext); err == nil || !strings.Contains(err.Error(), "18446744073709551615") {
		t.Errorf("map whose next XID is the largest: err = %v, NextXID %d", err, d.NextXID)
	}
	if d.Root.Children[1].Children[0].XID != 13 || d.NextXID != 21 {
		t.Errorf("a failed SetXIDMap changed the tree")
	}
}

func TestDeepTree(t *testing.T) {
	const depth = 100000
	d := &tree.Document{}
	d.Root = d.NewElement("a")
	n := d.Root
	for i := 0; i < depth; i++ {
		c := d.NewElement("a")
		n.AppendChild(c)
		n = c
	}
	n.AppendChild(d.NewText("bottom"))
	d.AssignXIDs()
	if d.NextXID != depth+3 {
		t.Fatalf("NextXID = %d", d.NextXID)
	}
	c := d.Clone()
	if diff := tree.Diff(d.Root, c.Root, tree.ContentAndXIDs); diff != "" {
		t.Fatal(diff)
	}
	if tree.SignatureOf(d.Root) != tree.SignatureOf(c.Root) {
		t.Fatal("clone has another signature")
	}
	if got := d.Root.Text(); got != "bottom" {
		t.Fatalf("Text = %q", got)
	}
}

func TestDiffReportsPath(t *testing.T) {
	a, b := camera(), camera()
	b.Root.Children[2].Children[0].Children[1].Children[0].Value = "$699"
	got := tree.Diff(a.Root, b.Root, tree.Content)
	want := `/Category[1]/NewProducts[1]/Product[1]/Price[1]/text()[1]: value "$799" != "$699"`
	if got != want {
		t.Errorf("Diff = %s\nwant   %s", got, want)
	}
}

func TestChildEditing(t *testing.T) {
	d := &tree.Document{}
	b := builder{d}
	r := b.el("r", b.el("a"), b.el("c"))
	r.InsertChild(1, b.el("b"))
	if got := names(r); got != "a b c" {
		t.Fatalf("after insert: %s", got)
	}
	removed := r.RemoveChild(0)
	if got := names(r); got != "b c" || removed.Parent != nil || removed.Name != "a" {
		t.Fatalf("after remove: %s", got)
	}
	if r.Children[1].Index() != 1 {
		t.Fatal("Index")
	}
	r.AppendChild(b.el("d"))
	r.AppendChild(b.el("e"))
	// b and d detached in place, then dropped at once.
	r.Children[0].Parent, r.Children[2].Parent = nil, nil
	r.DropDetached()
	if got := names(r); got != "c e" {
		t.Fatalf("after DropDetached: %s", got)
	}
	r.DropDetached()
	if got := names(r); got != "c e" {
		t.Fatalf("DropDetached with nothing detached: %s", got)
	}
}

func names(n *tree.Node) string {
	var s []string
	for _, c := range n.Children {
		s = append(s, c.Name)
	}
	return strings.Join(s, " ")
}
