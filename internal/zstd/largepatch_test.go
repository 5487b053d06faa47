package zstd_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vigil-web/vigil/internal/zstd"
)

// TestPatchOfLargePage: a patch of a large page against its next version,
// a few words changed every 100 KB, is small beside the page compressed,
// as it is for a page of 100 KB. At the fastest level, whose hash table
// holds few of a large base's positions, it was most of the page's
// compressed size past a few MB (2.3 MB against 2.7 MB for a page of
// 10 MB changing 1 %): a large page's history cost a full copy a version.
func TestPatchOfLargePage(t *testing.T) {
	c, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{1 << 20, 3 << 20, 10 << 20, 20 << 20} {
		older := page(r, size)
		newer := append([]byte(nil), older...)
		for i := 1000; i+7 < len(newer); i += 100_000 {
			copy(newer[i:], "CHANGED")
		}
		p, err := c.Diff(newer, older) // the older version against the newer, as the warehouse keeps it
		if err != nil {
			t.Fatal(err)
		}
		full, err := c.Compress(older)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d MB: patch %d, compressed %d", size>>20, len(p), len(full))
		if len(p)*20 > len(full) {
			t.Errorf("%d MB: patch of %d bytes against %d compressed", size>>20, len(p), len(full))
		}
	}
}
