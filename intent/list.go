package intent

import "github.com/vigil-web/vigil/tree"

// listObjects returns the ul and ol lists of c with their items; an item's
// text leaves out its nested lists, which are lists of their own.
func (c *content) listObjects() []*container {
	c.collectObjects()
	return c.lists
}

func isList(m *tree.Node) bool { return elementIs(m, "ul", "ol") }

func (c *content) addList(n *tree.Node) {
	l := &container{node: n, index: len(c.lists) + 1}
	l.id, _ = attrFold(n, "id")
	tree.Walk(n, func(m *tree.Node) bool {
		if m.Kind != tree.Element || (m != n && (c.skip(m) || isList(m))) {
			return false
		}
		if !elementIs(m, "li") {
			return true
		}
		text := c.subtreeText(m, isList)
		l.items = append(l.items, object{key: text, node: m, pos: len(l.items) + 1, text: text})
		return false
	})
	c.lists = append(c.lists, l)
}

// listChanges: items added, removed, moved and changed.
func listChanges(pc *pathCache, pairs [][2]*container) []Change {
	var out []Change
	for _, pr := range pairs {
		o, n := pr[0], pr[1]
		var old, new []object
		name := ""
		if o != nil {
			old, name = o.items, o.name()
		}
		if n != nil {
			new, name = n.items, n.name()
		}
		for _, e := range diffObjects(old, new, true) {
			c := objectChange(pc, KindListItem, e, old, new, func(ob *object) string { return ob.text })
			if e.op == Update {
				c.Fields = []string{"text"}
			}
			c.List = &ListInfo{List: name}
			out = append(out, c)
		}
	}
	return out
}
