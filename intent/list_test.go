package intent

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// evalPipeline evaluates clause on two versions as a monitor does: both
// parsed, diffed by treediff, and read through the clause with the delta.
func evalPipeline(t *testing.T, old, new, clause string) *Result {
	t.Helper()
	o, n := parseDoc(t, old), parseDoc(t, new)
	d, err := treediff.Diff(o, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewPair(o, n, d, nil).Evaluate(monitor(t, clause))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func lines(changes []Change) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.Line()
	}
	return out
}

// menu is a page with a list of two items, each with a sub-list.
const menu = `<ul id="menu"><li>Food<ul><li>Soup</li><li>Bread</li></ul></li><li>Drinks<ul><li>Tea</li></ul></li></ul>`

// TestNestedLists: a change inside a sub-list is a change of that
// sub-list's item, told with the labels of the items it sits in, and not a
// change of the outer item; the outer item's own text is its own change.
func TestNestedLists(t *testing.T) {
	page := func(body string) string { return "<html><body>" + body + "</body></html>" }
	tests := []struct {
		name, old, new string
		clause         string // list {menu} when empty
		want           []string
	}{
		{"sub-item changed", menu,
			strings.Replace(menu, "Soup", "Salad", 1), "",
			[]string{"~ list item changed in Food: Soup -> Salad"}},
		{"sub-item added", menu,
			strings.Replace(menu, "<li>Bread</li>", "<li>Bread</li><li>Salad</li>", 1), "",
			[]string{"+ list item added in Food: Salad"}},
		{"sub-item removed", menu,
			strings.Replace(menu, "<li>Bread</li>", "", 1), "",
			[]string{"- list item removed from Food: Bread"}},
		{"sub-items reordered", menu,
			strings.Replace(menu, "<li>Soup</li><li>Bread</li>", "<li>Bread</li><li>Soup</li>", 1), "",
			[]string{"~ list item moved in Food: Soup"}},
		{"outer item's own text changed", menu,
			strings.Replace(menu, "Food", "Meals", 1), "",
			[]string{"~ list item changed: Food -> Meals"}},
		{"outer item and sub-item changed", menu,
			strings.NewReplacer("Food", "Meals", "Soup", "Salad").Replace(menu), "",
			[]string{"~ list item changed: Food -> Meals", "~ list item changed in Meals: Soup -> Salad"}},
		{"sub-item moved to another item", menu,
			strings.NewReplacer("<li>Bread</li>", "", "<li>Tea</li>", "<li>Tea</li><li>Bread</li>").Replace(menu), "",
			[]string{"~ list item moved from Food to Drinks: Bread"}},
		{"sub-item moved out to the top", menu,
			strings.NewReplacer("<li>Bread</li>", "", "</ul></li></ul>", "</ul></li><li>Bread</li></ul>").Replace(menu), "",
			[]string{"~ list item moved out of Food: Bread"}},
		{"item moved into a sub-list",
			`<ul id="menu"><li>Food<ul><li>Soup</li></ul></li><li>Bread</li></ul>`,
			`<ul id="menu"><li>Food<ul><li>Soup</li><li>Bread</li></ul></li></ul>`, "",
			[]string{"~ list item moved into Food: Bread"}},
		{"sub-list added",
			`<ul id="menu"><li>Food</li><li>Drinks</li></ul>`,
			`<ul id="menu"><li>Food</li><li>Drinks<ul><li>Tea</li></ul></li></ul>`, "",
			[]string{"+ list item added in Drinks: Tea"}},
		{"sub-list removed", menu,
			strings.Replace(menu, "<ul><li>Tea</li></ul>", "", 1), "",
			[]string{"- list item removed from Drinks: Tea"}},
		{"outer item added with its sub-list", menu,
			strings.Replace(menu, "</ul></li></ul>", "</ul></li><li>Desserts<ul><li>Cake</li></ul></li></ul>", 1), "",
			[]string{"+ list item added: Desserts"}},
		{"outer item removed with its sub-list", menu,
			strings.Replace(menu, "<li>Drinks<ul><li>Tea</li></ul></li>", "", 1), "",
			[]string{"- list item removed: Drinks"}},
		{"three levels",
			`<ul id="menu"><li>Food<ul><li>Mains<ul><li>Steak</li><li>Fish</li></ul></li></ul></li></ul>`,
			`<ul id="menu"><li>Food<ul><li>Mains<ul><li>Steak</li><li>Tofu</li></ul></li></ul></li></ul>`, "",
			[]string{"~ list item changed in Food > Mains: Fish -> Tofu"}},
		{"ordered lists",
			`<ol id="menu"><li>Food<ol><li>Soup</li><li>Bread</li></ol></li></ol>`,
			`<ol id="menu"><li>Food<ol><li>Soup</li><li>Bread</li><li>Salad</li></ol></li></ol>`, "",
			[]string{"+ list item added in Food: Salad"}},
		{"ordered list in an unordered one",
			`<ul id="menu"><li>Steps<ol><li>Mix</li><li>Bake</li></ol></li></ul>`,
			`<ul id="menu"><li>Steps<ol><li>Mix</li><li>Rest</li><li>Bake</li></ol></li></ul>`, "",
			[]string{"+ list item added in Steps: Rest"}},
		{"label written in a link",
			`<ul id="menu"><li><a href="/food">Food</a><ul><li>Soup</li></ul></li></ul>`,
			`<ul id="menu"><li><a href="/food">Food</a><ul><li>Salad</li></ul></li></ul>`, "",
			[]string{"~ list item changed in Food: Soup -> Salad"}},
		{"item without text of its own",
			`<ul id="menu"><li>Drinks</li><li><ul><li>Soup</li></ul></li></ul>`,
			`<ul id="menu"><li>Drinks</li><li><ul><li>Salad</li></ul></li></ul>`, "",
			[]string{"~ list item changed in #2: Soup -> Salad"}},
		{"two sub-lists in one item",
			`<ul id="menu"><li>Food<ul><li>Soup</li></ul><ul><li>Bread</li></ul></li></ul>`,
			`<ul id="menu"><li>Food<ul><li>Soup</li></ul><ul><li>Rolls</li></ul></li></ul>`, "",
			[]string{"~ list item changed in Food: Bread -> Rolls"}},
		{"sub-list written straight in the list",
			`<ul id="menu"><li>Food</li><ul><li>Soup</li></ul></ul>`,
			`<ul id="menu"><li>Food</li><ul><li>Salad</li></ul></ul>`, "",
			[]string{"~ list item changed in Food: Soup -> Salad"}},
		{"every list", menu,
			strings.Replace(menu, "Soup", "Salad", 1), "list",
			[]string{"~ list item changed in Food: Soup -> Salad"}},
		{"every list in a scope", menu,
			strings.Replace(menu, "Soup", "Salad", 1), `list In css "#menu"`,
			[]string{"~ list item changed in Food: Soup -> Salad"}},
		{"the sub-list by its id",
			`<ul id="menu"><li>Food<ul id="food"><li>Soup</li></ul></li></ul>`,
			`<ul id="menu"><li>Food<ul id="food"><li>Salad</li></ul></li></ul>`, "list {food}",
			[]string{"~ list item changed: Soup -> Salad"}},
		{"a list and its sub-list named: reported once",
			`<ul id="menu"><li>Food<ul id="food"><li>Soup</li></ul></li></ul>`,
			`<ul id="menu"><li>Food<ul id="food"><li>Salad</li></ul></li></ul>`, "list {menu, food}",
			[]string{"~ list item changed in Food: Soup -> Salad"}},
		{"nothing changed", menu, menu, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clause := tc.clause
			if clause == "" {
				clause = "list {menu}"
			}
			r := evalPipeline(t, page(tc.old), page(tc.new), clause)
			if got := lines(r.Changes); !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if r.Matched != (len(tc.want) > 0) {
				t.Errorf("Matched = %v", r.Matched)
			}
		})
	}
}

// TestNestedListRecord: a nested item's record names the top list and the
// labels of the items it sits in, in each version.
func TestNestedListRecord(t *testing.T) {
	r := evalPipeline(t, "<html><body>"+menu+"</body></html>",
		"<html><body>"+strings.NewReplacer("Food", "Meals", "Soup", "Salad").Replace(menu)+"</body></html>", "list {menu}")
	if len(r.Changes) != 2 {
		t.Fatalf("changes %+v", r.Changes)
	}
	c := r.Changes[1]
	if c.Old != "Soup" || c.New != "Salad" || c.OldPos != 1 || c.NewPos != 1 || c.List == nil ||
		c.List.List != "menu" || !slices.Equal(c.List.OldParents, []string{"Food"}) || !slices.Equal(c.List.NewParents, []string{"Meals"}) {
		t.Errorf("record %+v %+v", c, c.List)
	}
	if want := "/html[1]/body[1]/ul[1]/li[1]/ul[1]/li[1]"; c.OldPath != want || c.NewPath != want {
		t.Errorf("paths %q %q", c.OldPath, c.NewPath)
	}
	if top := r.Changes[0]; top.List == nil || top.List.OldParents != nil || top.List.NewParents != nil {
		t.Errorf("top-level record %+v", top.List)
	}
}

// deepMenu returns an XML document (the HTML parser stops at 512 levels)
// with a list nested depth deep, item Li at level i, and bottom the text
// of the innermost item.
func deepMenu(depth int, rename map[int]string, bottom string) string {
	var b strings.Builder
	b.WriteString(`<r><ul id="menu">`)
	for i := 0; i < depth; i++ {
		label := "L" + strconv.Itoa(i)
		if s, ok := rename[i]; ok {
			label = s
		}
		b.WriteString("<li>" + label + "<ul>")
	}
	b.WriteString("<li>" + bottom + "</li>")
	for i := 0; i < depth; i++ {
		b.WriteString("</ul></li>")
	}
	b.WriteString("</ul></r>")
	return b.String()
}

// TestNestedListDeep: a list nested 10 000 deep is compared level by level
// from a queue, not by recursion, and its changes name the outermost and
// the innermost items around them.
func TestNestedListDeep(t *testing.T) {
	const depth = 10000
	old := parseDoc(t, deepMenu(depth, nil, "Soup"))
	new := parseDoc(t, deepMenu(depth, map[int]string{5000: "Middle"}, "Salad"))
	d, err := treediff.Diff(old, new, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPair(old, new, d, nil)
	for _, clause := range []string{"list {menu}", "list"} {
		r, err := p.Evaluate(monitor(t, clause))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"~ list item changed in L0 > … > L4998 > L4999: L5000 -> Middle",
			"~ list item changed in L0 > … > L9998 > L9999: Soup -> Salad",
		}
		if got := lines(r.Changes); !slices.Equal(got, want) {
			t.Fatalf("%s: got %q\nwant %q", clause, got, want)
		}
		ps := r.Changes[1].List.NewParents
		if len(ps) != maxParents || ps[0] != "L0" || ps[1] != "…" || ps[2] != "L9986" || ps[maxParents-1] != "L9999" {
			t.Errorf("%s: parents %q", clause, ps)
		}
		if ps := r.Changes[1].List.OldParents; ps[maxParents-1] != "L9999" || slices.Contains(ps, "Middle") {
			t.Errorf("%s: old parents %q", clause, ps)
		}
		if !strings.HasSuffix(r.Changes[1].NewPath, "/ul[1]/li[1]") {
			t.Errorf("%s: path ends %q", clause, r.Changes[1].NewPath[len(r.Changes[1].NewPath)-30:])
		}
	}
}

// menuItem is an item of a generated nested list.
type menuItem struct {
	text    string
	ordered bool // its nested list is an ol
	kids    []*menuItem
}

func (it *menuItem) clone() *menuItem {
	c := &menuItem{text: it.text, ordered: it.ordered}
	for _, k := range it.kids {
		c.kids = append(c.kids, k.clone())
	}
	return c
}

func writeMenu(b *strings.Builder, items []*menuItem, tag string) {
	b.WriteString("<" + tag + ">")
	for _, it := range items {
		b.WriteString("<li>" + it.text)
		if len(it.kids) > 0 {
			tag := "ul"
			if it.ordered {
				tag = "ol"
			}
			writeMenu(b, it.kids, tag)
		}
		b.WriteString("</li>")
	}
	b.WriteString("</" + tag + ">")
}

// randomMenu returns items nested at most depth deep, their texts from a
// small alphabet so that they repeat.
func randomMenu(r *rand.Rand, depth int) []*menuItem {
	items := make([]*menuItem, r.IntN(4))
	for i := range items {
		items[i] = &menuItem{text: string(rune('a' + r.IntN(6))), ordered: r.IntN(3) == 0}
		if depth > 0 && r.IntN(2) == 0 {
			items[i].kids = randomMenu(r, depth-1)
		}
	}
	return items
}

// mutateMenu renames, removes, adds and moves items at random.
func mutateMenu(r *rand.Rand, top *menuItem) {
	for n := r.IntN(4); n > 0; n-- {
		// every list: the top one and each item's kids
		var lists []*menuItem
		var walk func(it *menuItem)
		walk = func(it *menuItem) {
			lists = append(lists, it)
			for _, k := range it.kids {
				walk(k)
			}
		}
		walk(top)
		l := lists[r.IntN(len(lists))]
		switch op := r.IntN(4); {
		case op == 0 && len(l.kids) > 0:
			l.kids[r.IntN(len(l.kids))].text = string(rune('a' + r.IntN(6)))
		case op == 1 && len(l.kids) > 0:
			i := r.IntN(len(l.kids))
			l.kids = slices.Delete(l.kids, i, i+1)
		case op == 2:
			l.kids = slices.Insert(l.kids, r.IntN(len(l.kids)+1), &menuItem{text: string(rune('a' + r.IntN(6)))})
		case op == 3 && len(l.kids) > 0:
			i := r.IntN(len(l.kids))
			it := l.kids[i]
			l.kids = slices.Delete(l.kids, i, i+1)
			var to []*menuItem // lists outside the item moved
			var outside func(x *menuItem)
			outside = func(x *menuItem) {
				to = append(to, x)
				for _, k := range x.kids {
					outside(k)
				}
			}
			outside(top)
			dst := to[r.IntN(len(to))]
			dst.kids = slices.Insert(dst.kids, r.IntN(len(dst.kids)+1), it)
		}
	}
}

// itemLabels returns, for each li of the list with id menu in doc, by
// path, the texts of the li it is nested in, outermost first.
func itemLabels(doc *tree.Document) map[string][]string {
	out := map[string][]string{}
	var paths tree.NodePaths
	tree.Walk(doc.Root, func(n *tree.Node) bool {
		if elementIs(n, "li") {
			var ls []string
			for p := n.Parent; p != nil; p = p.Parent {
				if elementIs(p, "li") {
					ls = append(ls, p.Children[0].Value)
				}
			}
			slices.Reverse(ls)
			out[paths.Path(n)] = ls
		}
		return true
	})
	return out
}

// TestNestedListProperties compares random nested lists with random
// edits of them (checkNestedLists).
func TestNestedListProperties(t *testing.T) {
	for seed := uint64(0); seed < 400; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		top := &menuItem{kids: randomMenu(r, 3)}
		next := top.clone()
		mutateMenu(r, next)
		var a, b strings.Builder
		writeMenu(&a, top.kids, "ul")
		writeMenu(&b, next.kids, "ul")
		old, new := "<html><body>"+a.String()+"</body></html>", "<html><body>"+b.String()+"</body></html>"
		checkNestedLists(t, old, new, true)
	}
}

func FuzzNestedLists(f *testing.F) {
	f.Add(menu, strings.NewReplacer("<li>Bread</li>", "", "<li>Tea</li>", "<li>Tea</li><li>Bread</li>").Replace(menu))
	f.Add(`<ul><li>a<ul><li>b</li></ul></li><ul><li>c</li></ul></ul>`, `<ul><ul><li>c</li></ul><li>b<ol><li>a</li></ol></li></ul>`)
	f.Add(`<r><ul><li>a<ul><li>b<li>c</li></li></ul></li></ul></r>`, `<r><ul><li>a<ul><li>c</li></ul></li><li>b</li></ul></r>`)
	f.Fuzz(func(t *testing.T, old, new string) {
		checkNestedLists(t, old, new, false)
	})
}

// checkNestedLists evaluates every list of two versions, diffed by
// treediff, and checks (when both parse and have a root) that each item is reported at most once, that a
// move keeps the item's text, that equal versions have no change, and
// that no change carries more than maxParents labels. When generated is
// set (the versions are writeMenu's: an li's first child is its text), it
// checks too that each change carries the labels of the items it sits in,
// and that the items left unreported (less those inside an item added or
// removed) have the same texts in both versions.
func checkNestedLists(t *testing.T, old, new string, generated bool) {
	t.Helper()
	oldDoc, err1 := parseOrNil(old)
	newDoc, err2 := parseOrNil(new)
	if err1 != nil || err2 != nil || oldDoc == nil || newDoc == nil || oldDoc.Root == nil || newDoc.Root == nil {
		if generated {
			t.Fatalf("parse: %v, %v", err1, err2)
		}
		return
	}
	d, err := treediff.Diff(oldDoc, newDoc, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := NewPair(oldDoc, newDoc, d, nil).Evaluate(monitor(t, "list"))
	if err != nil {
		t.Fatal(err)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf(format+"\nold %s\nnew %s\n%s", append(args, old, new, strings.Join(lines(res.Changes), "\n"))...)
	}
	if old == new && len(res.Changes) > 0 {
		fail("changes between equal versions")
	}
	var oldLabels, newLabels map[string][]string
	if generated {
		oldLabels, newLabels = itemLabels(oldDoc), itemLabels(newDoc)
	}
	seenOld, seenNew := map[string]bool{}, map[string]bool{}
	var gone, come []string // items removed and added whole
	for _, c := range res.Changes {
		if c.List == nil || len(c.List.OldParents) > maxParents || len(c.List.NewParents) > maxParents {
			fail("list info %+v", c.List)
		}
		if c.OldPath != "" {
			if seenOld[c.OldPath] {
				fail("old item %s reported twice", c.OldPath)
			}
			seenOld[c.OldPath] = true
			if want := oldLabels[c.OldPath]; generated && !slices.Equal(c.List.OldParents, want) {
				fail("old parents %q, want %q", c.List.OldParents, want)
			}
		}
		if c.NewPath != "" {
			if seenNew[c.NewPath] {
				fail("new item %s reported twice", c.NewPath)
			}
			seenNew[c.NewPath] = true
			if want := newLabels[c.NewPath]; generated && !slices.Equal(c.List.NewParents, want) {
				fail("new parents %q, want %q", c.List.NewParents, want)
			}
		}
		switch c.Op {
		case Delete:
			gone = append(gone, c.OldPath+"/")
		case Insert:
			come = append(come, c.NewPath+"/")
		case Move:
			if c.Old != c.New {
				fail("a move changes the text: %+v", c)
			}
		}
	}
	if !generated {
		return
	}
	left := func(seen map[string]bool, whole []string, doc *tree.Document) []string {
		var out []string
		var paths tree.NodePaths
		tree.Walk(doc.Root, func(n *tree.Node) bool {
			if !elementIs(n, "li") {
				return true
			}
			p := paths.Path(n)
			if seen[p] || slices.ContainsFunc(whole, func(w string) bool { return strings.HasPrefix(p, w) }) {
				return true
			}
			out = append(out, n.Children[0].Value)
			return true
		})
		slices.Sort(out)
		return out
	}
	if l1, l2 := left(seenOld, gone, oldDoc), left(seenNew, come, newDoc); !slices.Equal(l1, l2) {
		fail("items left unreported differ:\n%q\n%q", l1, l2)
	}
}

// glossary is a page with a definition list of three terms, one with two
// descriptions, one grouped in a div.
const glossary = `<dl id="terms"><dt>Delta</dt><dd>What changed.</dd>` +
	`<dt>XID</dt><dd>A persistent node id.</dd><dd>Kept across versions.</dd>` +
	`<div><dt>Move</dt><dd>A node in a new place.</dd></div></dl>`

// TestDefinitionLists: a definition list is a list whose items are its
// groups of terms and descriptions ("term: description"): a changed
// description, a term added, removed or moved, and a list nested in a
// description are reported as for ul and ol. Before, a dl was no list: a
// list watch saw none of it.
func TestDefinitionLists(t *testing.T) {
	tests := []struct {
		name, new string
		want      []string
	}{
		{"description changed", strings.Replace(glossary, "What changed.", "What changed between two versions.", 1),
			[]string{"~ list item changed: Delta: What changed. -> Delta: What changed between two versions."}},
		{"second description changed", strings.Replace(glossary, "Kept across versions.", "Kept for ever.", 1),
			[]string{"~ list item changed: XID: A persistent node id.; Kept across versions. -> XID: A persistent node id.; Kept for ever."}},
		{"term added", strings.Replace(glossary, "</dl>", "<dt>Compose</dt><dd>Two deltas as one.</dd></dl>", 1),
			[]string{"+ list item added: Compose: Two deltas as one."}},
		{"term in a div removed", strings.Replace(glossary, "<div><dt>Move</dt><dd>A node in a new place.</dd></div>", "", 1),
			[]string{"- list item removed: Move: A node in a new place."}},
		{"terms reordered", `<dl id="terms"><dt>XID</dt><dd>A persistent node id.</dd><dd>Kept across versions.</dd>` +
			`<dt>Delta</dt><dd>What changed.</dd><div><dt>Move</dt><dd>A node in a new place.</dd></div></dl>`,
			[]string{"~ list item moved: Delta: What changed."}},
		{"list nested in a description", strings.Replace(glossary, "What changed.</dd>", "What changed.<ul><li>inserts</li></ul></dd>", 1),
			[]string{"+ list item added in Delta: inserts"}},
		{"term renamed, description kept", strings.Replace(glossary, "<dt>Delta</dt>", "<dt>Edit script</dt>", 1),
			[]string{"~ list item changed: Delta: What changed. -> Edit script: What changed."}},
		{"two descriptions changed and reordered", `<dl id="terms"><dt>XID</dt><dd>A node id.</dd>` +
			`<dt>Delta</dt><dd>What differs.</dd><div><dt>Move</dt><dd>A node in a new place.</dd></div></dl>`,
			// Paired by their terms, whatever their order.
			[]string{"~ list item changed: XID: A persistent node id.; Kept across versions. -> XID: A node id.",
				"~ list item changed: Delta: What changed. -> Delta: What differs."}},
		{"unchanged", glossary, nil},
	}
	for _, tc := range tests {
		r := evalPipeline(t, "<html><body>"+glossary+"</body></html>", "<html><body>"+tc.new+"</body></html>", "list {terms}")
		if got := lines(r.Changes); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestListInDefinitionListBeforeTerms: a ul written in a dl, or in one of
// its div groups, before the first term gives its items to the dl, as in
// a ul; they were given to no item and lost.
func TestListInDefinitionListBeforeTerms(t *testing.T) {
	for name, doc := range map[string]string{
		"ul in ul, for comparison": "<ul><ul><li>WORD</li></ul><li>T</li></ul>",
		"ul in dl":                 "<dl><ul><li>WORD</li></ul><dt>T</dt><dd>d</dd></dl>",
		"ul in a div of a dl":      "<dl><div><ul><li>WORD</li></ul><dt>T</dt><dd>d</dd></div></dl>",
	} {
		page := func(s string) string {
			return "<html><body>" + strings.ReplaceAll(doc, "WORD", s) + "</body></html>"
		}
		r := evalPipeline(t, page("Soup"), page("Salad"), "list")
		if got := lines(r.Changes); !slices.Equal(got, []string{"~ list item changed: Soup -> Salad"}) {
			t.Errorf("%s: %q, want the item's change", name, got)
		}
	}
}

// TestDefinitionsPairedByTermWhateverComesFirst: definitions are paired by
// their terms even when the list begins with a description without one;
// the number of partial keys was read from the first item alone, so a
// definition moved and changed was removed and added.
func TestDefinitionsPairedByTermWhateverComesFirst(t *testing.T) {
	for name, lead := range map[string]string{"terms first": "", "a lone description first": "<dd>Note</dd>"} {
		old := "<html><body><dl>" + lead + "<dt>A</dt><dd>1</dd><dt>B</dt><dd>2</dd><dt>C</dt><dd>3</dd></dl></body></html>"
		new := "<html><body><dl>" + lead + "<dt>C</dt><dd>33</dd><dt>A</dt><dd>1</dd><dt>B</dt><dd>2</dd></dl></body></html>"
		r := evalPipeline(t, old, new, "list")
		if got := lines(r.Changes); !slices.Equal(got, []string{"~ list item changed: C: 3 -> C: 33"}) {
			t.Errorf("%s: %q, want C changed", name, got)
		}
	}
}

// TestListChainWalkedOnce: lists written straight in lists before any
// item (<ul><ul><ul>...<li>) are walked once: each absorbed list's items
// are its outer list's, not found again by a walk of its own, which made
// every list walk down the rest of the chain (16 000 levels, 64 KB of XML,
// took 18 s for a link or list watch). The chain's change is still found.
func TestListChainWalkedOnce(t *testing.T) {
	const depth = 16000
	chain := func(bottom string) string {
		return "<r>" + strings.Repeat("<ul>", depth) + "<li>" + bottom + "</li>" + strings.Repeat("</ul>", depth) + "</r>"
	}
	d := parseDoc(t, chain("a"))
	lists := newContent(d, nil, nil, false, newSymtab()).listObjects()
	if len(lists) != depth {
		t.Fatalf("%d lists, want %d", len(lists), depth)
	}
	for k, l := range lists {
		if len(l.items) != 1 || &l.items[0] != &lists[0].items[0] || (k > 0) != (l.parent != nil) {
			t.Fatalf("list %d: %d items, shared with the outermost list's: %v, nested: %v; want 1, its, %v",
				k+1, len(l.items), len(l.items) == 1 && &l.items[0] == &lists[0].items[0], l.parent != nil, k > 0)
		}
	}
	r := evalPipeline(t, chain("a"), chain("b"), "list")
	if got := lines(r.Changes); !slices.Equal(got, []string{"~ list item changed: a -> b"}) {
		t.Errorf("chain: %q, want the item's change", got)
	}
}
