package opic

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"testing"
)

func crawled(t testing.TB, h History) (*OPIC, *Graph) {
	g, err := PowerLaw(300, InDegreeExponent, 11)
	if err != nil {
		t.Fatal(err)
	}
	o, err := New(g.Len(), Config{Alpha: DefaultAlpha, History: h})
	if err != nil {
		t.Fatal(err)
	}
	pol := NewGreedy(o)
	for i := range 3 * g.Len() {
		p, _ := pol.Next()
		o.Read(p, g.Links(p))
		if i == 100 {
			o.Delete(5)
			o.Merge(6, 7)
		}
	}
	return o, g
}

func TestStateRoundTrip(t *testing.T) {
	for _, h := range []History{Cumulative{}, Interpolation{Window: 3}} {
		t.Run(HistoryName(h), func(t *testing.T) {
			o, g := crawled(t, h)
			var buf bytes.Buffer
			n, err := o.WriteTo(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(buf.Len()) || buf.Len() != EncodedSize(o.Len())+12 { // one merge
				t.Fatalf("wrote %d bytes, reported %d, EncodedSize %d", buf.Len(), n, EncodedSize(o.Len()))
			}
			d, err := Decode(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if d.Len() != o.Len() || d.Live() != o.Live() || d.Z() != o.Z() || d.Reads() != o.Reads() ||
				d.Alpha() != o.Alpha() || d.Window() != o.Window() || d.VirtualHistory() != o.VirtualHistory() {
				t.Fatalf("decoded state differs in its totals")
			}
			for i := range o.Len() {
				p := PageID(i)
				if d.Cash(p) != o.Cash(p) || d.History(p) != o.History(p) || d.LastRead(p) != o.LastRead(p) ||
					d.Deleted(p) != o.Deleted(p) || d.Estimate(p) != o.Estimate(p) ||
					d.InitialCash(p) != o.InitialCash(p) || d.Propagated(p) != o.Propagated(p) {
					t.Fatalf("page %d differs after the round trip", i)
				}
			}
			var again bytes.Buffer
			d.WriteTo(&again)
			if !bytes.Equal(again.Bytes(), buf.Bytes()) {
				t.Fatal("re-encoding differs")
			}
			// Resume: both crawls go on the same way.
			po, pd := NewGreedy(o), NewGreedy(d)
			for range 2 * g.Len() {
				a, _ := po.Next()
				b, _ := pd.Next()
				if a != b {
					// Float rounding may break a near-tie differently.
					if !near(o.Cash(a), o.Cash(b), 1e-9) {
						t.Fatalf("resumed crawl chose %d, original %d", b, a)
					}
				}
				o.Read(a, g.Links(a))
				d.Read(a, g.Links(a))
			}
			for i := range o.Len() {
				if !near(d.Estimate(PageID(i)), o.Estimate(PageID(i)), 1e-6*o.Estimate(PageID(i))+1e-12) {
					t.Fatalf("page %d: resumed estimate %v, original %v", i, d.Estimate(PageID(i)), o.Estimate(PageID(i)))
				}
			}
			checkInvariants(t, d, h == Cumulative{})
		})
	}
	o, _ := New(3, Config{History: VariableWindow{K: 2}})
	if _, err := o.WriteTo(&bytes.Buffer{}); err == nil {
		t.Error("window history written")
	}
}

func TestDecodeErrors(t *testing.T) {
	o, _ := crawled(t, Cumulative{})
	var buf bytes.Buffer
	o.WriteTo(&buf)
	good := buf.Bytes()
	cases := map[string][]byte{
		"empty":     nil,
		"magic":     append([]byte("XPIC"), good[4:]...),
		"truncated": good[:len(good)-7],
		"no crc":    good[:len(good)-4],
		"flipped":   flip(good, headerSize+20),
		"version":   flip(good, 4),
	}
	for name, in := range cases {
		if _, err := Decode(bytes.NewReader(in)); !errors.Is(err, ErrBadState) {
			t.Errorf("%s: %v, want ErrBadState", name, err)
		}
	}
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0x40
	return c
}

// FuzzDecode: the decoder never panics, and what it accepts encodes back
// to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, h := range []History{Cumulative{}, Interpolation{Window: 2}} {
		o, _ := New(3, Config{Alpha: 0.15, History: h})
		o.Read(0, []PageID{1, 2})
		o.Delete(2)
		var buf bytes.Buffer
		o.WriteTo(&buf)
		f.Add(buf.Bytes())
		f.Add(buf.Bytes()[:30])
		f.Add(flip(buf.Bytes(), headerSize+3))
	}
	empty, _ := New(0, Config{})
	var buf bytes.Buffer
	empty.WriteTo(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte("OPIC\x01\x00\x00\x00\xff\xff\xff\xfe"))
	f.Fuzz(func(t *testing.T, in []byte) {
		o, err := Decode(bytes.NewReader(in))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := o.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), in[:out.Len()]) {
			t.Fatal("accepted state encodes differently")
		}
		o.Importances(nil, EstimatePropagated)
		NewGreedy(o).Next()
	})
}

// TestDecodeBadValues: values out of range are refused even with a valid
// checksum.
func TestDecodeBadValues(t *testing.T) {
	o, _ := New(3, Config{Alpha: 0.15})
	o.Read(0, []PageID{1})
	o.Delete(2)
	var buf bytes.Buffer
	o.WriteTo(&buf)
	good := buf.Bytes()
	page := func(i int) int { return headerSize + i*EncodedPageSize }
	f64 := func(off int, v float64) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint64(b[off:], math.Float64bits(v)) }
	}
	f32 := func(off int, v float32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[off:], math.Float32bits(v)) }
	}
	cases := map[string]func([]byte){
		"alpha 1":            f64(20, 1),
		"negative Z":         f64(36, -1),
		"cumulative window":  f64(28, 3),
		"history kind 7":     func(b []byte) { b[5] = 7 },
		"NaN cash":           f64(page(0), math.NaN()),
		"negative zero cash": f64(page(0), math.Copysign(0, -1)),
		"negative history":   f32(page(1)+16, -1),
		"infinite history":   f32(page(1)+16, float32(math.Inf(1))),
		"bad last read":      f64(page(1)+8, -2),
		"deleted with cash":  f64(page(2), 0.5),
		"n0 above n":         func(b []byte) { binary.LittleEndian.PutUint32(b[60:], 4) },
	}
	for name, edit := range cases {
		b := bytes.Clone(good)
		edit(b)
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
		if _, err := Decode(bytes.NewReader(b)); !errors.Is(err, ErrBadState) {
			t.Errorf("%s: %v, want ErrBadState", name, err)
		}
	}
	if _, err := Decode(bytes.NewReader(good)); err != nil {
		t.Fatalf("the unedited state: %v", err)
	}
}

func TestAccessors(t *testing.T) {
	o, _ := New(2, Config{Alpha: 0.15, History: Interpolation{Window: 2}})
	if o.ZPerRead() != 0 || o.Importance(5) != 0 || o.History(5) != 0 || o.LastRead(5) != 0 || o.Cash(5) != 0 {
		t.Error("accessors of an unread or unknown page")
	}
	o.Read(0, []PageID{1})
	if !near(o.ZPerRead(), o.Z(), 1e-15) || !near(o.Importance(0), o.History(0)/2, 1e-15) {
		t.Errorf("Z per read %v, H/T %v", o.ZPerRead(), o.Importance(0))
	}
	if err := o.SetWindow(0); err == nil {
		t.Error("window 0: no error")
	}
	c, _ := New(2, Config{})
	if err := c.SetWindow(3); err == nil || c.Window() != 0 {
		t.Error("SetWindow on cumulative history")
	}
	w, _ := New(2, Config{History: VariableWindow{K: 2}})
	w.Read(0, []PageID{1})
	w.Read(1, []PageID{0})
	w.Read(0, []PageID{1})
	if w.Importance(0) <= 0 || w.Propagated(0) != w.Estimate(0) {
		t.Errorf("window importance %v", w.Importance(0))
	}
	for e, s := range map[Estimator]string{EstimateSeed: "(H+C)/(Z+1)", EstimateHistory: "H/Z", EstimatePropagated: "(H+C-C0)/Z"} {
		if e.String() != s {
			t.Errorf("%d: %q", e, e.String())
		}
	}
	if HistoryName(nil) != "cumulative" {
		t.Error(HistoryName(nil))
	}
}
