package imagedigest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSum: Sum never panics, is a function of its input, and fails only
// with a *FormatError whose offset is in the file, and a zero sum. Its
// seed corpus is testdata/fuzz/FuzzSum (go test ./imagedigest -run
// TestFuzzSumCorpus -update writes it again).
func FuzzSum(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		sum, err := Sum(data)
		again, err2 := Sum(data)
		if sum != again || (err == nil) != (err2 == nil) {
			t.Fatalf("two sums of the same bytes differ: %x, %v; %x, %v", sum, err, again, err2)
		}
		if err == nil {
			if Format(data) == "" {
				t.Fatalf("a sum of bytes of no format")
			}
			return
		}
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > len(data) || fe.Msg == "" {
			t.Fatalf("error %#v is no *FormatError within the file's %d bytes", err, len(data))
		}
		if sum != [32]byte{} {
			t.Fatalf("sum %x with an error, want zero", sum)
		}
	})
}

// TestFuzzSumCorpus writes the seed corpus of FuzzSum with -update, and
// otherwise checks that it is there.
func TestFuzzSumCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzSum")
	seeds := map[string][]byte{
		"png":       pngRun(t, firstRun, 0),
		"png-idat":  pngRun(t, secondRun, 7),
		"jpeg":      jpegRun(t, firstRun),
		"gif":       gifRun(t, firstRun, 0, 100),
		"webp":      webpRun(firstRun, true),
		"webp-bare": webpRun(firstRun, false),
	}
	// And files it cannot read, or reads in part.
	for _, name := range []string{"png", "jpeg", "gif", "webp"} {
		seeds[name+"-truncated"] = seeds[name][:len(seeds[name])*2/3]
	}
	seeds["exif-loop"] = []byte("\xFF\xD8\xFF\xE1\x00\x1AExif\x00\x00II\x2a\x00\x08\x00\x00\x00\xFF\xFF\x12\x01\x03\x00\x01\x00\x00\x00\xFF\xD9")
	seeds["gif-empty-application"] = []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00\x21\xFF\x00\x3B")
	for name, data := range seeds {
		path := filepath.Join(dir, name)
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s: missing or stale (go test ./imagedigest -run TestFuzzSumCorpus -update): %v", path, err)
		}
	}
}
