package delta

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestPropertyCompose checks Apply(a, Compose(Build(a,b), Build(b,c))) = c
// on generated chains, and reports how often the pure Compose succeeds.
func TestPropertyCompose(t *testing.T) {
	seeds := 500
	if testing.Short() {
		seeds = 60
	}
	ok, refused := 0, 0
	for seed := 0; seed < seeds; seed++ {
		vs := versions(uint64(seed)+5000, 5+seed%70, 1+seed%15, 3)
		a, b, c := vs[0], vs[1], vs[2]
		d1, d2 := mustBuild(t, a, b), mustBuild(t, b, c)
		d, err := Compose(d1, d2)
		if err != nil {
			if !errors.Is(err, ErrNotComposable) && !strings.Contains(err.Error(), "cannot compose without the documents") {
				t.Fatalf("seed %d: Compose: %v", seed, err)
			}
			refused++
			t.Logf("seed %d: Compose refused: %v", seed, err)
			continue
		}
		ok++
		got, err := Apply(a, d)
		if err != nil {
			t.Fatalf("seed %d: Apply(a, Compose): %v\nd1:\n%s\nd2:\n%s\ncomposed:\n%s", seed, err, opStrings(d1), opStrings(d2), opStrings(d))
		}
		if diff := sameDoc(got, c); diff != "" {
			t.Fatalf("seed %d: Apply(a, Compose(d1, d2)) != c: %s\nd1:\n%s\nd2:\n%s\ncomposed:\n%s", seed, diff, opStrings(d1), opStrings(d2), opStrings(d))
		}
		back, err := Apply(c, Invert(d))
		if err != nil || sameDoc(back, a) != "" {
			t.Fatalf("seed %d: Apply(c, Invert(Compose)): %v", seed, err)
		}
		dw, err := ComposeWith(a, d1, d2)
		if err != nil {
			t.Fatalf("seed %d: ComposeWith: %v", seed, err)
		}
		if got, err := Apply(a, dw); err != nil || sameDoc(got, c) != "" {
			t.Fatalf("seed %d: ComposeWith: %v", seed, err)
		}
	}
	t.Logf("pure Compose: %d of %d composed, %d refused", ok, seeds, refused)
	if refused > 0 {
		t.Errorf("pure Compose refused %d of %d generated pairs", refused, seeds)
	}
}

// seven is node 1 with children 101-104 (notes E7), as a document.
func seven() *tree.Document {
	return doc(el("n", 1, el("c101", 101), el("c102", 102), el("c103", 103), el("c104", 104)), 105)
}

func one(ops ...Op) *Delta { return &Delta{Ops: ops} }

// TestComposeNormalisation is the seed's script normalisation (notes E7,
// lemmas 4.2.6-4.2.8): composing one-operation deltas of a sequential edit
// script gives its XyScript.
func TestComposeNormalisation(t *testing.T) {
	dl := func(x tree.XID, pos int) Op {
		return Op{Kind: Delete, Parent: 1, Pos: pos, XIDs: xm(x), Content: content(el("c"+itoa(x), x))}
	}
	in := func(x tree.XID, pos int) Op {
		return Op{Kind: Insert, Parent: 1, Pos: pos, XIDs: xm(x), Content: content(el("c"+itoa(x), x))}
	}
	tests := []struct {
		name   string
		d1, d2 *Delta
		want   string
	}{
		{"L4.2.6 deletes", one(dl(102, 2)), one(dl(104, 3)), "d par=1 pos=4 xm=(104) <c104>\nd par=1 pos=2 xm=(102) <c102>\n"},
		{"4.2.3 deletes at one position", one(dl(101, 1)), one(dl(102, 1)), "d par=1 pos=2 xm=(102) <c102>\nd par=1 pos=1 xm=(101) <c101>\n"},
		{"L4.2.7 inserts", one(in(204, 3)), one(in(202, 2)), "i par=1 pos=2 xm=(202) <c202>\ni par=1 pos=4 xm=(204) <c204>\n"},
		{"L4.2.8 insert then delete it", one(in(200, 2)), one(dl(200, 2)), ""},
		{"L4.2.8 insert @2, delete @4", one(in(200, 2)), one(dl(103, 4)), "d par=1 pos=3 xm=(103) <c103>\ni par=1 pos=2 xm=(200) <c200>\n"},
		{"L4.2.8 insert @4, delete @2", one(in(200, 4)), one(dl(102, 2)), "d par=1 pos=2 xm=(102) <c102>\ni par=1 pos=3 xm=(200) <c200>\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Compose(tt.d1, tt.d2)
			if err != nil {
				t.Fatal(err)
			}
			if got := opStrings(d); got != tt.want {
				t.Errorf("ops:\n%s\nwant:\n%s", got, tt.want)
			}
			v1, err := Apply(seven(), tt.d1)
			if err != nil {
				t.Fatal(err)
			}
			v2, err := Apply(v1, tt.d2)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Apply(seven(), d)
			if err != nil || sameDoc(got, v2) != "" {
				t.Fatalf("Apply(composed): %v", err)
			}
		})
	}
}

func itoa(x tree.XID) string { return strconv.FormatUint(uint64(x), 10) }

// TestComposeCases covers the aggregation rules one by one, on the catalog.
func TestComposeCases(t *testing.T) {
	edit := func(f func(d *tree.Document, by map[tree.XID]*tree.Node)) func(*tree.Document) *tree.Document {
		return func(d *tree.Document) *tree.Document {
			c := d.Clone()
			f(c, c.ByXID())
			return c
		}
	}
	move := func(x, to tree.XID, pos int) func(*tree.Document) *tree.Document {
		return edit(func(d *tree.Document, by map[tree.XID]*tree.Node) {
			n := by[x]
			n.Parent.RemoveChild(n.Index())
			by[to].InsertChild(pos, n)
		})
	}
	setText := func(x tree.XID, v string) func(*tree.Document) *tree.Document {
		return edit(func(d *tree.Document, by map[tree.XID]*tree.Node) { by[x].Value = v })
	}
	setAttr := func(x tree.XID, name, v string) func(*tree.Document) *tree.Document {
		return edit(func(d *tree.Document, by map[tree.XID]*tree.Node) {
			if v == "" {
				by[x].RemoveAttr(name)
			} else {
				by[x].SetAttr(name, v)
			}
		})
	}
	rename := func(x tree.XID, v string) func(*tree.Document) *tree.Document {
		return edit(func(d *tree.Document, by map[tree.XID]*tree.Node) { by[x].Name = v })
	}
	insert := func(to tree.XID, pos int, n node) func(*tree.Document) *tree.Document {
		return edit(func(d *tree.Document, by map[tree.XID]*tree.Node) {
			by[to].InsertChild(pos, n.build(d))
			d.NextXID = max(d.NextXID, n.xid+1)
		})
	}
	remove := func(x tree.XID) func(*tree.Document) *tree.Document {
		return edit(func(d *tree.Document, by map[tree.XID]*tree.Node) { by[x].Parent.RemoveChild(by[x].Index()) })
	}
	tests := []struct {
		name   string
		e1, e2 func(*tree.Document) *tree.Document
		want   string
	}{
		{"move back to the same place", move(13, 7, 0), move(13, 14, 2), ""},
		{"move twice", move(13, 7, 0), move(13, 15, 0), "d par=14 pos=3 xm=(13) move\ni par=15 pos=1 xm=(13) move\n"},
		{"update back", setText(12, "Sold"), setText(12, "Not Available"), ""},
		{"update twice", setText(12, "Sold"), setText(12, "Back"), "d par=13 pos=1 xm=(12) update \"Not Available\"\ni par=13 pos=1 xm=(12) update \"Back\"\n"},
		{"move then update", move(13, 7, 0), setText(12, "Sold"),
			"d par=13 pos=1 xm=(12) update \"Not Available\"\nd par=14 pos=3 xm=(13) move\ni par=7 pos=1 xm=(13) move\ni par=13 pos=1 xm=(12) update \"Sold\"\n"},
		{"insert then delete", insert(14, 0, el("new", 20, tx("x", 19))), remove(20), ""},
		{"insert then delete part", insert(14, 0, el("new", 20, tx("x", 19))), remove(19), "i par=14 pos=1 xm=(20) <new>\n"},
		{"insert then insert inside", insert(14, 0, el("new", 20)), insert(20, 0, tx("y", 21)), "i par=14 pos=1 xm=(21;20) <new>\n"},
		{"update then delete ancestor", setText(12, "Sold"), remove(14), "d par=15 pos=2 xm=(8-14) <product>\n"},
		{"attribute then delete ancestor", setAttr(13, "a", "1"), remove(14), "d par=15 pos=2 xm=(8-14) <product>\n"},
		{"move out then delete old parent", move(10, 7, 0), remove(14), "d par=11 pos=1 xm=(10) move\nd par=15 pos=2 xm=(8-9;11-14) <product>\ni par=7 pos=1 xm=(10) move\n"},
		{"ai then au", setAttr(14, "a", "1"), setAttr(14, "a", "2"), "ai xid=14 a=a v=\"2\"\n"},
		{"ai then ad", setAttr(14, "a", "1"), setAttr(14, "a", ""), ""},
		{"ad then ai", edit(func(d *tree.Document, by map[tree.XID]*tree.Node) {}), setAttr(14, "a", "1"), "ai xid=14 a=a v=\"1\"\n"},
		{"rename twice", rename(14, "item"), rename(14, "thing"), "rn xid=14 ov=\"product\" nv=\"thing\"\n"},
		{"rename back", rename(14, "item"), rename(14, "product"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := catalog()
			b := tt.e1(a)
			c := tt.e2(b)
			d, err := Compose(mustBuild(t, a, b), mustBuild(t, b, c))
			if err != nil {
				t.Fatal(err)
			}
			if got := opStrings(d); got != tt.want {
				t.Errorf("ops:\n%s\nwant:\n%s", got, tt.want)
			}
			got, err := Apply(a, d)
			if err != nil || sameDoc(got, c) != "" {
				t.Fatalf("Apply(composed): %v", err)
			}
		})
	}
}

// TestComposeAttributeAlgebra combines attribute operations on an element
// neither delta holds (known only by its XID).
func TestComposeAttributeAlgebra(t *testing.T) {
	at := func(k OpKind, ov, nv string) Op { return Op{Kind: k, Node: 5, Name: "a", OldValue: ov, NewValue: nv} }
	tests := []struct {
		name string
		a, b Op
		want string
	}{
		{"ai au", at(AttrInsert, "", "1"), at(AttrUpdate, "1", "2"), `ai xid=5 a=a v="2"`},
		{"ai ad", at(AttrInsert, "", "1"), at(AttrDelete, "1", ""), ``},
		{"au au", at(AttrUpdate, "0", "1"), at(AttrUpdate, "1", "2"), `au xid=5 a=a ov="0" nv="2"`},
		{"au au back", at(AttrUpdate, "0", "1"), at(AttrUpdate, "1", "0"), ``},
		{"au ad", at(AttrUpdate, "0", "1"), at(AttrDelete, "1", ""), `ad xid=5 a=a v="0"`},
		{"ad ai", at(AttrDelete, "0", ""), at(AttrInsert, "", "2"), `au xid=5 a=a ov="0" nv="2"`},
		{"ad ai same", at(AttrDelete, "0", ""), at(AttrInsert, "", "0"), ``},
		{"au then wrong old value", at(AttrUpdate, "0", "1"), at(AttrUpdate, "7", "2"), `ERROR attribute a of element 5: the first delta leaves "1", the second expects "7"`},
		{"ai then ai", at(AttrInsert, "", "1"), at(AttrInsert, "", "2"), `ERROR the first delta leaves "1", the second expects no value`},
		{"ad then ad", at(AttrDelete, "1", ""), at(AttrDelete, "1", ""), `ERROR the first delta leaves no value, the second expects "1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Compose(one(tt.a), one(tt.b))
			if want, isErr := strings.CutPrefix(tt.want, "ERROR "); isErr {
				if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrNotComposable) {
					t.Errorf("err = %v, want %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSuffix(opStrings(d), "\n"); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestComposeRefusals: deltas that do not follow each other.
func TestComposeRefusals(t *testing.T) {
	a := catalog()
	b := catalog2()
	d := mustBuild(t, a, b)
	tests := []struct {
		name   string
		d1, d2 *Delta
		err    string
	}{
		{"maps differ", d, d, "the second delta's source XID-map differs from the first delta's target XID-map"},
		{"disagree on a node", one(Op{Kind: Insert, Parent: 14, Pos: 1, XIDs: xm(20), Content: content(tx("x", 20))}),
			one(Op{Kind: Delete, Parent: 14, Pos: 1, XIDs: xm(20), Content: content(tx("y", 20))}), "the deltas disagree on XID 20 in the middle version"},
		{"disagree on a position", one(Op{Kind: Insert, Parent: 14, Pos: 1, XIDs: xm(20), Content: content(tx("x", 20))}),
			one(Op{Kind: Delete, Parent: 14, Pos: 1, XIDs: xm(21), Content: content(tx("x", 21))}), "child 1 of XID 14 is XID 20 for the other delta"},
		{"deleted node used", one(Op{Kind: Delete, Parent: 14, Pos: 3, XIDs: xm(12, 13), Content: content(el("status", 13, tx("Not Available", 12)))}),
			one(Op{Kind: AttrInsert, Node: 13, Name: "a", NewValue: "1"}), "the first delta does not lead to the second's source: undoing the first delta's operation 1 (d par=14 pos=3 xm=(12-13)): inserted XID 13 is in use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compose(tt.d1, tt.d2)
			if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, ErrNotComposable) {
				t.Errorf("err = %v\nwant containing %q", err, tt.err)
			}
		})
	}
}

// TestComposeWithEmpty: an empty delta with no XID-maps or fingerprints
// ({} or <t/>) composed before or after another gives that delta's source
// and target, so that the composition applies and is undone as it does.
func TestComposeWithEmpty(t *testing.T) {
	a := catalog()
	b := catalog2()
	b.NextXID = max(b.NextXID, 30)
	b.ByXID()[14].InsertChild(0, tx("new", 30).build(b))
	d := mustBuild(t, a, b)
	d.From, d.To = "v1", "v2"
	d.FromFingerprint, d.ToFingerprint = 0x1111, 0x2222 // as vigil diff writes them
	for _, tt := range []struct {
		name   string
		d1, d2 *Delta
	}{{"empty first", &Delta{}, d}, {"empty last", d, &Delta{}}} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compose(tt.d1, tt.d2)
			if err != nil {
				t.Fatal(err)
			}
			if c.From != d.From || c.To != d.To || !c.FromXIDMap.Equal(d.FromXIDMap) || !c.ToXIDMap.Equal(d.ToXIDMap) ||
				c.FromFingerprint != d.FromFingerprint || c.ToFingerprint != d.ToFingerprint {
				t.Errorf("composed %q -> %q, maps %v -> %v, fingerprints %x -> %x; want %q -> %q, %v -> %v, %x -> %x",
					c.From, c.To, c.FromXIDMap, c.ToXIDMap, c.FromFingerprint, c.ToFingerprint,
					d.From, d.To, d.FromXIDMap, d.ToXIDMap, d.FromFingerprint, d.ToFingerprint)
			}
			// As vigil patch --reverse does: the composition's target map,
			// or a first version's XIDs when it has none.
			back := b.Clone()
			if c.ToXIDMap.Len() > 0 {
				if err := back.SetXIDMap(c.ToXIDMap.Expand()); err != nil {
					t.Fatal(err)
				}
			} else {
				back.AssignXIDs()
			}
			got, err := Apply(back, Invert(c))
			if err != nil {
				t.Fatalf("undoing the composition: %v", err)
			}
			if diff := sameDoc(got, a); diff != "" {
				t.Errorf("undone: %s", diff)
			}
		})
	}
}

// flatDoc is a long flat list, where sibling order matters most.
func flatDoc(r *rand.Rand, n int) *tree.Document {
	d := &tree.Document{}
	d.Root = d.NewElement("ul")
	for i := 0; i < n; i++ {
		li := d.NewElement("li")
		if r.IntN(2) == 0 {
			li.AppendChild(d.NewText(randText(r)))
		}
		d.Root.AppendChild(li)
	}
	d.AssignXIDs()
	return d
}

// TestPropertyComposeHeavyChurn: as many changes as nodes, on flat lists
// and trees, composed forwards and backwards.
func TestPropertyComposeHeavyChurn(t *testing.T) {
	seeds := 150
	if testing.Short() {
		seeds = 20
	}
	for seed := 0; seed < seeds; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		var a *tree.Document
		if seed%2 == 0 {
			a = flatDoc(r, 2+r.IntN(300))
		} else {
			a = genDoc(r, 2+r.IntN(400))
		}
		n := a.Root.Size()
		b := mutate(r, a, 1+r.IntN(n))
		c := mutate(r, b, 1+r.IntN(n))
		d1, d2 := mustBuild(t, a, b), mustBuild(t, b, c)
		d, err := Compose(d1, d2)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got, err := Apply(a, d); err != nil || sameDoc(got, c) != "" {
			t.Fatalf("seed %d: Apply(a, Compose(d1, d2)): %v", seed, err)
		}
		e, err := Compose(Invert(d2), Invert(d1))
		if err != nil {
			t.Fatalf("seed %d: backwards: %v", seed, err)
		}
		if got, err := Apply(c, e); err != nil || sameDoc(got, a) != "" {
			t.Fatalf("seed %d: Apply(c, Compose(Invert(d2), Invert(d1))): %v", seed, err)
		}
	}
}
