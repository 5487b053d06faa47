package render

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// longListPair returns an HTML list of n items and the delta to the same
// list with every other item deleted, diffed as the warehouse does.
func longListPair(tb testing.TB, n int) (*tree.Document, *delta.Delta) {
	tb.Helper()
	var oldHTML, newHTML strings.Builder
	oldHTML.WriteString("<html><body><ul>")
	newHTML.WriteString("<html><body><ul>")
	for i := range n {
		fmt.Fprintf(&oldHTML, "<li>item %d</li>", i)
		if i%2 == 1 {
			fmt.Fprintf(&newHTML, "<li>item %d</li>", i)
		}
	}
	oldHTML.WriteString("</ul></body></html>")
	newHTML.WriteString("</ul></body></html>")
	old, err := markup.ParseHTMLBytes([]byte(oldHTML.String()), nil)
	if err != nil {
		tb.Fatal(err)
	}
	cur, err := markup.ParseHTMLBytes([]byte(newHTML.String()), nil)
	if err != nil {
		tb.Fatal(err)
	}
	old.AssignXIDs()
	d, err := treediff.Diff(old, cur, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return old, d
}

// longBody returns a document whose body holds n paragraphs.
func longBody(n int) *tree.Document {
	doc := &tree.Document{}
	html := doc.NewElement("html")
	b := doc.NewElement("body")
	html.AppendChild(b)
	for i := range n {
		p := doc.NewElement("p")
		p.AppendChild(doc.NewText(fmt.Sprintf("paragraph %d", i)))
		b.AppendChild(p)
	}
	doc.Root = html
	doc.AssignXIDs()
	return doc
}

// nestedMoves returns the annotation of a chain of depth sections, each
// holding a long text and the next section, with every section marked as
// moved: the text of each moved section holds that of all below it.
func nestedMoves(tb testing.TB, depth int) *Annotated {
	tb.Helper()
	doc := &tree.Document{}
	html := doc.NewElement("html")
	doc.Root = html
	at := html
	for i := range depth {
		s := doc.NewElement("section")
		s.AppendChild(doc.NewText(fmt.Sprintf("level %d: %s ", i, strings.Repeat("words and  spaces\n", 50))))
		at.AppendChild(s)
		at = s
	}
	doc.AssignXIDs()
	a, err := Annotate(doc, nil)
	if err != nil {
		tb.Fatal(err)
	}
	d := &delta.Delta{}
	tree.Walk(a.New.Root, func(n *tree.Node) bool {
		if n.Kind == tree.Element && n.Name == "section" {
			d.Ops = append(d.Ops, delta.Op{Kind: delta.Insert, Move: true, Parent: n.Parent.XID, XIDs: tree.XIDMap{XIDs: []tree.XID{n.XID}}})
		}
		return true
	})
	a.Delta = d
	return a
}

// mergedByIndex is merged as it was first written, placing each deleted
// subtree with Node.Index and InsertChild: the reference that merged must
// agree with, in time quadratic in the length of a sibling list.
func (a *Annotated) mergedByIndex() (*tree.Document, map[*tree.Node]Mark, map[*tree.Node]string) {
	doc := a.New.Clone()
	byXID := doc.ByXID()
	marks := map[*tree.Node]Mark{}
	texts := map[*tree.Node]string{}
	for n, m := range a.NewMarks {
		if c := byXID[n.XID]; c != nil {
			marks[c] = m
			if t, ok := a.OldText[n]; ok {
				texts[c] = t
			}
		}
	}
	for i := len(a.Delta.Ops) - 1; i >= 0; i-- {
		op := &a.Delta.Ops[i]
		if op.Kind != delta.Delete || op.Move || op.Update || op.Content == nil {
			continue
		}
		parent := byXID[op.Parent]
		old := a.oldByXID[op.Root()]
		if parent == nil || old == nil || old.Parent == nil {
			continue
		}
		c := doc.CloneNode(op.Content)
		at := 0
		for j := old.Index() - 1; j >= 0; j-- {
			if s := byXID[old.Parent.Children[j].XID]; s != nil && s.Parent == parent {
				at = s.Index() + 1
				break
			}
		}
		parent.InsertChild(at, c)
		tree.Walk(c, func(n *tree.Node) bool {
			if n.XID != 0 {
				byXID[n.XID] = n
			}
			return true
		})
		marks[c] = Deleted
	}
	return doc, marks, texts
}

// editedList returns an HTML page of lists and a random edit of it:
// items deleted (often in runs), kept, swapped, inserted and changed, and
// nested lists edited the same way.
func editedList(r *rand.Rand, n int) (oldHTML, newHTML string) {
	var o, w strings.Builder
	var list func(depth, n int)
	list = func(depth, n int) {
		o.WriteString("<ul>")
		w.WriteString("<ul>")
		var held []string // items swapped with a later one
		for i := range n {
			item := fmt.Sprintf("<li>item %d.%d of a list long enough to match %d</li>", depth, i, r.IntN(1<<20))
			if depth < 2 && r.IntN(8) == 0 {
				o.WriteString("<li>")
				w.WriteString("<li>")
				list(depth+1, 1+r.IntN(12))
				o.WriteString("</li>")
				w.WriteString("</li>")
				continue
			}
			o.WriteString(item)
			switch k := r.IntN(10); {
			case k < 4: // deleted
			case k < 5:
				held = append(held, item)
			case k < 6:
				w.WriteString("<li>new " + item[4:])
				w.WriteString(item)
			case k < 7:
				w.WriteString(strings.Replace(item, "item", "changed item", 1))
			default:
				w.WriteString(item)
				if len(held) > 0 && r.IntN(3) == 0 {
					w.WriteString(held[0])
					held = held[1:]
				}
			}
		}
		o.WriteString("</ul>")
		for _, h := range held {
			w.WriteString(h)
		}
		w.WriteString("</ul>")
	}
	o.WriteString("<html><body><p>head</p>")
	w.WriteString("<html><body><p>head</p>")
	list(0, n)
	o.WriteString("<p>tail</p></body></html>")
	w.WriteString("<p>tail</p></body></html>")
	return o.String(), w.String()
}

// TestMergedLongList checks that the inline view of lists with many
// deletes among other changes is the one the reference merge gives.
func TestMergedLongList(t *testing.T) {
	type pair struct{ old, new string }
	cases := map[string]pair{}
	for n := range 4 {
		var o, w strings.Builder
		for i := range 500 {
			fmt.Fprintf(&o, "<li>item %d</li>", i)
			if i%4 == n {
				fmt.Fprintf(&w, "<li>item %d</li>", i)
			}
		}
		cases[fmt.Sprintf("every fourth kept from %d", n)] = pair{
			"<html><body><ul>" + o.String() + "</ul></body></html>",
			"<html><body><ul>" + w.String() + "</ul></body></html>"}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		o, w := editedList(r, 20+r.IntN(400))
		cases[fmt.Sprintf("random %d", i)] = pair{o, w}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			old, err := markup.ParseHTMLBytes([]byte(c.old), nil)
			if err != nil {
				t.Fatal(err)
			}
			cur, err := markup.ParseHTMLBytes([]byte(c.new), nil)
			if err != nil {
				t.Fatal(err)
			}
			old.AssignXIDs()
			d, err := treediff.Diff(old, cur, nil)
			if err != nil {
				t.Fatal(err)
			}
			a, err := Annotate(old, d)
			if err != nil {
				t.Fatal(err)
			}
			var got, want bytes.Buffer
			if err := a.WriteInline(&got); err != nil {
				t.Fatal(err)
			}
			doc, marks, texts := a.mergedByIndex()
			if err := writeInline(&want, doc, marks, texts); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("inline view differs from the reference's\ngot  %s\nwant %s", got.String(), want.String())
			}
			if !strings.Contains(got.String(), `data-vigil="del"`) {
				t.Errorf("no delete shown:\n%s", got.String())
			}
		})
	}
}

// TestWriteSideBySideLongBody checks that each column of the side-by-side
// view holds the whole body, in order.
func TestWriteSideBySideLongBody(t *testing.T) {
	const n = 5000
	a, err := Annotate(longBody(n), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := a.WriteSideBySide(&got); err != nil {
		t.Fatal(err)
	}
	var paras strings.Builder
	for i := range n {
		fmt.Fprintf(&paras, "<p>paragraph %d</p>", i)
	}
	want := `<!DOCTYPE html><html><body><div data-vigil="sbs"><div data-vigil="old">` + paras.String() +
		`</div><div data-vigil="new">` + paras.String() + `</div></div></body></html>`
	if got.String() != want {
		t.Errorf("side by side of a long body:\ngot  %.300s…\nwant %.300s…", got.String(), want)
	}
}

// wholeText returns n's texts joined whole, as lineText joins the
// start of them.
func wholeText(n *tree.Node, html bool) string {
	var b strings.Builder
	markup.JoinTexts(n, html, func(sep, text string) bool {
		b.WriteString(sep)
		b.WriteString(text)
		return true
	})
	return b.String()
}

// TestLineText checks lineText against oneLine of the whole text, on
// texts around the cut, white space in runs and at the ends, characters
// split between text nodes and invalid bytes.
func TestLineText(t *testing.T) {
	long := strings.Repeat("abc ", 60)
	texts := map[string][]string{
		"empty":                {},
		"short":                {"  hello\n", "world  "},
		"199 letters":          {strings.Repeat("x", 199)},
		"200 letters":          {strings.Repeat("x", 200)},
		"201 letters":          {strings.Repeat("x", 201)},
		"200 with spaces":      {strings.Repeat("x ", 100)},
		"201 with spaces":      {strings.Repeat("x ", 100) + "y"},
		"word across nodes":    {strings.Repeat("x", 150), strings.Repeat("y", 100)},
		"space runs":           {strings.Repeat(" \t\n", 1000), long, strings.Repeat(" ", 1000), long},
		"split character":      {strings.Repeat("é", 199) + "\xc3", "\xa9" + long},
		"split space":          {strings.Repeat("é", 150) + "\u00a0"[:1], "\u00a0"[1:] + long},
		"invalid bytes":        {strings.Repeat("\xff\xfe ", 120)},
		"cut in a long node":   {strings.Repeat("long text, ", 10000)},
		"wide characters":      {strings.Repeat("日本語 ", 100)},
		"many small nodes":     strings.Split(strings.Repeat("a b  c ", 200), " "),
		"marks across the cut": {strings.Repeat("x", 190) + "e", strings.Repeat("\u0301", 40), "yz"},
		"a letter under more marks than MaxClusterRunes": {"a" + strings.Repeat("\u0301", 1500), "b"},
		"flags across the cut":                           {"x", strings.Repeat("🇫🇷", 150)},
		"a conjunct at the cut":                          {strings.Repeat("x", 199) + "\u0915\u094d", "\u0937 " + long},
	}
	for name, parts := range texts {
		t.Run(name, func(t *testing.T) {
			doc := &tree.Document{}
			root := doc.NewElement("div")
			at := root
			for i, s := range parts {
				if i%3 == 2 { // some text deeper down
					e := doc.NewElement("span")
					at.AppendChild(e)
					at = e
				}
				at.AppendChild(doc.NewText(s))
				at.AppendChild(doc.NewElement("br"))
			}
			for _, html := range []bool{false, true} {
				if got, want := lineText(root, html), oneLine(wholeText(root, html)); got != want {
					t.Errorf("html %v: lineText = %q, want %q", html, got, want)
				}
			}
		})
	}
}

// TestWriteTextNestedMoves checks the text view of moves nested in each
// other against one built from the whole text of each change.
func TestWriteTextNestedMoves(t *testing.T) {
	a := nestedMoves(t, 100)
	var got, want bytes.Buffer
	if err := a.WriteText(&got); err != nil {
		t.Fatal(err)
	}
	for _, c := range a.Changes() {
		fmt.Fprintf(&want, "> %s → %s: %s\n", c.OldPath, c.Path, oneLine(wholeText(c.Node, true)))
	}
	if got.String() != want.String() {
		t.Errorf("text view:\ngot  %s\nwant %s", got.String(), want.String())
	}
}

// BenchmarkWriteInlineLongList writes the inline view of a list with every
// other item deleted.
func BenchmarkWriteInlineLongList(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			old, d := longListPair(b, n)
			a, err := Annotate(old, d)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if err := a.WriteInline(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteSideBySideLongBody writes the side-by-side view of a body
// of many paragraphs.
func BenchmarkWriteSideBySideLongBody(b *testing.B) {
	for _, n := range []int{20000, 200000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			a, err := Annotate(longBody(n), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if err := a.WriteSideBySide(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteTextNestedMoves writes the text view of moves nested in
// each other.
func BenchmarkWriteTextNestedMoves(b *testing.B) {
	for _, depth := range []int{250, 1000} {
		b.Run(fmt.Sprint(depth), func(b *testing.B) {
			a := nestedMoves(b, depth)
			b.ResetTimer()
			for range b.N {
				if err := a.WriteText(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
