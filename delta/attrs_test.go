package delta

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestAttrEditor edits elements with few and many attributes, some with
// two of one name, by random operations through attrEditor and through
// tree.Node's methods, and compares the results, attribute by attribute.
func TestAttrEditor(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{5, manyAttrs + 1, 200} {
		for _, dup := range []bool{false, true} {
			d := &tree.Document{}
			got, want := d.NewElement("e"), d.NewElement("e")
			for k := range n {
				got.Attrs = append(got.Attrs, tree.Attr{Name: fmt.Sprint("a", k), Value: "v"})
			}
			if dup {
				got.Attrs = append(got.Attrs, tree.Attr{Name: "a1", Value: "second"})
			}
			want.Attrs = slices.Clone(got.Attrs)
			var e attrEditor
			for range 3 * n {
				name := fmt.Sprint("a", rng.IntN(n+n/2))
				v, has := want.Attr(name)
				if gv, ghas := e.get(got, name); gv != v || ghas != has {
					t.Fatalf("n=%d dup=%v: get(%s) = %q %v, want %q %v", n, dup, name, gv, ghas, v, has)
				}
				value := fmt.Sprint(rng.IntN(100))
				switch {
				case !has:
					e.add(got, name, value)
					want.Attrs = append(want.Attrs, tree.Attr{Name: name, Value: value})
				case rng.IntN(2) == 0:
					e.set(got, name, value)
					want.SetAttr(name, value)
				default:
					e.remove(got, name)
					want.RemoveAttr(name)
				}
			}
			e.finish()
			if !slices.Equal(got.Attrs, want.Attrs) {
				t.Fatalf("n=%d dup=%v: attributes\n%v\nwant\n%v", n, dup, got.Attrs, want.Attrs)
			}
		}
	}
}

// manyAttrsPair returns an element with n attributes and a version where
// a third of them are gone, a third changed, and n/2 new ones follow.
func manyAttrsPair(n int) (*tree.Document, *tree.Document) {
	version := func(changed bool) *tree.Document {
		d := &tree.Document{}
		e := d.NewElement("e")
		for k := range n {
			switch {
			case !changed:
				e.Attrs = append(e.Attrs, tree.Attr{Name: fmt.Sprint("a", k), Value: "old"})
			case k%3 == 1:
				e.Attrs = append(e.Attrs, tree.Attr{Name: fmt.Sprint("a", k), Value: "new"})
			case k%3 == 2:
				e.Attrs = append(e.Attrs, tree.Attr{Name: fmt.Sprint("a", k), Value: "old"})
			}
		}
		if changed {
			for k := range n / 2 {
				e.Attrs = append(e.Attrs, tree.Attr{Name: fmt.Sprint("b", k), Value: "added"})
			}
		}
		e.XID = 1
		d.Root, d.NextXID = e, 2
		return d
	}
	return version(false), version(true)
}

// TestManyAttrs builds and applies the delta of an element whose many
// attributes are deleted, changed and added, both ways: applied, the
// attributes come in the new version's order.
func TestManyAttrs(t *testing.T) {
	old, new := manyAttrsPair(300)
	d, err := Build(old, new)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Stats()
	if s.AttrDeletes != 100 || s.AttrUpd != 100 || s.AttrInserts != 150 {
		t.Fatalf("stats %+v, want 100 attribute deletes, 100 updates, 150 inserts", s)
	}
	got, err := Apply(old, d)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Root.Attrs, new.Root.Attrs) {
		t.Fatalf("Apply(old, delta): attributes differ from the new version's")
	}
	back, err := Apply(new, Invert(d))
	if err != nil {
		t.Fatal(err)
	}
	if diff := tree.Diff(back.Root, old.Root, tree.ContentAndXIDs); diff != "" {
		t.Fatalf("Apply(new, Invert(delta)) != old: %s", diff)
	}
}

// BenchmarkManyAttrs builds and applies the delta of one element whose
// attributes all change: linear in their number (a scan per attribute made
// it quadratic: 20 000 attributes took 1.4 s).
func BenchmarkManyAttrs(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		old, new := manyAttrsPair(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				d, err := Build(old, new)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Apply(old, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
