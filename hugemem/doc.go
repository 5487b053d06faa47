// Package hugemem hands out the large arrays of one computation from memory
// that the operating system is asked to back with huge pages, and takes
// them all back at once when the computation ends.
//
// A diff of a 10 MB document reads arrays of a million entries (signatures,
// weights, pairings, name classes, hash tables) in an order the hardware
// cannot foresee. With the 4 KB pages a Go heap has where the kernel's
// transparent huge pages are "madvise" (the default of many distributions),
// those arrays span some 40 000 pages, many times what the processor's TLB
// maps, so that a random read misses the TLB as well as the cache and waits
// for a walk of the page tables (twice over in a virtual machine). Backed by
// 2 MB pages, the same arrays span some eighty. The Go runtime does not ask
// for huge pages for its heap (it did in Go 1.21.0 and stopped: the kernel's
// khugepaged then refilled memory the runtime had given back), so an Arena
// maps its own memory and advises it with MADV_HUGEPAGE. A released Arena
// keeps its memory for the next computation, which would otherwise fault
// it in again, and gives it back with munmap once idle for MaxIdle.
//
// Only arrays of plain values may be made in an Arena (numbers, booleans,
// arrays and structs of them): the collector does not scan its memory, so a
// pointer stored there would not keep what it points to alive. Make checks
// it. An array made in an Arena must not be used after the Arena's Release:
// its memory is reused by the next computation, or unmapped.
//
// Written here, not taken from a library: the Go arena experiment
// (GOEXPERIMENT=arenas) is frozen and neither maps huge pages nor builds
// without the experiment, and no module on the proxy does this; the whole
// of it is an mmap, an madvise and a bump allocator.
//
// On systems other than Linux, or when the kernel refuses the mapping, Make
// returns arrays from the Go heap, as make does.
package hugemem
