package treediff

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
)

// checkAlgebra checks the invariants of the issue on three consecutive
// versions: Apply(a, Diff(a,b)) = b, Apply(b, Invert(Diff(a,b))) = a and
// Apply(a, Compose(Diff(a,b), Diff(b,c))) = c, content and XIDs.
func checkAlgebra(t *testing.T, name string, a, b, c *tree.Document, opt *Options) {
	t.Helper()
	a0, b0, c0 := a.Clone(), b.Clone(), c.Clone()
	dab, err := Diff(a, b, opt)
	if err != nil {
		t.Fatalf("%s: diff a b: %v", name, err)
	}
	dbc, err := Diff(b, c, opt)
	if err != nil {
		t.Fatalf("%s: diff b c: %v", name, err)
	}
	for _, x := range []struct {
		what string
		got  *tree.Document
		orig *tree.Document
	}{{"a", a, a0}, {"b", b, b0}, {"c", c, c0}} {
		if d := tree.Diff(x.got.Root, x.orig.Root, tree.Content); d != "" {
			t.Fatalf("%s: Diff changed the content of %s: %s", name, x.what, d)
		}
	}
	got, err := delta.Apply(a, dab)
	if err != nil {
		t.Fatalf("%s: apply: %v", name, err)
	}
	if d := tree.Diff(got.Root, b.Root, tree.ContentAndXIDs); d != "" {
		t.Fatalf("%s: Apply(a, Diff(a,b)) != b: %s", name, d)
	}
	back, err := delta.Apply(b, delta.Invert(dab))
	if err != nil {
		t.Fatalf("%s: apply inverse: %v", name, err)
	}
	if d := tree.Diff(back.Root, a.Root, tree.ContentAndXIDs); d != "" {
		t.Fatalf("%s: Apply(b, Invert(Diff(a,b))) != a: %s", name, d)
	}
	dac, err := delta.Compose(dab, dbc)
	if err != nil {
		// Compose refuses, rather than guesses, the rare composition it
		// cannot do without the documents; ComposeWith always can.
		t.Logf("%s: compose without documents: %v; using ComposeWith", name, err)
		if dac, err = delta.ComposeWith(a, dab, dbc); err != nil {
			t.Fatalf("%s: compose with the base: %v", name, err)
		}
	}
	end, err := delta.Apply(a, dac)
	if err != nil {
		t.Fatalf("%s: apply composed: %v", name, err)
	}
	if d := tree.Diff(end.Root, c.Root, tree.ContentAndXIDs); d != "" {
		t.Fatalf("%s: Apply(a, Compose(Diff(a,b), Diff(b,c))) != c: %s", name, d)
	}
}

// corpusHistories returns, for each history folder under root, its version
// files in order.
func corpusHistories(t *testing.T, root string) map[string][]string {
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
		if len(versions) >= 3 {
			out[d.Name()] = versions
		}
	}
	return out
}

func parseFile(t *testing.T, path string) *tree.Document {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := markup.ParseBytes(b, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

func runCorpus(t *testing.T, root string, step int) {
	for name, versions := range corpusHistories(t, root) {
		t.Run(name, func(t *testing.T) {
			for _, alg := range []Algorithm{Vigil, XyDiff} {
				for k := 0; k+2*step < len(versions); k += step {
					a, b, c := parseFile(t, versions[k]), parseFile(t, versions[k+step]), parseFile(t, versions[k+2*step])
					checkAlgebra(t, fmt.Sprintf("%s %s %s", alg, filepath.Base(versions[k]), filepath.Base(versions[k+step])), a, b, c, &Options{Algorithm: alg})
				}
			}
		})
	}
}

// TestRoundTripCorpus runs the invariants on every real history: the full
// shared corpus when it is beside the repository, else the subset kept in
// testdata/corpus (what CI has).
func TestRoundTripCorpus(t *testing.T) {
	root := "../../shared/corpus"
	if _, err := os.Stat(root); err != nil {
		root = "../testdata/corpus"
	}
	runCorpus(t, root, 1)
}

// TestRoundTripGenerated runs the invariants on simulated histories of every
// shape, at several change rates, with both algorithms.
func TestRoundTripGenerated(t *testing.T) {
	for _, shape := range simulate.Shapes {
		for _, rate := range []float64{0.01, 0.1, 0.3} {
			for seed := uint64(1); seed <= 3; seed++ {
				a, err := simulate.Generate(shape, 30000, seed)
				if err != nil {
					t.Fatal(err)
				}
				b, _, err := simulate.Change(a, simulate.Spread(rate), seed*10)
				if err != nil {
					t.Fatal(err)
				}
				c, _, err := simulate.Change(b, simulate.Spread(rate), seed*10+1)
				if err != nil {
					t.Fatal(err)
				}
				for _, alg := range []Algorithm{Vigil, XyDiff} {
					x, y, z := a.Clone(), b.Clone(), c.Clone()
					clearXIDs(y)
					clearXIDs(z)
					clearXIDs(x)
					checkAlgebra(t, fmt.Sprintf("%s/%s/%g/%d", alg, shape, rate, seed), x, y, z, &Options{Algorithm: alg})
				}
			}
		}
	}
}

// TestFlatListMoves is the bar: a flat list of 5 000 siblings with 40
// items moved yields at most 40 moves (the XyDiff tool, greedy above 100
// children, reports thousands).
func TestFlatListMoves(t *testing.T) {
	var a, b strings.Builder
	a.WriteString("<list>")
	items := make([]int, 5000)
	for i := range items {
		items[i] = i
		fmt.Fprintf(&a, "<item>item %d</item>", i)
	}
	a.WriteString("</list>")
	// Move 40 items: every 125th item goes to the front of the list.
	var moved, rest []int
	for i, v := range items {
		if i%125 == 7 {
			moved = append(moved, v)
		} else {
			rest = append(rest, v)
		}
	}
	b.WriteString("<list>")
	for _, v := range append(moved, rest...) {
		fmt.Fprintf(&b, "<item>item %d</item>", v)
	}
	b.WriteString("</list>")
	for _, alg := range []Algorithm{Vigil, XyDiff} {
		old, err := markup.ParseXMLBytes([]byte(a.String()), nil)
		if err != nil {
			t.Fatal(err)
		}
		newDoc, err := markup.ParseXMLBytes([]byte(b.String()), nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Diff(old, newDoc, &Options{Algorithm: alg})
		if err != nil {
			t.Fatal(err)
		}
		s := d.Stats()
		if s.Moves > 40 || s.Inserts+s.Deletes+s.Updates > 0 {
			t.Errorf("%s: %d moves, %d inserts, %d deletes, %d updates; want at most 40 moves only", alg, s.Moves, s.Inserts, s.Deletes, s.Updates)
		}
		got, err := delta.Apply(old, d)
		if err != nil {
			t.Fatal(err)
		}
		if diff := tree.Diff(got.Root, newDoc.Root, tree.ContentAndXIDs); diff != "" {
			t.Fatal(diff)
		}
	}
}
