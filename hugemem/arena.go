package hugemem

import (
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// MinSize is the size in bytes below which Make returns an array from the
// Go heap: a smaller one is read within few pages anyway, and would leave
// most of a huge page unused.
const MinSize = 256 << 10

// chunkSize is the least address space an Arena maps at a time. Only the
// pages written are backed by memory.
const chunkSize = 64 << 20

// hugePage is the size of the huge pages chunks are aligned to.
const hugePage = 2 << 20

// An Arena hands out arrays that live until its Release. It is not safe for
// concurrent use: one computation uses it at a time. A nil *Arena is valid
// and makes every array on the Go heap.
type Arena struct {
	chunks []chunk
	// cur is the chunk arrays are being cut from.
	cur int
	// released is when the Arena was last released.
	released time.Time
}

// chunk is one mapping: mem is the part of it arrays are cut from (from a
// huge page boundary on), used the bytes of mem handed out since the last
// Release, and dirty the bytes ever handed out, which hold old contents
// until cleared (the rest is still as the kernel mapped it: zero).
type chunk struct {
	mapping, mem []byte
	used, dirty  int
}

// New returns an Arena: the one released last, with its memory, when one
// is idle.
func New() *Arena {
	idle.Lock()
	defer idle.Unlock()
	if n := len(idle.arenas); n > 0 {
		a := idle.arenas[n-1]
		idle.arenas[n-1] = nil
		idle.arenas = idle.arenas[:n-1]
		return a
	}
	return &Arena{}
}

// Release ends the computation: every array a made is invalid from now on.
// Its memory is kept for the next New, or given back to the system once it
// has been idle for MaxIdle.
func (a *Arena) Release() {
	if a == nil {
		return
	}
	if poison.on() {
		a.unmap()
	}
	for k := range a.chunks {
		a.chunks[k].used = 0
	}
	a.cur = 0
	a.released = time.Now()
	idle.Lock()
	defer idle.Unlock()
	idle.arenas = append(idle.arenas, a)
	idle.trim(a.released)
	idle.arm()
}

// MaxIdle is how long an Arena released and not taken again keeps its
// memory. Idle arenas are looked at on Release and after each collection
// (the runtime collects at least every two minutes).
const MaxIdle = time.Minute

// idleArenas holds the arenas released and not yet taken again, most
// recent last.
type idleArenas struct {
	sync.Mutex
	arenas []*Arena
	// armed is set while a cleanup is due to trim them after the next
	// collection.
	armed bool
}

var idle idleArenas

// trim unmaps the memory of the arenas idle for MaxIdle at now, and drops
// them. idle is locked.
func (l *idleArenas) trim(now time.Time) {
	kept := l.arenas[:0]
	for _, a := range l.arenas {
		if now.Sub(a.released) >= MaxIdle {
			a.unmap()
			continue
		}
		kept = append(kept, a)
	}
	clear(l.arenas[len(kept):])
	l.arenas = kept
}

// arm has the next collection trim the idle arenas, and re-arm while any
// arena is idle, so that memory left idle is given back even when no other
// computation comes. idle is locked.
func (l *idleArenas) arm() {
	if l.armed {
		return
	}
	l.armed = true
	tick := new(gcTick)
	runtime.AddCleanup(tick, func(int) {
		l.Lock()
		defer l.Unlock()
		l.armed = false
		l.trim(time.Now())
		if len(l.arenas) > 0 {
			l.arm()
		}
	}, 0)
}

// gcTick is an object made to be collected: its cleanup runs after a
// collection. (Large enough not to share a block of the tiny allocator
// with others that live on.)
type gcTick struct{ _ [32]byte }

// Make returns a zeroed array of n Ts: in a's memory when a is not nil, the
// array is at least MinSize bytes and the system gives huge pages,
// otherwise from the Go heap. T must hold no pointers; Make panics if it
// does, as it would corrupt the heap.
func Make[T any](a *Arena, n int) []T {
	if n < 0 {
		panic(fmt.Sprintf("hugemem: Make of %d elements", n))
	}
	t := reflect.TypeFor[T]()
	if !plain(t) {
		panic(fmt.Sprintf("hugemem: %v holds pointers", t))
	}
	hi, size := bits.Mul64(uint64(t.Size()), uint64(n))
	if a == nil || size < MinSize || hi != 0 || size > math.MaxInt/2 {
		return make([]T, n) // make reports a size too large
	}
	b := a.alloc(int(size), max(t.Align(), 64))
	if b == nil {
		return make([]T, n)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// Holds reports whether s is in a's memory: an array Make cut from it, or
// part of one.
func Holds[T any](a *Arena, s []T) bool {
	if a == nil || cap(s) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	for _, c := range a.chunks {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(c.mem)))
		if p >= start && p < start+uintptr(len(c.mem)) {
			return true
		}
	}
	return false
}

// alloc returns size zeroed bytes aligned to align, or nil when no memory
// can be mapped.
func (a *Arena) alloc(size, align int) []byte {
	for ; a.cur < len(a.chunks); a.cur++ {
		c := &a.chunks[a.cur]
		start := (c.used + align - 1) &^ (align - 1)
		if start+size <= len(c.mem) {
			b := c.mem[start : start+size : start+size]
			if start < c.dirty {
				clear(b[:min(size, c.dirty-start)])
			}
			c.used = start + size
			c.dirty = max(c.dirty, c.used)
			return b
		}
	}
	mapping, mem := mapHuge((size + chunkSize - 1) &^ (chunkSize - 1))
	if mem == nil {
		return nil
	}
	a.chunks = append(a.chunks, chunk{mapping: mapping, mem: mem, used: size, dirty: size})
	a.cur = len(a.chunks) - 1
	return mem[:size:size]
}

// unmap gives the mappings back to the system.
func (a *Arena) unmap() {
	defer func() { a.chunks, a.cur = nil, 0 }()
	for _, c := range a.chunks {
		if poison.on() {
			protect(c.mapping)
			continue
		}
		unmapHuge(c.mapping)
	}
}

// plainTypes caches plain's answers by type.
var plainTypes sync.Map // reflect.Type -> bool

// plain reports whether values of t hold no pointers.
func plain(t reflect.Type) bool {
	if ok, found := plainTypes.Load(t); found {
		return ok.(bool)
	}
	ok := plainKind(t)
	plainTypes.Store(t, ok)
	return ok
}

func plainKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Array:
		return t.Len() == 0 || plainKind(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !plainKind(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// poisoning is the switch of PoisonReleased.
type poisoning struct {
	mu sync.Mutex
	v  bool
}

func (p *poisoning) on() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.v
}

var poison poisoning

// PoisonReleased, for tests, makes Release take the memory away from the
// process instead of keeping it (reads and writes of it fault): an array
// used after its Arena's Release then crashes the test that does it. It
// returns the previous setting.
func PoisonReleased(on bool) bool {
	poison.mu.Lock()
	defer poison.mu.Unlock()
	old := poison.v
	poison.v = on
	return old
}
