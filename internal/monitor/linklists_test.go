package monitor

import "testing"

// TestLinkLists: pages whose versions link alike hold one list; a list
// is forgotten once no page holds it; a page without links holds none.
func TestLinkLists(t *testing.T) {
	var l linkLists
	a := l.hold([]uint64{1, 2, 3})
	b := l.hold([]uint64{1, 2, 3})
	c := l.hold([]uint64{1, 2})
	if a != b || a == c {
		t.Fatalf("lists %p, %p (same keys), %p (others): want the first two one list", a, b, c)
	}
	if a.refs != 2 || len(l.m) != 2 {
		t.Fatalf("%d holds of the shared list, %d lists: want 2 and 2", a.refs, len(l.m))
	}
	if l.hold(nil) != nil {
		t.Error("a version without links holds a list")
	}
	l.release(a)
	if len(l.m) != 2 {
		t.Errorf("%d lists after one of two holds was released, want 2", len(l.m))
	}
	l.release(b)
	l.release(c)
	l.release(nil)
	if len(l.m) != 0 {
		t.Errorf("%d lists once none is held, want 0", len(l.m))
	}
	// A list whose hash another has is held apart, and released alone.
	d := l.hold([]uint64{7})
	other := &linkList{keys: []uint64{8}, refs: 1}
	l.m[d.hash], d.hash = other, 0
	e := l.hold([]uint64{7})
	if e == other || e.hash != 0 {
		t.Fatalf("a list whose hash is taken: %+v", e)
	}
	l.release(e)
	if l.m[hashKeys([]uint64{7})|1] != other {
		t.Error("releasing a list held apart dropped the one of its hash")
	}
}
