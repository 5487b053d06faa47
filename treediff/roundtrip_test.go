package treediff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
// children, reports thousands). The items are distinct, or repeat (a, b,
// c, a, b, c...: no item is unique, and pairing each old item with the
// next identical new one paired most of them one item off, 118 moves), or
// repeat but for the moved ones, which are unique: taken as anchors where
// they moved to, they cut the list into the wrong stretches, and the
// repeated items of each were paired across the cuts (1 700 moves).
func TestFlatListMoves(t *testing.T) {
	list := func(items []int, label func(int) string) string {
		var b strings.Builder
		b.WriteString("<list>")
		for _, v := range items {
			fmt.Fprintf(&b, "<item>%s</item>", label(v))
		}
		b.WriteString("</list>")
		return b.String()
	}
	distinct := func(v int) string { return fmt.Sprint("item ", v) }
	repeated := func(v int) string { return []string{"a", "b", "c"}[v%3] }
	// movedUnique labels the items toFront and atRandom move with their
	// number, the others a or b.
	moved := map[int]bool{}
	for _, v := range rand.New(rand.NewPCG(3, 4)).Perm(5000)[:40] {
		moved[v] = true
	}
	movedUnique := func(v int) string {
		if v%125 == 7 || moved[v] {
			return fmt.Sprint("moved ", v)
		}
		return []string{"a", "b"}[v%2]
	}
	// toFront moves every 125th item to the front; atRandom moves 40
	// random items to random places, one after the other.
	toFront := func(items []int) []int {
		var moved, rest []int
		for i, v := range items {
			if i%125 == 7 {
				moved = append(moved, v)
			} else {
				rest = append(rest, v)
			}
		}
		return append(moved, rest...)
	}
	atRandom := func(items []int) []int {
		r := rand.New(rand.NewPCG(3, 4))
		out := slices.Clone(items)
		for _, v := range r.Perm(len(items))[:40] {
			at := slices.Index(out, v)
			out = slices.Delete(out, at, at+1)
			out = slices.Insert(out, r.IntN(len(out)+1), v)
		}
		return out
	}
	items := make([]int, 5000)
	for i := range items {
		items[i] = i
	}
	for _, tc := range []struct {
		name  string
		label func(int) string
		move  func([]int) []int
		algs  []Algorithm
	}{
		{"distinct/to-front", distinct, toFront, []Algorithm{Vigil, XyDiff}},
		{"distinct/at-random", distinct, atRandom, []Algorithm{Vigil}},
		{"repeated/to-front", repeated, toFront, []Algorithm{Vigil}},
		{"repeated/at-random", repeated, atRandom, []Algorithm{Vigil}},
		{"moved-unique/to-front", movedUnique, toFront, []Algorithm{Vigil}},
		{"moved-unique/at-random", movedUnique, atRandom, []Algorithm{Vigil}},
	} {
		for _, alg := range tc.algs {
			old, newDoc := parse(t, list(items, tc.label)), parse(t, list(tc.move(items), tc.label))
			d, err := Diff(old, newDoc, &Options{Algorithm: alg})
			if err != nil {
				t.Fatal(err)
			}
			s := d.Stats()
			if s.Moves > 40 || s.Inserts+s.Deletes+s.Updates > 0 {
				t.Errorf("%s, %s: %d moves, %d inserts, %d deletes, %d updates; want at most 40 moves only", tc.name, alg, s.Moves, s.Inserts, s.Deletes, s.Updates)
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
}

// TestRepeatedItemsChangedInPlace: in a list whose items repeat (a, b, c,
// a, b, c...), items changed in place are updates, nothing else, whether
// the new value is new or another item's. Pairing each old item with the
// next identical new one made 2 900 moves of 1 000 changes.
func TestRepeatedItemsChangedInPlace(t *testing.T) {
	const n = 6000
	r := rand.New(rand.NewPCG(5, 6))
	old, changed := make([]string, n), make([]string, n)
	for i := range old {
		old[i] = []string{"a", "b", "c"}[i%3]
	}
	copy(changed, old)
	picked := r.Perm(n)[:60]
	for k, i := range picked {
		if k%2 == 0 {
			changed[i] = fmt.Sprint("x", i) // a new value
		} else {
			changed[i] = []string{"b", "c", "a"}[i%3] // another item's
		}
	}
	list := func(items []string) string {
		var b strings.Builder
		b.WriteString("<list>")
		for _, v := range items {
			fmt.Fprintf(&b, "<item>%s</item>", v)
		}
		b.WriteString("</list>")
		return b.String()
	}
	d := diffXML(t, list(old), list(changed))
	if s := d.Stats(); s.Updates != len(picked) || s.Moves+s.Inserts+s.Deletes > 0 {
		t.Errorf("%+v, want %d updates only", s, len(picked))
	}
}

// TestRepeatedItemsInsertedDeleted: items only inserted among repeated
// ones, or only deleted, are inserts or deletes and nothing else. Taking
// every differing pair with an agreeing pair after it as changed in place
// made 31 moves of 90 inserts, and 64 updates of 130 deletes.
func TestRepeatedItemsInsertedDeleted(t *testing.T) {
	var abc, abcPlus, ab, onlyA strings.Builder
	for range 30 {
		abc.WriteString("<a/><b/><c/>")
		abcPlus.WriteString("<a/><a/><b/><a/><c/><a/>")
	}
	for range 130 {
		ab.WriteString("<i>a</i><i>b</i>")
		onlyA.WriteString("<i>a</i>")
	}
	for _, tc := range []struct {
		name, old, new string
		want           func(delta.Stats) bool
	}{
		{"inserted", abc.String(), abcPlus.String(), func(s delta.Stats) bool { return s.Inserts == 90 && s.Moves+s.Deletes+s.Updates == 0 }},
		{"deleted", ab.String(), onlyA.String(), func(s delta.Stats) bool { return s.Deletes == 130 && s.Moves+s.Inserts+s.Updates == 0 }},
	} {
		if s := diffXML(t, "<r>"+tc.old+"</r>", "<r>"+tc.new+"</r>").Stats(); !tc.want(s) {
			t.Errorf("%s: %+v", tc.name, s)
		}
	}
}

// TestSwappedSiblingsAreMoves: siblings that changed places, each alone
// between two children that stayed, are moves, not values rewritten in
// place (which reads as two paragraphs edited when none was). So are
// repeated ones that no common run pairs better than in order: r0 r1 r1
// r0 to r1 r0 r0 r1 was the update of the lone r1 left between two pairs
// to r0, an insert of r1 and a delete of r0 (a cost of five for two
// moves).
func TestSwappedSiblingsAreMoves(t *testing.T) {
	items := func(tag string, vals ...int) string {
		var b strings.Builder
		b.WriteString("<l>")
		for _, v := range vals {
			fmt.Fprintf(&b, "<i>%s%d</i>", tag, v)
		}
		b.WriteString("</l>")
		return b.String()
	}
	for _, tc := range []struct{ old, new string }{
		{"<r><a>alpha</a><b>x</b><a>beta</a><a>gamma</a></r>", "<r><a>gamma</a><b>x</b><a>alpha</a><a>beta</a></r>"},
		{"<l><i>0</i><i>1</i><i>2</i><i>3</i><i>4</i><i>5</i><i>6</i><i>7</i><i>8</i><i>9</i></l>",
			"<l><i>0</i><i>1</i><i>2</i><i>3</i><i>9</i><i>5</i><i>6</i><i>7</i><i>4</i><i>8</i></l>"},
		{items("r", 0, 1, 1, 0), items("r", 1, 0, 0, 1)},
		{items("r", 1, 0, 0, 1), items("r", 0, 1, 1, 0)},
		{items("r", 0, 2, 1, 1, 2), items("r", 0, 1, 2, 2, 1)},
		{items("r", 0, 0, 2, 1, 2), items("r", 2, 0, 2, 0, 1)},
		// The twins in other gaps: unique children moved too (r3, r0),
		// or none did.
		{items("r", 0, 3, 2, 1, 2), items("r", 2, 3, 0, 2, 1)},
		{items("r", 2, 1, 0, 3, 0), items("r", 0, 1, 0, 2, 3)},
		{items("r", 2, 0, 2, 1, 0), items("r", 0, 2, 0, 1, 2)},
	} {
		if s := diffXML(t, tc.old, tc.new).Stats(); s.Moves != 2 || s.Inserts+s.Deletes+s.Updates > 0 {
			t.Errorf("%s -> %s: %+v, want 2 moves only", tc.old, tc.new, s)
		}
	}
}

// TestEditBesideInsertOrDelete: an item edited beside one deleted or
// inserted is the update of that item, not of its neighbour. Both cost the
// same (one text update and one subtree), and the delta must say what a
// reader sees; where the words tell nothing, the earlier sibling is paired.
func TestEditBesideInsertOrDelete(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		update   [2]string // the only text update: old and new value
	}{
		{"<ul><li>Apples are red</li><li>Bananas are yellow</li><li>Cherries are dark red</li></ul>",
			"<ul><li>Apples are green</li><li>Cherries are dark red</li></ul>", [2]string{"Apples are red", "Apples are green"}},
		{"<ul><li>Apples are red</li><li>Bananas are yellow</li><li>Cherries are dark red</li></ul>",
			"<ul><li>Apples are red</li><li>Bananas are ripe and yellow</li></ul>", [2]string{"Bananas are yellow", "Bananas are ripe and yellow"}},
		{"<body><p>The quick brown fox jumps over the lazy dog.</p></body>",
			"<body><p>The quick brown fox jumps over the lazy cat.</p><p>New para.</p></body>",
			[2]string{"The quick brown fox jumps over the lazy dog.", "The quick brown fox jumps over the lazy cat."}},
		{"<body><p>New para.</p><p>The quick brown fox jumps over the lazy dog.</p></body>",
			"<body><p>The quick brown fox jumps over the lazy cat.</p></body>",
			[2]string{"The quick brown fox jumps over the lazy dog.", "The quick brown fox jumps over the lazy cat."}},
		{"<p>Hello world</p>", "<p>Hello<br/>world</p>", [2]string{"Hello world", "Hello"}},
	} {
		d := diffXML(t, tc.old, tc.new)
		// A text update is a delete and an insert of the same XID, with
		// Update set.
		var updates [][2]string
		for _, del := range d.Ops {
			if del.Kind != delta.Delete || !del.Update {
				continue
			}
			for _, ins := range d.Ops {
				if ins.Kind == delta.Insert && ins.Update && ins.Root() == del.Root() {
					updates = append(updates, [2]string{del.Content.Value, ins.Content.Value})
				}
			}
		}
		if len(updates) != 1 || updates[0] != tc.update {
			t.Errorf("%s -> %s: updates %q, want %q\n%s", tc.old, tc.new, updates, tc.update, ops(d))
		}
	}
}
