package warehouse

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/vigil-web/vigil"
)

// referenceBytesCut is bytesCut's definition, one storedBytes pass per
// candidate cut.
func referenceBytesCut(sizes []vigil.BodySize, cut int, maxBytes int64) int {
	for cut < len(sizes)-1 && storedBytes(sizes[cut:]) > maxBytes {
		cut++
	}
	return cut
}

// randomSizes returns n versions, oldest first: patches and full copies
// drawn from a few blobs (so that many are shared, also between distant
// versions), with and without tree deltas.
func randomSizes(rng *rand.Rand, n, blobs int) []vigil.BodySize {
	sizes := make([]vigil.BodySize, n)
	for i := range sizes {
		s := vigil.BodySize{VersionID: int64(i + 1), Seq: int64(i + 1), Encoding: vigil.BodyPatch, Bytes: rng.Int64N(2000)}
		if rng.IntN(3) == 0 {
			h := rng.IntN(blobs)
			s.Encoding, s.Hash, s.Bytes = vigil.BodyFull, fmt.Sprint("blob", h), 500+int64(h)*37
		}
		if rng.IntN(2) == 0 {
			s.TreeBytes = rng.Int64N(300)
		}
		sizes[i] = s
	}
	return sizes
}

func TestBytesCutMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2020 {
		n := 1 + rng.IntN(200)
		if trial >= 2000 {
			n = 2000 + rng.IntN(2000) // long histories
		}
		sizes := randomSizes(rng, n, 1+rng.IntN(20))
		total := storedBytes(sizes)
		maxBytes := 1 + rng.Int64N(total+total/4+1)
		start := rng.IntN(n)
		if rng.IntN(2) == 0 {
			start = 0
		}
		if got, want := bytesCut(sizes, start, maxBytes), referenceBytesCut(sizes, start, maxBytes); got != want {
			t.Fatalf("trial %d (%d versions, from %d, max %d): cut %d, want %d", trial, n, start, maxBytes, got, want)
		}
	}
	// A blob shared by versions whose sizes disagree: the oldest occurrence
	// in the kept suffix is the one counted, as storedBytes counts it.
	odd := []vigil.BodySize{
		{Encoding: vigil.BodyFull, Hash: "a", Bytes: 10},
		{Encoding: vigil.BodyFull, Hash: "a", Bytes: 1000},
		{Encoding: vigil.BodyPatch, Bytes: 5},
	}
	for maxBytes := int64(0); maxBytes < 1100; maxBytes += 5 {
		if got, want := bytesCut(odd, 0, maxBytes), referenceBytesCut(odd, 0, maxBytes); got != want {
			t.Fatalf("max %d: cut %d, want %d", maxBytes, got, want)
		}
	}
}

// BenchmarkBytesCut finds the byte-limited cut over 1 KB versions (every
// fourth a full copy, some blobs shared) with a 10 000-byte limit.
func BenchmarkBytesCut(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		sizes := make([]vigil.BodySize, n)
		for i := range sizes {
			sizes[i] = vigil.BodySize{VersionID: int64(i + 1), Seq: int64(i + 1), Encoding: vigil.BodyPatch, Bytes: 1000}
			if i%4 == 0 {
				sizes[i].Encoding, sizes[i].Hash = vigil.BodyFull, fmt.Sprint("blob", i%64)
			}
		}
		b.Run(fmt.Sprintf("versions=%d", n), func(b *testing.B) {
			for b.Loop() {
				if cut := bytesCut(sizes, 0, 10_000); cut < n-11 {
					b.Fatalf("cut %d", cut)
				}
			}
		})
	}
}
