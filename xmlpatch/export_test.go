package xmlpatch

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// archive is a txtar archive: files in order.
type archive struct {
	order []string
	files map[string]string
}

func parseArchive(s string) *archive {
	a := &archive{files: map[string]string{}}
	name := ""
	for _, line := range strings.SplitAfter(s, "\n") {
		if n, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "-- "); ok && strings.HasSuffix(n, " --") {
			name = strings.TrimSuffix(n, " --")
			a.order = append(a.order, name)
			a.files[name] = ""
			continue
		}
		if name != "" {
			a.files[name] += line
		}
	}
	return a
}

func (a *archive) format() string {
	var b strings.Builder
	for _, n := range a.order {
		b.WriteString("-- " + n + " --\n")
		b.WriteString(a.files[n])
	}
	return b.String()
}

// golden compares got with file name of the archive testdata/arch, or
// rewrites it with -update.
func golden(t *testing.T, arch, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", arch)
	data, err := os.ReadFile(path)
	if err != nil && !*update {
		t.Fatalf("%v (run go test ./xmlpatch -update to create it)", err)
	}
	a := parseArchive(string(data))
	if *update {
		if _, ok := a.files[name]; !ok {
			a.order = append(a.order, name)
		}
		a.files[name] = got
		if err := os.WriteFile(path, []byte(a.format()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, ok := a.files[name]
	if !ok {
		t.Fatalf("%s has no file %s (run with -update)", path, name)
	}
	if got != want {
		t.Errorf("%s/%s:\ngot:\n%s\nwant:\n%s", arch, name, got, want)
	}
}

func parseXML(t testing.TB, s string) *tree.Document {
	t.Helper()
	d, err := markup.ParseXMLBytes([]byte(s), &markup.Options{Whitespace: markup.Keep})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func encode(t testing.TB, p *Patch) string {
	t.Helper()
	var b bytes.Buffer
	if err := Encode(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// roundTrip exports the delta between old and new, checks that the patch
// written and read back turns old into new, and returns it as written.
func roundTrip(t testing.TB, old, new *tree.Document, opt *treediff.Options) string {
	t.Helper()
	x, err := tryRoundTrip(t, old, new, opt)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return x
}

// exportPatch returns the patch Export makes of the delta from old to new.
func exportPatch(t testing.TB, old, new *tree.Document) *Patch {
	t.Helper()
	d, err := treediff.Diff(old, new, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Export(old, d)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tryRoundTrip is roundTrip, returning the error of an export that fails.
func tryRoundTrip(t testing.TB, old, new *tree.Document, opt *treediff.Options) (string, error) {
	t.Helper()
	d, err := treediff.Diff(old, new, opt)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Export(old, d)
	if err != nil {
		return "", err
	}
	x := encode(t, p)
	back, err := Decode(strings.NewReader(x))
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, x)
	}
	doc := old.Clone()
	if err := Apply(doc, back); err != nil {
		t.Fatalf("apply: %v\n%s", err, x)
	}
	if diff := tree.Diff(doc.Root, new.Root, tree.Content); diff != "" {
		t.Fatalf("Apply(old, Export(old, Diff(old, new))) != new: %s\n%s", diff, x)
	}
	// A declaration an HTML parser read as a comment (<!--?xml ...?-->)
	// is no part of the delta's Outside, in the prolog of a document read
	// as HTML (tree.Document.HTML): one that came, went, moved or changed
	// between old and new is not rebuilt, and the patch leaves old's where
	// delta.Apply leaves them. Compared without them then, and byte for
	// byte where they stand alike. Read as XML, such a comment is the
	// author's, which the patch rebuilds as any other.
	leftOut := tree.IsXMLDeclaration
	if old.HTML && !sameDeclarationComments(old, new) {
		leftOut = func(n *tree.Node) bool { return tree.IsXMLDeclaration(n) || tree.IsXMLDeclarationComment(n) }
		if !tree.SameLeaves(declarationComments(doc.Prolog), declarationComments(old.Prolog)) {
			t.Fatalf("the declarations read as comments before the root are not old's\n%s", x)
		}
	}
	if !tree.SameLeaves(around(doc.Prolog, leftOut), around(new.Prolog, leftOut)) || !tree.SameLeaves(doc.Epilog, new.Epilog) {
		t.Fatalf("what stands around the root differs\n%s", x)
	}
	if !sameParts(doc, new, leftOut) {
		t.Fatalf("the DOCTYPE stands elsewhere among the comments before the root\n%s", x)
	}
	return x, nil
}

// sameDeclarationComments reports whether the declarations read as
// comments (tree.IsXMLDeclarationComment) stand alike before the root of
// a and b: the same ones, at the same places of the same parts.
func sameDeclarationComments(a, b *tree.Document) bool {
	pa, pb := parts(a), parts(b)
	for i := range 2 { // the epilog's are comments for the delta too
		at := func(list []*tree.Node) map[int]string {
			m := map[int]string{}
			for k, n := range list {
				if tree.IsXMLDeclarationComment(n) {
					m[k] = n.Value
				}
			}
			return m
		}
		if !maps.Equal(at(pa[i]), at(pb[i])) {
			return false
		}
	}
	return true
}

// declarationComments returns the declarations read as comments in list.
func declarationComments(list []*tree.Node) []*tree.Node {
	var out []*tree.Node
	for _, n := range list {
		if tree.IsXMLDeclarationComment(n) {
			out = append(out, n)
		}
	}
	return out
}

// sameParts reports whether the same comments and processing
// instructions stand before the DOCTYPE, between it and the root, and
// after the root, in two documents.
func sameParts(a, b *tree.Document, leftOut func(*tree.Node) bool) bool {
	pa, pb := parts(a), parts(b)
	for i := range pa {
		if i == afterTheRoot {
			leftOut = tree.IsXMLDeclaration
		}
		if !tree.SameLeaves(around(pa[i], leftOut), around(pb[i], leftOut)) {
			return false
		}
	}
	return true
}

// around returns the nodes of list but those leftOut reports.
func around(list []*tree.Node, leftOut func(*tree.Node) bool) []*tree.Node {
	var out []*tree.Node
	for _, n := range list {
		if !leftOut(n) {
			out = append(out, n)
		}
	}
	return out
}

// TestExportSeedExamples exports the deltas of the seed's worked examples
// (notes 001a §8: the camera of figures 3.2-3.5, the catalog of figures
// 5.1-5.2, the reorders of E3, the attributes of E9) as golden patches.
func TestExportSeedExamples(t *testing.T) {
	const (
		camera1  = `<Category><Title>Digital Cameras</Title><Discount><Product><Name>tx123</Name><Price>$499</Price></Product></Discount><NewProducts><Product><Name>zy456</Name><Price>$799</Price></Product></NewProducts></Category>`
		camera2  = `<Category><Title>Digital Cameras</Title><Discount><Product><Name>zy456</Name><Price>$699</Price></Product></Discount><NewProducts><Product><Name>abc</Name><Price>$899</Price></Product></NewProducts></Category>`
		catalog1 = `<catalog><product><name>Notebook</name><description>2200MHz Pentium4</description><price>$1999</price></product><product><name>Digital Camera</name><description>Fuji FinePix 2600Z</description><status>Not Available</status></product></catalog>`
		catalog2 = `<catalog><product><name>Notebook</name><description>2200MHz Pentium4</description><price>$1999</price></product><product><name>Digital Camera</name><description>Fuji FinePix 2600Z</description><price>$299</price></product></catalog>`
	)
	cases := []struct {
		name   string
		v1, v2 string
		alg    treediff.Algorithm
	}{
		{"camera-E1", camera1, camera2, treediff.XyDiff},
		{"catalog-E2", catalog1, catalog2, treediff.XyDiff},
		{"catalog-E2-vigil", catalog1, catalog2, treediff.Vigil},
		{"reorder-E3", `<r><A/><B/><C/><D/><E/><F/></r>`, `<r><B/><C/><A/><D/><E/><F/></r>`, treediff.XyDiff},
		{"reorder-E3-variant",
			`<r><v><A>a</A><X>x</X><B>b</B><C>c</C><Y>y</Y><D>d</D><E>e</E><F>f</F></v><w/></r>`,
			`<r><v><B>b</B><Z>z1</Z><C>c</C><A>a</A><D>d</D><Z>z2</Z><E>e</E><F>f</F></v><w><X>x</X></w></r>`, treediff.XyDiff},
		{"attributes-E9", `<root><p a="1" b="2">hello</p><q><x/>old text<y/></q></root>`,
			`<root><p a="1" b="3" c="4">hello</p><q><x/>new text<y/></q></root>`, treediff.XyDiff},
		{"root-renamed", `<a><x>1</x></a>`, `<b><x>1</x></b>`, treediff.Vigil},
		{"whitespace", "<list>\n  <item>a</item>\n  <item>b</item>\n  <item>c</item>\n</list>",
			"<list>\n  <item>a</item>\n  <item>c</item>\n</list>", treediff.Vigil},
		{"default-namespace",
			`<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><entry><title>one</title><dc:creator>Ann</dc:creator></entry></feed>`,
			`<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"><entry><title>one</title><dc:creator>Bob</dc:creator></entry><entry xml:lang="en"><title>two</title></entry></feed>`, treediff.Vigil},
		{"outside", "<!-- v1 --><?style a?><r><x/></r><!-- end -->", "<!-- v2 --><?style a?><r><x/></r>", treediff.Vigil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := roundTrip(t, parseXML(t, c.v1), parseXML(t, c.v2), &treediff.Options{Algorithm: c.alg})
			golden(t, "seed.txtar", c.name+".xml", x)
		})
	}
}

// TestExportKeepsTextsApart checks that no operation of an exported patch
// leaves two text nodes side by side for a later selector to count
// (text()[k]) or split (pos="before" a text): Apply, as any tool on
// XPath's data model, makes them one.
func TestExportKeepsTextsApart(t *testing.T) {
	cases := []struct {
		name, v1, v2 string
	}{
		{"element replaced between texts", `<p>a<b/>c</p>`, `<p>a<i/>c</p>`},
		{"element and the text before it removed", `<p>x<b/>c</p>`, `<p>c</p>`},
		{"several between texts", `<p>a<b/>c<d/>e<f/>g</p>`, `<p>a<i/>c<j/>e<k/>g</p>`},
		{"updated text beside", `<p>a<b/>c</p>`, `<p>a<i/>d</p>`},
		{"comment between texts", `<p>a<!--b-->c<x/></p>`, `<p>a<?i?>c<x/></p>`},
	}
	for _, c := range cases {
		for _, alg := range []treediff.Algorithm{treediff.Vigil, treediff.XyDiff} {
			t.Run(c.name+"/"+string(alg), func(t *testing.T) {
				old, new := parseXML(t, c.v1), parseXML(t, c.v2)
				d, err := treediff.Diff(old, new, &treediff.Options{Algorithm: alg})
				if err != nil {
					t.Fatal(err)
				}
				p, err := Export(old, d)
				if err != nil {
					t.Fatal(err)
				}
				doc := old.Clone()
				if err := Apply(doc, p); err != nil {
					t.Fatalf("%v\n%s", err, encode(t, p))
				}
				if diff := tree.Diff(doc.Root, new.Root, tree.Content); diff != "" {
					t.Fatalf("%s\n%s", diff, encode(t, p))
				}
			})
		}
	}
}
