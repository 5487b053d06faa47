package intent

import (
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// listObjects returns the ul, ol and dl lists of c with their items,
// every list in document order, nested ones too. An item's text leaves
// out its nested lists, which hang on the item (object.lists) and name the
// list they are nested in (container.parent). A list written straight in
// another list, as browsers show it, is nested in the item before it, or,
// before any item, gives its items to that list (it is absorbed: its
// items are the first of that list's).
func (c *content) listObjects() []*container {
	c.collectObjects()
	return c.lists
}

func isList(m *tree.Node) bool { return elementIs(m, "ul", "ol", "dl") }

// listOwner is where a nested list belongs: the list, and the index of
// the item among its items (-1: before any item, and not absorbed, as a
// dl in a ul; it is then a list of its own).
type listOwner struct {
	list *container
	item int
}

// listSpan is where the items of an absorbed list are: the first end
// items of list.
type listSpan struct {
	list *container
	end  int
}

// own records that the nested list m belongs to the item of l.
func (c *content) own(m *tree.Node, l *container, item int) {
	if c.listOwners == nil {
		c.listOwners = map[*tree.Node]listOwner{}
	}
	c.listOwners[m] = listOwner{l, item}
}

// absorb records that the absorbed list m's items are the first end items
// of l.
func (c *content) absorb(m *tree.Node, l *container, end int) {
	if c.absorbed == nil {
		c.absorbed = map[*tree.Node]listSpan{}
	}
	c.absorbed[m] = listSpan{l, end}
}

// addList adds the list n, whose outer lists, if any, collectObjects
// added before it (it walks in document order). An absorbed list is not
// walked again: its items are those its outer list found in it, so that
// lists written in lists, thousands deep, cost one walk.
func (c *content) addList(n *tree.Node) {
	l := &container{node: n, index: len(c.lists) + 1}
	l.id, _ = attrFold(n, "id")
	if s, ok := c.absorbed[n]; ok {
		l.parent, l.items = s.list, s.list.items[:s.end:s.end]
		delete(c.absorbed, n)
		c.lists = append(c.lists, l)
		return
	}
	if o, ok := c.listOwners[n]; ok {
		if o.item >= 0 {
			l.parent = o.list
			it := &o.list.items[o.item] // the outer list's items are all added
			it.lists = append(it.lists, l)
		}
		delete(c.listOwners, n)
	}
	if elementIs(n, "dl") {
		c.addTerms(l, n)
	} else {
		c.addItems(l, n)
	}
	c.lists = append(c.lists, l)
}

// addItems adds to l the li items in n, a ul or ol: l's own list, or one
// absorbed into it. A list nested in an item is that item's; one before
// any item is absorbed into l (its items are l's, and it is recorded with
// absorb when its subtree is done); a dl before any item is a list of its
// own. The walk keeps its own stack, so that it knows when an absorbed
// list's subtree is done.
func (c *content) addItems(l *container, n *tree.Node) {
	type open struct {
		list  *tree.Node
		depth int // the stack's length when the list was taken off it
	}
	var opens []open
	if n != l.node {
		opens = append(opens, open{n, 0})
	}
	stack := []*tree.Node{n}
	for {
		for k := len(opens) - 1; k >= 0 && len(stack) <= opens[k].depth; k-- {
			c.absorb(opens[k].list, l, len(l.items))
			opens = opens[:k]
		}
		if len(stack) == 0 {
			return
		}
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case m.Kind != tree.Element || m != n && c.skip(m):
			continue
		case m != n && isList(m) && len(l.items) > 0:
			c.own(m, l, len(l.items)-1)
			continue
		case m != n && elementIs(m, "dl"):
			c.own(m, l, -1)
			continue
		case m != n && isList(m):
			opens = append(opens, open{m, len(stack)})
		case elementIs(m, "li"):
			text := c.subtreeText(m, isList)
			l.items = append(l.items, object{key: text, node: m, pos: len(l.items) + 1, text: text})
			c.ownNested(m, l, len(l.items)-1)
			continue
		}
		for i := len(m.Children) - 1; i >= 0; i-- {
			stack = append(stack, m.Children[i])
		}
	}
}

// ownNested records the lists nested in m, part of item of l, as that
// item's.
func (c *content) ownNested(m *tree.Node, l *container, item int) {
	tree.Walk(m, func(k *tree.Node) bool {
		if k.Kind != tree.Element || (k != m && c.skip(k)) {
			return false
		}
		if k != m && isList(k) {
			c.own(k, l, item)
			return false
		}
		return true
	})
}

// addTerms adds the items of the definition list n to l: a group of terms
// (dt) and their descriptions (dd) is one item, "term: description"
// (terms, and descriptions, joined by "; "), found among n's children and
// those of the div elements HTML lets group them. A dt after a dd starts
// the next item; a dd before any dt is an item of its own. Lists nested in
// a term or a description are the item's.
func (c *content) addTerms(l *container, n *tree.Node) {
	var terms, descs []string
	// inGroup says the last item is a group of terms and descriptions,
	// which the next ones join until a term after a description; items of
	// an absorbed list are not.
	inGroup, afterDesc := false, false
	finish := func() {
		if !inGroup {
			return
		}
		it := &l.items[len(l.items)-1]
		it.text = strings.Join(terms, "; ")
		if len(descs) > 0 {
			if it.text != "" {
				it.text += ": "
			}
			it.text += strings.Join(descs, "; ")
		}
		it.key, it.term = it.text, it.text
		if len(terms) > 0 {
			it.term = strings.Join(terms, "; ")
			it.keys = []string{it.term}
		}
		terms, descs = terms[:0], descs[:0]
	}
	var group func(parent *tree.Node)
	group = func(parent *tree.Node) {
		for _, m := range parent.Children {
			if m.Kind != tree.Element || c.skip(m) {
				continue
			}
			isTerm, isDesc := elementIs(m, "dt"), elementIs(m, "dd")
			switch {
			case elementIs(m, "div") && parent == n:
				group(m) // one level only, as HTML allows
				continue
			case isList(m) && len(l.items) == 0 && !elementIs(m, "dl"):
				// Before any term: absorbed, as in a ul.
				c.addItems(l, m)
				continue
			case isList(m) && !inGroup:
				c.own(m, l, -1) // after an absorbed list: one of its own
				continue
			case isList(m):
				// Written straight in the list, as with ul and ol.
				c.own(m, l, len(l.items)-1)
				continue
			case !isTerm && !isDesc:
				continue
			}
			if !inGroup || isTerm && afterDesc {
				finish()
				l.items = append(l.items, object{node: m, pos: len(l.items) + 1})
				inGroup = true
			}
			afterDesc = isDesc
			if text := c.subtreeText(m, isList); text != "" {
				if isTerm {
					terms = append(terms, text)
				} else {
					descs = append(descs, text)
				}
			}
			c.ownNested(m, l, len(l.items)-1)
		}
	}
	group(n)
	finish()
}

// pickLists pairs the lists a list change type names, as pickContainers
// does, leaving out the nested lists whose items an outer list reports:
// every nested list when none is named, and a named list nested in another
// named one (in each version it is in).
func pickLists(old, new []*container, args []string) [][2]*container {
	if len(args) == 0 {
		outer := func(ks []*container) []*container {
			return slices.DeleteFunc(slices.Clone(ks), func(k *container) bool { return k.parent != nil })
		}
		return pickContainers(outer(old), outer(new), nil)
	}
	pairs := pickContainers(old, new, args)
	picked := map[*container]bool{}
	for _, pr := range pairs {
		picked[pr[0]], picked[pr[1]] = true, true
	}
	within := func(k *container) bool {
		if k == nil {
			return true
		}
		for p := k.parent; p != nil; p = p.parent {
			if picked[p] {
				return true
			}
		}
		return false
	}
	return slices.DeleteFunc(pairs, func(pr [2]*container) bool { return within(pr[0]) && within(pr[1]) })
}

// maxParents is the most labels a list-item change keeps of the items it
// sits in (ListInfo): the outermost, "…" and the innermost.
const maxParents = 16

// withParent returns the labels ps followed by label, in a new slice, cut
// to maxParents.
func withParent(ps []string, label string) []string {
	if len(ps) < maxParents {
		return append(slices.Clip(ps), label)
	}
	out := make([]string, 0, maxParents)
	out = append(out, ps[0], "…")
	out = append(out, ps[len(ps)-(maxParents-3):]...)
	return append(out, label)
}

// label is what a list item is called where its nested items are
// reported: its text (a definition's terms), or "#n" for the n-th item of
// its list.
func (o *object) label() string {
	if o.term != "" {
		return o.term
	}
	if o.text != "" {
		return o.text
	}
	return "#" + strconv.Itoa(o.pos)
}

// nested returns the items of the lists nested in the list item o, in
// order, numbered from 1.
func (o *object) nested() []object {
	switch len(o.lists) {
	case 0:
		return nil
	case 1:
		return o.lists[0].items
	}
	var out []object
	for _, l := range o.lists {
		for _, it := range l.items {
			it.pos = len(out) + 1
			out = append(out, it)
		}
	}
	return out
}

// listChanges: items added, removed, moved and changed, in each pair of
// lists and in the lists nested in the items both versions have.
//
// The items of a pair of lists are aligned as other objects are
// (diffObjects). An item's nested lists are compared, as one list, with
// those of the item it is aligned with: an unchanged, changed or moved
// one; an item added or removed is one change, its nested items with it.
// Across the whole of a pair of lists, an item removed from the nested
// lists of one item and added to those of another (or to the outer list),
// with the same text, has moved there. The levels are compared breadth
// first, from a queue, so that a list nested thousands deep takes no
// deeper stack than a flat one.
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
		out = appendListChanges(out, pc, name, old, new)
	}
	return out
}

// listLevel is a pair of item sequences to compare: a pair of lists, or
// the nested items of two aligned items, with the labels of the items
// they sit in.
type listLevel struct {
	old, new               []object
	oldParents, newParents []string
}

// loneItem is an item removed (or added) that no item of the other
// version has taken yet: a move when one with its text turns up.
type loneItem struct {
	at      int // its change in out
	item    *object
	parents []string
}

func appendListChanges(out []Change, pc *pathCache, name string, old, new []object) []Change {
	text := func(ob *object) string { return ob.text }
	queue := []listLevel{{old: old, new: new}}
	removed := map[string][]loneItem{}
	added := map[string][]loneItem{}
	// take returns the first lone item with the given text, if any.
	take := func(m map[string][]loneItem, key string) (loneItem, bool) {
		q := m[key]
		if len(q) == 0 {
			return loneItem{}, false
		}
		m[key] = q[1:]
		return q[0], true
	}
	// Only items of nested lists can move to another list: in a flat one,
	// an item removed and one added with its text are already a move.
	hasLists := func(o object) bool { return len(o.lists) > 0 }
	nesting := slices.ContainsFunc(old, hasLists) || slices.ContainsFunc(new, hasLists)
	var below []lcsPair // items both versions have, with nested items to compare
	descend := func(a, b *object, oldParents, newParents []string) {
		if len(a.lists) > 0 || len(b.lists) > 0 {
			queue = append(queue, listLevel{a.nested(), b.nested(), withParent(oldParents, a.label()), withParent(newParents, b.label())})
		}
	}
	for head := 0; head < len(queue); head++ {
		lv := queue[head]
		queue[head] = listLevel{} // let its items go when done
		below = below[:0]
		keep := func(a, b int) {
			if len(lv.old[a].lists) > 0 || len(lv.new[b].lists) > 0 {
				below = append(below, lcsPair{a, b})
			}
		}
		edits := alignObjects(lv.old, lv.new, true, keep)
		for _, e := range edits {
			c := objectChange(pc, KindListItem, e, lv.old, lv.new, text)
			info := &ListInfo{List: name}
			if e.a >= 0 {
				info.OldParents = lv.oldParents
			}
			if e.b >= 0 {
				info.NewParents = lv.newParents
			}
			c.List = info
			switch e.op {
			case Update:
				c.Fields = []string{"text"}
				keep(e.a, e.b)
			case Move:
				keep(e.a, e.b)
			case Delete:
				a := &lv.old[e.a]
				if in, ok := take(added, a.key); ok {
					// moved from here to where it was added
					m := &out[in.at]
					m.Op, m.Old, m.OldPos, m.OldPath = Move, c.Old, c.OldPos, c.OldPath
					m.List.OldParents = lv.oldParents
					descend(a, in.item, lv.oldParents, in.parents)
					continue
				}
				if nesting && a.key != "" {
					removed[a.key] = append(removed[a.key], loneItem{len(out), a, lv.oldParents})
				}
			case Insert:
				b := &lv.new[e.b]
				if rm, ok := take(removed, b.key); ok {
					m := &out[rm.at]
					m.Op, m.New, m.NewPos, m.NewPath = Move, c.New, c.NewPos, c.NewPath
					m.List.NewParents = lv.newParents
					descend(rm.item, b, rm.parents, lv.newParents)
					continue
				}
				if nesting && b.key != "" {
					added[b.key] = append(added[b.key], loneItem{len(out), b, lv.newParents})
				}
			}
			out = append(out, c)
		}
		// Their nested items, in the new version's order.
		slices.SortFunc(below, func(x, y lcsPair) int { return x.b - y.b })
		for _, p := range below {
			descend(&lv.old[p.a], &lv.new[p.b], lv.oldParents, lv.newParents)
		}
	}
	return out
}
