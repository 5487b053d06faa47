package hugepage

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"unsafe"
)

func TestAdvisable(t *testing.T) {
	tests := []struct {
		mode, godebug string
		want          bool
	}{
		{"always [madvise] never\n", "", true},
		{"[always] madvise never\n", "", false},
		{"always madvise [never]\n", "", false},
		{"always [madvise] never\n", "disablethp=1", false},
		{"always [madvise] never\n", "madvdontneed=1, disablethp=1", false},
		{"always [madvise] never\n", "disablethp=1,disablethp=0", true},
		{"always [madvise] never\n", "disablethp=0", true},
		{"always [madvise] never\n", "gctrace=1", true},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := advisable([]byte(tt.mode), tt.godebug); got != tt.want {
			t.Errorf("advisable(%q, %q) = %v, want %v", tt.mode, tt.godebug, got, tt.want)
		}
	}
}

// TestAdviseMarksMapping: the kernel takes the advice on the array's
// whole huge pages, which /proc/self/smaps shows as the flag hg of the
// mapping that holds them.
func TestAdviseMarksMapping(t *testing.T) {
	if _, err := os.Stat(modeFile); err != nil {
		t.Skipf("this kernel has no transparent huge pages (%v)", err)
	}
	size := pageSize()
	b := make([]byte, 4*size+size/2)
	n, err := advise(b, size)
	if err != nil {
		t.Fatal(err)
	}
	if n < 3*size || n > 4*size || n%size != 0 {
		t.Fatalf("advise advised %d bytes of %d, want 3 or 4 huge pages of %d", n, len(b), size)
	}
	addr := uintptr(unsafe.Pointer(&b[len(b)/2]))
	flags, err := mappingFlags(addr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping of the advised array has flags %q, without hg", flags)
	}
	if _, err := advise(b[:size/2], size); err != nil {
		t.Errorf("advise of less than a huge page: %v, want nothing done", err)
	}
}

// TestReserve: Reserve advises when, and only when, the system leaves the
// choice to the program.
func TestReserve(t *testing.T) {
	mode, err := os.ReadFile(modeFile)
	want := err == nil && advisable(mode, os.Getenv("GODEBUG"))
	reserved.Store(false)
	n, err := Reserve(16 * pageSize())
	if err != nil {
		t.Fatal(err)
	}
	// The chunks may not all lie end to end in a heap that has been used:
	// each chunk still holds whole huge pages.
	if want != (n >= 8*pageSize()) || !want && n != 0 {
		t.Errorf("Reserve advised %d bytes with the setting %q and GODEBUG=%q", n, strings.TrimSpace(string(mode)), os.Getenv("GODEBUG"))
	}
	if n, err := Reserve(16 * pageSize()); n != 0 || err != nil {
		t.Errorf("a second Reserve = %d, %v, want nothing done", n, err)
	}
	reserved.Store(false)
	if n, err := Reserve(pageSize()); n != 0 || err != nil {
		t.Errorf("Reserve of one huge page = %d, %v, want nothing done", n, err)
	}
}

// TestAdviseRuns: chunks that lie end to end are advised as one run, in
// whatever order they are given; the others each on their own.
func TestAdviseRuns(t *testing.T) {
	if _, err := os.Stat(modeFile); err != nil {
		t.Skipf("this kernel has no transparent huge pages (%v)", err)
	}
	size := pageSize()
	whole := make([]byte, 8*size)
	// Three chunks end to end, given out of order, and one apart.
	chunks := [][]byte{whole[3*size : 5*size], whole[size/2 : 3*size], whole[5*size : 7*size+size/2], make([]byte, 3*size)}
	n, err := adviseRuns(chunks, size)
	if err != nil {
		t.Fatal(err)
	}
	// The run from size/2 to 7.5 huge pages holds 6 whole ones; the chunk
	// apart 2 or 3.
	if n < 8*size || n > 9*size {
		t.Errorf("adviseRuns advised %d huge pages, want 8 or 9", n/size)
	}
	for _, at := range []int{2 * size, 4 * size, 6 * size} { // inside the run's whole pages, wherever it starts
		flags, err := mappingFlags(uintptr(unsafe.Pointer(&whole[at])))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("byte %d of the run: mapping flags %q, without hg", at, flags)
		}
	}
}

// mappingFlags returns the VmFlags of the mapping of this process that
// holds addr, from /proc/self/smaps.
func mappingFlags(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		var lo, hi uintptr
		if _, err := fmt.Sscanf(line, "%x-%x ", &lo, &hi); err == nil && strings.Contains(line, " ") && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			in = lo <= addr && addr < hi
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.TrimSpace(flags), nil
		}
	}
	if err := s.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping of /proc/self/smaps holds %#x", addr)
}

// TestMappable: Reserve asks for no more than the system would map, since
// the runtime ends the process when the heap cannot grow.
func TestMappable(t *testing.T) {
	if mappable(1 << 50) {
		t.Error("mappable(1 PiB) = true, more than the address space of a process")
	}
	if mappable(math.MaxInt) {
		t.Error("mappable(MaxInt) = true")
	}
	mode, err := os.ReadFile(overcommitFile)
	if err == nil && strings.TrimSpace(string(mode)) == "2" {
		if mappable(1 << 20) {
			t.Error("mappable(1 MB) = true under strict overcommit")
		}
		return
	}
	if !mappable(1 << 20) {
		t.Error("mappable(1 MB) = false")
	}
}
