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
// positions in the node and link pools, row i at off[i]:off[i+1]. The
// indexes of a table prepared against an older one (prepareAgainst) hold
// only the nodes and links the older table does not.
type prepared struct {
	t     *Table
	node  index // node id → position in t.Nodes
	url   index // URL → position in t.Nodes
	link  index // link id → position in t.Links
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
	total, links, err := counts(t)
	if err != nil {
		return nil, err
	}
	if p := prepareFast(t, total, links); p != nil {
		return p, nil
	}
	return prepareOrdered(t, total, links)
}

// counts returns the number of nodes and of links the tuples of t name,
// or an error if t is nil or too large to index with int32.
func counts(t *Table) (total, links int, err error) {
	if t == nil {
		return 0, 0, errors.New("webtable: nil table")
	}
	for i := range t.Tuples {
		total += len(t.Tuples[i].Nodes)
		links += len(t.Tuples[i].Links)
	}
	for _, n := range []int{len(t.Nodes), len(t.Links), len(t.Tuples), total, links} {
		if n >= math.MaxInt32 {
			return 0, 0, &Error{Table: t.Name, Msg: fmt.Sprintf("too large: more than %d entries", math.MaxInt32-1)}
		}
	}
	return total, links, nil
}

// predictor guesses the position in a pool of the id in one column of a
// tuple (its k-th node, or its k-th link) from the positions in the same
// column of the tuples before: the tuples of a table come from one query
// and have one shape, and a pool that lists the nodes and links of the
// tuples in their order puts them at a fixed stride. It guesses only while
// the stride holds, so that a pool in another order costs no wrong guesses
// (each of which would be a cache miss). A guess is checked against the
// pool, so a wrong one never changes the outcome.
type predictor struct {
	prev, stride [predictedColumns]int32
	sure         [predictedColumns]bool // the last position found was prev+stride
}

const predictedColumns = 16

// guess returns the guessed position in column k, or -1.
func (c *predictor) guess(k int) int32 {
	if !c.guesses(k) {
		return -1
	}
	return c.prev[k] + c.stride[k]
}

// guesses reports whether the predictor makes a guess for column k.
func (c *predictor) guesses(k int) bool { return k < predictedColumns && c.sure[k] }

// saw records the position found in column k.
func (c *predictor) saw(k int, pos int32) {
	if k < predictedColumns {
		c.sure[k] = pos == c.prev[k]+c.stride[k]
		c.stride[k], c.prev[k] = pos-c.prev[k], pos
	}
}

// prepareFast is prepare for a valid table. It returns nil if t has a
// fault, without saying which.
//
// The ids of the pools are hashed and their slots loaded a batch at a time
// ahead of the insertions (see index.touch); then tuples checks the tuples.
func prepareFast(t *Table, total, links int) *prepared {
	nodes, urls := nodeIDPool(t.Nodes), nodeURLPool{t.Nodes}
	p := &prepared{t: t, node: newIndex(len(t.Nodes), len(t.Nodes)), url: newIndex(len(t.Nodes), len(t.Nodes)), link: newIndex(len(t.Links), len(t.Links))}
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
	for lo := 0; lo < len(t.Links); lo += batchSize {
		batch := t.Links[lo:min(lo+batchSize, len(t.Links))]
		hl := hs[:len(batch)]
		for k := range batch {
			hl[k] = hash(string(batch[k].ID))
		}
		p.link.touch(hl)
		for k := range batch {
			l := &batch[k]
			if l.ID == "" || !knownType(l.Type) || add(&p.link, lpool, string(l.ID), hl[k], int32(lo+k)) >= 0 {
				return nil
			}
		}
	}
	if !p.tuples(total, links, &finder{p: p}) {
		return nil
	}
	return p
}

func knownType(t LinkType) bool {
	switch t {
	case "", Interior, Local, Global:
		return true
	}
	return false
}

// prepareAgainst is prepareFast for the newer table t of a pair whose
// older table is p1, with the work of checkPair done at the same time; it
// returns nil if t has a fault or the two tables identify a node
// differently, and newPair then runs prepare and checkPair.
//
// Two polls of one query share most of their nodes and links, and a node or
// link of t that p1's pool holds is found there (at the position the one
// before suggests, or through p1's index) instead of being hashed and
// indexed again. The ids of t are then unique when no two of its nodes (or
// links) find the same one in p1 and those that find none, which alone go
// in t's own indexes, are unique among themselves. So are its URLs: a node
// found in p1 has p1's URL (or the tables disagree), and one not found must
// have a URL p1 does not hold (or they disagree).
func prepareAgainst(t *Table, p1 *prepared, total, links int) (p *prepared, in1 []int32, same []bool) {
	t1 := p1.t
	nodes1, urls1, lpool1 := nodeIDPool(t1.Nodes), nodeURLPool{t1.Nodes}, linkIDPool(t1.Links)
	nodes, urls, lpool := nodeIDPool(t.Nodes), nodeURLPool{t.Nodes}, linkIDPool(t.Links)
	in1 = make([]int32, len(t.Nodes))
	same = make([]bool, len(t.Nodes))
	of := make([]int32, len(t1.Nodes)) // position+1 in t of each node of p1, or 0
	var only []int32                   // positions in t of the nodes p1 does not hold
	offset := 0                        // position in p1 minus position in t of the last node found
	var miss [batchSize]uint64         // hashes of the ids guessed wrong
	for lo := 0; lo < len(t.Nodes); lo += batchSize {
		batch := t.Nodes[lo:min(lo+batchSize, len(t.Nodes))]
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
			if n2.ID == "" || n2.Version == "" || n2.URL == "" {
				return nil, nil, nil
			}
			j := guess[k]
			if j < 0 {
				j = find(&p1.node, nodes1, string(n2.ID), hs[0])
				hs = hs[1:]
			}
			if j < 0 {
				in1[i] = -1
				only = append(only, int32(i))
				continue
			}
			if of[j] != 0 {
				return nil, nil, nil // two nodes of t with one id
			}
			of[j] = int32(i + 1)
			in1[i], offset = j, int(j)-i
			n1 := &t1.Nodes[j]
			same[i] = n1.Version == n2.Version
			if n1.URL != n2.URL || same[i] && !n1.Modified.Equal(n2.Modified) || !same[i] && !n1.Modified.IsZero() && n1.Modified.Equal(n2.Modified) {
				return nil, nil, nil
			}
		}
	}
	p = &prepared{t: t, node: newIndex(len(only), len(t.Nodes)), url: newIndex(len(only), len(t.Nodes))}
	for _, i := range only {
		n := &t.Nodes[i]
		hu := hash(n.URL)
		if add(&p.node, nodes, string(n.ID), hash(string(n.ID)), i) >= 0 || add(&p.url, urls, n.URL, hu, i) >= 0 || find(&p1.url, urls1, n.URL, hu) >= 0 {
			return nil, nil, nil
		}
	}
	lof := make([]int32, len(t1.Links)) // position+1 in t of each link of p1, or 0
	var lonly []int32
	offset = 0
	for lo := 0; lo < len(t.Links); lo += batchSize {
		batch := t.Links[lo:min(lo+batchSize, len(t.Links))]
		var guess [batchSize]int32
		hs := miss[:0]
		for k := range batch {
			guess[k] = -1
			if j := lo + k + offset; j >= 0 && j < len(t1.Links) && t1.Links[j].ID == batch[k].ID {
				guess[k] = int32(j)
			} else {
				hs = append(hs, hash(string(batch[k].ID)))
			}
		}
		p1.link.touch(hs)
		for k := range batch {
			i, l := lo+k, &batch[k]
			if l.ID == "" || !knownType(l.Type) {
				return nil, nil, nil
			}
			j := guess[k]
			if j < 0 {
				j = find(&p1.link, lpool1, string(l.ID), hs[0])
				hs = hs[1:]
			}
			if j < 0 {
				lonly = append(lonly, int32(i))
				continue
			}
			if lof[j] != 0 {
				return nil, nil, nil
			}
			lof[j], offset = int32(i+1), int(j)-i
		}
	}
	p.link = newIndex(len(lonly), len(t.Links))
	for _, i := range lonly {
		if id := t.Links[i].ID; add(&p.link, lpool, string(id), hash(string(id)), i) >= 0 {
			return nil, nil, nil
		}
	}
	if !p.tuples(total, links, &finder{p: p, older: p1, nodeOf: of, linkOf: lof}) {
		return nil, nil, nil
	}
	return p, in1, same
}

// finder looks up the ids of p's pools in p's indexes, or, for a table
// prepared against an older one (prepareAgainst), first in the older
// table's: nodeOf and linkOf give the position+1 in p of each of its nodes
// and links, 0 for none, and p's indexes hold the others.
type finder struct {
	p              *prepared
	older          *prepared
	nodeOf, linkOf []int32
}

// touchNodes and touchLinks load the first slots of the look-ups of the
// ids with hashes hs (see index.touch).
func (f *finder) touchNodes(hs []uint64) {
	if f.older != nil {
		f.older.node.touch(hs)
	} else {
		f.p.node.touch(hs)
	}
}

func (f *finder) touchLinks(hs []uint64) {
	if f.older != nil {
		f.older.link.touch(hs)
	} else {
		f.p.link.touch(hs)
	}
}

// warmNodes and warmLinks load, for each hash of hs, the first byte of the
// id in the pool at the first position the index suggests, once the slots
// are loaded: when the predictors miss, the ids are at random places in
// the pool, and these loads overlap where the look-ups' would not.
func (f *finder) warmNodes(hs []uint64) byte {
	if f.older != nil {
		return warm(&f.older.node, nodeIDPool(f.older.t.Nodes), hs)
	}
	return warm(&f.p.node, nodeIDPool(f.p.t.Nodes), hs)
}

func (f *finder) warmLinks(hs []uint64) byte {
	if f.older != nil {
		return warm(&f.older.link, linkIDPool(f.older.t.Links), hs)
	}
	return warm(&f.p.link, linkIDPool(f.p.t.Links), hs)
}

// node returns the position of node id, whose hash is h, or -1.
func (f *finder) node(id NodeID, h uint64) int32 {
	if f.older != nil {
		if j := find(&f.older.node, nodeIDPool(f.older.t.Nodes), string(id), h); j >= 0 {
			return f.nodeOf[j] - 1
		}
	}
	return find(&f.p.node, nodeIDPool(f.p.t.Nodes), string(id), h)
}

// link returns the position of link id, whose hash is h, or -1.
func (f *finder) link(id LinkID, h uint64) int32 {
	if f.older != nil {
		if j := find(&f.older.link, linkIDPool(f.older.t.Links), string(id), h); j >= 0 {
			return f.linkOf[j] - 1
		}
	}
	return find(&f.p.link, linkIDPool(f.p.t.Links), string(id), h)
}

// tuples is the part of prepareFast that checks the tuples and stores them
// as positions, finding ids with f. It reports whether the tuples are
// without fault.
//
// The nodes and links of a tuple are found by a predictor, and by f when it
// misses; the ends of the links a tuple holds are found among the nodes of
// the tuple, and only those of links no tuple holds are looked for in the
// pool. The tuples are taken a batch at a time: their ids are hashed, and
// so are the nodes and links of the columns where the predictors make no
// guess, and the slots of all are loaded before the checks.
func (p *prepared) tuples(total, links int, f *finder) bool {
	t := p.t
	p.off = make([]int32, len(t.Tuples)+1)
	p.loff = make([]int32, len(t.Tuples)+1)
	p.nodes = make([]int32, 0, total)
	p.links = make([]int32, 0, links)
	tpool := tupleIDPool(t.Tuples)
	seen := newIndex(len(t.Tuples), len(t.Tuples))
	inTuple := make([]int32, len(t.Nodes)) // tuple index+1 that last named the node
	linkIn := make([]int32, len(t.Links))  // tuple index+1 that last named the link, 0 for none
	var nodeCol, linkCol predictor
	var endCol [predictedColumns][2]int // where the ends of the k-th link were in the tuple before
	var ht []uint64                     // hashes of the batch's tuple ids
	var hn, hl []uint64                 // hashes of its node and link ids, 0 for those guessed right
	var miss []uint64
	for lo := 0; lo < len(t.Tuples); lo += batchSize {
		batch := t.Tuples[lo:min(lo+batchSize, len(t.Tuples))]
		ht, hn, hl, miss = ht[:0], hn[:0], hl[:0], miss[:0]
		for b := range batch {
			tu := &batch[b]
			ht = append(ht, hash(string(tu.ID)))
			for k, id := range tu.Nodes {
				h := uint64(0)
				if !nodeCol.guesses(k) {
					h = hash(string(id))
					miss = append(miss, h)
				}
				hn = append(hn, h)
			}
		}
		seen.touch(ht)
		f.touchNodes(miss)
		seen.sink += uint32(f.warmNodes(miss))
		miss = miss[:0]
		for b := range batch {
			for k, id := range batch[b].Links {
				h := uint64(0)
				if !linkCol.guesses(k) {
					h = hash(string(id))
					miss = append(miss, h)
				}
				hl = append(hl, h)
			}
		}
		f.touchLinks(miss)
		seen.sink += uint32(f.warmLinks(miss))
		hn, hl := hn, hl // consumed tuple by tuple
		for b := range batch {
			i, tu := lo+b, &batch[b]
			if tu.ID == "" || len(tu.Nodes) == 0 || add(&seen, tpool, string(tu.ID), ht[b], int32(i)) >= 0 {
				return false
			}
			stamp := int32(i + 1)
			for k, id := range tu.Nodes {
				pos := nodeCol.guess(k)
				if pos < 0 || int(pos) >= len(t.Nodes) || t.Nodes[pos].ID != id {
					h := hn[k]
					if h == 0 {
						h = hash(string(id))
					}
					if pos = f.node(id, h); pos < 0 {
						return false
					}
				}
				nodeCol.saw(k, pos)
				if inTuple[pos] == stamp {
					return false
				}
				inTuple[pos] = stamp
				p.nodes = append(p.nodes, pos)
			}
			hn = hn[len(tu.Nodes):]
			for k, id := range tu.Links {
				pos := linkCol.guess(k)
				if pos < 0 || int(pos) >= len(t.Links) || t.Links[pos].ID != id {
					h := hl[k]
					if h == 0 {
						h = hash(string(id))
					}
					if pos = f.link(id, h); pos < 0 {
						return false
					}
				}
				linkCol.saw(k, pos)
				if linkIn[pos] == stamp {
					return false
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
								return false
							}
							endCol[k][e] = c
							continue
						}
					}
					if pos := f.node(end, hash(string(end))); pos < 0 || inTuple[pos] != stamp {
						return false
					}
				}
			}
			hl = hl[len(tu.Links):]
			p.off[i+1] = int32(len(p.nodes))
			p.loff[i+1] = int32(len(p.links))
		}
	}
	// The ends of the links no tuple holds must be in the node pool.
	for i := range t.Links {
		l := &t.Links[i]
		if linkIn[i] == 0 && (f.node(l.From, hash(string(l.From))) < 0 || f.node(l.To, hash(string(l.To))) < 0) {
			return false
		}
	}
	return true
}

// prepareOrdered is prepare, with every check in the order of the fields.
func prepareOrdered(t *Table, total, links int) (*prepared, error) {
	fail := func(tu TupleID, field, format string, args ...any) (*prepared, error) {
		return nil, &Error{Table: t.Name, Tuple: tu, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	nodes, urls := nodeIDPool(t.Nodes), nodeURLPool{t.Nodes}
	p := &prepared{t: t, node: newIndex(len(t.Nodes), len(t.Nodes)), url: newIndex(len(t.Nodes), len(t.Nodes))}
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
	p.link = newIndex(len(t.Links), len(t.Links))
	link := &p.link
	ends := make([]int32, 2*len(t.Links)) // from and to of link i at 2i and 2i+1
	for i := range t.Links {
		l := &t.Links[i]
		f := func(name string) string { return fmt.Sprintf("links[%d].%s", i, name) }
		if l.ID == "" {
			return fail("", f("id"), "empty link id")
		}
		if j := add(link, lpool, string(l.ID), hash(string(l.ID)), int32(i)); j >= 0 {
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
	seen := newIndex(len(t.Tuples), len(t.Tuples))
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
			pos := find(link, lpool, string(id), hash(string(id)))
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
