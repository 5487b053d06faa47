package hugemem

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"
)

// big is a length whose int64 array is well over MinSize.
const big = 4 * MinSize / 8

func TestMakeIsZeroedAndReused(t *testing.T) {
	a := New()
	s := Make[int64](a, big)
	if len(s) != big || cap(s) != big {
		t.Fatalf("len %d cap %d, want %d", len(s), cap(s), big)
	}
	if runtime.GOOS == "linux" && !Holds(a, s) {
		t.Fatalf("an array of %d bytes is not in the arena", big*8)
	}
	for i := range s {
		if s[i] != 0 {
			t.Fatalf("s[%d] = %d, want 0", i, s[i])
		}
		s[i] = int64(i) + 1
	}
	// A second array does not overlap the first.
	u := Make[int32](a, big)
	u[0], u[len(u)-1] = -1, -1
	if s[0] != 1 || s[len(s)-1] != big {
		t.Fatalf("a second array overwrote the first")
	}
	a.Release()

	// The next computation gets the same memory back, cleared.
	b := New()
	defer b.Release()
	if runtime.GOOS == "linux" && b != a {
		t.Fatalf("New did not return the arena released last")
	}
	s2 := Make[int64](b, big)
	for i := range s2 {
		if s2[i] != 0 {
			t.Fatalf("reused memory not cleared: s2[%d] = %d", i, s2[i])
		}
	}
	u2 := Make[int32](b, big)
	if u2[0] != 0 || u2[len(u2)-1] != 0 {
		t.Fatalf("reused memory not cleared: %d, %d", u2[0], u2[len(u2)-1])
	}
}

func TestSmallAndNilUseTheHeap(t *testing.T) {
	a := New()
	defer a.Release()
	small := Make[int32](a, 16)
	if Holds(a, small) || len(small) != 16 {
		t.Fatalf("a 64-byte array was put in the arena (len %d)", len(small))
	}
	var none *Arena
	s := Make[uint64](none, big)
	if len(s) != big || Holds(none, s) {
		t.Fatalf("a nil arena: len %d, held %v", len(s), Holds(none, s))
	}
	none.Release() // a no-op
	if got := Make[struct{}](a, 1<<30); len(got) != 1<<30 {
		t.Fatalf("zero-size elements: len %d", len(got))
	}
}

func TestMakeAlignsAndKeepsStructs(t *testing.T) {
	type slot struct {
		key  uint64
		head int32
		a, b uint8
	}
	a := New()
	defer a.Release()
	_ = Make[uint8](a, MinSize+3) // leaves the cursor unaligned
	s := Make[slot](a, big)
	if p := uintptr(unsafe.Pointer(&s[0])); p%unsafe.Alignof(s[0]) != 0 || p%64 != 0 {
		t.Fatalf("array at %#x is not aligned", p)
	}
	s[len(s)-1] = slot{key: 7, head: -1, a: 2}
	if s[len(s)-1].key != 7 {
		t.Fatal("lost a write")
	}
}

func TestMakeRefusesPointers(t *testing.T) {
	for name, f := range map[string]func(){
		"pointer": func() { Make[*int](nil, 1) },
		"string":  func() { Make[string](nil, 1) },
		"slice":   func() { Make[[]byte](nil, 1) },
		"struct": func() {
			Make[struct {
				a int
				s string
			}](nil, 1)
		},
		"array":    func() { Make[[2]map[int]int](nil, 1) },
		"negative": func() { Make[int](nil, -1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatalf("Make did not panic")
				}
			}()
			f()
		})
	}
	// Plain composites are fine.
	_ = Make[[2]int32](nil, 1)
	_ = Make[struct {
		a [3]float64
		b bool
	}](nil, 1)
}

// TestArenaAdvisesHugePages reads the kernel's flags of the mapping an
// array is in: "hg" is MADV_HUGEPAGE's, set whatever the machine's
// transparent_hugepage mode (whether huge pages then come is the kernel's
// choice).
func TestArenaAdvisesHugePages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are asked for on Linux only")
	}
	a := New()
	defer a.Release()
	s := Make[int64](a, big)
	p := uintptr(unsafe.Pointer(&s[0]))
	if p%hugePage != 0 && Holds(a, s) && a.chunks[0].used == big*8 {
		t.Fatalf("the first array of a chunk at %#x is not on a huge page boundary", p)
	}
	flags, err := vmFlags(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Fatalf("the mapping's flags are %q, without hg (MADV_HUGEPAGE)", flags)
	}
}

// vmFlags returns the VmFlags line of the mapping holding address p, from
// /proc/self/smaps.
func vmFlags(p uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = p >= lo && p < hi
			continue
		}
		if in {
			if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok {
				return strings.TrimSpace(rest), nil
			}
		}
	}
	return "", fmt.Errorf("no mapping holds %#x", p)
}

// TestPoisonedReleaseFaults checks the tests' guard: with PoisonReleased,
// an array used after its Arena's Release faults instead of reading memory
// the next computation owns.
func TestPoisonedReleaseFaults(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the arena uses the heap elsewhere")
	}
	defer PoisonReleased(PoisonReleased(true))
	a := New()
	s := Make[int64](a, big)
	s[0] = 1
	a.Release()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	faulted := func() (f bool) {
		defer func() { f = recover() != nil }()
		s[0] = 2
		return false
	}()
	if !faulted {
		t.Fatal("a write after Release did not fault")
	}
}

// TestIdleArenasGiveMemoryBack checks that memory idle for MaxIdle is
// unmapped on the next Release, and that a new Arena then maps afresh.
func TestIdleArenasGiveMemoryBack(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the arena uses the heap elsewhere")
	}
	a := New()
	_ = Make[int64](a, big)
	a.Release()
	idle.Lock()
	for _, x := range idle.arenas {
		x.released = x.released.Add(-2 * MaxIdle)
	}
	idle.trim(a.released.Add(2 * MaxIdle)) // as a collection long after would
	n := len(idle.arenas)
	idle.Unlock()
	if n != 0 || a.chunks != nil {
		t.Fatalf("%d arenas still idle, %d chunks mapped", n, len(a.chunks))
	}
	b := New()
	defer b.Release()
	if s := Make[int64](b, big); !Holds(b, s) || s[len(s)-1] != 0 {
		t.Fatal("a fresh arena does not hand out its memory")
	}
}
