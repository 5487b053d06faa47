package delta

import (
	"encoding/xml"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// spaceOf returns the namespace a namespace-aware parser (encoding/xml)
// puts the first content element named local in, in the XML form x of a
// delta, and whether there is one.
func spaceOf(t *testing.T, x, local string) (string, bool) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(x))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return "", false
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, x)
		}
		if s, ok := tok.(xml.StartElement); ok && s.Name.Local == local {
			return s.Name.Space, true
		}
	}
}

// TestComposeAncestorNamespaces: the delta not written at a content's
// version changes a namespace declaration above the content's parent (the
// grandparent's xmlns or xmlns:p changed, removed or added). The deltas do
// not say that the element is an ancestor of the content's place, so
// Compose refuses (ErrNotComposable, naming ComposeWith) where the change
// may reach the content, and is exact where it cannot (a declaration whose
// old value is not the one in scope, the parent's own declaration, the
// root's, and where the other delta's own contents show the namespace
// below the content's parent). ComposeWith is exact in every case. Each composed delta's XML
// form puts the content's element, read by encoding/xml, in the namespace
// it has in its version.
func TestComposeAncestorNamespaces(t *testing.T) {
	const other = "urn:other"
	// r (40, rootNS) > g (30, gNS) > e (20) > [x (10)]; r > s (35, xmlns svg) > k (34)
	page := func(rootNS, gNS []tree.Attr, x bool, sNS string) *tree.Document {
		var kids []node
		if x {
			kids = append(kids, el("x", 10, tx("new", 9)))
		}
		return doc(withAttrs("r", 40, rootNS,
			withAttrs("g", 30, gNS, el("e", 20, append([]node{tx("a", 19)}, kids...)...)),
			withAttrs("s", 35, ns("xmlns", sNS), el("k", 34))), 50)
	}
	atom := ns("xmlns", atomNS)
	// The same with prefix p: e holds <p:x>.
	pfx := func(gNS, eNS []tree.Attr, x bool) *tree.Document {
		var kids []node
		if x {
			kids = append(kids, el("p:x", 10, tx("new", 9)))
		}
		return doc(withAttrs("r", 40, ns("xmlns:p", atomNS),
			withAttrs("g", 30, gNS, withAttrs("e", 20, eNS, append([]node{tx("a", 19)}, kids...)...))), 50)
	}
	// r (40) > s (15, sNS) > k (14); r > g (30) > e (20) > [x (10)]: s
	// comes before e in document order (an <svg> in a page's header and
	// a paragraph of its main part), so that it is no ancestor of e: the
	// versions' XID maps list an ancestor after its descendants.
	before := func(sNS []tree.Attr, x bool) *tree.Document {
		var kids []node
		if x {
			kids = append(kids, el("x", 10, tx("new", 9)))
		}
		return doc(el("r", 40,
			withAttrs("s", 15, sNS, el("k", 14)),
			el("g", 30, el("e", 20, append([]node{tx("a", 19)}, kids...)...))), 50)
	}
	svg := ns("xmlns", svgNS)
	for _, tc := range []struct {
		name       string
		v1, v2, v3 *tree.Document
		local      string // the content element to look up
		refused    bool   // Compose cannot tell without the documents
	}{
		{"inserted, then a declaration added to an element before the place in document order",
			before(nil, false), before(nil, true), before(svg, true), "x", false},
		{"inserted, then the declaration of an element before the place removed",
			before(svg, false), before(svg, true), before(nil, true), "x", false},
		{"a declaration taken off an element before the place, then deleted",
			before(svg, true), before(nil, true), before(nil, false), "x", false},
		{"inserted, then the grandparent's namespace changed",
			page(nil, atom, false, svgNS), page(nil, atom, true, svgNS), page(nil, ns("xmlns", other), true, svgNS), "x", true},
		{"inserted, then the grandparent's declaration removed",
			page(ns("xmlns", other), atom, false, svgNS), page(ns("xmlns", other), atom, true, svgNS), page(ns("xmlns", other), nil, true, svgNS), "x", true},
		{"inserted, then a declaration added to the grandparent",
			page(atom, nil, false, svgNS), page(atom, nil, true, svgNS), page(atom, ns("xmlns", other), true, svgNS), "x", true},
		{"grandparent's namespace changed, then deleted",
			page(nil, atom, true, svgNS), page(nil, ns("xmlns", other), true, svgNS), page(nil, ns("xmlns", other), false, svgNS), "x", true},
		{"grandparent's declaration added, then deleted",
			page(atom, nil, true, svgNS), page(atom, ns("xmlns", other), true, svgNS), page(atom, ns("xmlns", other), false, svgNS), "x", true},
		{"inserted, then the grandparent's namespace changed and a sibling inserted, which shows it",
			page(nil, atom, false, svgNS), page(nil, atom, true, svgNS),
			doc(el("r", 40,
				withAttrs("g", 30, ns("xmlns", other), el("e", 20, tx("a", 19), el("x", 10, tx("new", 9)), el("y", 12))),
				withAttrs("s", 35, ns("xmlns", svgNS), el("k", 34))), 50), "x", false},
		{"grandparent's namespace changed and a sibling deleted, which shows it, then deleted",
			doc(el("r", 40,
				withAttrs("g", 30, atom, el("e", 20, tx("a", 19), el("x", 10, tx("new", 9)), el("y", 12))),
				withAttrs("s", 35, ns("xmlns", svgNS), el("k", 34))), 50),
			page(nil, ns("xmlns", other), true, svgNS), page(nil, ns("xmlns", other), false, svgNS), "x", false},
		{"inserted, then a declaration not in scope changed",
			page(nil, atom, false, svgNS), page(nil, atom, true, svgNS), page(nil, atom, true, other), "x", false},
		{"inserted, then the root's declaration removed",
			doc(withAttrs("r", 40, atom, el("e", 20)), 50), doc(withAttrs("r", 40, atom, el("e", 20), el("x", 10)), 50), doc(el("r", 40, el("e", 20), el("x", 10)), 50), "x", false},
		{"prefix: inserted, then the grandparent's binding changed",
			pfx(ns("xmlns:p", svgNS), nil, false), pfx(ns("xmlns:p", svgNS), nil, true), pfx(ns("xmlns:p", other), nil, true), "x", true},
		{"prefix: inserted, then the parent's binding changed",
			pfx(nil, ns("xmlns:p", svgNS), false), pfx(nil, ns("xmlns:p", svgNS), true), pfx(nil, ns("xmlns:p", other), true), "x", false},
		{"prefix: the parent's binding changed, then deleted",
			pfx(nil, ns("xmlns:p", svgNS), true), pfx(nil, ns("xmlns:p", other), true), pfx(nil, ns("xmlns:p", other), false), "x", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d1, d2 := mustBuild(t, tc.v1, tc.v2), mustBuild(t, tc.v2, tc.v3)
			// The namespace of the content's element where it is: v3 for
			// an insert, v1 for a delete, as Build writes it.
			want, ok := spaceOf(t, encodeXML(t, mustBuild(t, tc.v1, tc.v3)), tc.local)
			if !ok {
				t.Fatalf("no <%s> in the delta built from v1 to v3", tc.local)
			}
			check := func(how string, d *Delta) {
				t.Helper()
				got, err := Apply(tc.v1, d)
				if err != nil {
					t.Fatalf("%s: Apply: %v", how, err)
				}
				if diff := sameDoc(got, tc.v3); diff != "" {
					t.Fatalf("%s: Apply(v1, composed) != v3: %s", how, diff)
				}
				x := encodeXML(t, d)
				if err := namespaceWellFormed(x); err != nil {
					t.Fatalf("%s: %v\n%s", how, err, x)
				}
				if space, _ := spaceOf(t, x, tc.local); space != want {
					t.Errorf("%s: <%s> read in namespace %q, want %q:\n%s", how, tc.local, space, want, x)
				}
			}
			dw, err := ComposeWith(tc.v1, d1, d2)
			if err != nil {
				t.Fatal(err)
			}
			check("ComposeWith", dw)
			d, err := Compose(d1, d2)
			switch {
			case tc.refused && err == nil:
				t.Errorf("Compose composed what it cannot know:\n%s", encodeXML(t, d))
				check("Compose", d)
			case tc.refused && (!errors.Is(err, ErrNeedsDocuments) || !errors.Is(err, ErrNotComposable) || !strings.Contains(err.Error(), "use ComposeWith") || !strings.Contains(err.Error(), "element 30")):
				t.Errorf("Compose: %v, want ErrNeedsDocuments naming element 30 and ComposeWith", err)
			case !tc.refused && err != nil:
				t.Fatalf("Compose: %v", err)
			case !tc.refused:
				check("Compose", d)
			}
		})
	}
}

// TestComposeMovedNamespace: a content that one delta inserts (or
// deletes) and the other moves to another parent takes the namespaces in
// scope at its place in the version it is in, which the deltas do not say
// when the new parent is in none of their contents: Compose refuses
// (ErrNeedsDocuments, naming the move and ComposeWith), where it gave the
// content the middle version's binding, of the place it left (an <x>
// moved from an Atom part into an SVG part read as Atom). Where the
// deltas say (the other delta's content below the new parent, a move
// within its parent), it composes, exactly. ComposeWith is exact in
// every case.
func TestComposeMovedNamespace(t *testing.T) {
	// r (40) > a (30, xmlns atom) > e (20) > [x (10)], [y (12)];
	// r > b (35, xmlns svg) > k (34) > [x (10)], [z (33)]
	page := func(x string, y, z bool) *tree.Document {
		var ke, kk []node
		if x == "e" {
			ke = append(ke, el("x", 10))
		}
		if y {
			ke = append(ke, el("y", 12))
		}
		if x == "k" {
			kk = append(kk, el("x", 10))
		}
		if z {
			kk = append(kk, el("z", 33))
		}
		if x == "e2" {
			ke = append(ke, el("x", 10))
		}
		return doc(el("r", 40,
			withAttrs("a", 30, ns("xmlns", atomNS), el("e", 20, ke...)),
			withAttrs("b", 35, ns("xmlns", svgNS), el("k", 34, kk...))), 50)
	}
	for _, tc := range []struct {
		name       string
		v1, v2, v3 *tree.Document
		refused    string // in Compose's error, "" if it composes
	}{
		{"inserted, then moved into another default namespace", page("", false, false), page("e", false, false), page("k", false, false),
			"the other delta moves it from below element 20 to below element 34"},
		{"moved out of another default namespace, then deleted", page("k", false, false), page("e", false, false), page("", false, false),
			"the other delta moves it from below element 34 to below element 20"},
		{"inserted, then moved where the other delta's insert shows the namespace", page("", false, false), page("e", false, false), page("k", false, true), ""},
		{"inserted, then moved within its parent", page("", true, false), page("e", true, false), page("e2", true, false), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d1, d2 := mustBuild(t, tc.v1, tc.v2), mustBuild(t, tc.v2, tc.v3)
			want, ok := spaceOf(t, encodeXML(t, mustBuild(t, tc.v1, tc.v3)), "x")
			if !ok {
				t.Fatal("no <x> in the delta built from v1 to v3")
			}
			check := func(how string, d *Delta) {
				t.Helper()
				if got, err := Apply(tc.v1, d); err != nil || sameDoc(got, tc.v3) != "" {
					t.Fatalf("%s: Apply(v1, composed) is not v3: %v", how, err)
				}
				if space, _ := spaceOf(t, encodeXML(t, d), "x"); space != want {
					t.Errorf("%s: <x> in %q, want %q:\n%s", how, space, want, encodeXML(t, d))
				}
			}
			dw, err := ComposeWith(tc.v1, d1, d2)
			if err != nil {
				t.Fatal(err)
			}
			check("ComposeWith", dw)
			d, err := Compose(d1, d2)
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("Compose: %v", err)
			case tc.refused == "":
				check("Compose", d)
			case err == nil:
				t.Errorf("Compose composed what it cannot know:\n%s", encodeXML(t, d))
			case !errors.Is(err, ErrNeedsDocuments) || !strings.Contains(err.Error(), tc.refused) || !strings.Contains(err.Error(), "use ComposeWith"):
				t.Errorf("Compose: %v, want ErrNeedsDocuments saying %q and naming ComposeWith", err, tc.refused)
			}
		})
	}
}

// nsVersions returns a chain of random versions whose elements declare
// default namespaces at several levels, changed, added and removed from
// one version to the next besides the generator's other changes.
func nsVersions(seed uint64, size, changes, n int) []*tree.Document {
	r := rand.New(rand.NewPCG(seed, seed*104729+3))
	uris := []string{atomNS, svgNS, xhtmlNS, ""}
	sprinkle := func(d *tree.Document, k int) {
		var elems []*tree.Node
		tree.Walk(d.Root, func(n *tree.Node) bool {
			if n.Kind == tree.Element {
				elems = append(elems, n)
			}
			return true
		})
		for ; k > 0; k-- {
			e := elems[r.IntN(len(elems))]
			if _, has := e.Attr("xmlns"); has && r.IntN(3) == 0 {
				e.RemoveAttr("xmlns")
				continue
			}
			e.SetAttr("xmlns", uris[r.IntN(len(uris))])
		}
	}
	first := genDoc(r, size)
	sprinkle(first, 1+size/6)
	vs := []*tree.Document{first}
	for len(vs) < n {
		v := mutate(r, vs[len(vs)-1], 1+r.IntN(changes))
		sprinkle(v, r.IntN(3))
		vs = append(vs, v)
	}
	return vs
}

// movesNamespace reports whether d, from a to b, moves an element into
// another default namespace: Compose refuses a content moved so (see
// TestComposeMovedNamespace), and keeps the middle version's binding of
// one below an element moved so, its limit.
func movesNamespace(d *Delta, a, b *tree.Document) bool {
	in, out := defaultNamespaces(a), defaultNamespaces(b)
	for i := range d.Ops {
		if op := &d.Ops[i]; op.Kind == Delete && op.Move && in[op.Root()] != out[op.Root()] {
			return true
		}
	}
	return false
}

// TestPropertyComposeNamespaces: on generated histories whose default
// namespaces change at several levels, Apply(a, Compose(d1, d2)) is c, and
// the composed delta's XML form, read by a namespace-aware parser, puts
// every element of its contents in the namespace it has in a (a delete) or
// c (an insert); or Compose refuses, wrapping ErrNotComposable. ComposeWith
// always composes, exactly.
func TestPropertyComposeNamespaces(t *testing.T) {
	seeds := 400
	if testing.Short() {
		seeds = 60
	}
	composed, refused, limit := 0, 0, 0
	for seed := 0; seed < seeds; seed++ {
		vs := nsVersions(uint64(seed)+9000, 8+seed%50, 1+seed%10, 3)
		a, b, c := vs[0], vs[1], vs[2]
		d1, d2 := mustBuild(t, a, b), mustBuild(t, b, c)
		dw, err := ComposeWith(a, d1, d2)
		if err != nil {
			t.Fatalf("seed %d: ComposeWith: %v", seed, err)
		}
		checkContentNamespaces(t, encodeXML(t, dw), dw, a, c)
		d, err := Compose(d1, d2)
		if err != nil {
			if !errors.Is(err, ErrNotComposable) {
				t.Fatalf("seed %d: Compose: %v", seed, err)
			}
			refused++
			continue
		}
		composed++
		got, err := Apply(a, d)
		if err != nil {
			t.Fatalf("seed %d: Apply(a, Compose): %v", seed, err)
		}
		if diff := sameDoc(got, c); diff != "" {
			t.Fatalf("seed %d: Apply(a, Compose(d1, d2)) != c: %s", seed, diff)
		}
		if movesNamespace(d1, a, b) || movesNamespace(d2, b, c) {
			limit++
			continue
		}
		t.Run("", func(t *testing.T) {
			checkContentNamespaces(t, encodeXML(t, d), d, a, c)
		})
	}
	t.Logf("%d composed, %d refused, %d with a move into another namespace", composed, refused, limit)
	if composed < seeds/2 {
		t.Errorf("Compose composed %d of %d pairs", composed, seeds)
	}
}
