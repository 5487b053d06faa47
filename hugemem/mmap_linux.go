package hugemem

import (
	"syscall"
	"unsafe"
)

// mapHuge maps at least size bytes (a multiple of hugePage) of zeroed
// memory and returns the mapping and its first size bytes from a huge page
// boundary on, advised to be backed by huge pages; or nils.
func mapHuge(size int) (mapping, mem []byte) {
	// A huge page more, to start the memory at a boundary in it. (The
	// pages before and after are never written: they take no memory.)
	mapping, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil
	}
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(mapping))) & (hugePage - 1))
	mem = mapping[off : off+size : off+size]
	// Advice only: where the kernel gives no huge pages
	// (transparent_hugepage "never", or none free), the memory is as good
	// as the heap's.
	_ = syscall.Madvise(mem, madvHugePage)
	return mapping, mem
}

// madvHugePage is MADV_HUGEPAGE, which package syscall does not name.
const madvHugePage = 14

// unmapHuge gives a mapping made by mapHuge back.
func unmapHuge(mapping []byte) { _ = syscall.Munmap(mapping) }

// protect makes a mapping unreadable and unwritable, and gives its pages
// back, without unmapping it: its addresses are not given to another.
func protect(mapping []byte) {
	_ = syscall.Madvise(mapping, syscall.MADV_DONTNEED)
	_ = syscall.Mprotect(mapping, syscall.PROT_NONE)
}
