package intent

import (
	"slices"
	"strings"
	"testing"

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
