package imagedigest

import (
	"bytes"
	"crypto/sha256"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"testing"
)

// BenchmarkSum hashes a large PNG and a large JPEG of Go's encoders
// (a photograph's noise, so that the compressed data is most of the
// file), beside the SHA-256 of the same bytes, the hash a crawl took
// before: its MB/s are of the files' bytes, and Sum should run at about
// the speed of SHA-256, as it reads the containers only.
//
//	go test -run '^$' -bench Sum ./imagedigest
func BenchmarkSum(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, 1024, 1024))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range 1024 {
		for x := range 1024 {
			img.Set(x, y, color.RGBA{uint8(x + r.IntN(32)), uint8(y + r.IntN(32)), uint8(r.IntN(256)), 0xFF})
		}
	}
	var p, j bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		b.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, &jpeg.Options{Quality: 90}); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		file []byte
		sum  func([]byte) error
	}{
		{"png", p.Bytes(), func(f []byte) error { _, err := Sum(f); return err }},
		{"png-sha256", p.Bytes(), func(f []byte) error { sha256.Sum256(f); return nil }},
		{"jpeg", j.Bytes(), func(f []byte) error { _, err := Sum(f); return err }},
		{"jpeg-sha256", j.Bytes(), func(f []byte) error { sha256.Sum256(f); return nil }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if err := bc.sum(bc.file); err != nil {
				b.Fatalf("Sum: %v", err)
			}
			b.SetBytes(int64(len(bc.file)))
			b.ReportAllocs()
			for b.Loop() {
				if err := bc.sum(bc.file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
