package webtable

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Error reports what is wrong with a table, or with two tables taken
// together (then Table is the newer one and Msg names the other):
//
//	webtable: table "Drugs": tuple "t3": tuples[2].nodes[1]: node "u9" is not in the node pool
type Error struct {
	Table string  // the name of the table at fault
	Tuple TupleID // the tuple at fault, or "" when the fault is in a pool
	Field string  // the field at fault, as a path from the table: "nodes[4].version"
	Msg   string
}

// Error returns the message, prefixed with the table, tuple and field.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "webtable: table %q", e.Table)
	if e.Tuple != "" {
		fmt.Fprintf(&b, ": tuple %q", e.Tuple)
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Validate reports the first thing wrong with t, as an *Error: an empty or
// repeated id, a URL with two node ids, a tuple without nodes or naming a
// node or link twice or one missing from the pools, a link whose ends are not
// nodes of its tuple, an unknown link type.
func (t *Table) Validate() error {
	_, err := prepare(t)
	return err
}

// prepared is a validated table with its indexes. Tuples are stored as
// positions in the node and link pools, row i at off[i]:off[i+1].
type prepared struct {
	t     *Table
	node  index // node id → position in t.Nodes
	url   index // URL → position in t.Nodes
	off   []int32
	nodes []int32
	loff  []int32
	links []int32
}

func (p *prepared) tuple(i int32) []int32 { return p.nodes[p.off[i]:p.off[i+1]] }

func (p *prepared) tupleLinks(i int32) []int32 { return p.links[p.loff[i]:p.loff[i+1]] }

// prepare validates t and indexes it: every id of the pools and tuples is
// turned once into a position, and the tuples are stored as positions.
// prepareFast does the work of a valid table; when it finds a fault,
// prepareOrdered runs the checks again in the order of the fields, so that
// the first fault is the one reported.
func prepare(t *Table) (*prepared, error) {
	if t == nil {
		return nil, errors.New("webtable: nil table")
	}
	total, links := 0, 0
	for i := range t.Tuples {
		total += len(t.Tuples[i].Nodes)
		links += len(t.Tuples[i].Links)
	}
	for _, n := range []int{len(t.Nodes), len(t.Links), len(t.Tuples), total, links} {
		if n >= math.MaxInt32 {
			return nil, &Error{Table: t.Name, Msg: fmt.Sprintf("too large: more than %d entries", math.MaxInt32-1)}
		}
	}
	if p := prepareFast(t, total, links); p != nil {
		return p, nil
	}
	return prepareOrdered(t, total, links)
}

// predictor guesses the position in a pool of the id in one column of a
// tuple (its k-th node, or its k-th link) from the positions in the same
// column of the two tuples before: the tuples of a table come from one
// query and have one shape, and a pool that lists the nodes and links of
// the tuples in their order puts them at a fixed stride. A guess is
// checked against the pool, so a wrong one costs a comparison of ids and
// never changes the outcome.
type predictor struct {
	prev, stride [predictedColumns]int32
}

const predictedColumns = 16

// guess returns the guessed position in column k, which may be out of the
// pool's range.
func (c *predictor) guess(k int) int32 {
	if k >= predictedColumns {
		return -1
	}
	return c.prev[k] + c.stride[k]
}

// saw records the position found in column k.
func (c *predictor) saw(k int, pos int32) {
	if k < predictedColumns {
		c.stride[k], c.prev[k] = pos-c.prev[k], pos
	}
}

// prepareFast is prepare for a valid table. It returns nil if t has a
// fault, without saying which.
//
// The ids of the pools are hashed and their slots loaded a batch at a time
// ahead of the insertions (see index.touch). The nodes and links of the
// tuples are found by a predictor, and by the indexes when it misses; the
// ends of the links a tuple holds are found among the nodes of the tuple,
// and only those of links no tuple holds are looked up in the index.
func prepareFast(t *Table, total, links int) *prepared {
	nodes, urls := nodeIDPool(t.Nodes), nodeURLPool{t.Nodes}
	p := &prepared{t: t, node: newIndex(len(t.Nodes)), url: newIndex(len(t.Nodes))}
	var hs, hu [batchSize]uint64
	for lo := 0; lo < len(t.Nodes); lo += batchSize {
		batch := t.Nodes[lo:min(lo+batchSize, len(t.Nodes))]
		hid, hu := hs[:len(batch)], hu[:len(batch)]
		for k := range batch {
			hid[k] = hash(string(batch[k].ID))
			hu[k] = hash(batch[k].URL)
		}
		p.node.touch(hid)
		p.url.touch(hu)
		for k := range batch {
			n := &batch[k]
			if n.ID == "" || n.Version == "" || n.URL == "" ||
				add(&p.node, nodes, string(n.ID), hid[k], int32(lo+k)) >= 0 ||
				add(&p.url, urls, n.URL, hu[k], int32(lo+k)) >= 0 {
				return nil
			}
		}
	}
	lpool := linkIDPool(t.Links)
	link := newIndex(len(t.Links))
	for lo := 0; lo < len(t.Links); lo += batchSize {
		batch := t.Links[lo:min(lo+batchSize, len(t.Links))]
		hl := hs[:len(batch)]
		for k := range batch {
			hl[k] = hash(string(batch[k].ID))
		}
		link.touch(hl)
		for k := range batch {
			l := &batch[k]
			switch l.Type {
			case "", Interior, Local, Global:
			default:
				return nil
			}
			if l.ID == "" || add(&link, lpool, string(l.ID), hl[k], int32(lo+k)) >= 0 {
				return nil
			}
		}
	}
	p.off = make([]int32, len(t.Tuples)+1)
	p.loff = make([]int32, len(t.Tuples)+1)
	p.nodes = make([]int32, 0, total)
	p.links = make([]int32, 0, links)
	tpool := tupleIDPool(t.Tuples)
	seen := newIndex(len(t.Tuples))
	inTuple := make([]int32, len(t.Nodes)) // tuple index+1 that last named the node
	linkIn := make([]int32, len(t.Links))  // tuple index+1 that last named the link, 0 for none
	var nodeCol, linkCol predictor
	var endCol [predictedColumns][2]int // where the ends of the k-th link were in the tuple before
	for lo := 0; lo < len(t.Tuples); lo += batchSize {
		batch := t.Tuples[lo:min(lo+batchSize, len(t.Tuples))]
		ht := hs[:len(batch)]
		for k := range batch {
			ht[k] = hash(string(batch[k].ID))
		}
		seen.touch(ht)
		for k := range batch {
			i, tu := lo+k, &batch[k]
			if tu.ID == "" || len(tu.Nodes) == 0 || add(&seen, tpool, string(tu.ID), ht[k], int32(i)) >= 0 {
				return nil
			}
			stamp := int32(i + 1)
			for k, id := range tu.Nodes {
				pos := nodeCol.guess(k)
				if pos < 0 || int(pos) >= len(t.Nodes) || t.Nodes[pos].ID != id {
					if pos = find(&p.node, nodes, string(id), hash(string(id))); pos < 0 {
						return nil
					}
				}
				nodeCol.saw(k, pos)
				if inTuple[pos] == stamp {
					return nil
				}
				inTuple[pos] = stamp
				p.nodes = append(p.nodes, pos)
			}
			for k, id := range tu.Links {
				pos := linkCol.guess(k)
				if pos < 0 || int(pos) >= len(t.Links) || t.Links[pos].ID != id {
					if pos = find(&link, lpool, string(id), hash(string(id))); pos < 0 {
						return nil
					}
				}
				linkCol.saw(k, pos)
				if linkIn[pos] == stamp {
					return nil
				}
				linkIn[pos] = stamp
				p.links = append(p.links, pos)
				// The ends must be nodes of the tuple: found there, they
				// are in the pool too. The predictor guesses their columns,
				// a short tuple is searched, a long one looked up.
				l := &t.Links[pos]
				for e, end := range [2]NodeID{l.From, l.To} {
					if k < predictedColumns {
						c := endCol[k][e]
						if c >= 0 && c < len(tu.Nodes) && tu.Nodes[c] == end {
							continue
						}
						if len(tu.Nodes) <= 8 {
							if c = slices.Index(tu.Nodes, end); c < 0 {
								return nil
							}
							endCol[k][e] = c
							continue
						}
					}
					if pos := find(&p.node, nodes, string(end), hash(string(end))); pos < 0 || inTuple[pos] != stamp {
						return nil
					}
				}
			}
			p.off[i+1] = int32(len(p.nodes))
			p.loff[i+1] = int32(len(p.links))
		}
	}
	// The ends of the links no tuple holds must be in the node pool.
	for i := range t.Links {
		if linkIn[i] != 0 {
			continue
		}
		l := &t.Links[i]
		if find(&p.node, nodes, string(l.From), hash(string(l.From))) < 0 || find(&p.node, nodes, string(l.To), hash(string(l.To))) < 0 {
			return nil
		}
	}
	return p
}

// prepareOrdered is prepare, with every check in the order of the fields.
func prepareOrdered(t *Table, total, links int) (*prepared, error) {
	fail := func(tu TupleID, field, format string, args ...any) (*prepared, error) {
		return nil, &Error{Table: t.Name, Tuple: tu, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	nodes, urls := nodeIDPool(t.Nodes), nodeURLPool{t.Nodes}
	p := &prepared{t: t, node: newIndex(len(t.Nodes)), url: newIndex(len(t.Nodes))}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		f := func(name string) string { return fmt.Sprintf("nodes[%d].%s", i, name) }
		switch {
		case n.ID == "":
			return fail("", f("id"), "empty node id")
		case n.Version == "":
			return fail("", f("version"), "node %q: empty version id", n.ID)
		case n.URL == "":
			return fail("", f("url"), "node %q: empty URL", n.ID)
		}
		if j := add(&p.node, nodes, string(n.ID), hash(string(n.ID)), int32(i)); j >= 0 {
			return fail("", f("id"), "node %q is also nodes[%d]: the pool holds a node once", n.ID, j)
		}
		if j := add(&p.url, urls, n.URL, hash(n.URL), int32(i)); j >= 0 {
			return fail("", f("url"), "node %q has the URL %q of node %q (nodes[%d]): a URL has one node id", n.ID, n.URL, t.Nodes[j].ID, j)
		}
	}
	lpool := linkIDPool(t.Links)
	link := newIndex(len(t.Links))
	ends := make([]int32, 2*len(t.Links)) // from and to of link i at 2i and 2i+1
	for i := range t.Links {
		l := &t.Links[i]
		f := func(name string) string { return fmt.Sprintf("links[%d].%s", i, name) }
		if l.ID == "" {
			return fail("", f("id"), "empty link id")
		}
		if j := add(&link, lpool, string(l.ID), hash(string(l.ID)), int32(i)); j >= 0 {
			return fail("", f("id"), "link %q is also links[%d]: the pool holds a link once", l.ID, j)
		}
		if ends[2*i] = find(&p.node, nodes, string(l.From), hash(string(l.From))); ends[2*i] < 0 {
			return fail("", f("from"), "link %q: node %q is not in the node pool", l.ID, l.From)
		}
		if ends[2*i+1] = find(&p.node, nodes, string(l.To), hash(string(l.To))); ends[2*i+1] < 0 {
			return fail("", f("to"), "link %q: node %q is not in the node pool", l.ID, l.To)
		}
		switch l.Type {
		case "", Interior, Local, Global:
		default:
			return fail("", f("type"), "link %q: unknown link type %q (want interior, local or global)", l.ID, l.Type)
		}
	}
	p.off = make([]int32, len(t.Tuples)+1)
	p.loff = make([]int32, len(t.Tuples)+1)
	p.nodes = make([]int32, 0, total)
	p.links = make([]int32, 0, links)
	tpool := tupleIDPool(t.Tuples)
	seen := newIndex(len(t.Tuples))
	inTuple := make([]int32, len(t.Nodes)) // tuple index+1 that last named the node
	linkIn := make([]int32, len(t.Links))
	for i := range t.Tuples {
		tu := &t.Tuples[i]
		stamp := int32(i + 1)
		field := func(name string, k int) string {
			if k < 0 {
				return fmt.Sprintf("tuples[%d].%s", i, name)
			}
			return fmt.Sprintf("tuples[%d].%s[%d]", i, name, k)
		}
		if tu.ID == "" {
			return fail("", field("id", -1), "empty tuple id")
		}
		if j := add(&seen, tpool, string(tu.ID), hash(string(tu.ID)), int32(i)); j >= 0 {
			return fail(tu.ID, field("id", -1), "tuple id also used by tuples[%d]", j)
		}
		if len(tu.Nodes) == 0 {
			return fail(tu.ID, field("nodes", -1), "no nodes: a tuple has at least one")
		}
		for k, id := range tu.Nodes {
			pos := find(&p.node, nodes, string(id), hash(string(id)))
			if pos < 0 {
				return fail(tu.ID, field("nodes", k), "node %q is not in the node pool", id)
			}
			if inTuple[pos] == stamp {
				return fail(tu.ID, field("nodes", k), "node %q is named twice", id)
			}
			inTuple[pos] = stamp
			p.nodes = append(p.nodes, pos)
		}
		for k, id := range tu.Links {
			pos := find(&link, lpool, string(id), hash(string(id)))
			switch {
			case pos < 0:
				return fail(tu.ID, field("links", k), "link %q is not in the link pool", id)
			case linkIn[pos] == stamp:
				return fail(tu.ID, field("links", k), "link %q is named twice", id)
			case inTuple[ends[2*pos]] != stamp:
				return fail(tu.ID, field("links", k), "link %q leads from node %q, which is not in the tuple", id, t.Links[pos].From)
			case inTuple[ends[2*pos+1]] != stamp:
				return fail(tu.ID, field("links", k), "link %q leads to node %q, which is not in the tuple", id, t.Links[pos].To)
			}
			linkIn[pos] = stamp
			p.links = append(p.links, pos)
		}
		p.off[i+1] = int32(len(p.nodes))
		p.loff[i+1] = int32(len(p.links))
	}
	return p, nil
}

// checkPair reports a node that the two tables identify differently: a node
// id with two URLs, a URL with two node ids, one version with two dates, or
// two versions of one (URL, date). It returns, for each node of p2's pool,
// its position in p1's pool, or -1, and whether the two have the same
// version.
//
// A node of p2's pool is first looked for at the position in p1's pool
// that the node before it suggests (two polls of one query list their nodes
// in much the same order), then in p1's index.
func checkPair(p1, p2 *prepared) (in1 []int32, same []bool, err error) {
	t1, t2 := p1.t, p2.t
	nodes1, urls1 := nodeIDPool(t1.Nodes), nodeURLPool{t1.Nodes}
	in1 = make([]int32, len(t2.Nodes))
	same = make([]bool, len(t2.Nodes))
	offset := 0                // position in p1 minus position in p2 of the last node found
	var miss [batchSize]uint64 // hashes of the node ids guessed wrong
	for lo := 0; lo < len(t2.Nodes); lo += batchSize {
		batch := t2.Nodes[lo:min(lo+batchSize, len(t2.Nodes))]
		guess := in1[lo : lo+len(batch)]
		hs := miss[:0]
		for k := range batch {
			guess[k] = -1
			if j := lo + k + offset; j >= 0 && j < len(t1.Nodes) && t1.Nodes[j].ID == batch[k].ID {
				guess[k] = int32(j)
			} else {
				hs = append(hs, hash(string(batch[k].ID)))
			}
		}
		p1.node.touch(hs)
		for k := range batch {
			i, n2 := lo+k, &batch[k]
			fail := func(name, format string, args ...any) ([]int32, []bool, error) {
				return nil, nil, &Error{Table: t2.Name, Field: fmt.Sprintf("nodes[%d].%s", i, name), Msg: fmt.Sprintf(format, args...)}
			}
			j := guess[k]
			if j < 0 {
				j = find(&p1.node, nodes1, string(n2.ID), hs[0])
				hs = hs[1:]
			}
			if j < 0 {
				if j := find(&p1.url, urls1, n2.URL, hash(n2.URL)); j >= 0 {
					return fail("id", "URL %q is node %q here and node %q in table %q: a URL has one node id", n2.URL, n2.ID, t1.Nodes[j].ID, t1.Name)
				}
				in1[i] = -1
				continue
			}
			in1[i], offset = j, int(j)-i
			n1 := &t1.Nodes[j]
			same[i] = n1.Version == n2.Version
			switch {
			case n1.URL != n2.URL:
				return fail("url", "node %q has URL %q here and %q in table %q: a node id names one URL", n2.ID, n2.URL, n1.URL, t1.Name)
			case same[i] && !n1.Modified.Equal(n2.Modified):
				return fail("modified", "node %q version %q is dated %s here and %s in table %q: a version has one date", n2.ID, n2.Version, date(n2.Modified), date(n1.Modified), t1.Name)
			case !same[i] && !n1.Modified.IsZero() && n1.Modified.Equal(n2.Modified):
				return fail("version", "node %q is version %q here and %q in table %q with the same URL and date %s: identical nodes have one version id", n2.ID, n2.Version, n1.Version, t1.Name, date(n2.Modified))
			}
		}
	}
	return in1, same, nil
}

func date(t time.Time) string {
	if t.IsZero() {
		return "none"
	}
	return t.Format(time.RFC3339)
}
