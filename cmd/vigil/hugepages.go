package main

import (
	"io"
	"os"

	"github.com/vigil-web/vigil/internal/hugepage"
)

// hugeHeapFactor is how much of the heap, in multiples of the size of its
// two inputs, a diff asks to have in transparent huge pages: the soft
// limit it runs under (diffMemoryFactor) and room for the garbage of the
// parses before the limit is set.
const hugeHeapFactor = diffMemoryFactor + 2

// maxHugeHeap bounds what reserveHugeHeap asks for: address space, not
// memory (the pages are taken when the heap first touches them), but a
// mapping the system counts against its overcommit limit.
const maxHugeHeap = 16 << 30

// reserveHugeHeap asks for the heap of a diff of inputs of n bytes in all
// to be backed by transparent huge pages (see package hugepage), at the
// start of a process that loads them. It is an optimisation only: where
// the system cannot give huge pages the diff runs the same, in small
// pages, so an error is not reported.
func reserveHugeHeap(n int64) { reserveHugeHeapFactor(n, hugeHeapFactor) }

// reserveHugeHeapFactor is reserveHugeHeap for a heap of factor times the
// inputs.
func reserveHugeHeapFactor(n, factor int64) {
	_, _ = hugepage.Reserve(int(min(n*factor, maxHugeHeap)))
}

// inputSize returns the size of the files named, standard input ("-")
// included when it is a regular file (a shell's < redirection), not
// counting a name that cannot be read or a file of more than limit bytes
// (--max-bytes), which the command that loads them reports: a file it
// refuses is no reason for a heap of several times its size.
func inputSize(stdin io.Reader, limit int64, names ...string) int64 {
	var n int64
	for _, name := range names {
		var fi os.FileInfo
		var err error
		if name == "-" {
			f, ok := stdin.(*os.File)
			if !ok {
				continue
			}
			fi, err = f.Stat()
		} else {
			fi, err = os.Stat(name)
		}
		if err == nil && fi.Mode().IsRegular() && fi.Size() <= limit {
			n += fi.Size()
		}
	}
	return n
}

// patchHeapFactor is the heap of vigil patch, in multiples of the size of
// its document and delta: it holds the document as a tree of nodes with
// pointers, several times the size of a diff's flat trees (20x its inputs
// at its peak, for a 10 MB document).
const patchHeapFactor = 24

// benchHeapFactor is the heap of vigil bench diff, in multiples of
// --size, that it asks to have in huge pages.
const benchHeapFactor = 48
