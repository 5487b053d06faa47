package webtable

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// FuzzDecodeTable: the decoder never panics; what it accepts is a valid
// table that encodes and decodes to itself, and that Diff takes.
func FuzzDecodeTable(f *testing.F) {
	for _, w := range []*Table{valid(), build("Drugs", f1Old...), {}} {
		data, _ := json.Marshal(w)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := DecodeTable(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("decoded an invalid table: %v", err)
		}
		enc, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		w2, err := DecodeTable(bytes.NewReader(enc))
		if err != nil {
			t.Fatalf("re-decoding %s: %v", enc, err)
		}
		if enc2, _ := json.Marshal(w2); !bytes.Equal(enc, enc2) {
			t.Fatalf("round trip:\n%s\n%s", enc, enc2)
		}
		d, err := Diff(w, w, &Options{Cover: true, Complete: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Mod.Tuples)+len(d.Plus.Tuples)+len(d.Minus.Tuples) != 0 {
			t.Fatal("Diff of a table with itself is not empty")
		}
		if _, err := Diff(w, &Table{Name: "empty"}, nil); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzDiff builds two small tables from the input and checks Diff and Join
// against the reference and the invariants, with every option.
func FuzzDiff(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x05\x10\x90\x30\xf0\x44\x80\x22\x71\x08\xa0\x33"))
	f.Add([]byte("mini-panacea: a hub, dangling tuples, consumed nodes"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w1, w2 := randomTables(rand.New(&byteSource{data: data}))
		for _, opt := range allOptions {
			if !sameAsReference(t, w1, w2, opt) {
				t.Fatalf("tables:\n%s\n%s", tableText(w1), tableText(w2))
			}
			if msg := invariants(w1, w2, opt); msg != "" {
				t.Fatalf("%+v: %s\n%s\n%s", opt, msg, tableText(w1), tableText(w2))
			}
		}
	})
}

// byteSource is a rand.Source that draws each number from one input byte
// (repeated through the 64 bits), so that every byte the fuzzer changes
// changes about one choice; when the input runs out it goes on with a fixed
// PCG (a constant source would never end rand's rejection loops).
type byteSource struct {
	data []byte
	rest *rand.PCG
}

func (s *byteSource) Uint64() uint64 {
	if len(s.data) == 0 {
		if s.rest == nil {
			s.rest = rand.NewPCG(1, 2)
		}
		return s.rest.Uint64()
	}
	b := uint64(s.data[0])
	s.data = s.data[1:]
	return b<<56 | b<<48 | b<<40 | b<<32 | b<<24 | b<<16 | b<<8 | b
}
