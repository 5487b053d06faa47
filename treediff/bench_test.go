package treediff

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
)

// pair returns an old version and a changed new version without XIDs, as a
// parser would give them.
func pair(tb testing.TB, shape simulate.Shape, size int, rate float64) (*tree.Document, *tree.Document) {
	tb.Helper()
	old, err := simulate.Generate(shape, size, 1)
	if err != nil {
		tb.Fatal(err)
	}
	newDoc, _, err := simulate.Change(old, simulate.Spread(rate), 2)
	if err != nil {
		tb.Fatal(err)
	}
	clearXIDs(newDoc)
	return old, newDoc
}

func clearXIDs(d *tree.Document) {
	tree.Walk(d.Root, func(n *tree.Node) bool { n.XID = 0; return true })
	d.NextXID = 0
}

func BenchmarkDiff(b *testing.B) {
	for _, size := range []int{10 << 10, 1 << 20, 10 << 20} {
		for _, rate := range []float64{0.01, 0.1, 0.3} {
			old, newDoc := pair(b, simulate.Records, size, rate)
			b.Run(fmt.Sprintf("records/%dKB/%g%%", size>>10, rate*100), func(b *testing.B) {
				b.SetBytes(int64(size))
				for i := 0; i < b.N; i++ {
					n := newDoc.Clone()
					if _, err := Diff(old, n, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDiffCorpus diffs every consecutive pair of the real histories (the
// shared corpus when present, else the subset in testdata), parsing
// excluded.
func BenchmarkDiffCorpus(b *testing.B) {
	root := "../../shared/corpus"
	if _, err := os.Stat(root); err != nil {
		root = "../testdata/corpus"
	}
	dirs, err := os.ReadDir(root)
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range dirs {
		var files []string
		for _, ext := range []string{"xml", "html"} {
			f, _ := filepath.Glob(filepath.Join(root, d.Name(), "v*."+ext))
			files = append(files, f...)
		}
		sort.Strings(files)
		if len(files) < 2 {
			continue // a site of folders, not a history of files
		}
		var docs []*tree.Document
		size := 0
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			doc, _, err := markup.ParseBytes(data, nil)
			if err != nil {
				b.Fatal(err)
			}
			docs = append(docs, doc)
			size += len(data)
		}
		b.Run(d.Name(), func(b *testing.B) {
			b.SetBytes(int64(size))
			for i := 0; i < b.N; i++ {
				for k := 0; k+1 < len(docs); k++ {
					if _, err := Diff(docs[k].Clone(), docs[k+1].Clone(), nil); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
