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

// childEntry is an indexed child: the groups it belongs to, by their
// number in the index, and its 1-based ordinal in each. A child removed
// while the removal of its neighbours is pending (see kill) stays in the
// prefix with no groups.
type childEntry struct {
	node *tree.Node
	ids  [3]int32 // groups
	ords [3]int32 // in the order of ids
	n    uint8    // the number of groups
}

// childGroup is a group of siblings: its members in the prefix, in order,
// and its members over all children.
type childGroup struct {
	members []*tree.Node
	total   int
}

// childIndex indexes the children of one parent. prefix[i] is child i:
// the prefix covers parent.Children[:len(prefix)].
type childIndex struct {
	parent *tree.Node
	scope  *scope // in scope at the parent, its own declarations included
	prefix []childEntry
	// entry is the index in prefix of an indexed child, kept once a
	// look-up needs it: a look-up of the last child indexed (as the
	// removes of an export, from the end, do) needs none.
	entry  map[*tree.Node]int
	ids    map[groupKey]int32     // the number of each group
	groups []childGroup           // by number
	names  map[string]childGroups // the groups of children that declare nothing, by name
	kinds  [8]int32               // the group of all the children of a kind, plus one; 0 for none yet
	w      *work                  // counts the children indexed
}

// childGroups is the groups of a child and how many there are.
type childGroups struct {
	ids [3]int32
	n   uint8
}

// siblings holds the indexes of the parents selectors went through.
type siblings struct {
	byParent map[*tree.Node]*childIndex
	// pending holds the parents some of whose children were removed by
	// kill, which flush takes out of their lists.
	pending map[*tree.Node]*holes
	w       *work // counts the children indexed: Apply's work; nil for Export
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
		ids:    map[groupKey]int32{},
		names:  map[string]childGroups{},
		w:      sb.w,
	}
	sb.w.add(len(parent.Children))
	for _, c := range parent.Children {
		if c.Parent != parent {
			continue // removed, pending
		}
		g := ci.groupsOf(c)
		for _, id := range g.ids[:g.n] {
			ci.groups[id].total++
		}
	}
	sb.byParent[parent] = ci
	return ci
}

// name resolves the name of element c, a child of ci's parent; own says
// that c declares namespaces.
func (ci *childIndex) name(c *tree.Node, own bool) childName {
	s := ci.scope
	if own {
		s = s.push(c.Attrs)
	}
	return childName{elementExpanded(c.Name, s), elementName(c.Name)}
}

// id returns the number of group k, adding it.
func (ci *childIndex) id(k groupKey) int32 {
	if id, ok := ci.ids[k]; ok {
		return id
	}
	id := int32(len(ci.groups))
	ci.ids[k] = id
	ci.groups = append(ci.groups, childGroup{})
	return id
}

// group returns the number of group k, -1 when no child is in it.
func (ci *childIndex) group(k groupKey) int32 {
	if id, ok := ci.ids[k]; ok {
		return id
	}
	return -1
}

// groupsOf returns the groups c belongs to.
func (ci *childIndex) groupsOf(c *tree.Node) childGroups {
	var g childGroups
	all := &ci.kinds[c.Kind&7]
	if *all == 0 {
		*all = ci.id(groupKey{kind: c.Kind, group: groupAll}) + 1
	}
	g.ids[0], g.n = *all-1, 1
	switch c.Kind {
	case tree.Element:
		own := false
		for _, a := range c.Attrs {
			if _, ok := declaration(a.Name); ok {
				own = true
				break
			}
		}
		if !own {
			if cg, ok := ci.names[c.Name]; ok {
				return cg
			}
		}
		cn := ci.name(c, own)
		g.ids[1], g.n = ci.id(groupKey{kind: tree.Element, group: groupExpanded, name: cn.x}), 2
		if cn.qname {
			g.ids[2], g.n = ci.id(groupKey{kind: tree.Element, group: groupName, name: cn.x}), 3
		}
		if !own {
			ci.names[c.Name] = g
		}
	case tree.ProcInst:
		g.ids[1], g.n = ci.id(groupKey{kind: tree.ProcInst, group: groupTarget, name: expanded{local: c.Name}}), 2
	}
	return g
}

// extend indexes one more child; it reports false at the end.
func (ci *childIndex) extend() bool {
	v := len(ci.prefix)
	if v >= len(ci.parent.Children) {
		return false
	}
	c := ci.parent.Children[v]
	ci.w.add(1)
	e := childEntry{node: c}
	if c.Parent == ci.parent {
		g := ci.groupsOf(c)
		e.ids, e.n = g.ids, g.n
		for i, id := range e.ids[:e.n] {
			grp := &ci.groups[id]
			grp.members = append(grp.members, c)
			e.ords[i] = int32(len(grp.members))
		}
	}
	if ci.entry != nil {
		ci.entry[c] = v
	}
	ci.prefix = append(ci.prefix, e)
	return true
}

// truncate cuts the prefix back to the first i children. It reads what
// it drops from the prefix, not from the children, which may have
// changed already.
func (ci *childIndex) truncate(i int) {
	for v := len(ci.prefix) - 1; v >= i; v-- {
		e := &ci.prefix[v]
		for _, id := range e.ids[:e.n] {
			grp := &ci.groups[id]
			grp.members[len(grp.members)-1] = nil
			grp.members = grp.members[:len(grp.members)-1]
		}
		if ci.entry != nil {
			delete(ci.entry, e.node)
		}
		*e = childEntry{}
	}
	if i < len(ci.prefix) {
		ci.prefix = ci.prefix[:i]
	}
}

// find returns the index of c in the prefix, and whether it is there.
func (ci *childIndex) find(c *tree.Node) (int, bool) {
	// The last or the one before: the removes of an export, or of the
	// patch it writes, from the end of a list, leave the node removed
	// last there.
	for j := len(ci.prefix) - 1; j >= 0 && j >= len(ci.prefix)-2; j-- {
		if ci.prefix[j].node == c {
			return j, true
		}
	}
	if ci.entry == nil {
		ci.entry = make(map[*tree.Node]int, len(ci.prefix))
		for j, e := range ci.prefix {
			ci.entry[e.node] = j
		}
	}
	j, ok := ci.entry[c]
	return j, ok
}

// lookup returns the entry of c, a child, extending the prefix to it.
func (ci *childIndex) lookup(c *tree.Node) childEntry {
	if j, ok := ci.find(c); ok {
		return ci.prefix[j]
	}
	for ci.extend() {
		if e := ci.prefix[len(ci.prefix)-1]; e.node == c {
			return e
		}
	}
	panic(internalError("a node is not among its parent's children"))
}

// total returns the number of members of the group numbered id.
func (ci *childIndex) total(id int32) int { return ci.groups[id].total }

// nth returns the n-th member (1-based) of group k, nil for none.
func (ci *childIndex) nth(k groupKey, n int) *tree.Node {
	id := ci.group(k)
	if id < 0 || n < 1 || n > ci.groups[id].total {
		return nil
	}
	grp := &ci.groups[id]
	for len(grp.members) < n {
		if !ci.extend() {
			break
		}
		grp = &ci.groups[id] // extend may add groups
	}
	if len(grp.members) < n {
		panic(internalError("a stale sibling index"))
	}
	return grp.members[n-1]
}

// all returns the members of group k, in order; the caller must not
// change the list.
func (ci *childIndex) all(k groupKey) []*tree.Node {
	id := ci.group(k)
	if id < 0 {
		return nil
	}
	for len(ci.groups[id].members) < ci.groups[id].total {
		if !ci.extend() {
			break
		}
	}
	return ci.groups[id].members
}

// position returns the index of c among its parent's children, and
// whether the index of its parent holds it.
func (sb *siblings) position(c *tree.Node) (int, bool) {
	if ci := sb.byParent[c.Parent]; ci != nil {
		return ci.find(c)
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
	g := ci.groupsOf(c)
	for _, id := range g.ids[:g.n] {
		ci.groups[id].total--
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
	g := ci.groupsOf(c)
	for _, id := range g.ids[:g.n] {
		ci.groups[id].total++
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

// replace puts c in the place of child i of parent, which leaves it,
// without shifting the children after it.
func (sb *siblings) replace(parent *tree.Node, i int, c *tree.Node) {
	old := parent.Children[i]
	sb.detach(old)
	old.Parent = nil
	c.Parent = parent
	parent.Children[i] = c
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
