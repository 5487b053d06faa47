package simulate

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// Rates are per-node probabilities of each kind of change, between 0 and 1.
type Rates struct {
	Delete float64 // a node (with its subtree) is deleted
	Update float64 // a text node gets a new value
	Insert float64 // an element gets a new child subtree
	Move   float64 // a node (with its subtree) moves to a random place
}

// Uniform returns rates with every kind of change at probability p: about
// 4p of the nodes change (less for updates, which touch texts only).
func Uniform(p float64) Rates { return Rates{Delete: p, Update: p, Insert: p, Move: p} }

// Spread returns rates under which about a share total of the nodes change,
// spread evenly over the four kinds: "10 % of nodes changed" is Spread(0.1).
func Spread(total float64) Rates { return Uniform(total / 4) }

// Validate reports a rate outside [0, 1].
func (r Rates) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"delete", r.Delete}, {"update", r.Update}, {"insert", r.Insert}, {"move", r.Move}} {
		if !(f.v >= 0 && f.v <= 1) {
			return fmt.Errorf("simulate: %s rate %v is not between 0 and 1", f.name, f.v)
		}
	}
	return nil
}

// Change returns a new version of old with the given rates of change, and
// the exact delta from old to it. old must carry XIDs (Generate's documents
// do; call AssignXIDs on others); it is not modified. Nodes that survive keep
// their XIDs in the new version and new nodes get fresh ones from
// old.NextXID, so the new version can be changed again.
func Change(old *tree.Document, r Rates, seed uint64) (*tree.Document, *delta.Delta, error) {
	if err := r.Validate(); err != nil {
		return nil, nil, err
	}
	if old.Root == nil || old.Root.XID == 0 {
		return nil, nil, fmt.Errorf("simulate: the old version needs a root with XIDs")
	}
	c := &changer{r: rand.New(rand.NewPCG(seed, 0xc4a6e)), d: old.Clone(), rates: r}
	c.next = c.d.NextXID
	nodes := tree.PostOrderNodes(c.d.Root)
	c.delete(nodes)
	c.update()
	moving := c.detachForMove()
	c.insert()
	c.reattach(moving)
	c.d.NextXID = c.next
	perfect, err := delta.Build(old, c.d)
	if err != nil {
		return nil, nil, fmt.Errorf("simulate: %w", err)
	}
	return c.d, perfect, nil
}

type changer struct {
	r       *rand.Rand
	d       *tree.Document
	rates   Rates
	next    tree.XID
	counter int
}

// attached returns the nodes currently in the tree, in post-order.
func (c *changer) attached() []*tree.Node { return tree.PostOrderNodes(c.d.Root) }

// detacher removes nodes from their parents during a pass over the tree in
// document order. Removing an item from a list shifts the rest of it, which
// on a list that loses thousands of items is quadratic; here a removal only
// clears the node's Parent, and finish compacts each list that lost a child
// once, at the end of the pass. Until then every list holds all its
// children at their positions before the pass.
type detacher struct {
	before tree.Indexes // positions before the pass
	// left holds, for each node removed, the position of its nearest
	// sibling on the left still attached, or -1.
	left  map[*tree.Node]int
	dirty map[*tree.Node]bool // parents that lost a child
}

// leftOf returns the position of the nearest sibling on the left of
// parent's child at i that is still attached, or -1.
func (p *detacher) leftOf(parent *tree.Node, i int) int {
	l := i - 1
	if l >= 0 && parent.Children[l].Parent != parent {
		l = p.left[parent.Children[l]]
	}
	return l
}

// canDetach reports whether n is attached and removing it would not leave
// two texts side by side.
func (p *detacher) canDetach(n *tree.Node) bool {
	parent := n.Parent
	if parent == nil {
		return false
	}
	i := p.before.Of(n)
	l := p.leftOf(parent, i)
	// The siblings after n come after it in the pass: all still there.
	kids := parent.Children
	return l < 0 || i == len(kids)-1 || kids[l].Kind != tree.Text || kids[i+1].Kind != tree.Text
}

// remove detaches n from its parent.
func (p *detacher) remove(n *tree.Node) {
	parent := n.Parent
	if p.left == nil {
		p.left, p.dirty = map[*tree.Node]int{}, map[*tree.Node]bool{}
	}
	p.left[n] = p.leftOf(parent, p.before.Of(n))
	p.dirty[parent] = true
	n.Parent = nil
}

// finish drops the removed children from their parents' lists.
func (p *detacher) finish() {
	for parent := range p.dirty { // in any order: the lists are apart
		parent.DropDetached()
	}
}

// delete removes nodes, given in document order.
func (c *changer) delete(nodes []*tree.Node) {
	if c.rates.Delete == 0 {
		return
	}
	var at detacher
	for _, n := range nodes {
		if c.r.Float64() < c.rates.Delete && inTree(n, c.d.Root) && at.canDetach(n) {
			at.remove(n)
		}
	}
	at.finish()
}

// inTree reports whether n is still attached under root.
func inTree(n, root *tree.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == root {
			return true
		}
	}
	return false
}

func (c *changer) update() {
	if c.rates.Update == 0 {
		return
	}
	for _, n := range c.attached() {
		if n.Kind == tree.Text && c.r.Float64() < c.rates.Update {
			n.Value = c.newText(n.Value)
		}
	}
}

// newText returns an "original" text: the old one with some words replaced
// and a counter, so that it is unique.
func (c *changer) newText(old string) string {
	c.counter++
	ws := strings.Fields(old)
	if len(ws) == 0 {
		return "changed " + strconv.Itoa(c.counter)
	}
	for k := 0; k < 1+len(ws)/4; k++ {
		ws[c.r.IntN(len(ws))] = vocabulary[c.r.IntN(len(vocabulary))]
	}
	return strings.Join(ws, " ") + " #" + strconv.Itoa(c.counter)
}

func (c *changer) detachForMove() []*tree.Node {
	if c.rates.Move == 0 {
		return nil
	}
	var moving []*tree.Node
	var at detacher
	for _, n := range c.attached() {
		if c.r.Float64() < c.rates.Move && inTree(n, c.d.Root) && at.canDetach(n) {
			at.remove(n)
			moving = append(moving, n)
		}
	}
	at.finish()
	return moving
}

// insert gives elements new children: copies of the shape of a nearby
// subtree (a sibling, or the element's own children) with new texts and
// fresh XIDs, so that the label distribution is kept.
func (c *changer) insert() {
	if c.rates.Insert == 0 {
		return
	}
	for _, n := range c.attached() {
		if n.Kind != tree.Element || c.r.Float64() >= c.rates.Insert {
			continue
		}
		model := c.model(n)
		var fresh *tree.Node
		if model == nil || model.Kind != tree.Element {
			fresh = c.d.NewText(c.newText("new text"))
			fresh.XID = c.next
			c.next++
		} else {
			fresh = c.copyShape(model)
		}
		c.place(n, fresh)
	}
}

// model picks a subtree to imitate: a child of n, or a sibling of n.
func (c *changer) model(n *tree.Node) *tree.Node {
	if len(n.Children) > 0 {
		return n.Children[c.r.IntN(len(n.Children))]
	}
	if n.Parent != nil {
		return n.Parent.Children[c.r.IntN(len(n.Parent.Children))]
	}
	return nil
}

// copyShape copies the element structure of m with new texts and new XIDs.
func (c *changer) copyShape(m *tree.Node) *tree.Node {
	cp := c.d.CloneNode(m)
	tree.PostOrder(cp, func(x *tree.Node) {
		if x.Kind == tree.Text {
			x.Value = c.newText(x.Value)
		}
		x.XID = c.next
		c.next++
	})
	return cp
}

// place inserts x as a child of parent at a random position where a text
// does not touch another text; if there is none, x is dropped (its XIDs are
// simply never used).
func (c *changer) place(parent, x *tree.Node) {
	n := len(parent.Children)
	start := c.r.IntN(n + 1)
	for k := 0; k <= n; k++ {
		i := (start + k) % (n + 1)
		if x.Kind == tree.Text && ((i > 0 && parent.Children[i-1].Kind == tree.Text) || (i < n && parent.Children[i].Kind == tree.Text)) {
			continue
		}
		parent.InsertChild(i, x)
		return
	}
}

// reattach puts every moving subtree back under a random element of the tree.
func (c *changer) reattach(moving []*tree.Node) {
	if len(moving) == 0 {
		return
	}
	var elements []*tree.Node
	for _, n := range c.attached() {
		if n.Kind == tree.Element {
			elements = append(elements, n)
		}
	}
	for _, m := range moving {
		c.place(elements[c.r.IntN(len(elements))], m)
		if m.Kind == tree.Element {
			// Later moves may land inside this one.
			tree.Walk(m, func(x *tree.Node) bool {
				if x.Kind == tree.Element {
					elements = append(elements, x)
				}
				return true
			})
		}
	}
}
