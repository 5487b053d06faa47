package delta

import (
	"fmt"

	"github.com/vigil-web/vigil/tree"
)

// checkChain reports the first place where the consecutive deltas ds
// disagree about a version between them: a delta whose source XID-map is
// not its predecessor's target map, or one that finds a name, a value or an
// attribute other than the one the deltas before it left there (or found
// there). It runs in time linear in the size of the chain.
//
// Compose checks the same between its two deltas, on what they say of the
// version between them; ComposeAll composes in a balanced tree, where a
// change that a later delta undoes is gone before its neighbours are
// compared: without this check, a chain whose third delta expects a value
// its second did not leave would compose when the fourth undoes the third.
func checkChain(ds []*Delta) error {
	c := chainChecker{known: map[tree.XID]*nodeFacts{}}
	for k, d := range ds {
		if err := d.Validate(); err != nil {
			return fmt.Errorf("delta %d: %w", k+1, err)
		}
		if k > 0 {
			if err := Follows(ds[k-1], d); err != nil {
				return fmt.Errorf("delta %d does not follow delta %d: %w", k+1, k, err)
			}
		}
		if k > 0 && d.FromXIDMap.Len() > 0 && ds[k-1].ToXIDMap.Len() > 0 {
			if err := compareMap(d.FromXIDMap, ds[k-1].ToXIDMap, "its source XID-map", "the previous delta's target XID-map"); err != nil {
				return fmt.Errorf("delta %d: %w: %v", k+1, ErrNotComposable, err)
			}
		}
		if err := c.step(k, d); err != nil {
			return fmt.Errorf("delta %d: %w: %v", k+1, ErrNotComposable, d.locate(err))
		}
	}
	return nil
}

// nodeFacts is what the deltas read so far say of a node in the version
// at hand: its name, its value, and some of its attributes.
type nodeFacts struct {
	name, value   fact
	attrs         map[string]fact
	allAttrs      bool // attrs lists every attribute: the others are absent
	allAttrsStep  int  // the delta that listed them all
	allAttrsWrote bool // whether that delta wrote them (else found them)
}

// fact is one thing known of a node: a value (or its absence, for an
// attribute), and the delta, 0-based, that wrote it or found it.
type fact struct {
	known, present bool
	value          string
	step           int
	wrote          bool
}

// source names where a fact comes from, for an error.
func (f fact) source() string {
	if f.wrote {
		return fmt.Sprintf("delta %d leaves", f.step+1)
	}
	return fmt.Sprintf("delta %d finds", f.step+1)
}

type chainChecker struct {
	known map[tree.XID]*nodeFacts
	// outside is what stands outside the root element, as the last delta
	// that changed it left it (outsideStep, 0-based), or nil.
	outside     *Surroundings
	outsideStep int
}

func (c *chainChecker) facts(x tree.XID) *nodeFacts {
	f := c.known[x]
	if f == nil {
		f = &nodeFacts{}
		c.known[x] = f
	}
	return f
}

// step checks what delta k (0-based) finds in its source against what is
// known, then records what it leaves: first every read, then every write,
// since all of a delta's reads are of its source version.
func (c *chainChecker) step(k int, d *Delta) error {
	if o := d.Outside; o != nil {
		if c.outside != nil && !outsideFollows(*c.outside, o) {
			return fmt.Errorf("outside the root element, it finds %s, where delta %d leaves them", o.Old.describe(*c.outside), c.outsideStep+1)
		}
		c.outside, c.outsideStep = &o.New, k
	}
	for i := range d.Ops {
		if err := c.read(k, i, &d.Ops[i]); err != nil {
			return err
		}
	}
	// Deleted subtrees first: an update's insert brings its node back.
	for i := range d.Ops {
		if op := &d.Ops[i]; op.Kind == Delete && !op.Move && !op.Update {
			for _, x := range op.XIDs.XIDs {
				delete(c.known, x)
			}
		}
	}
	for i := range d.Ops {
		c.write(k, &d.Ops[i])
	}
	return nil
}

// read checks one operation's view of the source version.
func (c *chainChecker) read(k, i int, op *Op) error {
	switch op.Kind {
	case AttrInsert:
		return c.readAttr(k, i, op, op.Node, op.Name, false, "")
	case AttrDelete, AttrUpdate:
		return c.readAttr(k, i, op, op.Node, op.Name, true, op.OldValue)
	case Rename:
		return c.readField(k, i, op, op.Node, "name", &c.facts(op.Node).name, op.OldValue)
	case Delete:
		if op.Move || op.Content == nil {
			return nil
		}
		var err error
		tree.Walk(op.Content, func(n *tree.Node) bool {
			if err == nil {
				err = c.readNode(k, i, op, n)
			}
			return err == nil
		})
		return err
	}
	return nil
}

// readNode checks a node of a deleted subtree: its name, value and every
// attribute, which are all of its attributes.
func (c *chainChecker) readNode(k, i int, op *Op, n *tree.Node) error {
	f := c.facts(n.XID)
	if n.Kind == tree.Element || n.Kind == tree.ProcInst {
		if err := c.readField(k, i, op, n.XID, "name", &f.name, n.Name); err != nil {
			return err
		}
	}
	if n.Kind != tree.Element {
		return c.readField(k, i, op, n.XID, "value", &f.value, n.Value)
	}
	for _, a := range n.Attrs {
		if err := c.readAttr(k, i, op, n.XID, a.Name, true, a.Value); err != nil {
			return err
		}
	}
	for name, a := range f.attrs {
		if a.present && !hasAttr(n.Attrs, name) {
			return conflict(i, op, "XID %d has no attribute %q, where %s it %q", n.XID, name, a.source(), a.value)
		}
	}
	return nil
}

func hasAttr(attrs []tree.Attr, name string) bool {
	for _, a := range attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

// readField checks a node's name or value against what is known of it,
// and records it when nothing is.
func (c *chainChecker) readField(k, i int, op *Op, x tree.XID, what string, f *fact, got string) error {
	if !f.known {
		*f = fact{known: true, present: true, value: got, step: k}
		return nil
	}
	if f.value != got {
		return conflict(i, op, "the %s of XID %d is %q, where %s %q", what, x, got, f.source(), f.value)
	}
	return nil
}

// readAttr checks an attribute's presence and value against what is known
// of it, and records it when nothing is.
func (c *chainChecker) readAttr(k, i int, op *Op, x tree.XID, name string, present bool, value string) error {
	nf := c.facts(x)
	f, ok := nf.attrs[name]
	if !ok && nf.allAttrs {
		f = fact{known: true, present: false, step: nf.allAttrsStep, wrote: nf.allAttrsWrote}
		ok = true
	}
	if !ok {
		if nf.attrs == nil {
			nf.attrs = map[string]fact{}
		}
		nf.attrs[name] = fact{known: true, present: present, value: value, step: k}
		return nil
	}
	switch {
	case present && !f.present:
		return conflict(i, op, "XID %d has an attribute %q, where %s none", x, name, f.source())
	case !present && f.present:
		return conflict(i, op, "XID %d has no attribute %q, where %s it %q", x, name, f.source(), f.value)
	case present && f.value != value:
		return conflict(i, op, "attribute %q of XID %d is %q, where %s %q", name, x, value, f.source(), f.value)
	}
	return nil
}

// write records what one operation leaves in the target version.
func (c *chainChecker) write(k int, op *Op) {
	switch op.Kind {
	case AttrInsert, AttrUpdate:
		c.writeAttr(k, op.Node, op.Name, true, op.NewValue)
	case AttrDelete:
		c.writeAttr(k, op.Node, op.Name, false, "")
	case Rename:
		c.facts(op.Node).name = fact{known: true, present: true, value: op.NewValue, step: k, wrote: true}
	case Insert:
		if op.Move || op.Content == nil {
			return
		}
		tree.Walk(op.Content, func(n *tree.Node) bool {
			f := &nodeFacts{allAttrs: n.Kind == tree.Element, allAttrsStep: k, allAttrsWrote: true}
			if n.Kind == tree.Element || n.Kind == tree.ProcInst {
				f.name = fact{known: true, present: true, value: n.Name, step: k, wrote: true}
			}
			if n.Kind != tree.Element {
				f.value = fact{known: true, present: true, value: n.Value, step: k, wrote: true}
			}
			for _, a := range n.Attrs {
				if f.attrs == nil {
					f.attrs = map[string]fact{}
				}
				f.attrs[a.Name] = fact{known: true, present: true, value: a.Value, step: k, wrote: true}
			}
			c.known[n.XID] = f
			return true
		})
	}
}

func (c *chainChecker) writeAttr(k int, x tree.XID, name string, present bool, value string) {
	f := c.facts(x)
	if f.attrs == nil {
		f.attrs = map[string]fact{}
	}
	f.attrs[name] = fact{known: true, present: present, value: value, step: k, wrote: true}
}
