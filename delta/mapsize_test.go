package delta

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDecodeWithinRefusesLongVersionMap: a delta of a hundred bytes whose
// version maps list 60 million XIDs is refused, when the reader bounds the
// versions' nodes, before the maps are expanded (they took 500 MB); a map
// within the bound decodes as before.
func TestDecodeWithinRefusesLongVersionMap(t *testing.T) {
	const maxAlloc = 64 << 20
	for _, tc := range []struct {
		name, in string
		json     bool
		refused  bool
	}{
		{"xml", `<unit_delta><t fromXidMap="(1-60000000|60000001)" toXidMap="(1-60000000|60000001)"></t></unit_delta>`, false, true},
		{"xml target", `<unit_delta><t fromXidMap="(1-3|4)" toXidMap="(1-60000000;60000002|60000003)"></t></unit_delta>`, false, true},
		{"json", `{"fromXidMap": "(1-60000000|60000001)", "toXidMap": "(1-60000000|60000001)", "ops": []}`, true, true},
		{"xml within", `<unit_delta><t fromXidMap="(1-3|4)" toXidMap="(1-3|4)"></t></unit_delta>`, false, false},
		{"json within", `{"fromXidMap": "(1-3|4)", "toXidMap": "(1-3|4)", "ops": []}`, true, false},
	} {
		var err error
		n := allocated(func() {
			if tc.json {
				_, err = DecodeJSONAllWithin(strings.NewReader(tc.in), Limits{MaxNodes: 3 + len(tc.in)})
			} else {
				_, err = DecodeXMLWithin(strings.NewReader(tc.in), Limits{MaxNodes: 3 + len(tc.in)})
			}
		})
		var se *MapSizeError
		switch {
		case tc.refused && (!errors.As(err, &se) || !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "XIDs for a version of at most")):
			t.Errorf("%s: got %v, want a *MapSizeError", tc.name, err)
		case !tc.refused && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		}
		if n > maxAlloc {
			t.Errorf("%s: allocated %d MB, want less than %d", tc.name, n>>20, maxAlloc>>20)
		}
	}
}

// TestComposeLongVersionMaps: two deltas of one update each to a version of
// sixty million nodes, whose maps are one run, decode, compose, invert and
// encode in a few hundred bytes of maps, where each map was expanded to
// 480 MB (vigil compose took 2 s and 550 MB on two files of 200 bytes).
func TestComposeLongVersionMaps(t *testing.T) {
	const (
		m  = "(1-60000000|60000001)"
		d1 = `<unit_delta><t fromXidMap="` + m + `" toXidMap="` + m + `"><d par="3" pos="1" xm="(2)" update="yes">x</d><i par="3" pos="1" xm="(2)" update="yes">y</i></t></unit_delta>`
		d2 = `{"fromXidMap": "` + m + `", "toXidMap": "` + m + `", "ops": [{"op":"d","par":3,"pos":1,"xm":"(2)","update":true,"content":{"kind":"text","value":"y"}},{"op":"i","par":3,"pos":1,"xm":"(2)","update":true,"content":{"kind":"text","value":"z"}}]}`
	)
	var out strings.Builder
	n := allocated(func() {
		a, err := DecodeXML(strings.NewReader(d1))
		if err != nil {
			t.Fatal(err)
		}
		b, err := DecodeJSONAll(strings.NewReader(d2))
		if err != nil {
			t.Fatal(err)
		}
		c, err := Compose(a[0], b[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := EncodeXML(&out, Invert(c)); err != nil {
			t.Fatal(err)
		}
	})
	if got := out.String(); !strings.Contains(got, `fromXidMap="`+m+`"`) || !strings.Contains(got, `toXidMap="`+m+`"`) ||
		!strings.Contains(got, `>z</d>`) || !strings.Contains(got, `>x</i>`) {
		t.Errorf("the composition, inverted, is\n%s", got)
	}
	if n > 1<<20 {
		t.Errorf("allocated %d KB, want less than 1 MB", n>>10)
	}
}
