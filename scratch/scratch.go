// Package scratch keeps the working arrays one step of an algorithm is done
// with, for a later step to take, whatever their element types.
//
// A tree diff runs in phases, and each phase builds its own tables: on a
// 10 MB document, megabytes each, alive one after the other. No
// collection runs during most diffs, nor should one, so without a Pool
// each table is memory the runtime has not handed out before in this
// diff; on a large document that memory is often pages the runtime gave
// back to the system, which it must fault in again, one page at a time
// (10 µs a page on some machines: see BENCHMARKS.md, session 52). With a
// Pool, a phase hands its tables back when it is done, and the next
// phases and the delta's construction cut theirs from them.
//
// It is written here because no library does this: sync.Pool keeps values
// of one type, which a collection may drop at any time, and an arena
// allocator (the experimental arena package) is not in the standard
// library. The arrays hold no pointers (Take checks it): a Pool keeps them
// as arrays of 64-bit words, which the collector does not scan.
package scratch

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Pool is a set of spare blocks of memory. The zero Pool is empty and
// ready; a nil *Pool is allowed everywhere and keeps nothing (Take
// allocates, Give drops). A Pool is not safe for concurrent use.
type Pool struct {
	blocks [][]uint64
}

// Room returns buf emptied, with room for n elements: in a larger array
// from p if buf has too little, with at least twice buf's room. The array
// buf had is left as it is, to whoever holds it, not given to p.
func Room[T any](p *Pool, buf []T, n int) []T {
	if cap(buf) < n {
		return Take[T](p, max(n, 2*cap(buf)))[:0]
	}
	return buf[:0]
}

// Take returns n zeroed elements of type T, in the smallest block of p
// that holds them (the rest of a much larger one stays in p), or in a new
// array. T must hold no pointer: Take panics otherwise. The slice's room
// may be larger than n. Hand it back with Give when done; until then it is
// the caller's alone.
func Take[T any](p *Pool, n int) []T {
	if n <= 0 {
		return nil
	}
	if p == nil {
		return make([]T, n)
	}
	size := unsafe.Sizeof(*new(T))
	if !pointerFree(reflect.TypeFor[T]()) || unsafe.Alignof(*new(T)) > unsafe.Alignof(uint64(0)) {
		panic(fmt.Sprintf("scratch: a pool's memory for %v, which holds pointers or needs a wider alignment", reflect.TypeFor[T]()))
	}
	words := int((uintptr(n)*size + 7) / 8)
	best := -1
	for k, b := range p.blocks {
		if len(b) >= words && (best < 0 || len(b) < len(p.blocks[best])) {
			best = k
		}
	}
	var block []uint64
	switch {
	case best < 0:
		block = make([]uint64, words)
	case len(p.blocks[best])-words >= minWords:
		block = p.blocks[best][:words:words]
		p.blocks[best] = p.blocks[best][words:]
		clear(block)
	default:
		block = p.blocks[best]
		last := len(p.blocks) - 1
		p.blocks[best], p.blocks[last] = p.blocks[last], nil
		p.blocks = p.blocks[:last]
		clear(block)
	}
	// The slice's room is the block's: Give finds the whole block again.
	all := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(block))), uintptr(len(block))*8/size)
	return all[:n]
}

// minWords is the size, in 64-bit words, of the smallest block a Pool
// keeps: smaller ones are not worth a look, and an array of less than 16
// bytes may share its memory with others (the runtime's tiny allocator).
const minWords = 128

// Give hands the memory of x to p, for later Take calls: an array from
// Take, or a pointer-free array the caller made and no longer uses. x must
// not be used after. An array of less than a kilobyte, or of a type with
// pointers, is left to the collector, as is every array when p is nil; an
// array p holds already is not added twice.
func Give[T any](p *Pool, x []T) {
	if p == nil {
		return
	}
	words := int(uintptr(cap(x)) * unsafe.Sizeof(*new(T)) / 8)
	if words < minWords {
		return
	}
	ptr := unsafe.Pointer(unsafe.SliceData(x[:1]))
	if uintptr(ptr)%unsafe.Alignof(uint64(0)) != 0 || !pointerFree(reflect.TypeFor[T]()) {
		return
	}
	for _, b := range p.blocks {
		if unsafe.Pointer(unsafe.SliceData(b)) == ptr {
			return // given twice: one Take of it at a time
		}
	}
	p.blocks = append(p.blocks, unsafe.Slice((*uint64)(ptr), words))
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
