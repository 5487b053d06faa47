package zstd_test

import (
	"math/rand/v2"
	"testing"

	"github.com/vigil-web/vigil/internal/zstd"
)

func benchPair() ([]byte, []byte) {
	r := rand.New(rand.NewPCG(3, 4))
	base := page(r, 100_000)
	target := append([]byte(nil), base...)
	for i := range 10 {
		copy(target[i*9000+100:], "CHANGED TEXT HERE")
	}
	return base, target
}

func BenchmarkCompress100K(b *testing.B) {
	c, _ := zstd.New(0)
	_, t := benchPair()
	b.SetBytes(int64(len(t)))
	for b.Loop() {
		c.Compress(t)
	}
}

func BenchmarkDecompress100K(b *testing.B) {
	c, _ := zstd.New(0)
	_, t := benchPair()
	z, _ := c.Compress(t)
	b.SetBytes(int64(len(t)))
	for b.Loop() {
		c.Decompress(z)
	}
}

func BenchmarkDiff100K(b *testing.B) {
	c, _ := zstd.New(0)
	base, t := benchPair()
	b.SetBytes(int64(len(t)))
	for b.Loop() {
		c.Diff(base, t)
	}
}

func BenchmarkPatch100K(b *testing.B) {
	c, _ := zstd.New(0)
	base, t := benchPair()
	p, _ := c.Diff(base, t)
	b.SetBytes(int64(len(t)))
	for b.Loop() {
		c.Patch(base, p)
	}
}
