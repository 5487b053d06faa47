package delta

import (
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestComposeMovedInNoNamespace: a content that one delta inserts and the
// other moves to another parent, in a page whose contents are in no
// default namespace (an HTML page) while the other delta adds an <svg>
// declaring its own elsewhere, composes, in no namespace: the content left
// no declared default namespace, and Compose refused it (ErrNeedsDocuments)
// for the <svg> alone, as it refused composing the deltas of 38 versions
// of a real page (page-lovoo-terms-of-service in the shared corpus) with
// the next's, which added its first inline SVG icons.
func TestComposeMovedInNoNamespace(t *testing.T) {
	page := func(x string, svg bool) *tree.Document {
		var ke, kk, kr []node
		switch x {
		case "e":
			ke = append(ke, el("x", 10))
		case "k":
			kk = append(kk, el("x", 10))
		}
		if svg {
			kr = append(kr, withAttrs("svg", 36, ns("xmlns", svgNS), el("path", 37)))
		}
		return doc(el("r", 40, append([]node{el("h", 30, el("e", 20, ke...)), el("k", 34, kk...)}, kr...)...), 50)
	}
	v1, v2, v3 := page("", false), page("e", false), page("k", true)
	d1, d2 := mustBuild(t, v1, v2), mustBuild(t, v2, v3)
	want, ok := spaceOf(t, encodeXML(t, mustBuild(t, v1, v3)), "x")
	if !ok {
		t.Fatal("no <x> in the delta built from v1 to v3")
	}
	d, err := Compose(d1, d2)
	if err != nil {
		t.Fatalf("Compose: %v", err)
	}
	if got, err := Apply(v1, d); err != nil || sameDoc(got, v3) != "" {
		t.Fatalf("Apply(v1, Compose(d1, d2)) is not v3: %v", err)
	}
	if space, _ := spaceOf(t, encodeXML(t, d), "x"); space != want {
		t.Errorf("Compose: <x> in %q, want %q:\n%s", space, want, encodeXML(t, d))
	}
}
