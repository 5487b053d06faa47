package webtable

import (
	"errors"
	"fmt"
	"math"
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
	node  map[NodeID]int32
	url   map[string]int32
	off   []int32
	nodes []int32
	loff  []int32
	links []int32
}

func (p *prepared) tuple(i int32) []int32 { return p.nodes[p.off[i]:p.off[i+1]] }

func (p *prepared) tupleLinks(i int32) []int32 { return p.links[p.loff[i]:p.loff[i+1]] }

// prepare validates t and indexes it.
func prepare(t *Table) (*prepared, error) {
	if t == nil {
		return nil, errors.New("webtable: nil table")
	}
	fail := func(tu TupleID, field, format string, args ...any) (*prepared, error) {
		return nil, &Error{Table: t.Name, Tuple: tu, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	total, links := 0, 0
	for _, tu := range t.Tuples {
		total += len(tu.Nodes)
		links += len(tu.Links)
	}
	for _, n := range []int{len(t.Nodes), len(t.Links), len(t.Tuples), total, links} {
		if n >= math.MaxInt32 {
			return fail("", "", "too large: more than %d entries", math.MaxInt32-1)
		}
	}
	p := &prepared{
		t:    t,
		node: make(map[NodeID]int32, len(t.Nodes)),
		url:  make(map[string]int32, len(t.Nodes)),
	}
	for i, n := range t.Nodes {
		f := func(name string) string { return fmt.Sprintf("nodes[%d].%s", i, name) }
		switch {
		case n.ID == "":
			return fail("", f("id"), "empty node id")
		case n.Version == "":
			return fail("", f("version"), "node %q: empty version id", n.ID)
		case n.URL == "":
			return fail("", f("url"), "node %q: empty URL", n.ID)
		}
		if j, dup := p.node[n.ID]; dup {
			return fail("", f("id"), "node %q is also nodes[%d]: the pool holds a node once", n.ID, j)
		}
		if j, dup := p.url[n.URL]; dup {
			return fail("", f("url"), "node %q has the URL %q of node %q (nodes[%d]): a URL has one node id", n.ID, n.URL, t.Nodes[j].ID, j)
		}
		p.node[n.ID] = int32(i)
		p.url[n.URL] = int32(i)
	}
	link := make(map[LinkID]int32, len(t.Links))
	from := make([]int32, len(t.Links))
	to := make([]int32, len(t.Links))
	for i, l := range t.Links {
		f := func(name string) string { return fmt.Sprintf("links[%d].%s", i, name) }
		if l.ID == "" {
			return fail("", f("id"), "empty link id")
		}
		if j, dup := link[l.ID]; dup {
			return fail("", f("id"), "link %q is also links[%d]: the pool holds a link once", l.ID, j)
		}
		var ok bool
		if from[i], ok = p.node[l.From]; !ok {
			return fail("", f("from"), "link %q: node %q is not in the node pool", l.ID, l.From)
		}
		if to[i], ok = p.node[l.To]; !ok {
			return fail("", f("to"), "link %q: node %q is not in the node pool", l.ID, l.To)
		}
		switch l.Type {
		case "", Interior, Local, Global:
		default:
			return fail("", f("type"), "link %q: unknown link type %q (want interior, local or global)", l.ID, l.Type)
		}
		link[l.ID] = int32(i)
	}
	p.off = make([]int32, 1, len(t.Tuples)+1)
	p.loff = make([]int32, 1, len(t.Tuples)+1)
	p.nodes = make([]int32, 0, total)
	seen := make(map[TupleID]int, len(t.Tuples))
	inTuple := make([]int32, len(t.Nodes)) // tuple index+1 that last named the node
	linkIn := make([]int32, len(t.Links))
	for i, tu := range t.Tuples {
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
		if j, dup := seen[tu.ID]; dup {
			return fail(tu.ID, field("id", -1), "tuple id also used by tuples[%d]", j)
		}
		seen[tu.ID] = i
		if len(tu.Nodes) == 0 {
			return fail(tu.ID, field("nodes", -1), "no nodes: a tuple has at least one")
		}
		for k, id := range tu.Nodes {
			pos, ok := p.node[id]
			if !ok {
				return fail(tu.ID, field("nodes", k), "node %q is not in the node pool", id)
			}
			if inTuple[pos] == stamp {
				return fail(tu.ID, field("nodes", k), "node %q is named twice", id)
			}
			inTuple[pos] = stamp
			p.nodes = append(p.nodes, pos)
		}
		for k, id := range tu.Links {
			pos, ok := link[id]
			switch {
			case !ok:
				return fail(tu.ID, field("links", k), "link %q is not in the link pool", id)
			case linkIn[pos] == stamp:
				return fail(tu.ID, field("links", k), "link %q is named twice", id)
			case inTuple[from[pos]] != stamp:
				return fail(tu.ID, field("links", k), "link %q leads from node %q, which is not in the tuple", id, t.Links[pos].From)
			case inTuple[to[pos]] != stamp:
				return fail(tu.ID, field("links", k), "link %q leads to node %q, which is not in the tuple", id, t.Links[pos].To)
			}
			linkIn[pos] = stamp
			p.links = append(p.links, pos)
		}
		p.off = append(p.off, int32(len(p.nodes)))
		p.loff = append(p.loff, int32(len(p.links)))
	}
	return p, nil
}

// checkPair reports a node that the two tables identify differently: a node
// id with two URLs, a URL with two node ids, one version with two dates, or
// two versions of one (URL, date). It returns, for each node of p2's pool,
// its position in p1's pool, or -1.
func checkPair(p1, p2 *prepared) ([]int32, error) {
	t1, t2 := p1.t, p2.t
	in1 := make([]int32, len(t2.Nodes))
	for i, n2 := range t2.Nodes {
		fail := func(name, format string, args ...any) ([]int32, error) {
			return nil, &Error{Table: t2.Name, Field: fmt.Sprintf("nodes[%d].%s", i, name), Msg: fmt.Sprintf(format, args...)}
		}
		j, ok := p1.node[n2.ID]
		if !ok {
			if j, ok := p1.url[n2.URL]; ok {
				return fail("id", "URL %q is node %q here and node %q in table %q: a URL has one node id", n2.URL, n2.ID, t1.Nodes[j].ID, t1.Name)
			}
			in1[i] = -1
			continue
		}
		in1[i] = j
		n1 := t1.Nodes[j]
		switch {
		case n1.URL != n2.URL:
			return fail("url", "node %q has URL %q here and %q in table %q: a node id names one URL", n2.ID, n2.URL, n1.URL, t1.Name)
		case n1.Version == n2.Version && !n1.Modified.Equal(n2.Modified):
			return fail("modified", "node %q version %q is dated %s here and %s in table %q: a version has one date", n2.ID, n2.Version, date(n2.Modified), date(n1.Modified), t1.Name)
		case n1.Version != n2.Version && !n1.Modified.IsZero() && n1.Modified.Equal(n2.Modified):
			return fail("version", "node %q is version %q here and %q in table %q with the same URL and date %s: identical nodes have one version id", n2.ID, n2.Version, n1.Version, t1.Name, date(n2.Modified))
		}
	}
	return in1, nil
}

func date(t time.Time) string {
	if t.IsZero() {
		return "none"
	}
	return t.Format(time.RFC3339)
}
