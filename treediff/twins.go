package treediff

import "github.com/vigil-web/vigil/tree"

// twinScratch is markTwinChains's working space, kept from list to list.
type twinScratch struct {
	nodes   []twinNode
	gaps    []twinGap
	classes []twinClass
	members []int32 // the nodes of each class, old then new (see twinClass)
}

// twinNode is a child left unpaired by the alignment of a list.
type twinNode struct {
	node  int32
	class int32
	size  int32
	old   bool
	used  bool // paired in the scenario at hand
}

// twinGap is a gap between two aligned children: its old children are
// nodes[start:mid], its new ones nodes[mid:end]. A lone gap holds one
// small child on each side, which align pairs in place.
type twinGap struct {
	start, mid, end int32
	lone            bool
	// twinned says that twins take a child of this lone gap when the
	// lone children are released: only such a gap is marked.
	twinned bool
}

// twinClass is one signature among the children left.
type twinClass struct {
	weight int32 // what pairing two of them saves: 2 × size - 1
	up     int32 // union-find parent among the classes
	// members[old:new] are its old nodes and members[new:end] its new
	// ones, those in gaps with nothing on the other side first.
	old, new, end int32
	fill          [2]int32 // where the next member of each side goes
	keep, release int32    // on a component's root: see markTwinChains
}

// markTwinChains marks the lone children (see markLoose) that pair more
// with their twins than in place, taking at once each set of classes
// (signatures) that lone pairs and gaps link. The children that the
// alignment left, in the gaps between the pairs given, are paired two
// ways: with the lone pairs in place (keep), then twins with twins, then
// what is left in each gap in place, as recovery would; or with the lone
// children among the twins (release). Where release pairs more, counted
// in nodes (a pair of twins saves deleting and inserting them for a move,
// a pair in place saves them for an update), every lone pair of the set
// that the twins take a child of is marked, and the heaviest-first phase
// pairs them with their twins (a lone pair the twins leave whole stays in
// place, as release counted it):
// r0 r0 r3 r2 r1 r1 r2 to r2 r0 r3 r1 r2 r0 r1 aligns r0 r3 r2 r1,
// leaving r0 and r1 lone against r2 and r0, an r2 at the end of the old
// list and an r1 at the start of the new one; in place, two updates, an
// insert and a delete, against three moves. Where both save as much
// (values rewritten in place, each with another's value), the pairs in
// place are kept. It costs a few look-ups a child left.
func (m *matching) markTwinChains(gaps func(func(pa, ea, pb, eb int)), a, b []int32) {
	w := &m.displaced.twins
	nodes, gs, classes := w.nodes[:0], w.gaps[:0], w.classes[:0]
	n, lone := 0, false
	gaps(func(pa, ea, pb, eb int) { n += ea - pa + eb - pb })
	slot := m.myers.emptyBag(n)
	class := func(sig tree.Signature, size int32) int32 {
		c := slot(sig)
		if !c.used {
			c.key, c.used, c.count = sig, true, int32(len(classes))
			classes = append(classes, twinClass{weight: 2*size - 1, up: int32(len(classes))})
		}
		return c.count
	}
	gaps(func(pa, ea, pb, eb int) {
		if pa == ea && pb == eb {
			return
		}
		g := twinGap{start: int32(len(nodes))}
		// (A child matched already, by its ID, is no one's twin.)
		for _, x := range a[pa:ea] {
			if m.oldMatch[x] < 0 {
				nodes = append(nodes, twinNode{node: x, class: class(m.old.Signature[x], m.old.Size[x]), size: m.old.Size[x], old: true})
			}
		}
		g.mid = int32(len(nodes))
		for _, y := range b[pb:eb] {
			if m.newMatch[y] < 0 {
				nodes = append(nodes, twinNode{node: y, class: class(m.new.Signature[y], m.new.Size[y]), size: m.new.Size[y]})
			}
		}
		g.end = int32(len(nodes))
		g.lone = ea-pa == 1 && eb-pb == 1 && m.small(a[pa], b[pb]) && m.old.Signature[a[pa]] != m.new.Signature[b[pb]]
		lone = lone || g.lone
		gs = append(gs, g)
	})
	w.nodes, w.gaps, w.classes = nodes, gs, classes
	if !lone {
		return
	}
	// The members of each class, the loose ones (in a gap with nothing on
	// the other side) first: they pair with a twin or not at all.
	for _, x := range nodes { // fill counts the members first
		if x.old {
			classes[x.class].fill[0]++
		} else {
			classes[x.class].fill[1]++
		}
	}
	total := int32(0)
	for k := range classes {
		c := &classes[k]
		c.old, c.new, c.end = total, total+c.fill[0], total+c.fill[0]+c.fill[1]
		c.fill = [2]int32{c.old, c.new}
		total = c.end
	}
	members := grow(&w.members, int(total))
	for _, looseFirst := range []bool{true, false} {
		for _, g := range gs {
			if loose := g.start == g.mid || g.mid == g.end; loose != looseFirst {
				continue
			}
			for k := g.start; k < g.end; k++ {
				c := &classes[nodes[k].class]
				side := 1
				if nodes[k].old {
					side = 0
				}
				members[c.fill[side]] = k
				c.fill[side]++
			}
		}
	}
	root := func(k int32) int32 {
		for classes[k].up != k {
			classes[k].up = classes[classes[k].up].up
			k = classes[k].up
		}
		return k
	}
	// A gap with children on both sides links their classes: what twins
	// take from it, it cannot pair in place.
	for _, g := range gs {
		if g.start == g.mid || g.mid == g.end {
			continue
		}
		r := root(nodes[g.start].class)
		for k := g.start + 1; k < g.end; k++ {
			if q := root(nodes[k].class); q != r {
				classes[q].up = r
			}
		}
	}
	for _, release := range []bool{false, true} {
		saved := func(k int32, v int32) {
			if c := &classes[root(k)]; release {
				c.release += v
			} else {
				c.keep += v
			}
		}
		for k := range nodes {
			nodes[k].used = false
		}
		if !release {
			for _, g := range gs {
				if g.lone {
					x, y := &nodes[g.start], &nodes[g.mid]
					x.used, y.used = true, true
					saved(x.class, x.size+y.size-1)
				}
			}
		}
		for k := range classes {
			c := &classes[k]
			o, nw, pairs := c.old, c.new, int32(0)
			for {
				for o < c.new && nodes[members[o]].used {
					o++
				}
				for nw < c.end && nodes[members[nw]].used {
					nw++
				}
				if o == c.new || nw == c.end {
					break
				}
				nodes[members[o]].used, nodes[members[nw]].used = true, true
				pairs++
			}
			if pairs > 0 {
				saved(int32(k), pairs*c.weight)
			}
		}
		if release {
			for k := range gs {
				if g := &gs[k]; g.lone {
					g.twinned = nodes[g.start].used || nodes[g.mid].used
				}
			}
		}
		// What is left in a gap pairs in place, each child with the
		// next of the other side.
		for _, g := range gs {
			x, y := g.start, g.mid
			for {
				for x < g.mid && nodes[x].used {
					x++
				}
				for y < g.end && nodes[y].used {
					y++
				}
				if x == g.mid || y == g.end {
					break
				}
				nodes[x].used, nodes[y].used = true, true
				saved(nodes[x].class, 2*min(nodes[x].size, nodes[y].size)-1)
			}
		}
	}
	for _, g := range gs {
		if c := &classes[root(nodes[g.start].class)]; g.twinned && c.release > c.keep {
			m.displaced.mark(m, nodes[g.start].node, nodes[g.mid].node)
		}
	}
}
