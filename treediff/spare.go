package treediff

import (
	"fmt"
	"reflect"
	"unsafe"
)

// spare holds the working arrays a phase is done with, for a later phase
// to take, whatever their element types. No collection runs during most
// diffs, nor should one: without spare, each phase's tables are memory
// the runtime has not handed out before in this diff, and on a large
// document that memory is often pages it gave back to the system and
// must fault in again, one page at a time. The heaviest-first phase's
// table of old signatures, its queue and the leftovers' index of words
// are megabytes each on a 10 MB document, alive one after the other: with
// spare, the later ones reuse the earlier ones' memory (see BENCHMARKS.md,
// session 52).
//
// The arrays hold no pointers (take checks it): spare keeps them as
// arrays of words, which the collector does not scan.
type spare struct {
	blocks [][]uint64
}

// take returns n zeroed elements of type T, in the smallest spare block
// that holds them (the rest of a much larger one stays spare), or in a new
// array. T must hold no pointer. Hand the slice back with give when done;
// until then it is the caller's alone.
func take[T any](s *spare, n int) []T {
	if n <= 0 {
		return nil
	}
	size := unsafe.Sizeof(*new(T))
	if !pointerFree(reflect.TypeFor[T]()) || unsafe.Alignof(*new(T)) > unsafe.Alignof(uint64(0)) {
		panic(fmt.Sprintf("treediff: spare memory for %v, which holds pointers or needs a wider alignment", reflect.TypeFor[T]()))
	}
	words := int((uintptr(n)*size + 7) / 8)
	best := -1
	for k, b := range s.blocks {
		if len(b) >= words && (best < 0 || len(b) < len(s.blocks[best])) {
			best = k
		}
	}
	var block []uint64
	switch {
	case best < 0:
		block = make([]uint64, words)
	case len(s.blocks[best])-words >= spareMinWords:
		block = s.blocks[best][:words:words]
		s.blocks[best] = s.blocks[best][words:]
		clear(block)
	default:
		block = s.blocks[best]
		last := len(s.blocks) - 1
		s.blocks[best], s.blocks[last] = s.blocks[last], nil
		s.blocks = s.blocks[:last]
		clear(block)
	}
	// The slice's capacity is the block's: give finds the whole block
	// again.
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(block))), uintptr(len(block))*8/size)
	return all[:n]
}

// spareMinWords is the size, in 64-bit words, of the smallest block spare
// keeps: smaller ones are not worth a look, and an array of less than 16
// bytes may share its memory with others (the runtime's tiny allocator).
const spareMinWords = 128

// give hands back the memory of x, from take or a pointer-free array the
// caller made, for later take calls: x must not be used after. An array
// of less than a kilobyte is left to the collector.
func give[T any](s *spare, x []T) {
	words := int(uintptr(cap(x)) * unsafe.Sizeof(*new(T)) / 8)
	if words < spareMinWords {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(x[:1]))
	if uintptr(p)%unsafe.Alignof(uint64(0)) != 0 || !pointerFree(reflect.TypeFor[T]()) {
		return
	}
	s.blocks = append(s.blocks, unsafe.Slice((*uint64)(p), words))
}

// pointerFree reports whether values of type t hold no pointer: numbers
// and booleans, and arrays and structs of them.
func pointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return t.Len() == 0 || pointerFree(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !pointerFree(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}
