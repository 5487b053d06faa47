package tree

import (
	"slices"
	"strconv"
	"strings"
)

// Path returns a readable location of n: element names with 1-based
// positions among the siblings of the same kind and name, from the root,
// such as /catalog[1]/product[2]/text()[1].
//
// It counts the preceding siblings at every step: to name many nodes of
// one tree (every change of a long list), use NodePaths.
func Path(n *Node) string {
	return nodePath(n, func(m *Node) int32 {
		pos := int32(1)
		for _, s := range m.Parent.Children {
			if s == m {
				break
			}
			if s.Kind == m.Kind && s.Name == m.Name {
				pos++
			}
		}
		return pos
	})
}

// Path returns the path of node i, as Path does for a *Node.
//
// It counts the preceding siblings at every step: to name many nodes of
// one tree, use FlatPaths.
func (f *Flat) Path(i int32) string {
	return flatPath(f, i, func(m int32) int32 {
		pos := int32(1)
		p := f.Parent[m]
		// Siblings before m, last first: each starts where the previous
		// one's subtree ends.
		for s, start := m-f.Size[m], p-f.Size[p]; s > start; s -= f.Size[s] {
			if f.Kind[s] == f.Kind[m] && f.name[s] == f.name[m] {
				pos++
			}
		}
		return pos
	})
}

// FlatPaths names nodes of a flat tree by path, as Flat.Path does, each in
// time proportional to its depth: it numbers every node among its
// same-named siblings once, in time proportional to the tree's size,
// where Flat.Path counts siblings at every call, which takes time
// quadratic in a list's length to name each of its items.
type FlatPaths struct {
	f   *Flat
	ord []int32 // ord[i] is node i's position among its same-named siblings
}

// NewFlatPaths numbers the nodes of f for Path.
func NewFlatPaths(f *Flat) *FlatPaths {
	p := &FlatPaths{f: f, ord: make([]int32, f.Len())}
	// One counter per (name, kind), reset after each parent by the list
	// of those it touched.
	var maxKind Kind
	for _, k := range f.Kind {
		maxKind = max(maxKind, k)
	}
	kinds := int(maxKind) + 1
	count := make([]int32, max(len(f.names), 1)*kinds)
	var touched []int
	var kids []int32
	for parent := range int32(f.Len()) {
		if f.Size[parent] == 1 {
			continue
		}
		kids = f.ChildList(parent, kids)
		for _, c := range kids {
			k := int(f.name[c])*kinds + int(f.Kind[c])
			if count[k] == 0 {
				touched = append(touched, k)
			}
			count[k]++
			p.ord[c] = count[k]
		}
		for _, k := range touched {
			count[k] = 0
		}
		touched = touched[:0]
	}
	if n := f.Len(); n > 0 {
		p.ord[n-1] = 1 // the root
	}
	return p
}

// Path returns the path of node i.
func (p *FlatPaths) Path(i int32) string {
	return flatPath(p.f, i, func(m int32) int32 { return p.ord[m] })
}

// flatPath builds the path of node i of f from its ancestors' steps, given
// the position of a node that has a parent among its same-named siblings.
func flatPath(f *Flat, i int32, pos func(int32) int32) string {
	var steps []string
	for m := i; m >= 0; m = f.Parent[m] {
		at := int32(1)
		if f.Parent[m] >= 0 {
			at = pos(m)
		}
		steps = append(steps, step(f.Kind[m], f.Name(m), at))
	}
	return joinSteps(steps)
}

// NodePaths names nodes of a tree by path, as Path does, each in time
// proportional to its depth once its parent's children are numbered: the
// first node named under a parent numbers all of its children at once. The
// zero value is ready to use; the tree must not change while it is in use.
type NodePaths struct {
	ord map[*Node]int32 // position among same-named siblings
}

// Path returns the path of n.
func (p *NodePaths) Path(n *Node) string {
	return nodePath(n, func(m *Node) int32 {
		if pos, ok := p.ord[m]; ok {
			return pos
		}
		if p.ord == nil {
			p.ord = map[*Node]int32{}
		}
		type key struct {
			kind Kind
			name string
		}
		count := map[key]int32{}
		for _, s := range m.Parent.Children {
			k := key{s.Kind, s.Name}
			count[k]++
			p.ord[s] = count[k]
		}
		return p.ord[m]
	})
}

// nodePath builds the path of n from its ancestors' steps, given the
// position of a node that has a parent among its same-named siblings.
func nodePath(n *Node, pos func(*Node) int32) string {
	var steps []string
	for m := n; m != nil; m = m.Parent {
		at := int32(1)
		if m.Parent != nil {
			at = pos(m)
		}
		steps = append(steps, step(m.Kind, m.Name, at))
	}
	return joinSteps(steps)
}

// step is one step of a path: the node's name, or its kind for a node
// without one, and its position.
func step(kind Kind, name string, pos int32) string {
	switch kind {
	case Text:
		name = "text()"
	case Comment:
		name = "comment()"
	case ProcInst:
		name = "processing-instruction(" + name + ")"
	}
	return name + "[" + strconv.Itoa(int(pos)) + "]"
}

// joinSteps joins the steps of a path, given from the node up to the root.
func joinSteps(steps []string) string {
	slices.Reverse(steps)
	return "/" + strings.Join(steps, "/")
}
