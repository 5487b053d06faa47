// Package hugepage asks Linux to back the memory the Go heap is about to
// use with transparent huge pages (2 MB on amd64 rather than 4 KB), where
// the system leaves that to each program: /sys/kernel/mm/transparent_hugepage/enabled
// set to "madvise", as on the project's build machines.
//
// Why: a diff of two 10 MB documents touches some 165 MB of memory. In
// 4 KB pages that is about 36 000 page faults, and on a virtual machine a
// fault costs several microseconds (a fifth of a 1.1 s `vigil diff` went to
// them); it is also more translations than the processor's TLB holds, so
// the diff's random accesses miss it. With huge pages the same `vigil diff`
// took 3 000 faults and 0.46-0.69 s rather than 0.84-0.98 s, for 2-5 MB more
// at its peak (BENCHMARKS.md, "Diff engine", session 60).
//
// How: the Go runtime asks for huge pages for its own metadata only (see
// https://go.dev/doc/gc-guide#Linux_transparent_huge_pages), and has no
// setting to ask for them for the heap; the kernel takes the advice per mapping,
// and the mappings are the runtime's. Reserve works with the runtime, not
// around it: it allocates large arrays, which the runtime maps fresh and
// does not touch (but for any that land on pages it used before, which it
// clears), advises the kernel on their pages, and lets the collector take
// the arrays back. The runtime hands out the lowest free
// pages first and never unmaps heap memory, so the parse and the diff that
// follow are placed in those pages, and each first touch of 2 MB of them
// takes one fault. Nothing here reads or writes the runtime's own state.
// The standard library's syscall package is all it needs (the madvise
// system call itself, not syscall.Madvise, since a run of arrays that lie
// end to end is no one slice); no module of the ones reachable here does
// this.
//
// It is an adapter of the operating system, used by cmd/vigil only, for the
// commands that load large documents once (vigil diff, patch and the
// benchmarks), not by the daemon: in a long-lived process the kernel's
// khugepaged may fill advised huge pages that the runtime has partly given
// back, and its memory would be counted higher than the heap it holds.
package hugepage
