package markup_test

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// sameFlat returns "" when a and b hold the same nodes in the same arrays,
// and otherwise the first difference.
func sameFlat(a, b *tree.Flat) string {
	if a.Len() != b.Len() {
		return fmt.Sprintf("%d nodes != %d nodes", a.Len(), b.Len())
	}
	for i := range int32(a.Len()) {
		switch {
		case a.Kind[i] != b.Kind[i], a.Name(i) != b.Name(i), a.Value(i) != b.Value(i):
			return fmt.Sprintf("node %d: %s %q %q != %s %q %q", i, a.Kind[i], a.Name(i), a.Value(i), b.Kind[i], b.Name(i), b.Value(i))
		case a.Size[i] != b.Size[i], a.Parent[i] != b.Parent[i], a.Pos[i] != b.Pos[i]:
			return fmt.Sprintf("node %d: size, parent, position %d %d %d != %d %d %d", i, a.Size[i], a.Parent[i], a.Pos[i], b.Size[i], b.Parent[i], b.Pos[i])
		case !slices.Equal(a.Attrs(i), b.Attrs(i)):
			return fmt.Sprintf("node %d: attributes %v != %v", i, a.Attrs(i), b.Attrs(i))
		}
	}
	if a.Doctype != b.Doctype || len(a.Prolog) != len(b.Prolog) || len(a.Epilog) != len(b.Epilog) || len(a.IDAttrs) != len(b.IDAttrs) {
		return "DOCTYPE, prolog, epilog or ID attributes differ"
	}
	return ""
}

// checkFlatParse parses in both ways, as a tree and flat, and fails unless
// both give the same error or the same document.
func checkFlatParse(t *testing.T, in []byte, opt *markup.Options) {
	t.Helper()
	d, _, err := markup.ParseBytes(in, opt)
	f, _, ferr := markup.ParseFlatBytesOwned(bytes.Clone(in), opt)
	if (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error() {
		t.Fatalf("tree parse: %v; flat parse: %v", err, ferr)
	}
	if err != nil {
		return
	}
	want, nodes := tree.FlattenDocument(d)
	if diff := sameFlat(f, want); diff != "" {
		t.Fatalf("flat parse differs from the flattened tree: %s", diff)
	}
	// Both trees name their nodes alike, by every way of naming them (the
	// ones that count siblings at each call on a sample: they take time
	// quadratic in a list's length).
	fp := tree.NewFlatPaths(f)
	var np tree.NodePaths
	for i, n := range nodes {
		k := int32(i)
		p := fp.Path(k)
		if got := np.Path(n); got != p {
			t.Fatalf("node %d: NodePaths %s, FlatPaths %s", i, got, p)
		}
		if i%97 == 0 || len(nodes) < 1000 {
			if got, got2 := f.Path(k), tree.Path(n); got != p || got2 != p {
				t.Fatalf("node %d: Flat.Path %s, Path %s, FlatPaths %s", i, got, got2, p)
			}
		}
	}
	if diff := tree.Diff(f.Document().Root, d.Root, tree.Content); diff != "" {
		t.Fatalf("the flat parse built back as a tree: %s", diff)
	}
}

// FuzzParseFlat checks that the flat parser reads every input as the tree
// parser does: the same error, or the same nodes.
func FuzzParseFlat(f *testing.F) {
	for _, s := range xmlSeeds {
		f.Add([]byte(s))
	}
	for _, s := range htmlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, opt := range []*markup.Options{nil, keep} {
			checkFlatParse(t, in, opt)
		}
	})
}

// TestParseFlatCorpus runs the same check on every document of the corpus.
func TestParseFlatCorpus(t *testing.T) {
	dir := sharedCorpus
	if _, err := os.Stat(dir); err != nil {
		dir = "../testdata/corpus"
	}
	files := corpusFiles(t, dir)
	if len(files) == 0 {
		t.Fatalf("no documents under %s", dir)
	}
	for _, name := range files {
		in, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) { checkFlatParse(t, in, nil) })
	}
}
