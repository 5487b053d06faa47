package webtable

import (
	"math"
	"slices"
)

// class is what Phase 2 of Algorithm Delta makes of a node id.
type class uint8

const (
	unused   class = iota // in a node pool only, in no tuple
	joinable              // J: in both tables with the same version
	updated               // updateNodeSet: in both tables, versions differ
	deleted               // delNodeSet: in the old table only
	added                 // addNodeSet: in the new table only
)

// rows holds the tuples of a table as lists of node numbers, row i at
// nodes[off[i]:off[i+1]].
type rows struct {
	off, nodes []int32
}

func (r rows) row(i int32) []int32 { return r.nodes[r.off[i]:r.off[i+1]] }

func (r rows) len() int32 { return int32(len(r.off) - 1) }

// pair is two validated tables with their node ids numbered together: node g
// is position g of the old table's node pool when g < len(old.Nodes), and
// otherwise a node that only the new table's pool holds. Equal numbers mean
// equal node ids.
type pair struct {
	p1, p2 *prepared
	n      int
	pos2   []int32 // node number → position in the new table's pool, or -1
	cls    []class
	t1, t2 rows
}

// newPair validates both tables and checks that they identify nodes alike.
func newPair(w1, w2 *Table) (*pair, error) {
	p1, err := prepare(w1)
	if err != nil {
		return nil, err
	}
	total, links, err := counts(w2)
	if err != nil {
		return nil, err
	}
	p2, g2, same := prepareAgainst(w2, p1, total, links)
	if p2 == nil {
		if p2, err = prepare(w2); err != nil {
			return nil, err
		}
		if g2, same, err = checkPair(p1, p2); err != nil {
			return nil, err
		}
	}
	if len(w1.Nodes)+len(w2.Nodes) >= math.MaxInt32 {
		return nil, &Error{Table: w2.Name, Msg: "too large: the two tables hold more than 2^31 nodes"}
	}
	n := int32(len(w1.Nodes))
	for i := range g2 {
		if g2[i] < 0 {
			g2[i] = n
			n++
		}
	}
	pr := &pair{p1: p1, p2: p2, n: int(n), pos2: make([]int32, n), cls: make([]class, n)}
	for g := range pr.pos2 {
		pr.pos2[g] = -1
	}
	for i, g := range g2 {
		pr.pos2[g] = int32(i)
	}
	pr.t1 = rows{off: p1.off, nodes: p1.nodes}
	nodes2 := make([]int32, len(p2.nodes))
	for i, pos := range p2.nodes {
		nodes2[i] = g2[pos]
	}
	pr.t2 = rows{off: p2.off, nodes: nodes2}

	const in1, in2 = 1, 2
	seen := make([]uint8, n)
	for _, g := range pr.t1.nodes {
		seen[g] |= in1
	}
	for _, g := range pr.t2.nodes {
		seen[g] |= in2
	}
	for g, s := range seen {
		switch s {
		case in1:
			pr.cls[g] = deleted
		case in2:
			pr.cls[g] = added
		case in1 | in2:
			if same[pr.pos2[g]] {
				pr.cls[g] = joinable
			} else {
				pr.cls[g] = updated
			}
		}
	}
	return pr, nil
}

// id returns the node id of node number g.
func (pr *pair) id(g int32) NodeID {
	if int(g) < len(pr.p1.t.Nodes) {
		return pr.p1.t.Nodes[g].ID
	}
	return pr.p2.t.Nodes[pr.pos2[g]].ID
}

// dangling reports, for each tuple of r, whether it holds no joinable node:
// the outer web join (Fig. 8) keeps exactly these (repair R1: once each).
func (pr *pair) dangling(r rows) []bool {
	dang, _ := pr.kinds(r)
	return dang
}

// kinds reports, for each tuple of r, whether it is dangling (holds no
// joinable node) and whether it is changed (holds a node that is not
// joinable).
func (pr *pair) kinds(r rows) (dang, changed []bool) {
	dang = make([]bool, r.len())
	changed = make([]bool, r.len())
	for i := range dang {
		joins, changes := false, false
		for _, g := range r.row(int32(i)) {
			if pr.cls[g] == joinable {
				joins = true
			} else {
				changes = true
			}
		}
		dang[i], changed[i] = !joins, changes
	}
	return dang, changed
}

// byNode returns, for every node number, the tuples of r that hold it, in
// r's order, as rows indexed by node number; only nodes of class c are
// indexed.
func (pr *pair) byNode(r rows, c class) rows {
	off := make([]int32, pr.n+1)
	for _, g := range r.nodes {
		if pr.cls[g] == c {
			off[g+1]++
		}
	}
	for g := 1; g <= pr.n; g++ {
		off[g] += off[g-1]
	}
	fill := slices.Clone(off[:pr.n])
	ts := make([]int32, off[pr.n])
	for i := range r.len() {
		for _, g := range r.row(i) {
			if pr.cls[g] == c {
				ts[fill[g]] = i
				fill[g]++
			}
		}
	}
	return rows{off: off, nodes: ts}
}

// sub returns the table of p's tuples at the sorted positions sel, with
// the nodes and links they use and the nodes at the pool positions extra,
// in the order of p's pools. The tuples' lists of nodes and links are
// copies, cut from one array each.
func (p *prepared) sub(sel []int32, extra []int32) *Table {
	t := p.t
	out := &Table{Name: t.Name, Tuples: make([]Tuple, len(sel))}
	var nodes, links used
	nodes.init(len(t.Nodes))
	links.init(len(t.Links))
	nodes.add(extra)
	refs, lrefs := 0, 0
	for _, i := range sel {
		nodes.add(p.tuple(i))
		links.add(p.tupleLinks(i))
		refs += len(t.Tuples[i].Nodes)
		lrefs += len(t.Tuples[i].Links)
	}
	nodeIDs := make([]NodeID, 0, refs)
	linkIDs := make([]LinkID, 0, lrefs)
	for k, i := range sel {
		tu := &t.Tuples[i]
		out.Tuples[k] = Tuple{ID: tu.ID, Nodes: clip(&nodeIDs, tu.Nodes), Links: clip(&linkIDs, tu.Links)}
	}
	out.Nodes = make([]Node, 0, len(nodes.list))
	for _, pos := range nodes.sorted() {
		out.Nodes = append(out.Nodes, t.Nodes[pos])
	}
	if len(links.list) > 0 {
		out.Links = make([]Link, 0, len(links.list))
		for _, pos := range links.sorted() {
			out.Links = append(out.Links, t.Links[pos])
		}
	}
	return out
}

// used is a set of positions in a pool: a mark for each position, and the
// positions marked, in the order marked.
type used struct {
	mark []bool
	list []int32
}

func (u *used) init(n int) { u.mark = make([]bool, n) }

func (u *used) add(pos []int32) {
	for _, p := range pos {
		if !u.mark[p] {
			u.mark[p] = true
			u.list = append(u.list, p)
		}
	}
}

// sorted returns the positions in increasing order: the list sorted, or,
// when it holds more than a small part of the pool, the marks read in
// order, which is faster than sorting.
func (u *used) sorted() []int32 {
	if len(u.list)*16 < len(u.mark) {
		slices.Sort(u.list)
		return u.list
	}
	u.list = u.list[:0]
	for pos, m := range u.mark {
		if m {
			u.list = append(u.list, int32(pos))
		}
	}
	return u.list
}

// clip appends s to *buf and returns the copy, with its capacity cut to
// its length (so that appending to it cannot touch the copy that follows);
// it returns nil for nil and an empty slice for an empty one, as
// slices.Clone does.
func clip[S ~[]E, E any](buf *S, s S) S {
	if len(s) == 0 {
		return s[:0:0]
	}
	n := len(*buf)
	*buf = append(*buf, s...)
	return (*buf)[n:len(*buf):len(*buf)]
}
