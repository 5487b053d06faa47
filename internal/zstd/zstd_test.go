package zstd_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/zstd"
)

func page(r *rand.Rand, n int) []byte {
	words := []string{"alpha", "beta", "gamma", "delta", "price", "camera", "news", "<p>", "</p>", "<li>", "</li>"}
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(' ')
		if r.IntN(20) == 0 {
			fmt.Fprintf(&b, "%d ", r.IntN(100000))
		}
	}
	return b.Bytes()
}

func TestRoundTrip(t *testing.T) {
	c, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	base := page(r, 100_000)
	target := append([]byte(nil), base...)
	copy(target[5000:], "CHANGED")
	target = append(target[:70000], append([]byte("INSERTED TEXT "), target[70000:]...)...)
	cases := map[string][2][]byte{
		"similar":     {base, target},
		"empty base":  {nil, target},
		"empty both":  {nil, nil},
		"empty new":   {base, nil},
		"unrelated":   {base, page(r, 5000)},
		"identical":   {base, base},
		"binary junk": {[]byte{0, 1, 2, 255}, []byte{255, 254, 0}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := c.Diff(tc[0], tc[1])
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Patch(tc[0], p)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc[1]) {
				t.Fatalf("patch round trip differs (%d vs %d bytes)", len(got), len(tc[1]))
			}
			z, err := c.Compress(tc[1])
			if err != nil {
				t.Fatal(err)
			}
			back, err := c.Decompress(z)
			if err != nil || !bytes.Equal(back, tc[1]) {
				t.Fatalf("compress round trip: %v", err)
			}
			t.Logf("%s: full %d, compressed %d, patch %d", name, len(tc[1]), len(z), len(p))
		})
	}
	full, _ := c.Compress(target)
	p, _ := c.Diff(base, target)
	if len(p)*20 > len(full) {
		t.Errorf("patch of a small change is %d bytes against %d compressed", len(p), len(full))
	}
	if _, err := c.Patch(page(r, 1000), p); err == nil {
		t.Log("patch against the wrong base decoded (zstd cannot always tell)")
	}
}

// TestReusedCodersConcurrently diffs and patches many pairs with different
// bases from several goroutines: pooled coders must not leak a dictionary
// from one use into the next.
func TestReusedCodersConcurrently(t *testing.T) {
	c, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	var pages [][]byte
	for range 12 {
		pages = append(pages, page(r, 2000+r.IntN(50_000)))
	}
	done := make(chan error, 4)
	for g := range 4 {
		go func() {
			for i := range 40 {
				base, target := pages[(g+i)%len(pages)], pages[(g*3+i*7)%len(pages)]
				p, err := c.Diff(base, target)
				if err != nil {
					done <- err
					return
				}
				got, err := c.Patch(base, p)
				if err != nil || !bytes.Equal(got, target) {
					done <- fmt.Errorf("goroutine %d pair %d: %v", g, i, err)
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestEmptyInputRefused holds that zero bytes are no body and no patch:
// every frame Compress, CompressFast or Diff writes, even of an empty
// body, has a header, so a stored body of zero bytes was truncated or
// lost, and decoding it must fail rather than read as an empty page.
func TestEmptyInputRefused(t *testing.T) {
	c, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() ([]byte, error){
		"decompress nil":      func() ([]byte, error) { return c.Decompress(nil) },
		"decompress empty":    func() ([]byte, error) { return c.Decompress([]byte{}) },
		"patch nil":           func() ([]byte, error) { return c.Patch([]byte("base"), nil) },
		"patch on empty base": func() ([]byte, error) { return c.Patch(nil, []byte{}) },
	} {
		t.Run(name, func(t *testing.T) {
			out, err := f()
			if err == nil {
				t.Fatalf("decoded zero bytes as %q, want an error", out)
			}
			if !strings.Contains(err.Error(), "empty") {
				t.Errorf("error %q does not say the input is empty", err)
			}
		})
	}
	for name, f := range map[string]func([]byte) ([]byte, error){
		"compress": c.Compress, "compress fast": c.CompressFast,
		"diff": func(b []byte) ([]byte, error) { return c.Diff([]byte("base"), b) },
	} {
		out, err := f(nil)
		if err != nil || len(out) == 0 {
			t.Errorf("%s of an empty body gave %d bytes, %v: want a frame", name, len(out), err)
		}
	}
}
