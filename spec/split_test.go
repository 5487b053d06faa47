package spec

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestSplitGolden: each part of a file printed alone is its sentinel with
// the comments of its own text (testdata/split: input.ssl, then 1.ssl,
// 2.ssl... the parts' canonical forms; -update rewrites them).
func TestSplitGolden(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "split", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no golden files")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			comment, files := parseTxtar(data)
			if len(files) == 0 || files[0].name != "input.ssl" {
				t.Fatal("the first file must be input.ssl")
			}
			f, err := Parse(path, files[0].data)
			if err != nil {
				t.Fatal(err)
			}
			parts := Split(f)
			if len(parts) != len(f.Sentinels) {
				t.Fatalf("%d parts for %d sentinels", len(parts), len(f.Sentinels))
			}
			if *update {
				files = files[:1]
				for i, p := range parts {
					files = append(files, archiveFile{name: fmt.Sprintf("%d.ssl", i+1), data: []byte(Print(p))})
				}
				if err := os.WriteFile(path, formatTxtar(comment, files), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if len(files)-1 != len(parts) {
				t.Fatalf("%d parts, %d expected (go test ./spec -update rewrites them)", len(parts), len(files)-1)
			}
			for i, p := range parts {
				if got := []byte(Print(p)); !bytes.Equal(got, files[i+1].data) {
					t.Errorf("part %d differs (go test ./spec -update rewrites it):\n got:\n%s\nwant:\n%s", i+1, got, files[i+1].data)
				}
			}
		})
	}
}

// TestSplitKeepsEveryComment: over a few files, an empty one and one
// without sentinels among them, every comment of the file is in exactly
// one part, and each part holds its sentinel alone. Files of random layout
// are split by TestFormatLayoutProperty, whose parts printed one blank
// line apart must be the whole file's canonical form.
func TestSplitKeepsEveryComment(t *testing.T) {
	for _, src := range []string{
		"",
		"# only a comment\n",
		"Create Sentinel a Using http://a.example/\n",
		"# a\nCreate Sentinel a Using http://a.example/ # a\n\tMonitor any change\n\t# a\n# b\n\t# b\nCreate Sentinel b Using http://b.example/\n# b\n",
	} {
		f, err := Parse("", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		parts := Split(f)
		if len(parts) != len(f.Sentinels) {
			t.Fatalf("%q: %d parts for %d sentinels", src, len(parts), len(f.Sentinels))
		}
		seen := map[*Comment]int{}
		for i, p := range parts {
			if len(p.Sentinels) != 1 || p.Sentinels[0] != f.Sentinels[i] {
				t.Errorf("%q: part %d does not hold its sentinel alone", src, i)
			}
			for _, c := range p.Comments {
				seen[c]++
			}
		}
		for _, c := range f.Comments {
			if len(f.Sentinels) > 0 && seen[c] != 1 {
				t.Errorf("%q: comment %q at %d is in %d parts", src, c.Text, c.Hash.Offset, seen[c])
			}
		}
	}
}
