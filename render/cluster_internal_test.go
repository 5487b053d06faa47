package render

import (
	"math/rand/v2"
	"testing"
)

// TestClusterBoundaryFromStart: ClusterBoundary, which reads back only
// to the nearest stable rune, agrees with the rules applied to the whole
// text from its start.
func TestClusterBoundaryFromStart(t *testing.T) {
	alphabet := []rune{
		'a', '\r', '\n', 0x01, 0x0301, 0x200C, zwj, 0x1F3FD, 0x1F1EB,
		0x1F468, 0x00A9, 0x1100, 0x1161, 0x11A8, 0xAC00, 0xAC01, 0x0600,
		0x0903, 0x0915, 0x094D, 0x0E33, 0xE0067,
	}
	rng := rand.New(rand.NewPCG(2, 29))
	for range 2000 {
		r := make([]rune, rng.IntN(24))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if len(r) == 0 {
			continue
		}
		st := clusterStart(r, 0)
		for i := 1; i < len(r); i++ {
			c := classify(r[i])
			want, known := st.judge(c)
			st.push(c)
			if !known {
				t.Fatalf("%+q: the rules from the start do not know %d", string(r), i)
			}
			if got := ClusterBoundary(r, i); got != want {
				t.Errorf("%+q: ClusterBoundary at %d = %v, from the start %v", string(r), i, got, want)
			}
		}
	}
}

// TestClassify: a rune of each class, from GraphemeBreakProperty.txt,
// emoji-data.txt and DerivedCoreProperties.txt.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want clusterClass
	}{
		{'a', clOther}, {'\r', clCR}, {'\n', clLF}, {0x7F, clControl},
		{0xAD, clControl}, {0x2028, clControl}, {0xFEFF, clControl},
		{0xD800, clControl}, {0x2065, clControl}, {0xE0000, clControl},
		{0x0301, clExtend}, {0x200C, clExtend}, {0x1F3FB, clExtend},
		{0xE0020, clExtend}, {0x09BE, clExtend}, {0xFE0F, clExtend},
		{0x094D, clLinker}, {0x0D4D, clLinker}, {zwj, clZWJ},
		{0x1F1E6, clRegional}, {0x0600, clPrepend}, {0x0D4E, clPrepend},
		{0x11D46, clPrepend}, {0x0903, clSpacingMark}, {0x0E33, clSpacingMark},
		{0x102C, clOther}, {0x1100, clL}, {0x115F, clL}, {0xA960, clL},
		{0x1160, clV}, {0xD7B0, clV}, {0x11A8, clT}, {0xD7FB, clT},
		{0xAC00, clLV}, {0xAC1C, clLV}, {0xAC01, clLVT}, {0xD7A3, clLVT},
		{0x00A9, clPictographic}, {0x2764, clPictographic}, {0x1F600, clPictographic},
		{0x1FFFD, clPictographic}, {0x0915, clConsonant}, {0x0D3A, clConsonant},
		{0x0E01, clOther}, {-1, clControl}, {0x110000, clOther},
	} {
		if got := classify(tc.r); got != tc.want {
			t.Errorf("classify(%U) = %d, want %d", tc.r, got, tc.want)
		}
	}
}
