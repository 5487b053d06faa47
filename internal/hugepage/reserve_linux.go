package hugepage

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// The kernel's settings of transparent huge pages, and of overcommit.
const (
	modeFile       = "/sys/kernel/mm/transparent_hugepage/enabled"
	sizeFile       = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
	overcommitFile = "/proc/sys/vm/overcommit_memory"
)

// mapSlack is what the runtime may map beyond the array itself when the
// heap grows for it: the rest of a 64 MB heap arena and its metadata.
const mapSlack = 128 << 20

// Reserve makes the next n bytes or so of the Go heap eligible for
// transparent huge pages, when the system's setting is "madvise"; it
// returns how many bytes it advised the kernel on, 0 when it had nothing
// to do (the setting is "always" or "never", the kernel has no huge pages,
// n is less than two of them, GODEBUG has disablethp=1, the runtime's
// own switch for huge pages, or the system would not map n bytes more).
//
// The array is address space the process keeps, which the system counts
// against its overcommit limit; the runtime cannot fail an allocation, it
// ends the process ("fatal error: out of memory"). So Reserve asks for
// nothing under strict overcommit (vm.overcommit_memory=2), where the
// array would hold commit charge for the life of the process whether the
// heap grows into it or not, nor where the system would not map n bytes
// now (the heuristic overcommit's limit, ulimit -v).
//
// Call it first thing in a process, before the heap has grown, and once:
// later calls do nothing. The runtime clears a large array placed on pages
// it used before, touching them in small pages before the advice is given;
// so the reservation is allocated in arrays of chunkSize, and only those
// that land on such pages (the garbage of what ran before) are cleared. It
// runs a collection to give the arrays back.
func Reserve(n int) (int, error) {
	mode, err := os.ReadFile(modeFile)
	if err != nil || !advisable(mode, os.Getenv("GODEBUG")) {
		return 0, nil
	}
	size := pageSize()
	if n < 2*size || !mappable(n) || !reserved.CompareAndSwap(false, true) {
		return 0, nil
	}
	chunks := make([][]byte, 0, n/chunkSize+1)
	for left := n; left > 0; left -= chunkSize {
		chunks = append(chunks, make([]byte, min(left, chunkSize)))
	}
	advised, err := adviseRuns(chunks, size)
	chunks = nil
	runtime.GC()
	return advised, err
}

// chunkSize is the size of the arrays a reservation is allocated in.
const chunkSize = 8 << 20

// reserved is set by the first Reserve that allocates.
var reserved atomic.Bool

// advisable reports whether a program must ask for huge pages to get them:
// the setting (the contents of modeFile, the chosen value in brackets) is
// "madvise", and godebug (the GODEBUG variable) does not turn them off.
func advisable(mode []byte, godebug string) bool {
	if !bytes.Contains(mode, []byte("[madvise]")) {
		return false
	}
	disabled := false
	for _, setting := range strings.Split(godebug, ",") {
		// The last setting of a name wins, as in the runtime.
		if v, ok := strings.CutPrefix(strings.TrimSpace(setting), "disablethp="); ok {
			disabled = v != "0"
		}
	}
	return !disabled
}

// mappable reports whether the system would map n more bytes of the
// process's memory now, as the runtime does when the heap grows: not under
// strict overcommit, whose charge the array would hold whether used or
// not, and only if a mapping of that size (with mapSlack) succeeds.
func mappable(n int) bool {
	if mode, err := os.ReadFile(overcommitFile); err == nil && strings.TrimSpace(string(mode)) == "2" {
		return false
	}
	if n > math.MaxInt-mapSlack {
		return false
	}
	b, err := syscall.Mmap(-1, 0, n+mapSlack, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return false
	}
	_ = syscall.Munmap(b)
	return true
}

// pageSize returns the size of a transparent huge page, 2 MB when the
// kernel does not say.
func pageSize() int {
	b, err := os.ReadFile(sizeFile)
	if err != nil {
		return 2 << 20
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || n <= 0 || n&(n-1) != 0 {
		return 2 << 20
	}
	return n
}

// adviseRuns advises the kernel to back with huge pages (of the given
// size) the whole huge pages of each run of chunks that lie end to end in
// memory, as the runtime places large arrays allocated one after the
// other, and returns how many bytes that is. It sorts chunks by address.
func adviseRuns(chunks [][]byte, size int) (int, error) {
	slices.SortFunc(chunks, func(a, b []byte) int { return cmp.Compare(addressOf(a), addressOf(b)) })
	advised := 0
	var err error
	for i := 0; i < len(chunks) && err == nil; {
		start := addressOf(chunks[i])
		end := start + uintptr(len(chunks[i]))
		j := i + 1
		for ; j < len(chunks) && addressOf(chunks[j]) == end; j++ {
			end += uintptr(len(chunks[j]))
		}
		var n int
		n, err = adviseRange(start, end, size)
		advised += n
		i = j
	}
	// The system call has only the chunks' addresses, as integers: the
	// chunks must not be freed (and their pages given to other objects)
	// before it returns.
	runtime.KeepAlive(chunks)
	return advised, err
}

// advise is adviseRuns for one array.
func advise(b []byte, size int) (int, error) {
	n, err := adviseRange(addressOf(b), addressOf(b)+uintptr(len(b)), size)
	runtime.KeepAlive(b) // see adviseRuns
	return n, err
}

// adviseRange advises the kernel to back the whole huge pages between the
// addresses start and end, memory of arrays the caller holds (and keeps
// alive until it returns), with huge pages, and returns how many bytes
// that is. It takes addresses, not a slice, since a run of arrays is no
// one Go object.
func adviseRange(start, end uintptr, size int) (int, error) {
	lo, hi := wholePages(start, end, uintptr(size))
	if lo >= hi {
		return 0, nil
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_HUGEPAGE); errno != 0 {
		return 0, fmt.Errorf("hugepage: advise %d MB of heap at %#x: %w", (hi-lo)>>20, lo, errno)
	}
	return int(hi - lo), nil
}

// wholePages returns the bounds [lo, hi) of the whole pages of the given
// size, a power of two, between the addresses start and end; lo >= hi
// when there is none.
func wholePages(start, end, page uintptr) (lo, hi uintptr) {
	hi = end / page * page
	if start >= hi {
		return hi, hi
	}
	// hi is at most the last multiple of page, so start+page-1 < hi+page
	// does not overflow.
	return (start + page - 1) / page * page, hi
}

// addressOf returns the address of b's first byte.
func addressOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
