package treediff

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/editdist"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
)

// parse reads compact XML into a document.
func parse(t testing.TB, s string) *tree.Document {
	t.Helper()
	d, err := markup.ParseXMLBytes([]byte(s), nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// diffXML parses two compact XML versions and diffs them with the default
// algorithm.
func diffXML(t testing.TB, old, new string) *delta.Delta {
	t.Helper()
	d, err := Diff(parse(t, old), parse(t, new), nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func ops(d *delta.Delta) string {
	var b strings.Builder
	for i := range d.Ops {
		b.WriteString(d.Ops[i].String())
		b.WriteByte('\n')
	}
	return b.String()
}

// checkApplies asserts that d turns v1 into v2, XIDs included.
func checkApplies(t *testing.T, v1, v2 *tree.Document, d *delta.Delta) {
	t.Helper()
	got, err := delta.Apply(v1, d)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	if diff := tree.Diff(got.Root, v2.Root, tree.ContentAndXIDs); diff != "" {
		t.Fatalf("apply does not rebuild v2: %s", diff)
	}
}

// TestDiffSeedExamples checks that the XyDiff algorithm gives the deltas of
// the seed and of the XyDiff tool on the seed's examples (notes 001a, §8).
func TestDiffSeedExamples(t *testing.T) {
	tests := []struct {
		name     string
		v1, v2   string
		ops      string
		toXIDMap string
	}{
		{
			name: "camera (figures 3.2-3.5)",
			v1:   `<Category><Title>Digital Cameras</Title><Discount><Product><Name>tx123</Name><Price>$499</Price></Product></Discount><NewProducts><Product><Name>zy456</Name><Price>$799</Price></Product></NewProducts></Category>`,
			v2:   `<Category><Title>Digital Cameras</Title><Discount><Product><Name>zy456</Name><Price>$699</Price></Product></Discount><NewProducts><Product><Name>abc</Name><Price>$899</Price></Product></NewProducts></Category>`,
			ops: `d par=12 pos=1 xm=(11) update "$799"
d par=14 pos=1 xm=(13) move
d par=8 pos=1 xm=(3-7) <Product>
i par=8 pos=1 xm=(13) move
i par=12 pos=1 xm=(11) update "$699"
i par=14 pos=1 xm=(16-20) <Product>
`,
			toXIDMap: "(1-2;9-13;8;16-20;14-15|21)",
		},
		{
			name: "catalog (figures 5.1-5.2)",
			v1:   `<catalog><product><name>Notebook</name><description>2200MHz Pentium4</description><price>$1999</price></product><product><name>Digital Camera</name><description>Fuji FinePix 2600Z</description><status>Not Available</status></product></catalog>`,
			v2:   `<catalog><product><name>Notebook</name><description>2200MHz Pentium4</description><price>$1999</price></product><product><name>Digital Camera</name><description>Fuji FinePix 2600Z</description><price>$299</price></product></catalog>`,
			ops: `d par=14 pos=3 xm=(12-13) <status>
i par=14 pos=3 xm=(16-17) <price>
`,
			toXIDMap: "(1-11;16-17;14-15|18)",
		},
		{
			name: "reorder (figure 3.6)",
			v1:   `<r><A/><B/><C/><D/><E/><F/></r>`,
			v2:   `<r><B/><C/><A/><D/><E/><F/></r>`,
			ops:  "d par=7 pos=1 xm=(1) move\ni par=7 pos=3 xm=(1) move\n",
		},
		{
			name: "reorder with deletes, inserts and a cross-parent move (E3)",
			v1:   `<r><v><A>a</A><X>x</X><B>b</B><C>c</C><Y>y</Y><D>d</D><E>e</E><F>f</F></v><w/></r>`,
			v2:   `<r><v><B>b</B><Z>z1</Z><C>c</C><A>a</A><D>d</D><Z>z2</Z><E>e</E><F>f</F></v><w><X>x</X></w></r>`,
			ops: `d par=17 pos=5 xm=(9-10) <Y>
d par=17 pos=2 xm=(4) move
d par=17 pos=1 xm=(2) move
i par=17 pos=2 xm=(20-21) <Z>
i par=17 pos=4 xm=(2) move
i par=17 pos=6 xm=(22-23) <Z>
i par=18 pos=1 xm=(4) move
`,
		},
		{
			name: "attributes and mixed content (E9)",
			v1:   `<root><p a="1" b="2">hello</p><q><x/>old text<y/></q></root>`,
			v2:   `<root><p a="1" b="3" c="4">hello</p><q><x/>new text<y/></q></root>`,
			ops: `au xid=2 a=b ov="2" nv="3"
ai xid=2 a=c v="4"
d par=6 pos=2 xm=(4) update "old text"
i par=6 pos=2 xm=(4) update "new text"
`,
		},
		{
			name: "DeltaXML per-level example (E6): 6 operations",
			v1:   `<top><a><b>text</b><b>text</b></a><a><b>text</b></a></top>`,
			v2:   `<top><a><b>new text</b></a><a><b>new text</b></a><a><b>updated text</b><b>text</b><b>text</b></a><a><b>updated text</b></a><a><b>updated text</b></a></top>`,
			ops: `d par=9 pos=2 xm=(6-8) <a>
i par=9 pos=1 xm=(10-12) <a>
i par=9 pos=2 xm=(13-15) <a>
i par=5 pos=1 xm=(16-17) <b>
i par=9 pos=4 xm=(18-20) <a>
i par=9 pos=5 xm=(21-23) <a>
`,
		},
		{
			name: "root renamed",
			v1:   `<a><x>1</x></a>`,
			v2:   `<b><x>1</x></b>`,
			ops:  "rn xid=3 ov=\"a\" nv=\"b\"\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v1, v2 := parse(t, tt.v1), parse(t, tt.v2)
			d, err := Diff(v1, v2, &Options{Algorithm: XyDiff})
			if err != nil {
				t.Fatal(err)
			}
			checkApplies(t, v1, v2, d)
			if tt.ops != "" {
				if got := ops(d); got != tt.ops {
					t.Errorf("ops:\n%s\nwant:\n%s", got, tt.ops)
				}
			}
			if tt.toXIDMap != "" && d.ToXIDMap.String() != tt.toXIDMap {
				t.Errorf("ToXIDMap = %s, want %s", d.ToXIDMap, tt.toXIDMap)
			}
		})
	}
}

// TestDiffVigilExamples checks Vigil's default on the seed's examples where
// its recovery finds a cheaper delta than XyDiff.
func TestDiffVigilExamples(t *testing.T) {
	tests := []struct {
		name    string
		v1, v2  string
		ops     string
		cost    int
		minimum bool // the cost is the exact minimum without moves
	}{
		{
			name: "catalog: rename and update instead of delete and insert",
			v1:   `<catalog><product><name>Notebook</name><description>2200MHz Pentium4</description><price>$1999</price></product><product><name>Digital Camera</name><description>Fuji FinePix 2600Z</description><status>Not Available</status></product></catalog>`,
			v2:   `<catalog><product><name>Notebook</name><description>2200MHz Pentium4</description><price>$1999</price></product><product><name>Digital Camera</name><description>Fuji FinePix 2600Z</description><price>$299</price></product></catalog>`,
			ops: `rn xid=13 ov="status" nv="price"
d par=13 pos=1 xm=(12) update "Not Available"
i par=13 pos=1 xm=(12) update "$299"
`,
			cost:    2,
			minimum: true,
		},
		{
			name: "camera: same as XyDiff",
			v1:   `<Category><Title>Digital Cameras</Title><Discount><Product><Name>tx123</Name><Price>$499</Price></Product></Discount><NewProducts><Product><Name>zy456</Name><Price>$799</Price></Product></NewProducts></Category>`,
			v2:   `<Category><Title>Digital Cameras</Title><Discount><Product><Name>zy456</Name><Price>$699</Price></Product></Discount><NewProducts><Product><Name>abc</Name><Price>$899</Price></Product></NewProducts></Category>`,
			cost: 12,
		},
		{
			name:    "E6: 12, the minimum, instead of XyDiff's 20",
			v1:      `<top><a><b>text</b><b>text</b></a><a><b>text</b></a></top>`,
			v2:      `<top><a><b>new text</b></a><a><b>new text</b></a><a><b>updated text</b><b>text</b><b>text</b></a><a><b>updated text</b></a><a><b>updated text</b></a></top>`,
			cost:    12,
			minimum: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v1, v2 := parse(t, tt.v1), parse(t, tt.v2)
			d, err := Diff(v1, v2, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkApplies(t, v1, v2, d)
			if tt.ops != "" {
				if got := ops(d); got != tt.ops {
					t.Errorf("ops:\n%s\nwant:\n%s", got, tt.ops)
				}
			}
			if c := d.Cost(1); c != tt.cost {
				t.Errorf("cost = %d, want %d\n%s", c, tt.cost, ops(d))
			}
			if tt.minimum {
				ref, err := editdist.Distance(parse(t, tt.v1), parse(t, tt.v2))
				if err != nil {
					t.Fatal(err)
				}
				if ref != tt.cost {
					t.Errorf("exact minimum = %d, want %d", ref, tt.cost)
				}
			}
		})
	}
}

// TestPairsKeepKind checks the promise DiffFlat makes to delta.BuildMatched
// (Matching.Consistent): every phase of both algorithms pairs nodes of one
// kind only, on generated pairs of every shape.
func TestPairsKeepKind(t *testing.T) {
	for _, shape := range simulate.Shapes {
		old, newDoc := pair(t, shape, 30<<10, 0.3)
		of, _ := tree.FlattenDocument(old)
		nf, _ := tree.FlattenDocument(newDoc)
		for _, alg := range []Algorithm{Vigil, XyDiff} {
			m, err := match(of, nf, &Options{Algorithm: alg})
			if err != nil {
				t.Fatal(err)
			}
			paired := 0
			for j, i := range m.newMatch {
				if i < 0 {
					continue
				}
				paired++
				if m.old.Kind[i] != m.new.Kind[j] {
					t.Fatalf("%s, %s: old node %d (%s) paired with new node %d (%s)", shape, alg, i, m.old.Kind[i], j, m.new.Kind[j])
				}
			}
			if paired < nf.Len()/2 {
				t.Errorf("%s, %s: only %d of %d new nodes paired", shape, alg, paired, nf.Len())
			}
		}
	}
}
