package hugepage

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// The kernel's settings of transparent huge pages.
const (
	modeFile = "/sys/kernel/mm/transparent_hugepage/enabled"
	sizeFile = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"
)

// Reserve makes the next n bytes or so of the Go heap eligible for
// transparent huge pages, when the system's setting is "madvise"; it
// returns how many bytes it advised the kernel on, 0 when it had nothing
// to do (the setting is "always" or "never", the kernel has no huge pages,
// n is less than two of them, or GODEBUG has disablethp=1, the runtime's
// own switch for huge pages).
//
// Call it first thing in a process, before the heap has grown: the array
// it allocates must come fresh from the system, or the runtime clears it,
// touching every page before the advice is given. It runs a collection to
// give the array back.
func Reserve(n int) (int, error) {
	mode, err := os.ReadFile(modeFile)
	if err != nil || !advisable(mode, os.Getenv("GODEBUG")) {
		return 0, nil
	}
	size := pageSize()
	if n < 2*size {
		return 0, nil
	}
	b := make([]byte, n)
	advised, err := advise(b, size)
	b = nil
	runtime.GC()
	return advised, err
}

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

// advise advises the kernel to back the whole huge pages of b (of the
// given size) with huge pages, and returns how many bytes that is.
func advise(b []byte, size int) (int, error) {
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := int((uintptr(size) - addr%uintptr(size)) % uintptr(size))
	if start >= len(b) {
		return 0, nil
	}
	length := (len(b) - start) / size * size
	if length == 0 {
		return 0, nil
	}
	if err := syscall.Madvise(b[start:start+length], syscall.MADV_HUGEPAGE); err != nil {
		return 0, fmt.Errorf("hugepage: advise %d MB of heap: %w", length>>20, err)
	}
	return length, nil
}
