package tree

import (
	"maps"
	"slices"
	"testing"
)

// walkedChildren returns the children of node i by walking Size, as a
// Flat without kept lists finds them.
func walkedChildren(f *Flat, i int32) []int32 {
	var kids []int32
	for c, start := i-1, i-f.Size[i]; c > start; c -= f.Size[c] {
		kids = append(kids, c)
	}
	slices.Reverse(kids)
	return kids
}

// TestWideListsKept: a FlatBuilder keeps the children of exactly the nodes
// that have wideFanout or more, and ChildList and AppendChildren give them
// whatever the buffer they are handed holds.
func TestWideListsKept(t *testing.T) {
	var b FlatBuilder
	inner := b.Len()
	for range wideFanout + 1 {
		b.Leaf(Text, "", "x")
	}
	b.Element(inner, "wide", nil) // 33 children
	narrow := b.Len()
	for range wideFanout - 1 {
		b.Leaf(Text, "", "y")
	}
	b.Element(narrow, "narrow", nil) // 31 children
	for range wideFanout {
		b.Leaf(Text, "", "z")
	}
	b.Element(0, "root", nil) // 2 + 32 children
	f, err := b.Flat()
	if err != nil {
		t.Fatal(err)
	}
	root, wide, nar := f.Root(), int32(wideFanout+1), int32(wideFanout+1+wideFanout)
	if len(f.wide) != 2 || f.wide[root] == nil || f.wide[wide] == nil || f.wide[nar] != nil {
		t.Fatalf("lists kept for %v, want the root (%d) and the wide element (%d) only", slices.Sorted(maps.Keys(f.wide)), root, wide)
	}
	for _, i := range []int32{root, wide, nar} {
		want := walkedChildren(f, i)
		if got := f.ChildList(i, make([]int32, 5, 100)); !slices.Equal(got, want) {
			t.Errorf("ChildList(%d) into a buffer holding 5 = %v, want %v", i, got, want)
		}
		last := slices.Clone(want)
		slices.Reverse(last)
		if got := f.AppendChildren(nil, i); !slices.Equal(got, last) {
			t.Errorf("AppendChildren(nil, %d) = %v, want %v", i, got, last)
		}
	}
}

// TestWideListsOutOfOrder: elements closed out of order (which the builder
// does not check) keep no list that would hold a node twice, and their
// children are still the ones Size gives.
func TestWideListsOutOfOrder(t *testing.T) {
	var b FlatBuilder
	for range 2 * wideFanout {
		b.Leaf(Text, "", "x")
	}
	for range 50 {
		b.Element(b.Len()-1, "a", nil)
		b.Element(0, "b", nil) // takes every node so far, parents and all
	}
	f, err := b.Flat()
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, kids := range f.wide {
		kept += len(kids)
	}
	if kept > f.Len() {
		t.Errorf("%d children kept in lists for %d nodes", kept, f.Len())
	}
	for i := range int32(f.Len()) {
		if got, want := f.ChildList(i, nil), walkedChildren(f, i); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("ChildList(%d) = %v, want %v", i, got, want)
		}
	}
}
