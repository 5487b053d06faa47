package treediff

import (
	"fmt"
	"reflect"
	"unsafe"
)

// spare keeps the working arrays a phase is done with, for a later phase
// to cut its own from, whatever their element types.
//
// Each phase builds its own tables: on a 10 MB document, megabytes each,
// alive one after the other. No collection runs during most diffs, nor
// should one, so without spare each table is memory the runtime has not
// handed out before in this diff; on a large document that memory is
// often pages the runtime gave back to the system, which it must fault in
// again one page at a time (10 µs a page on some machines: see
// BENCHMARKS.md, session 52). With spare, the heaviest-first phase's table
// of signatures and queue, align's working space, the leftovers' index of
// words and recovery's lists share memory, and a 10 MB diff allocates a
// tenth less.
//
// The standard library has nothing for this: sync.Pool drops what it
// holds at each collection and does not hand out memory by size, and the
// arena package is an experiment behind GOEXPERIMENT=arenas. The arrays
// hold no pointers (take checks it): their memory is allocated as an
// array of 64-bit words, which the collector knows holds no pointer, and
// no pointer is ever stored in it.
type spare struct {
	blocks [][]uint64
}

// room returns buf emptied, with room for n elements: in a larger array
// from s if buf has too little, with at least twice buf's room. The array
// buf had is left as it is, to whoever holds it, not given to s.
func room[T any](s *spare, buf []T, n int) []T {
	if cap(buf) < n {
		return take[T](s, max(n, 2*cap(buf)))[:0]
	}
	return buf[:0]
}

// take returns n zeroed elements of type T, in the smallest block of s
// that holds them (the rest of a much larger one stays in s), or in a new
// array; in a new array when s is nil. T must hold no pointer: take
// panics otherwise. The slice's room may be larger than n. Hand it back
// with give when done; until then it is the caller's alone.
func take[T any](s *spare, n int) []T {
	size := unsafe.Sizeof(*new(T))
	if !pointerFree(reflect.TypeFor[T]()) || unsafe.Alignof(*new(T)) > unsafe.Alignof(uint64(0)) {
		panic(fmt.Sprintf("treediff: spare memory for %v, which holds pointers or needs a wider alignment", reflect.TypeFor[T]()))
	}
	switch {
	case n <= 0:
		return nil
	case s == nil || size == 0:
		return make([]T, n)
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
		// Cut with its room capped: the piece never reaches the rest.
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
	// The slice's room is the block's: give finds the whole block again.
	// Every block lies within one array of words allocated whole, which
	// the collector never moves: a T (as large as it may be) read through
	// the block's first word stays inside that array.
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(block))), uintptr(len(block))*8/size)
	return all[:n]
}

// spareMinWords is the size, in 64-bit words, of the smallest block spare
// keeps: smaller ones are not worth a look.
const spareMinWords = 128

// give hands to s the memory of x up to its room, x[:cap(x)], not only its
// length: an array from take, or a pointer-free array the caller made, no
// part of which anyone uses any more. An array of less than a kilobyte,
// or of a type with pointers, is left to the collector, as is every array
// when s is nil, and so is one that overlaps memory s holds already
// (given twice).
func give[T any](s *spare, x []T) {
	if s == nil {
		return
	}
	words := int(uintptr(cap(x)) * unsafe.Sizeof(*new(T)) / 8)
	if words < spareMinWords || !pointerFree(reflect.TypeFor[T]()) {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(x[:1])))
	if start%unsafe.Alignof(uint64(0)) != 0 {
		return
	}
	end := start + uintptr(words)*8
	for _, b := range s.blocks {
		from := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		if start < from+uintptr(len(b))*8 && from < end {
			return
		}
	}
	s.blocks = append(s.blocks, unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(x[:1]))), words))
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
