package xmlpatch

import (
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// A selector names a node by its position among the siblings of its kind
// and name (record[2817], text()[3]). Counting them afresh at every step
// of every selector makes an export or an apply on a wide parent
// quadratic: siblings indexes the children of the parents that selectors
// pass through, once, and keeps the index up to date as the working
// copy changes.
//
// The index of a parent covers a prefix of its children, which it
// extends on demand and cuts back where the children change, and the
// number of children in each group over all of them, which each change
// adjusts. Changes come in document order or against it (the removes of
// an export run from the end, its adds and updates from the start), so
// the prefix is rebuilt a bounded number of times per parent.
//
// Every change to the children of an indexed parent, to the name of an
// indexed child, or to a namespace declaration must be reported: detach
// before a child leaves or changes, attach after it comes or changed,
// reset after a declaration changes (which may rename a whole subtree).

// internalError is a broken invariant of the index: a bug, not a fault
// of the patch or the delta. It is raised as a panic deep inside a
// selector's evaluation, where no error can be returned, and Apply and
// Export, which work on copies, recover it as their error.
type internalError string

func (e internalError) Error() string { return "xml patch: internal error: " + string(e) }

// recoverInternal, deferred, sets *err to the internalError a panic
// raised; any other panic goes on.
func recoverInternal(err *error) {
	if r := recover(); r != nil {
		ie, ok := r.(internalError)
		if !ok {
			panic(r)
		}
		*err = ie
	}
}

// groupKind tells the groups a child belongs to apart.
type groupKind uint8

const (
	groupAll      groupKind = iota // all the children of one node kind
	groupExpanded                  // elements by expanded name, as Apply's name test sees them
	groupName                      // elements whose name can stand in a selector, by expanded name, as Export counts them
	groupTarget                    // processing instructions by target
)

// groupKey is a group of siblings a step counts in.
type groupKey struct {
	kind  tree.Kind
	group groupKind
	name  expanded // groupExpanded, groupName: the expanded name; groupTarget: the target in local
}

// childName is what a child's name resolves to under its parent's scope.
type childName struct {
	x     expanded
	qname bool // elementName holds
}

// childEntry is an indexed child: its index among all children, its
// groups and its 1-based ordinal in each.
type childEntry struct {
	node *tree.Node
	at   int
	keys [3]groupKey
	n    int    // the number of keys
	ords [3]int // in the order of keys
}

// childIndex indexes the children of one parent.
type childIndex struct {
	parent *tree.Node
	scope  *scope // in scope at the parent, its own declarations included
	v      int    // parent.Children[:v] are indexed
	prefix []childEntry
	entry  map[*tree.Node]int        // the index in prefix of an indexed child
	lists  map[groupKey][]*tree.Node // the members of each group in the prefix, in order
	total  map[groupKey]int          // the members of each group over all children
	names  map[string]childName      // resolved names of children that declare nothing
	w      *work                     // counts the children indexed
}

// siblings holds the indexes of the parents selectors went through.
type siblings struct {
	byParent map[*tree.Node]*childIndex
	w        *work // counts the children indexed: Apply's work; nil for Export
}

func newSiblings(w *work) *siblings {
	return &siblings{byParent: map[*tree.Node]*childIndex{}, w: w}
}

// of returns the index of parent's children, whose scope is s, building
// its totals when there is none.
func (sb *siblings) of(parent *tree.Node, s *scope) *childIndex {
	if ci := sb.byParent[parent]; ci != nil {
		return ci
	}
	ci := &childIndex{
		parent: parent,
		scope:  s,
		entry:  map[*tree.Node]int{},
		lists:  map[groupKey][]*tree.Node{},
		total:  map[groupKey]int{},
		names:  map[string]childName{},
		w:      sb.w,
	}
	sb.w.add(len(parent.Children))
	for _, c := range parent.Children {
		keys, n := ci.keys(c)
		for _, k := range keys[:n] {
			ci.total[k]++
		}
	}
	sb.byParent[parent] = ci
	return ci
}

// name resolves the name of element c, a child of ci's parent.
func (ci *childIndex) name(c *tree.Node) childName {
	own := false
	for _, a := range c.Attrs {
		if _, ok := declaration(a.Name); ok {
			own = true
			break
		}
	}
	if own {
		return childName{elementExpanded(c.Name, ci.scope.push(c.Attrs)), elementName(c.Name)}
	}
	if cn, ok := ci.names[c.Name]; ok {
		return cn
	}
	cn := childName{elementExpanded(c.Name, ci.scope), elementName(c.Name)}
	ci.names[c.Name] = cn
	return cn
}

// keys returns the groups c belongs to, and how many there are.
func (ci *childIndex) keys(c *tree.Node) ([3]groupKey, int) {
	var keys [3]groupKey
	keys[0] = groupKey{kind: c.Kind, group: groupAll}
	switch c.Kind {
	case tree.Element:
		cn := ci.name(c)
		keys[1] = groupKey{kind: tree.Element, group: groupExpanded, name: cn.x}
		if cn.qname {
			keys[2] = groupKey{kind: tree.Element, group: groupName, name: cn.x}
			return keys, 3
		}
		return keys, 2
	case tree.ProcInst:
		keys[1] = groupKey{kind: tree.ProcInst, group: groupTarget, name: expanded{local: c.Name}}
		return keys, 2
	}
	return keys, 1
}

// extend indexes one more child; it reports false at the end.
func (ci *childIndex) extend() bool {
	if ci.v >= len(ci.parent.Children) {
		return false
	}
	c := ci.parent.Children[ci.v]
	ci.w.add(1)
	e := childEntry{node: c, at: ci.v}
	e.keys, e.n = ci.keys(c)
	for i, k := range e.keys[:e.n] {
		ci.lists[k] = append(ci.lists[k], c)
		e.ords[i] = len(ci.lists[k])
	}
	ci.entry[c] = len(ci.prefix)
	ci.prefix = append(ci.prefix, e)
	ci.v++
	return true
}

// truncate cuts the prefix back to the first i children. It reads what
// it drops from the prefix, not from the children, which may have
// changed already.
func (ci *childIndex) truncate(i int) {
	for ci.v > i {
		ci.v--
		e := ci.prefix[ci.v]
		for _, k := range e.keys[:e.n] {
			l := ci.lists[k]
			ci.lists[k] = l[:len(l)-1]
		}
		delete(ci.entry, e.node)
		ci.prefix[ci.v] = childEntry{}
		ci.prefix = ci.prefix[:ci.v]
	}
}

// lookup returns the entry of c, a child, extending the prefix to it.
func (ci *childIndex) lookup(c *tree.Node) childEntry {
	for {
		if j, ok := ci.entry[c]; ok {
			return ci.prefix[j]
		}
		if !ci.extend() {
			panic(internalError("a node is not among its parent's children"))
		}
	}
}

// nth returns the n-th member (1-based) of group k, nil for none.
func (ci *childIndex) nth(k groupKey, n int) *tree.Node {
	if n < 1 || n > ci.total[k] {
		return nil
	}
	for len(ci.lists[k]) < n {
		if !ci.extend() {
			break
		}
	}
	if len(ci.lists[k]) < n {
		panic(internalError("a stale sibling index"))
	}
	return ci.lists[k][n-1]
}

// all returns the members of group k, in order; the caller must not
// change the list.
func (ci *childIndex) all(k groupKey) []*tree.Node {
	for len(ci.lists[k]) < ci.total[k] {
		if !ci.extend() {
			break
		}
	}
	return ci.lists[k]
}

// position returns the index of c among its parent's children, and
// whether the index of its parent holds it.
func (sb *siblings) position(c *tree.Node) (int, bool) {
	if ci := sb.byParent[c.Parent]; ci != nil {
		if j, ok := ci.entry[c]; ok {
			return ci.prefix[j].at, true
		}
	}
	return 0, false
}

// indexOf returns the index of c among its parent's children, from the
// index or by a scan, which it counts.
func (sb *siblings) indexOf(c *tree.Node) int {
	if i, ok := sb.position(c); ok {
		return i
	}
	i := scanIndex(c)
	sb.w.add(1 + i/childrenScannedPerUnit)
	return i
}

// scanIndex returns the index of c among its parent's children, found by
// a scan. A node missing there is an internalError, where tree.Index
// panics.
func scanIndex(c *tree.Node) int {
	i := slices.Index(c.Parent.Children, c)
	if i < 0 {
		panic(internalError("a node is not among its parent's children"))
	}
	return i
}

// detach is called before c, an attached child, leaves its parent or
// changes its name; it returns c's index.
func (sb *siblings) detach(c *tree.Node) int {
	ci := sb.byParent[c.Parent]
	if ci == nil {
		return -1
	}
	i := sb.indexOf(c)
	ci.truncate(i)
	keys, n := ci.keys(c)
	for _, k := range keys[:n] {
		ci.total[k]--
	}
	return i
}

// attach is called after c came at index i of its parent, or changed its
// name there.
func (sb *siblings) attach(c *tree.Node, i int) {
	ci := sb.byParent[c.Parent]
	if ci == nil {
		return
	}
	ci.truncate(i)
	keys, n := ci.keys(c)
	for _, k := range keys[:n] {
		ci.total[k]++
	}
}

// remove removes c from its parent.
func (sb *siblings) remove(c *tree.Node) {
	i := sb.detach(c)
	if i < 0 {
		i = scanIndex(c)
	}
	c.Parent.RemoveChild(i)
}

// insert inserts c as child i of parent.
func (sb *siblings) insert(parent *tree.Node, i int, c *tree.Node) {
	parent.InsertChild(i, c)
	sb.attach(c, i)
}

// join makes one text node of children i-1 and i of parent where both
// are texts, as j.joinTexts does.
func (sb *siblings) join(j *textJoiner, parent *tree.Node, i int) {
	kids := parent.Children
	if i <= 0 || i >= len(kids) || kids[i-1].Kind != tree.Text || kids[i].Kind != tree.Text {
		return
	}
	sb.detach(kids[i])
	j.joinTexts(parent, i)
}

// rename changes c (its name, its attributes) with change, c being
// attached: a change of c's namespace declarations drops every index.
func (sb *siblings) rename(c *tree.Node, change func()) {
	decls := declarationsOf(c)
	i := -1
	if c.Parent != nil {
		i = sb.detach(c)
	}
	change()
	if !slices.Equal(decls, declarationsOf(c)) {
		sb.reset()
		return
	}
	if i >= 0 {
		sb.attach(c, i)
	}
}

// reset drops every index, after a namespace declaration changed.
func (sb *siblings) reset() { clear(sb.byParent) }

// declarationsOf returns the namespace declarations among n's attributes.
func declarationsOf(n *tree.Node) []tree.Attr {
	var out []tree.Attr
	for _, a := range n.Attrs {
		if _, ok := declaration(a.Name); ok {
			out = append(out, a)
		}
	}
	return out
}
