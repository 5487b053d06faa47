package delta

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// This file is a test-only document generator and mutator: it makes random
// documents and random next versions with correct XIDs, so that properties
// of Build, Apply, Invert and Compose can be checked on many cases. (The
// change simulator of the seed, §6, is another package's concern.)

var genNames = []string{"a", "b", "item", "price", "name", "list", "p", "xy:q"}

var genWords = []string{
	"alpha", "beta", "gamma", "$499", " spaced  out ", "x<y & z>w", "quote\"'", "line\nbreak",
	"tab\there", "cr\r\nlf", "\u00e9t\u00e9", "  ", "]]>", "-->", "?>",
}

func randText(r *rand.Rand) string {
	w := genWords[r.IntN(len(genWords))]
	if r.IntN(3) == 0 {
		w += fmt.Sprint(r.IntN(1000))
	}
	return w
}

func randAttrs(r *rand.Rand) []tree.Attr {
	var attrs []tree.Attr
	for k := r.IntN(3); k > 0; k-- {
		name := []string{"id", "class", "x", "href", "xml:lang"}[r.IntN(5)]
		if _, dup := (&tree.Node{Attrs: attrs}).Attr(name); dup {
			continue
		}
		attrs = append(attrs, tree.Attr{Name: name, Value: randText(r)})
	}
	return attrs
}

// randLeaf returns a new leaf: mostly text, sometimes a comment or a PI.
func randLeaf(r *rand.Rand, d *tree.Document) *tree.Node {
	switch r.IntN(12) {
	case 0:
		return d.NewNode(tree.Comment, "", commentData(randText(r)))
	case 1:
		return d.NewNode(tree.ProcInst, "pi", piData(randText(r)))
	}
	return d.NewText(randText(r))
}

// commentData and piData make a value XML can hold in a comment or a
// processing instruction.
func commentData(s string) string {
	s = strings.NewReplacer("--", "- -", "\r", "").Replace(s)
	return strings.TrimSuffix(s, "-")
}

func piData(s string) string {
	return strings.TrimLeft(strings.NewReplacer("?>", "? >", "\r", "").Replace(s), " \t\n")
}

// genDoc returns a random document of about size nodes, XIDs in post-order.
func genDoc(r *rand.Rand, size int) *tree.Document {
	d := &tree.Document{}
	d.Root = d.NewElement("root")
	elems := []*tree.Node{d.Root}
	for n := 1; n < size; n++ {
		// Prefer recent elements, so that the tree gets some depth.
		var p *tree.Node
		if r.IntN(3) == 0 {
			p = elems[r.IntN(len(elems))]
		} else {
			p = elems[len(elems)-1-r.IntN(min(len(elems), 8))]
		}
		if r.IntN(5) < 2 {
			p.AppendChild(randLeaf(r, d))
			continue
		}
		e := d.NewElement(genNames[r.IntN(len(genNames))])
		e.Attrs = randAttrs(r)
		p.AppendChild(e)
		elems = append(elems, e)
	}
	d.AssignXIDs()
	return d
}

// randSubtree returns a new subtree of up to size nodes, without XIDs.
func randSubtree(r *rand.Rand, d *tree.Document, size int) *tree.Node {
	if size <= 1 && r.IntN(2) == 0 {
		return randLeaf(r, d)
	}
	root := d.NewElement(genNames[r.IntN(len(genNames))])
	root.Attrs = randAttrs(r)
	elems := []*tree.Node{root}
	for n := 1; n < size; n++ {
		p := elems[r.IntN(len(elems))]
		if r.IntN(2) == 0 {
			p.AppendChild(randLeaf(r, d))
			continue
		}
		e := d.NewElement(genNames[r.IntN(len(genNames))])
		p.AppendChild(e)
		elems = append(elems, e)
	}
	return root
}

// mutator edits a clone of a document, keeping XIDs: new nodes get fresh
// XIDs from NextXID.
type mutator struct {
	r     *rand.Rand
	d     *tree.Document
	nodes []*tree.Node // every node ever in the tree; detached ones are skipped
}

func mutate(r *rand.Rand, old *tree.Document, changes int) *tree.Document {
	m := &mutator{r: r, d: old.Clone()}
	tree.Walk(m.d.Root, func(n *tree.Node) bool { m.nodes = append(m.nodes, n); return true })
	for k := 0; k < changes; k++ {
		m.change()
	}
	return m.d
}

func (m *mutator) attached(n *tree.Node) bool {
	for n.Parent != nil {
		n = n.Parent
	}
	return n == m.d.Root
}

// pick returns a random attached node accepted by ok, or nil.
func (m *mutator) pick(ok func(*tree.Node) bool) *tree.Node {
	for try := 0; try < 50; try++ {
		n := m.nodes[m.r.IntN(len(m.nodes))]
		if m.attached(n) && ok(n) {
			return n
		}
	}
	return nil
}

func isElem(n *tree.Node) bool     { return n.Kind == tree.Element }
func notRoot(n *tree.Node) bool    { return n.Parent != nil }
func isLeafNode(n *tree.Node) bool { return n.Kind != tree.Element }

func (m *mutator) change() {
	r := m.r
	switch r.IntN(9) {
	case 0: // delete a subtree
		if n := m.pick(notRoot); n != nil && n.Size() < 40 {
			n.Parent.RemoveChild(n.Index())
		}
	case 1, 2: // insert a new subtree
		p := m.pick(isElem)
		if p == nil {
			return
		}
		s := randSubtree(r, m.d, 1+r.IntN(5))
		tree.PostOrder(s, func(n *tree.Node) {
			n.XID = m.d.NextXID
			m.d.NextXID++
			m.nodes = append(m.nodes, n)
		})
		p.InsertChild(r.IntN(len(p.Children)+1), s)
	case 3, 4: // move a subtree, within or across parents
		n := m.pick(notRoot)
		if n == nil {
			return
		}
		t := m.pick(func(t *tree.Node) bool { return isElem(t) && t != n && !tree.IsAncestor(n, t) })
		if t == nil {
			return
		}
		n.Parent.RemoveChild(n.Index())
		t.InsertChild(r.IntN(len(t.Children)+1), n)
	case 5: // update a text, comment or PI
		if n := m.pick(isLeafNode); n != nil {
			n.Value = randText(r)
			switch n.Kind {
			case tree.Comment:
				n.Value = commentData(n.Value)
			case tree.ProcInst:
				n.Value = piData(n.Value)
			}
		}
	case 6, 7: // attributes
		n := m.pick(isElem)
		if n == nil {
			return
		}
		switch {
		case len(n.Attrs) > 0 && r.IntN(2) == 0:
			n.RemoveAttr(n.Attrs[r.IntN(len(n.Attrs))].Name)
		case len(n.Attrs) > 0:
			n.Attrs[r.IntN(len(n.Attrs))].Value = randText(r)
		default:
			n.SetAttr("new", randText(r))
		}
	case 8: // rename
		if n := m.pick(isElem); n != nil {
			n.Name = genNames[r.IntN(len(genNames))]
		}
	}
}
