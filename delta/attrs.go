package delta

import "github.com/vigil-web/vigil/tree"

// manyAttrs is the number of attributes above which an element's attributes
// are found by name through a map rather than by scanning them: a delta
// may change every attribute of an element that has thousands, and a scan
// for each would take time quadratic in their number.
const manyAttrs = 16

// attrFinder returns a function that finds an attribute of attrs by name,
// as tree.Node.Attr does (the first of that name).
func attrFinder(attrs []tree.Attr) func(name string) (string, bool) {
	if len(attrs) <= manyAttrs {
		return func(name string) (string, bool) {
			for _, a := range attrs {
				if a.Name == name {
					return a.Value, true
				}
			}
			return "", false
		}
	}
	byName := make(map[string]string, len(attrs))
	for _, a := range attrs {
		if _, dup := byName[a.Name]; !dup {
			byName[a.Name] = a.Value
		}
	}
	return func(name string) (string, bool) {
		v, ok := byName[name]
		return v, ok
	}
}

// attrEditor reads and edits the attributes of the elements a delta
// changes, in the order of its operations, with the result of
// tree.Node's Attr, SetAttr and RemoveAttr, but by a map of each element
// that has many attributes: a removal marks the attribute, and finish
// drops the marked ones, keeping the others in order.
type attrEditor struct {
	many map[*tree.Node]*attrIndex
}

// attrIndex is the map of one element's attributes.
type attrIndex struct {
	at      map[string]int // position in Attrs of each live attribute
	removed []bool         // by position: removed since the map was made
}

// index returns n's map, or nil when n has few attributes, or two of one
// name (a tree built by hand: the parsers refuse them), which tree.Node's
// methods handle.
func (e *attrEditor) index(n *tree.Node) *attrIndex {
	if x, ok := e.many[n]; ok {
		return x
	}
	if len(n.Attrs) <= manyAttrs {
		return nil
	}
	x := &attrIndex{at: make(map[string]int, len(n.Attrs)), removed: make([]bool, len(n.Attrs))}
	for k, a := range n.Attrs {
		if _, dup := x.at[a.Name]; dup {
			x = nil
			break
		}
		x.at[a.Name] = k
	}
	if e.many == nil {
		e.many = map[*tree.Node]*attrIndex{}
	}
	e.many[n] = x
	return x
}

// get returns the value of n's attribute name.
func (e *attrEditor) get(n *tree.Node, name string) (string, bool) {
	x := e.index(n)
	if x == nil {
		return n.Attr(name)
	}
	k, ok := x.at[name]
	if !ok {
		return "", false
	}
	return n.Attrs[k].Value, true
}

// add appends an attribute to n, which must not have one of that name.
func (e *attrEditor) add(n *tree.Node, name, value string) {
	n.Attrs = append(n.Attrs, tree.Attr{Name: name, Value: value})
	if x := e.index(n); x != nil {
		x.at[name] = len(n.Attrs) - 1
		x.removed = append(x.removed, false)
	}
}

// set changes the value of n's attribute name, which must exist.
func (e *attrEditor) set(n *tree.Node, name, value string) {
	x := e.index(n)
	if x == nil {
		n.SetAttr(name, value)
		return
	}
	n.Attrs[x.at[name]].Value = value
}

// remove removes n's attribute name, which must exist.
func (e *attrEditor) remove(n *tree.Node, name string) {
	x := e.index(n)
	if x == nil {
		n.RemoveAttr(name)
		return
	}
	x.removed[x.at[name]] = true
	delete(x.at, name)
}

// finish drops the removed attributes of every element with a map.
func (e *attrEditor) finish() {
	for n, x := range e.many {
		if x == nil {
			continue
		}
		kept := n.Attrs[:0:0]
		for k, a := range n.Attrs {
			if !x.removed[k] {
				kept = append(kept, a)
			}
		}
		n.Attrs = kept
	}
	e.many = nil
}
