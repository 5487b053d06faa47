package treediff

import (
	"reflect"
	"testing"
	"unsafe"
)

func TestSpareReusesMemoryZeroed(t *testing.T) {
	var s spare
	a := take[int32](&s, 1000)
	if len(a) != 1000 {
		t.Fatalf("take: len %d, want 1000", len(a))
	}
	for k := range a {
		a[k] = int32(k) + 1
	}
	give(&s, a)
	// Another type, in the same memory, zeroed.
	b := take[sigSlot](&s, 200) // 3200 bytes of the 4000 given
	if unsafe.Pointer(&b[0]) != unsafe.Pointer(&a[0]) {
		t.Errorf("take after give: a new array, want the memory given back")
	}
	for k, x := range b {
		if x != (sigSlot{}) {
			t.Fatalf("take after give: element %d is %+v, want zero", k, x)
		}
	}
	if len(s.blocks) != 0 {
		t.Errorf("a block of 4000 bytes, 3200 taken: %d blocks left, want none (the 800 left are too few to keep)", len(s.blocks))
	}
	// Too large for what is spare: a new array.
	give(&s, b)
	c := take[uint64](&s, 1000)
	if unsafe.Pointer(&c[0]) == unsafe.Pointer(&b[0]) {
		t.Errorf("take of 8000 bytes from a block of 4000: got the block")
	}
}

func TestSpareSplitsLargeBlocks(t *testing.T) {
	var s spare
	big := take[uint64](&s, 10000)
	give(&s, big)
	// The smallest block that fits is taken, and a large rest stays.
	small := take[int32](&s, 1000) // 500 words
	rest := take[uint64](&s, 9000)
	if unsafe.Pointer(&small[0]) != unsafe.Pointer(&big[0]) {
		t.Errorf("the first take did not start the block")
	}
	if unsafe.Pointer(&rest[0]) != unsafe.Pointer(&big[500]) {
		t.Errorf("the second take is not the rest of the block")
	}
	if cap(small) != 1000 {
		t.Errorf("a piece cut from a block: capacity %d, want 1000 (no room over the next piece)", cap(small))
	}
	// Given back, each piece serves again on its own.
	give(&s, small)
	give(&s, rest)
	if got := take[uint64](&s, 9000); unsafe.Pointer(&got[0]) != unsafe.Pointer(&rest[0]) {
		t.Errorf("take of 9000 words after the pieces were given back: not the piece of 9000")
	}
}

func TestSpareKeepsNoSmallArrays(t *testing.T) {
	var s spare
	give(&s, make([]int32, 10))
	give(&s, make([]uint8, spareMinWords*8-1))
	give(&s, []int32(nil))
	if len(s.blocks) != 0 {
		t.Errorf("%d small arrays kept, want none", len(s.blocks))
	}
	give(&s, make([]uint8, spareMinWords*8))
	if len(s.blocks) != 1 {
		t.Errorf("an array of a kilobyte: %d blocks, want 1", len(s.blocks))
	}
	if got := take[int32](&s, 0); got != nil {
		t.Errorf("take of none: %v, want nil", got)
	}
}

func TestSpareRefusesPointers(t *testing.T) {
	for name, f := range map[string]func(){
		"pointer":   func() { take[*int](&spare{}, 1) },
		"string":    func() { take[string](&spare{}, 1) },
		"slice":     func() { take[[]int32](&spare{}, 1) },
		"in struct": func() { take[leftover](&spare{}, 1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("take of a type with pointers did not panic")
				}
			}()
			f()
		})
	}
	// give leaves such an array to the collector.
	var s spare
	give(&s, make([]string, 1000))
	if len(s.blocks) != 0 {
		t.Errorf("an array of strings was kept")
	}
}

func TestPointerFree(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want bool
	}{
		{int32(0), true},
		{sigSlot{}, true},
		{queued{}, true},
		{[2]int32{}, true},
		{[0]*int{}, true},
		{struct{ s string }{}, false},
		{[1]*int{}, false},
		{map[int]int{}, false},
		{leftover{}, false},
	} {
		if got := pointerFree(reflect.TypeOf(tt.v)); got != tt.want {
			t.Errorf("pointerFree(%T) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

func TestSpareGivesTheWholeRoom(t *testing.T) {
	var s spare
	a := take[int32](&s, 1000)
	give(&s, a[:10]) // the room, not the length
	if b := take[int32](&s, 1000); unsafe.Pointer(&b[0]) != unsafe.Pointer(&a[0]) {
		t.Errorf("give of a's first 10: a take of a's 1000 did not get a's memory")
	}
}

func TestSpareRefusesOverlaps(t *testing.T) {
	var s spare
	a := take[uint64](&s, 1000)
	give(&s, a)
	piece := take[uint64](&s, 200) // cut from a; the rest stays
	give(&s, a)                    // a given twice: it overlaps the rest
	if len(s.blocks) != 1 {
		t.Fatalf("%d blocks after a second give of an array held in part, want 1", len(s.blocks))
	}
	// Every take after gets memory no one else has.
	rest := take[uint64](&s, 800)
	if unsafe.Pointer(&rest[0]) == unsafe.Pointer(&piece[0]) {
		t.Errorf("the piece taken and the rest share memory")
	}
	if other := take[uint64](&s, 800); unsafe.Pointer(&other[0]) == unsafe.Pointer(&rest[0]) {
		t.Errorf("two takes got the same memory")
	}
}

func TestSpareZeroSizeAndNil(t *testing.T) {
	var s spare
	if got := take[struct{}](&s, 5); len(got) != 5 {
		t.Errorf("take of 5 empty structs: len %d", len(got))
	}
	if got := take[int32](nil, 5); len(got) != 5 {
		t.Errorf("take from no spare: len %d", len(got))
	}
	give(nil, make([]int32, 1000)) // no spare: nothing to do, no panic
	defer func() {
		if recover() == nil {
			t.Errorf("take of pointers from no spare did not panic")
		}
	}()
	take[*int](nil, 1)
}
