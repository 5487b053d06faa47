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
	// The run from size/2 to 7.5 huge pages holds 6 whole ones, or 7 where
	// whole lies half a page off; the chunk apart 2 or 3. Counted before
	// adviseRuns sorts chunks.
	want := wholeBytes(addressOf(whole)+uintptr(size/2), addressOf(whole)+uintptr(7*size+size/2), size) +
		wholeBytes(addressOf(chunks[3]), addressOf(chunks[3])+uintptr(len(chunks[3])), size)
	n, err := adviseRuns(chunks, size)
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Errorf("adviseRuns advised %d huge pages, want %d", n/size, want/size)
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

// wholeBytes counts, page by page, the bytes of the whole huge pages of
// the given size between the addresses start and end.
func wholeBytes(start, end uintptr, size int) int {
	n := 0
	for p := start / uintptr(size) * uintptr(size); p < end; p += uintptr(size) {
		if p >= start && p+uintptr(size) <= end {
			n += size
		}
	}
	return n
}

// TestWholePages: the bounds of the whole pages of a range, at the edges
// of pages and of the address space.
func TestWholePages(t *testing.T) {
	const p = 2 << 20
	const top = ^uintptr(0)
	tests := []struct {
		start, end, lo, hi uintptr
	}{
		{0, 0, 0, 0},
		{p, 2 * p, p, 2 * p},                             // one page, aligned
		{p, 2*p - 1, p, p},                               // one byte short of it
		{p + 1, 2 * p, 2 * p, 2 * p},                     // one byte past its start
		{p / 2, 3*p + p/2, p, 3 * p},                     // two whole pages, half pages at both ends
		{p / 2, p + p/2, p, p},                           // a page's worth that straddles two
		{3 * p, 3*p + 4096, 3 * p, 3 * p},                // less than a page
		{top - 3*p + 1, top, top - 3*p + 1, top - p + 1}, // the last two whole pages below the top
		{top - 2*p, top, top - 2*p + 1, top - p + 1},     // the last one, with half pages at both ends
		{top - p/2, top, top - p + 1, top - p + 1},       // none, without overflow
	}
	for _, tt := range tests {
		lo, hi := wholePages(tt.start, tt.end, p)
		if lo >= hi && tt.lo >= tt.hi {
			continue // both empty
		}
		if lo != tt.lo || hi != tt.hi {
			t.Errorf("wholePages(%#x, %#x) = [%#x, %#x), want [%#x, %#x)", tt.start, tt.end, lo, hi, tt.lo, tt.hi)
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
