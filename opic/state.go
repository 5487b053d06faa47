package opic

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
)

// The state encoding, little-endian:
//
//	header   "OPIC", version 1, history kind (0 Cumulative, 1 Interpolation),
//	         2 zero bytes, pages uint32, reads uint64,
//	         alpha, window T, Z, H of the virtual page, cash of the virtual
//	         page (float64 each), n0 (pages with initial cash 1/n0) uint32,
//	         merged initial cash entries uint32
//	pages    per page: cash C (float64), Z[i] (float64; -1 for a deleted
//	         page, whose cash is 0), H (float32)
//	merged   per entry, by increasing page: page uint32, initial cash
//	         merged into it (float64)
//	trailer  CRC-32 (IEEE) of everything before it
//
// 20 bytes a page: the in-memory page state without its heap slot. A
// Greedy heap is not stored: NewGreedy rebuilds it from the cash in O(n).
const (
	stateMagic   = "OPIC"
	stateVersion = 1
	headerSize   = 4 + 1 + 1 + 2 + 4 + 8 + 5*8 + 4 + 4
	// EncodedPageSize is the number of bytes per page in the state encoding.
	EncodedPageSize = 20
)

// EncodedSize returns the size of the encoding of a state of n pages (12
// bytes more for each page that redirects were merged into).
func EncodedSize(n int) int { return headerSize + EncodedPageSize*n + 4 }

// ErrBadState is wrapped by the errors of Decode for input that is not a
// valid state.
var ErrBadState = errors.New("invalid OPIC state")

// WriteTo writes the state to w so that Decode can resume the crawl: the
// cash, history and Z[i] of every page, Z, α, the history policy and the
// virtual page. Window policies other than Interpolation keep many
// measures a page and are for comparison only: WriteTo refuses them.
func (o *OPIC) WriteTo(w io.Writer) (int64, error) {
	if o.kind == kindWindow {
		return 0, fmt.Errorf("opic: write state: the window history policies are not persistent; use Cumulative or Interpolation")
	}
	crc := crc32.NewIEEE()
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 64<<10)
	var hdr [headerSize]byte
	copy(hdr[:4], stateMagic)
	hdr[4] = stateVersion
	hdr[5] = byte(o.kind)
	binary.LittleEndian.PutUint32(hdr[8:], uint32(len(o.pages)))
	binary.LittleEndian.PutUint64(hdr[12:], o.reads)
	for i, v := range []float64{o.alpha, o.window, o.z, o.hv, o.cv} {
		binary.LittleEndian.PutUint64(hdr[20+8*i:], math.Float64bits(v))
	}
	merged := make([]PageID, 0, len(o.c0))
	for p := range o.c0 {
		merged = append(merged, p)
	}
	slices.Sort(merged)
	binary.LittleEndian.PutUint32(hdr[60:], uint32(o.n0))
	binary.LittleEndian.PutUint32(hdr[64:], uint32(len(merged)))
	bw.Write(hdr[:])
	var buf [EncodedPageSize]byte
	for i := range o.pages {
		p := &o.pages[i]
		cash := 0.0
		if !p.deleted() {
			cash = p.cash + o.g
		}
		binary.LittleEndian.PutUint64(buf[0:], math.Float64bits(cash))
		binary.LittleEndian.PutUint64(buf[8:], math.Float64bits(p.zlast))
		binary.LittleEndian.PutUint32(buf[16:], math.Float32bits(p.hist))
		bw.Write(buf[:])
	}
	for _, p := range merged {
		binary.LittleEndian.PutUint32(buf[0:], uint32(p))
		binary.LittleEndian.PutUint64(buf[4:], math.Float64bits(o.c0[p]))
		bw.Write(buf[:12])
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("opic: write state: %w", err)
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc.Sum32())
	if _, err := w.Write(sum[:]); err != nil {
		return 0, fmt.Errorf("opic: write state: %w", err)
	}
	return int64(EncodedSize(len(o.pages)) + 12*len(merged)), nil
}

// Decode reads a state written by WriteTo. It returns an error wrapping
// ErrBadState for input that is not a valid state (bad magic, version,
// values out of range, checksum), or the reader's error; it never panics
// and allocates in proportion to the input actually read.
func Decode(r io.Reader) (*OPIC, error) {
	crc := crc32.NewIEEE()
	br := bufio.NewReaderSize(r, 64<<10)
	tr := io.TeeReader(br, crc)
	var hdr [headerSize]byte
	if _, err := io.ReadFull(tr, hdr[:]); err != nil {
		return nil, decodeErr("header", err)
	}
	if string(hdr[:4]) != stateMagic {
		return nil, fmt.Errorf("opic: decode state: bad magic %q: %w", hdr[:4], ErrBadState)
	}
	if hdr[4] != stateVersion {
		return nil, fmt.Errorf("opic: decode state: version %d, want %d: %w", hdr[4], stateVersion, ErrBadState)
	}
	kind := histKind(hdr[5])
	if kind != kindCumulative && kind != kindInterpolation || hdr[6] != 0 || hdr[7] != 0 {
		return nil, fmt.Errorf("opic: decode state: history kind %d: %w", hdr[5], ErrBadState)
	}
	n := binary.LittleEndian.Uint32(hdr[8:])
	if n == math.MaxUint32 {
		return nil, fmt.Errorf("opic: decode state: %d pages: %w", n, ErrBadState)
	}
	var f [5]float64
	for i := range f {
		f[i] = math.Float64frombits(binary.LittleEndian.Uint64(hdr[20+8*i:]))
	}
	o := &OPIC{kind: kind, reads: binary.LittleEndian.Uint64(hdr[12:]),
		alpha: f[0], window: f[1], z: f[2], hv: f[3], cv: f[4]}
	if !(o.alpha >= 0 && o.alpha < 1) {
		return nil, fmt.Errorf("opic: decode state: alpha %v: %w", o.alpha, ErrBadState)
	}
	if kind == kindInterpolation && checkWindow(o.window) != nil || kind == kindCumulative && o.window != 0 {
		return nil, fmt.Errorf("opic: decode state: window %v: %w", o.window, ErrBadState)
	}
	for _, v := range f[2:] {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("opic: decode state: Z or virtual page %v: %w", v, ErrBadState)
		}
	}
	const chunk = 4096
	buf := make([]byte, chunk*EncodedPageSize)
	for done := uint32(0); done < n; {
		k := min(n-done, chunk)
		b := buf[:k*EncodedPageSize]
		if _, err := io.ReadFull(tr, b); err != nil {
			return nil, decodeErr(fmt.Sprintf("page %d", done), err)
		}
		for i := uint32(0); i < k; i++ {
			e := b[i*EncodedPageSize:]
			p := page{
				cash:  math.Float64frombits(binary.LittleEndian.Uint64(e[0:])),
				zlast: math.Float64frombits(binary.LittleEndian.Uint64(e[8:])),
				hist:  math.Float32frombits(binary.LittleEndian.Uint32(e[16:])),
				pos:   noSlot,
			}
			if err := checkPage(p); err != nil {
				return nil, fmt.Errorf("opic: decode state: page %d: %v: %w", done+i, err, ErrBadState)
			}
			if !p.deleted() {
				o.live++
			}
			o.pages = append(o.pages, p)
		}
		done += k
	}
	n0 := binary.LittleEndian.Uint32(hdr[60:])
	nc0 := binary.LittleEndian.Uint32(hdr[64:])
	if n0 > n || nc0 > n {
		return nil, fmt.Errorf("opic: decode state: %d initial pages, %d merged, of %d: %w", n0, nc0, n, ErrBadState)
	}
	o.n0 = int(n0)
	var e [12]byte
	last := PageID(0)
	for i := uint32(0); i < nc0; i++ {
		if _, err := io.ReadFull(tr, e[:]); err != nil {
			return nil, decodeErr("merged initial cash", err)
		}
		p := PageID(binary.LittleEndian.Uint32(e[0:]))
		c := math.Float64frombits(binary.LittleEndian.Uint64(e[4:]))
		if p >= PageID(n) || !(c > 0) || math.IsInf(c, 0) || i > 0 && p <= last {
			return nil, fmt.Errorf("opic: decode state: merged initial cash %v of page %d: %w", c, p, ErrBadState)
		}
		if o.c0 == nil {
			o.c0 = map[PageID]float64{}
		}
		o.c0[p] = c
		last = p
	}
	want := crc.Sum32()
	var sum [4]byte
	if _, err := io.ReadFull(br, sum[:]); err != nil {
		return nil, decodeErr("checksum", err)
	}
	if got := binary.LittleEndian.Uint32(sum[:]); got != want {
		return nil, fmt.Errorf("opic: decode state: checksum %08x, want %08x: %w", got, want, ErrBadState)
	}
	return o, nil
}

func checkPage(p page) error {
	c, h, z := p.cash, float64(p.hist), p.zlast
	switch {
	case math.IsNaN(c) || math.IsInf(c, 0) || c == 0 && math.Signbit(c):
		return fmt.Errorf("cash %v", c)
	case !(h >= 0) || math.IsInf(h, 0):
		return fmt.Errorf("history %v", h)
	case z == deletedMark && c != 0:
		return fmt.Errorf("deleted page with cash %v", c)
	case z != deletedMark && (!(z >= 0) || math.IsInf(z, 0)):
		return fmt.Errorf("last read at Z = %v", z)
	}
	return nil
}

func decodeErr(what string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("opic: decode state: %s: truncated: %w", what, ErrBadState)
	}
	return fmt.Errorf("opic: decode state: %s: %w", what, err)
}
