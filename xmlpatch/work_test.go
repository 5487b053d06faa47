package xmlpatch

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// deepDoc returns a chain of depth elements <a>, the deepest holding the
// text x.
func deepDoc(t testing.TB, depth int) *tree.Document {
	t.Helper()
	return parseXML(t, strings.Repeat("<a>", depth)+"x"+strings.Repeat("</a>", depth))
}

// stringValuePath returns a selector of the deepest element of deepDoc
// with the predicate [.='x'] at each step.
func stringValuePath(depth int) string {
	return "/" + strings.TrimSuffix(strings.Repeat("a[.='x']/", depth), "/")
}

// TestApplyStringValuesOnce checks that [.='x'] at each step of a path
// down a deep document reads each text once, not once a step (the square
// of the depth): the patch succeeds within a work limit of a few units a
// node.
func TestApplyStringValuesOnce(t *testing.T) {
	const depth = 3000
	doc := deepDoc(t, depth)
	sel := stringValuePath(depth)
	p := &Patch{
		Ops:       []Op{{Kind: Replace, Sel: sel + "/text()", Content: []*tree.Node{{Kind: tree.Text, Value: "y"}}}},
		WorkLimit: 16 * depth,
	}
	if err := Apply(doc, p); err != nil {
		t.Fatal(clip(err.Error(), 300))
	}
	if got := doc.Root.Text(); got != "y" {
		t.Errorf("text %q, want y", got)
	}
	// A child predicate [a='x'] at each step reads the same texts.
	p.Ops[0].Sel = "/" + strings.TrimSuffix(strings.Repeat("a[a='y']/", depth-1), "/") + "/a/text()"
	p.Ops[0].Content[0].Value = "z"
	if err := Apply(doc, p); err != nil {
		t.Fatal(clip(err.Error(), 300))
	}
	if got := doc.Root.Text(); got != "z" {
		t.Errorf("text %q, want z", got)
	}
}

// TestApplyWorkLimit checks that a patch that costs more than the work
// limit fails with a *WorkLimitError that names the operation, and leaves
// the document as it was: by default, many operations that each compare
// the string value of a deep document's root; with a limit the caller
// sets, any patch.
func TestApplyWorkLimit(t *testing.T) {
	const depth, ops = 2000, 3000
	var b strings.Builder
	b.WriteString("<diff>\n")
	for i := range ops {
		fmt.Fprintf(&b, "<add sel=\"a[.='x']\" type=\"@k%d\">1</add>\n", i)
	}
	b.WriteString("</diff>")
	many, err := Decode(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	one, err := Decode(strings.NewReader(`<diff><remove sel="a/a/a"/></diff>`))
	if err != nil {
		t.Fatal(err)
	}
	one.WorkLimit = 4
	cases := []struct {
		name string
		p    *Patch
		op   string // the operation named, and its line
	}{
		{"many string values of a deep document", many, ""},
		{"a limit the caller sets", one, "operation 1 (<remove sel=\"a/a/a\">)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := deepDoc(t, depth)
			before := doc.Clone()
			err := Apply(doc, c.p)
			var e *WorkLimitError
			if !errors.As(err, &e) || !errors.Is(err, ErrWorkLimit) {
				t.Fatalf("error %v, want a *WorkLimitError", err)
			}
			if e.Op < 1 || e.Op > len(c.p.Ops) || e.Sel != c.p.Ops[e.Op-1].Sel || e.Line != c.p.Ops[e.Op-1].Line || e.Kind != c.p.Ops[e.Op-1].Kind {
				t.Errorf("error %q names operation %d, %s %q at line %d", err, e.Op, e.Kind, e.Sel, e.Line)
			}
			if want := fmt.Sprintf("operation %d (<%s sel=%q>)", e.Op, e.Kind, e.Sel); !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "work limit") {
				t.Errorf("error %q does not say %s and the work limit", err, want)
			}
			if c.op != "" && !strings.Contains(err.Error(), c.op) {
				t.Errorf("error %q, want %s", err, c.op)
			}
			if diff := tree.Diff(doc.Root, before.Root, tree.ContentAndXIDs); diff != "" {
				t.Errorf("a patch over the limit changed the document: %s", diff)
			}
		})
	}
	// Within the limit, the same patch applies.
	one.WorkLimit = 0
	doc := deepDoc(t, depth)
	if err := Apply(doc, one); err != nil {
		t.Fatal(err)
	}
	if len(doc.Root.Children[0].Children) != 0 {
		t.Error("a/a/a was not removed")
	}
}

// TestApplyCountsEditsOnWideParents checks that an edit counts the
// children it moves: a child inserted or removed near the start of a
// long list shifts all the others, so that many such operations on a
// wide parent cost the product of their number and its width, which the
// selectors alone (a position read from the sibling index) did not
// count. The same patch passes under the same limit on a narrow parent.
// A run of removes shifts the children once, when the run ends: removes
// of the first child in a row cost their number, on a wide parent too,
// and only removes whose selectors compare string values, which ends
// the run at each, shift them each time.
func TestApplyCountsEditsOnWideParents(t *testing.T) {
	const ops, width, limit = 2000, 50000, 150000
	for _, c := range []struct {
		name     string
		op       string
		overWide bool // the wide parent passes the limit
	}{
		{"inserts before the first", `<add sel="r/x[1]" pos="before"><y/></add>`, true},
		{"removes of the first, each after a string value", `<remove sel="r/x[1][.='']"/>`, true},
		{"removes of the first, in a run", `<remove sel="r/x[1]"/>`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Decode(strings.NewReader("<diff>" + strings.Repeat(c.op, ops) + "</diff>"))
			if err != nil {
				t.Fatal(err)
			}
			p.WorkLimit = limit
			narrow := parseXML(t, "<r>"+strings.Repeat("<x/>", ops+10)+"</r>")
			if err := Apply(narrow, p); err != nil {
				t.Fatalf("on %d children: %v", ops+10, err)
			}
			want := ops + 10 + ops
			if strings.Contains(c.op, "remove") {
				want = 10
			}
			if len(narrow.Root.Children) != want {
				t.Errorf("on %d children: %d children after, want %d", ops+10, len(narrow.Root.Children), want)
			}
			wide := parseXML(t, "<r>"+strings.Repeat("<x/>", width)+"</r>")
			err = Apply(wide, p)
			switch {
			case c.overWide && !errors.Is(err, ErrWorkLimit):
				t.Errorf("on %d children: error %v, want the work limit", width, err)
			case !c.overWide && err != nil:
				t.Errorf("on %d children: %v, want none", width, err)
			case !c.overWide && len(wide.Root.Children) != width-ops:
				t.Errorf("on %d children: %d left, want %d", width, len(wide.Root.Children), width-ops)
			}
		})
	}
}
