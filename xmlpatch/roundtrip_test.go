package xmlpatch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// corpusDir is the full shared corpus when it is beside the repository,
// else the subset kept in testdata/corpus (what CI has), as the delta and
// treediff round trips read it.
var corpusDir = func() string {
	if _, err := os.Stat("../../shared/corpus"); err == nil {
		return "../../shared/corpus"
	}
	return "../testdata/corpus"
}()

// histories returns, for each history folder under root, its version
// files in order.
func histories(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, d.Name(), "v*.*"))
		var versions []string
		for _, f := range files {
			if strings.HasSuffix(f, ".xml") || strings.HasSuffix(f, ".html") {
				versions = append(versions, f)
			}
		}
		sort.Strings(versions)
		if len(versions) >= 2 {
			out[d.Name()] = versions
		}
	}
	return out
}

func parseFile(t *testing.T, path string, ws markup.Whitespace) *tree.Document {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := markup.ParseBytes(b, &markup.Options{Whitespace: ws})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

// TestRoundTripCorpus checks Apply(old, Export(old, Diff(old, new))) = new
// on every pair of consecutive versions of every real history (the
// histories the delta and treediff round trips use), with both
// algorithms and both white-space policies, through the patch written
// and read back.
func TestRoundTripCorpus(t *testing.T) {
	eachCorpusStep(t, func(t *testing.T, old, new *tree.Document, alg treediff.Algorithm) {
		_, err := tryRoundTrip(t, old, new, &treediff.Options{Algorithm: alg})
		if err == nil {
			return
		}
		// A change RFC 5261 cannot state: the DOCTYPE, or what an HTML
		// parser keeps and XML cannot hold.
		if why := inexpressible(old, new); !errors.Is(err, ErrInexpressible) || why == "" {
			t.Fatalf("export: %v", err)
		}
		t.Logf("refused, as it must be: %v", err)
	})
}

// eachCorpusStep calls step, in a subtest, on every pair of consecutive
// versions of every real history, with both algorithms and both
// white-space policies (the first three versions of each history with
// -short). Each version is parsed once; step gets copies it may change.
func eachCorpusStep(t *testing.T, step func(t *testing.T, old, new *tree.Document, alg treediff.Algorithm)) {
	for name, versions := range histories(t, corpusDir) {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && len(versions) > 3 {
				versions = versions[:3]
			}
			for _, ws := range []markup.Whitespace{markup.Normalize, markup.Keep} {
				docs := make([]*tree.Document, len(versions))
				for k, v := range versions {
					docs[k] = parseFile(t, v, ws)
				}
				for _, alg := range []treediff.Algorithm{treediff.Vigil, treediff.XyDiff} {
					for k := 0; k+1 < len(versions); k++ {
						old, new := docs[k].Clone(), docs[k+1].Clone()
						t.Run(fmt.Sprintf("%s/%v/%s", filepath.Base(versions[k]), ws, alg), func(t *testing.T) { step(t, old, new, alg) })
					}
				}
			}
		})
	}
}

// TestRoundTripGenerated checks the round trip on simulated histories of
// every shape, at several change rates.
func TestRoundTripGenerated(t *testing.T) {
	size := 30000
	if testing.Short() {
		size = 3000
	}
	for _, shape := range simulate.Shapes {
		for _, rate := range []float64{0.01, 0.1, 0.3} {
			for seed := uint64(1); seed <= 3; seed++ {
				a, err := simulate.Generate(shape, size, seed)
				if err != nil {
					t.Fatal(err)
				}
				b, _, err := simulate.Change(a, simulate.Spread(rate), seed*10)
				if err != nil {
					t.Fatal(err)
				}
				for _, alg := range []treediff.Algorithm{treediff.Vigil, treediff.XyDiff} {
					t.Run(fmt.Sprintf("%s/%s/%g/%d", alg, shape, rate, seed), func(t *testing.T) {
						x, y := a.Clone(), b.Clone()
						clearXIDs(x)
						clearXIDs(y)
						roundTrip(t, x, y, &treediff.Options{Algorithm: alg})
					})
				}
			}
		}
	}
}

// inexpressible says why the change from old to new may not be stated in
// an RFC 5261 patch: the DOCTYPE changes, or new holds what XML cannot
// (an attribute named "<" on an HTML page); "" if there is no reason.
func inexpressible(old, new *tree.Document) string {
	if strings.Join(strings.Fields(old.Doctype), " ") != strings.Join(strings.Fields(new.Doctype), " ") {
		return "the DOCTYPE changes"
	}
	if before := parts(new)[beforeTheDoctype]; len(parts(old)[beforeTheDoctype]) == 0 && len(before) > 0 {
		return "a comment or processing instruction comes before the DOCTYPE, which nothing preceded"
	}
	p := &Patch{Ops: []Op{{Kind: Add, Sel: "/", Content: []*tree.Node{new.Root}}}}
	if err := Encode(io.Discard, p); err != nil {
		return err.Error()
	}
	return ""
}

func clearXIDs(d *tree.Document) {
	tree.Walk(d.Root, func(n *tree.Node) bool { n.XID = 0; return true })
	d.NextXID = 0
}
