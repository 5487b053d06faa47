package scratch

import (
	"reflect"
	"testing"
	"unsafe"
)

// slot is a table's slot, 16 bytes without pointers.
type slot struct {
	key         uint64
	head        int32
	count, more uint16
}

// withWords holds a slice: a type a Pool refuses.
type withWords struct {
	node  int32
	words []uint64
}

func TestPoolReusesMemoryZeroed(t *testing.T) {
	var s Pool
	a := Take[int32](&s, 1000)
	if len(a) != 1000 {
		t.Fatalf("take: len %d, want 1000", len(a))
	}
	for k := range a {
		a[k] = int32(k) + 1
	}
	Give(&s, a)
	// Another type, in the same memory, zeroed.
	b := Take[slot](&s, 200) // 3200 bytes of the 4000 given
	if unsafe.Pointer(&b[0]) != unsafe.Pointer(&a[0]) {
		t.Errorf("take after give: a new array, want the memory given back")
	}
	for k, x := range b {
		if x != (slot{}) {
			t.Fatalf("take after give: element %d is %+v, want zero", k, x)
		}
	}
	if len(s.blocks) != 0 {
		t.Errorf("a block of 4000 bytes, 3200 taken: %d blocks left, want none (the 800 left are too few to keep)", len(s.blocks))
	}
	// Too large for what is spare: a new array.
	Give(&s, b)
	c := Take[uint64](&s, 1000)
	if unsafe.Pointer(&c[0]) == unsafe.Pointer(&b[0]) {
		t.Errorf("take of 8000 bytes from a block of 4000: got the block")
	}
}

func TestPoolSplitsLargeBlocks(t *testing.T) {
	var s Pool
	big := Take[uint64](&s, 10000)
	Give(&s, big)
	// The smallest block that fits is taken, and a large rest stays.
	small := Take[int32](&s, 1000) // 500 words
	rest := Take[uint64](&s, 9000)
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
	Give(&s, small)
	Give(&s, rest)
	if got := Take[uint64](&s, 9000); unsafe.Pointer(&got[0]) != unsafe.Pointer(&rest[0]) {
		t.Errorf("take of 9000 words after the pieces were given back: not the piece of 9000")
	}
}

func TestPoolKeepsNoSmallArrays(t *testing.T) {
	var s Pool
	Give(&s, make([]int32, 10))
	Give(&s, make([]uint8, minWords*8-1))
	Give(&s, []int32(nil))
	if len(s.blocks) != 0 {
		t.Errorf("%d small arrays kept, want none", len(s.blocks))
	}
	Give(&s, make([]uint8, minWords*8))
	if len(s.blocks) != 1 {
		t.Errorf("an array of a kilobyte: %d blocks, want 1", len(s.blocks))
	}
	if got := Take[int32](&s, 0); got != nil {
		t.Errorf("take of none: %v, want nil", got)
	}
}

func TestPoolRefusesPointers(t *testing.T) {
	for name, f := range map[string]func(){
		"pointer":   func() { Take[*int](&Pool{}, 1) },
		"string":    func() { Take[string](&Pool{}, 1) },
		"slice":     func() { Take[[]int32](&Pool{}, 1) },
		"in struct": func() { Take[withWords](&Pool{}, 1) },
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
	var s Pool
	Give(&s, make([]string, 1000))
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
		{slot{}, true},
		{struct{ a, b int64 }{}, true},
		{[2]int32{}, true},
		{[0]*int{}, true},
		{struct{ s string }{}, false},
		{[1]*int{}, false},
		{map[int]int{}, false},
		{withWords{}, false},
	} {
		if got := pointerFree(reflect.TypeOf(tt.v)); got != tt.want {
			t.Errorf("pointerFree(%T) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
