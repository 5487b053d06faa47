package intent

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// randomSiblings returns an XML document of lists with runs of li, x and
// p siblings, text and comments between them, some lists nested, and one
// list of long elements.
func randomSiblings(r *rand.Rand, long int) string {
	var b strings.Builder
	var list func(depth, n int)
	list = func(depth, n int) {
		b.WriteString("<ul>")
		for i := 0; i < n; i++ {
			switch k := r.IntN(20); {
			case k < 12:
				fmt.Fprintf(&b, "<li>%d</li>", i)
			case k < 15:
				fmt.Fprintf(&b, "<x>%d</x>", i)
			case k < 16:
				fmt.Fprintf(&b, "<p><b>%d</b></p>", i)
			case k < 17:
				b.WriteString("<!-- c -->")
			case k < 18:
				fmt.Fprintf(&b, " t%d ", i)
			default:
				if depth < 3 {
					b.WriteString("<li>")
					list(depth+1, r.IntN(8))
					b.WriteString("</li>")
				}
			}
		}
		b.WriteString("</ul>")
	}
	b.WriteString("<r>")
	for i := 0; i < 6; i++ {
		list(0, r.IntN(30))
	}
	list(3, long)
	b.WriteString("<li>alone</li></r>")
	return b.String()
}

// refSiblings returns the element n's element siblings (n included) and
// its index among them by scanning the parent's children: the naive form
// of cssMatch.siblings.
func refSiblings(n *tree.Node) ([]*tree.Node, int) {
	if n.Parent == nil {
		return []*tree.Node{n}, 0
	}
	var sibs []*tree.Node
	idx := -1
	for _, s := range n.Parent.Children {
		if s.Kind == tree.Element {
			if s == n {
				idx = len(sibs)
			}
			sibs = append(sibs, s)
		}
	}
	return sibs, idx
}

// refCSSSelect is a slow reference for cssGroup.Select: every combinator
// and pseudo-class tested straight from its definition, without memo or
// sibling tables.
func refCSSSelect(g *cssGroup, root *tree.Node) []*tree.Node {
	var compound func(cp *cssCompound, n *tree.Node) bool
	compound = func(cp *cssCompound, n *tree.Node) bool {
		plain := *cp
		plain.pseudos = nil
		if !plain.match(n, newCSSMatch()) {
			return false
		}
		for _, p := range cp.pseudos {
			if p.name == "not" {
				if compound(p.not, n) {
					return false
				}
				continue
			}
			sibs, i := refSiblings(n)
			var ok bool
			switch p.name {
			case "first-child":
				ok = i == 0
			case "last-child":
				ok = i == len(sibs)-1
			case "only-child":
				ok = len(sibs) == 1
			case "nth-child":
				ok = nthMatch(p.a, p.b, i+1)
			case "nth-last-child":
				ok = nthMatch(p.a, p.b, len(sibs)-i)
			default: // the -of-type ones: among the siblings of n's name
				var same []*tree.Node
				for _, s := range sibs {
					if strings.EqualFold(s.Name, n.Name) {
						same = append(same, s)
					}
				}
				i := slices.Index(same, n)
				switch p.name {
				case "first-of-type":
					ok = i == 0
				case "last-of-type":
					ok = i == len(same)-1
				case "only-of-type":
					ok = len(same) == 1
				case "nth-of-type":
					ok = nthMatch(p.a, p.b, i+1)
				case "nth-last-of-type":
					ok = nthMatch(p.a, p.b, len(same)-i)
				}
			}
			if !ok {
				return false
			}
		}
		return true
	}
	var matchAt func(c *cssComplex, n *tree.Node, i int) bool
	matchAt = func(c *cssComplex, n *tree.Node, i int) bool {
		if !compound(c.parts[i], n) {
			return false
		}
		if i == 0 {
			return true
		}
		switch c.combs[i] {
		case '>':
			return n.Parent != nil && n.Parent.Kind == tree.Element && matchAt(c, n.Parent, i-1)
		case ' ':
			for p := n.Parent; p != nil; p = p.Parent {
				if p.Kind == tree.Element && matchAt(c, p, i-1) {
					return true
				}
			}
		case '+':
			sibs, j := refSiblings(n)
			return j > 0 && matchAt(c, sibs[j-1], i-1)
		case '~':
			sibs, j := refSiblings(n)
			for _, s := range sibs[:j] {
				if matchAt(c, s, i-1) {
					return true
				}
			}
		}
		return false
	}
	var out []*tree.Node
	tree.Walk(root, func(n *tree.Node) bool {
		if n.Kind == tree.Element && slices.ContainsFunc(g.sels, func(c *cssComplex) bool { return matchAt(c, n, len(c.parts)-1) }) {
			out = append(out, n)
		}
		return true
	})
	return out
}

// TestCSSSiblingsReference compares the sibling combinators and the
// structural pseudo-classes with refCSSSelect on random lists, a long list
// and a deep chain.
func TestCSSSiblingsReference(t *testing.T) {
	sels := []string{
		"li + li", "x ~ li", "x ~ li + li", "li ~ x", "x + li ~ li", "x ~ x ~ li", "li ~ li ~ li", "* ~ *",
		"li:first-child ~ li:nth-child(3n+1)", "p ~ li:last-child", ":not(li) ~ li", "ul > li ~ p", "ul li ~ x > b",
		"li:first-child", "li:last-child", ":only-child", "li:nth-child(2n)", "li:nth-child(odd)", "li:nth-last-child(2n+1)",
		":nth-child(-n+3)", "li:not(:first-child)", "x:nth-last-child(1), li + x", "c > x + c", "x ~ c x", "c:first-child",
		"li:first-of-type", "x:last-of-type", ":only-of-type", "li:nth-of-type(2n)", "x:nth-last-of-type(odd)",
		"li:nth-of-type(3) ~ x:first-of-type", "LI:Nth-Of-Type(-n+2)", "li:not(:last-of-type)",
	}
	r := rand.New(rand.NewPCG(1, 2))
	docs := sampleDocs(t, r, 20, 400, 200)
	for _, s := range sels {
		sel, err := CompileCSS(s)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range docs {
			got, want := sel.Select(d.Root), refCSSSelect(sel.(*cssGroup), d.Root)
			if !slices.Equal(got, want) {
				t.Errorf("%q on document %d: %d matches, reference %d", s, i, len(got), len(want))
			}
		}
	}
	// A long list, with the selectors whose reference stays fast.
	d := parseDoc(t, randomSiblings(r, 3000))
	for _, s := range []string{"li + li", "x ~ li", "li:first-child", "li:last-child", "li:nth-child(2n+1)", "x:nth-last-child(3n)", "li:nth-of-type(2n+1)", "x:last-of-type"} {
		sel, _ := CompileCSS(s)
		if got, want := sel.Select(d.Root), refCSSSelect(sel.(*cssGroup), d.Root); !slices.Equal(got, want) {
			t.Errorf("%q on the long list: %d matches, reference %d", s, len(got), len(want))
		}
	}
}

// TestSiblingsByHand checks the sibling selectors on <x/> and five li.
func TestSiblingsByHand(t *testing.T) {
	d := parseDoc(t, siblingList(5))
	for _, tc := range []struct {
		lang, expr string
		want       string
	}{
		{"css", "x ~ li", "1 2 3 4 5"},
		{"css", "li + li", "2 3 4 5"},
		{"css", "x + li", "1"},
		{"css", "li ~ li:nth-child(odd)", "2 4"},
		{"css", "li:first-child, li:last-child", "5"},
		{"css", "li:nth-last-child(2n)", "2 4"},
		{"xpath", "//li/following-sibling::li[1]", "2 3 4 5"},
		{"xpath", "//li/following-sibling::li[3]", "4 5"},
		{"xpath", "//li/preceding-sibling::li[2]", "1 2 3"},
		{"xpath", "//li/preceding-sibling::*[5]", ""},
		{"xpath", "//li[4]/preceding-sibling::*[4]", ""},
		{"xpath", "//li[4]/preceding-sibling::node()[4]", ""},
		{"xpath", "//li[3]/preceding-sibling::*[3]", ""},
		{"xpath", "//li[3]/preceding-sibling::*[2]", "1"},
		{"xpath", "//li[3]/preceding-sibling::*[1]", "2"},
		{"xpath", "//li/following-sibling::li[1][. > 3]", "4 5"},
		{"xpath", "//li[following-sibling::li[3]]", "1 2"},
	} {
		var sel Selector
		var err error
		if tc.lang == "css" {
			sel, err = CompileCSS(tc.expr)
		} else {
			sel, err = CompileXPath(tc.expr)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(sel.Values(d.Root), " "); got != tc.want {
			t.Errorf("%s %q = %q, want %q", tc.lang, tc.expr, got, tc.want)
		}
	}
}

// sampleDocs returns small random lists of siblings, one list of long
// items, and a chain depth deep, parsed.
func sampleDocs(t *testing.T, r *rand.Rand, small, long, depth int) []*tree.Document {
	t.Helper()
	var docs []*tree.Document
	for range small {
		docs = append(docs, parseDoc(t, randomSiblings(r, 0)))
	}
	return append(docs, parseDoc(t, randomSiblings(r, long)), parseDoc(t, scopeChain(depth)))
}

// TestXPathPositional checks that a step whose first predicate is a
// number, which stops its axis early, selects what the same step does with
// position()=k, which builds the whole axis.
func TestXPathPositional(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	docs := sampleDocs(t, r, 5, 200, 100)
	var pairs [][2]string
	for _, axis := range []string{"child", "following-sibling", "preceding-sibling", "ancestor", "ancestor-or-self"} {
		for _, test := range []string{"li", "*", "node()"} {
			for _, k := range []string{"1", "2", "0", "1.5", "99"} {
				step := axis + "::" + test
				pairs = append(pairs,
					[2]string{"//*/" + step + "[" + k + "]", "//*/" + step + "[position()=" + k + "]"},
					[2]string{"//*/" + step + "[" + k + "][self::li]", "//*/" + step + "[position()=" + k + "][self::li]"},
					[2]string{"//*[" + step + "[" + k + "]]", "//*[" + step + "[position()=" + k + "]]"},
				)
			}
		}
	}
	for _, p := range pairs {
		fast, err := CompileXPath(p[0])
		if err != nil {
			t.Fatal(err)
		}
		slow, err := CompileXPath(p[1])
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range docs {
			if got, want := fast.Select(d.Root), slow.Select(d.Root); !slices.Equal(got, want) {
				t.Errorf("%q on document %d: %d matches, %q %d", p[0], i, len(got), p[1], len(want))
			}
			if got, want := fast.Values(d.Root), slow.Values(d.Root); !slices.Equal(got, want) {
				t.Errorf("%q on document %d: values differ from %q", p[0], i, p[1])
			}
		}
	}
}

// refScopeLeaves extracts the content of d as newContent did with a walk
// to the top for each scope match: whether another match holds it, its
// parent's signature, its group (by Node.Index) and whether an ancestor
// is left out. It returns the scope roots extracted and the leaves.
func refScopeLeaves(d *tree.Document, scope Selector, ignore []Selector, tab *symtab) ([]*tree.Node, []leaf) {
	c := &content{doc: d, tab: tab, html: isHTML(d), root: d.Root.Name}
	if len(ignore) > 0 {
		c.ignored = make(map[*tree.Node]bool)
		for _, s := range ignore {
			for _, n := range s.Select(d.Root) {
				c.ignored[n] = true
			}
		}
	}
	var roots []*tree.Node
	if scope == nil {
		roots = []*tree.Node{d.Root}
	} else {
		sel := scope.Select(d.Root)
		in := make(map[*tree.Node]bool, len(sel))
		for _, n := range sel {
			in[n] = true
		}
		for _, n := range sel {
			nested := false
			for p := n.Parent; p != nil; p = p.Parent {
				nested = nested || in[p]
			}
			if !nested {
				roots = append(roots, n)
			}
		}
	}
	groupRoot := d.Root
	if c.html {
		for _, ch := range d.Root.Children {
			if ch.Kind == tree.Element && strings.EqualFold(ch.Name, "body") {
				groupRoot = ch
			}
		}
	}
	var extracted []*tree.Node
	for _, r := range roots {
		var labels []string
		group := int32(-1)
		for p := r.Parent; p != nil; p = p.Parent {
			labels = append([]string{p.Name}, labels...)
		}
		for m := r; m != nil && m.Parent != nil; m = m.Parent {
			if m.Parent == groupRoot {
				group = int32(m.Index())
			}
		}
		skipped := false
		for p := r; p != nil; p = p.Parent {
			skipped = skipped || c.skip(p)
		}
		if skipped {
			continue
		}
		sig0 := int32(-1)
		for _, l := range labels {
			sig0 = tab.step(sig0, l)
		}
		extracted = append(extracted, r)
		c.extract(r, sig0, group, groupRoot)
	}
	for i := range c.leaves {
		c.leaves[i].pos = int32(i + 1)
	}
	return extracted, c.leaves
}

// TestScopedContentReference compares newContent's scope roots, leaves
// and signature numbers with refScopeLeaves on random lists, a deep chain
// and an HTML page, with scopes that nest and regions left out.
func TestScopedContentReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	docs := sampleDocs(t, r, 10, 500, 300)
	html, err := markup.ParseHTMLBytes([]byte(strings.Replace(paragraphs(300), "<p>paragraph 7 ", "<script>x</script><p>paragraph 7 <a href=\"/7\">seven</a>", 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, html)
	sel := func(lang, expr string) Selector {
		var s Selector
		var err error
		if lang == "css" {
			s, err = CompileCSS(expr)
		} else {
			s, err = CompileXPath(expr)
		}
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	scopes := []Selector{nil, sel("css", "x"), sel("css", "li"), sel("css", "ul, li + li, b"), sel("css", "c"), sel("css", "p"),
		sel("xpath", "//c[3] | //x[5] | //*[@href]"), sel("css", "body, html")}
	ignores := [][]Selector{nil, {sel("css", "li:nth-child(3n), c:nth-child(2) > c")}, {sel("xpath", "//ul[2] | //x[text()='7'] | //p[5]")}}
	for i, d := range docs {
		for _, scope := range scopes {
			for _, ignore := range ignores {
				name := fmt.Sprintf("document %d, scope %v, ignore %v", i, scope, ignore)
				tab, refTab := newSymtab(), newSymtab()
				c := newContent(d, scope, ignore, false, tab)
				roots, leaves := refScopeLeaves(d, scope, ignore, refTab)
				if !slices.Equal(c.roots, roots) {
					t.Errorf("%s: %d roots, reference %d", name, len(c.roots), len(roots))
				}
				if (len(c.leaves) > 0 || len(leaves) > 0) && !reflect.DeepEqual(c.leaves, leaves) {
					t.Errorf("%s: %d leaves differ from the reference's %d", name, len(c.leaves), len(leaves))
				}
				// newContent goes on to number more than the extraction
				// does: the reference's numbers must be a prefix of its.
				if len(tab.sigs) < len(refTab.sigs) || !slices.Equal(tab.sigs[:len(refTab.sigs)], refTab.sigs) {
					t.Errorf("%s: signatures numbered differently", name)
				}
			}
		}
	}
}

// TestValueWithoutContent checks that a value change type without ignored
// regions reads the scope's values without extracting its content.
func TestValueWithoutContent(t *testing.T) {
	p := NewPair(parseDoc(t, "<r><p>$1</p></r>"), parseDoc(t, "<r><p>$2</p></r>"), nil, nil)
	r, err := p.Evaluate(monitor(t, `value In css "p" increases`))
	if err != nil || !r.Matched {
		t.Fatalf("got %v, %v", r, err)
	}
	if len(p.contents) != 0 {
		t.Errorf("%d contents extracted", len(p.contents))
	}
}
