package webtable

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"
)

// prepare runs prepareFast and falls back on prepareOrdered when that finds
// a fault. The two must agree on every table: prepareFast accepts exactly
// the tables prepareOrdered accepts, and indexes them alike.
func TestPrepareFastAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	check := func(w *Table, what string) {
		t.Helper()
		total, links := 0, 0
		for _, tu := range w.Tuples {
			total += len(tu.Nodes)
			links += len(tu.Links)
		}
		want, werr := prepareOrdered(w, total, links)
		fast := prepareFast(w, total, links)
		if (fast == nil) != (werr != nil) {
			t.Fatalf("%s: prepareFast %v, prepareOrdered %v\n%s", what, fast != nil, werr, tableText(w))
		}
		got, err := prepare(w)
		if !reflect.DeepEqual(err, werr) {
			t.Fatalf("%s: prepare: %v, want %v\n%s", what, err, werr, tableText(w))
		}
		if err != nil {
			return
		}
		for _, c := range []struct {
			name      string
			got, want []int32
		}{{"off", got.off, want.off}, {"nodes", got.nodes, want.nodes}, {"loff", got.loff, want.loff}, {"links", got.links, want.links}} {
			if !slices.Equal(c.got, c.want) {
				t.Fatalf("%s: %s %v, want %v\n%s", what, c.name, c.got, c.want, tableText(w))
			}
		}
		for i, n := range w.Nodes {
			byID := find(&got.node, nodeIDPool(w.Nodes), string(n.ID), hash(string(n.ID)))
			byURL := find(&got.url, nodeURLPool{w.Nodes}, n.URL, hash(n.URL))
			if byID != int32(i) || byURL != int32(i) {
				t.Fatalf("%s: node %s found at %d by id and %d by URL, want %d", what, n.ID, byID, byURL, i)
			}
		}
	}
	for i := range 3000 {
		var w *Table
		switch i % 4 {
		case 0:
			w, _ = randomTables(r)
		case 1:
			_, w = webTables(r)
		case 2:
			w, _ = benchTables(1+r.IntN(300), 0.2)
		case 3:
			w = wideTable(r)
		}
		if r.IntN(2) == 0 {
			shuffle(r, w)
		}
		check(w, "valid")
		if m := mutate(r, w); m != "" {
			check(w, m)
		}
	}
}

// wideTable returns a table whose tuples have many nodes and links (more
// than the predictor follows, and than column scans), in varying shapes.
func wideTable(r *rand.Rand) *Table {
	w := &Table{Name: "wide"}
	n := 5 + r.IntN(60)
	for i := range n {
		w.Nodes = append(w.Nodes, fixtureNode(NodeID("n"+strconv.Itoa(i)), "1"))
	}
	for i := range 1 + r.IntN(8) {
		nodes := r.Perm(n)[:1+r.IntN(n)]
		tu := Tuple{ID: TupleID("t" + strconv.Itoa(i))}
		for _, p := range nodes {
			tu.Nodes = append(tu.Nodes, w.Nodes[p].ID)
		}
		for k := 1; k < len(nodes); k++ {
			if r.IntN(3) > 0 {
				l := Link{ID: LinkID(fmt.Sprintf("l%d.%d", i, k)), From: tu.Nodes[r.IntN(k)], To: tu.Nodes[k], Type: Local}
				w.Links = append(w.Links, l)
				tu.Links = append(tu.Links, l.ID)
			}
		}
		w.Tuples = append(w.Tuples, tu)
	}
	// A link no tuple holds.
	if r.IntN(2) == 0 {
		w.Links = append(w.Links, Link{ID: "spare", From: w.Nodes[0].ID, To: w.Nodes[n-1].ID})
	}
	return w
}

// shuffle puts the pools of w in a random order, which defeats the
// predictors of prepareFast and checkPair.
func shuffle(r *rand.Rand, w *Table) {
	r.Shuffle(len(w.Nodes), func(i, j int) { w.Nodes[i], w.Nodes[j] = w.Nodes[j], w.Nodes[i] })
	r.Shuffle(len(w.Links), func(i, j int) { w.Links[i], w.Links[j] = w.Links[j], w.Links[i] })
}

// mutate makes, perhaps, one fault in w (or a change that is no fault) and
// names it; it returns "" if w has nothing to change.
func mutate(r *rand.Rand, w *Table) string {
	pickTuple := func() *Tuple {
		if len(w.Tuples) == 0 {
			return nil
		}
		return &w.Tuples[r.IntN(len(w.Tuples))]
	}
	pickNode := func() NodeID {
		if len(w.Nodes) == 0 || r.IntN(8) == 0 {
			return "nowhere"
		}
		return w.Nodes[r.IntN(len(w.Nodes))].ID
	}
	switch r.IntN(17) {
	case 0:
		if len(w.Nodes) > 1 {
			w.Nodes[r.IntN(len(w.Nodes))].ID = w.Nodes[r.IntN(len(w.Nodes))].ID
			return "node id"
		}
	case 1:
		if len(w.Nodes) > 1 {
			w.Nodes[r.IntN(len(w.Nodes))].URL = w.Nodes[r.IntN(len(w.Nodes))].URL
			return "URL"
		}
	case 2:
		if len(w.Nodes) > 0 {
			n := &w.Nodes[r.IntN(len(w.Nodes))]
			switch r.IntN(3) {
			case 0:
				n.ID = ""
			case 1:
				n.Version = ""
			case 2:
				n.URL = ""
			}
			return "empty node field"
		}
	case 3:
		if len(w.Links) > 1 {
			w.Links[r.IntN(len(w.Links))].ID = w.Links[r.IntN(len(w.Links))].ID
			return "link id"
		}
	case 4:
		if len(w.Links) > 0 {
			l := &w.Links[r.IntN(len(w.Links))]
			if r.IntN(2) == 0 {
				l.From = pickNode()
			} else {
				l.To = pickNode()
			}
			return "link end"
		}
	case 5:
		if len(w.Links) > 0 {
			w.Links[r.IntN(len(w.Links))].Type = LinkType([]string{"", "interior", "global", "external"}[r.IntN(4)])
			return "link type"
		}
	case 6:
		if len(w.Links) > 0 {
			w.Links[r.IntN(len(w.Links))].ID = ""
			return "empty link id"
		}
	case 7:
		if tu := pickTuple(); tu != nil {
			tu.ID = []TupleID{"", w.Tuples[0].ID, "fresh"}[r.IntN(3)]
			return "tuple id"
		}
	case 8:
		if tu := pickTuple(); tu != nil {
			tu.Nodes = nil
			return "no nodes"
		}
	case 9:
		if tu := pickTuple(); tu != nil {
			tu.Nodes = slices.Clone(tu.Nodes)
			tu.Nodes[r.IntN(len(tu.Nodes))] = pickNode()
			return "tuple node"
		}
	case 10:
		if tu := pickTuple(); tu != nil && len(w.Links) > 0 {
			tu.Links = append(slices.Clone(tu.Links), w.Links[r.IntN(len(w.Links))].ID)
			return "tuple link"
		}
	case 11:
		if tu := pickTuple(); tu != nil && len(tu.Links) > 0 {
			tu.Links = slices.Clone(tu.Links)
			tu.Links[r.IntN(len(tu.Links))] = "nowhere"
			return "unknown link"
		}
	case 12:
		if tu := pickTuple(); tu != nil && len(tu.Links) > 0 {
			tu.Links = append(slices.Clone(tu.Links), tu.Links[0])
			return "link twice"
		}
	case 13:
		if tu := pickTuple(); tu != nil && len(tu.Nodes) > 1 {
			tu.Nodes = slices.Clone(tu.Nodes)
			k := r.IntN(len(tu.Nodes))
			tu.Nodes = slices.Delete(tu.Nodes, k, k+1)
			return "node left out"
		}
	case 14:
		if tu := pickTuple(); tu != nil && len(tu.Nodes) > 1 {
			tu.Nodes = slices.Clone(tu.Nodes)
			tu.Nodes[len(tu.Nodes)-1] = tu.Nodes[0]
			return "node twice"
		}
	case 15:
		if tu := pickTuple(); tu != nil {
			tu.Nodes = slices.Clone(tu.Nodes)
			r.Shuffle(len(tu.Nodes), func(i, j int) { tu.Nodes[i], tu.Nodes[j] = tu.Nodes[j], tu.Nodes[i] })
			return "nodes reordered"
		}
	case 16:
		w.Links = append(w.Links, Link{ID: "unused", From: pickNode(), To: pickNode()})
		return "link no tuple holds"
	}
	return ""
}

// Diff gives the reference's answer whatever the order of the pools, which
// prepareFast and checkPair use only to guess positions.
func TestShuffledPools(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for range 300 {
		w1, w2 := randomTables(r)
		if r.IntN(2) == 0 {
			w1, w2 = webTables(r)
		}
		shuffle(r, w1)
		shuffle(r, w2)
		for _, opt := range allOptions {
			if !sameAsReference(t, w1, w2, opt) {
				t.Fatalf("%+v\n%s\n%s", opt, tableText(w1), tableText(w2))
			}
		}
	}
	w1, w2 := benchTables(2000, 0.1)
	d, err := Diff(w1, w2, nil)
	if err != nil {
		t.Fatal(err)
	}
	shuffle(r, w1)
	shuffle(r, w2)
	e, err := Diff(w1, w2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Added, e.Added) || !slices.Equal(d.Deleted, e.Deleted) || !slices.Equal(d.Modified, e.Modified) ||
		!reflect.DeepEqual(d.Mod.Tuples, e.Mod.Tuples) || !reflect.DeepEqual(d.Plus.Tuples, e.Plus.Tuples) || !reflect.DeepEqual(d.Minus.Tuples, e.Minus.Tuples) {
		t.Fatal("Diff of the benchmark tables depends on the order of their pools")
	}
}

// newPair prepares the newer table with prepareAgainst, and falls back on
// prepare and checkPair when that finds a fault. prepareAgainst must accept
// exactly the pairs those accept, and give the same positions.
func TestPrepareAgainstAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	accepted := 0
	for i := range 4000 {
		var w1, w2 *Table
		switch i % 3 {
		case 0:
			w1, w2 = randomTables(r)
		case 1:
			w1, w2 = webTables(r)
		case 2:
			w1, w2 = benchTables(1+r.IntN(300), 0.2)
		}
		if r.IntN(3) == 0 {
			shuffle(r, w2)
		}
		if r.IntN(2) == 0 {
			mutate(r, w2)
		}
		if r.IntN(3) == 0 {
			disagree(r, w1, w2)
		}
		p1, err := prepare(w1)
		if err != nil {
			continue
		}
		total, links, _ := counts(w2)
		got, gin1, gsame := prepareAgainst(w2, p1, total, links)
		want, err := prepare(w2)
		var win1 []int32
		var wsame []bool
		if err == nil {
			win1, wsame, err = checkPair(p1, want)
		}
		if (got != nil) != (err == nil) {
			t.Fatalf("prepareAgainst %v, prepare and checkPair: %v\n%s\n%s", got != nil, err, tableText(w1), tableText(w2))
		}
		if got == nil {
			continue
		}
		accepted++
		if !slices.Equal(gin1, win1) || !slices.Equal(gsame, wsame) ||
			!slices.Equal(got.off, want.off) || !slices.Equal(got.nodes, want.nodes) ||
			!slices.Equal(got.loff, want.loff) || !slices.Equal(got.links, want.links) {
			t.Fatalf("prepareAgainst differs from prepare and checkPair\n%s\n%s", tableText(w1), tableText(w2))
		}
	}
	if accepted < 1000 {
		t.Errorf("only %d pairs without fault", accepted)
	}
}

// disagree makes, perhaps, the two tables identify a node differently.
func disagree(r *rand.Rand, w1, w2 *Table) {
	if len(w1.Nodes) == 0 || len(w2.Nodes) == 0 {
		return
	}
	n1, n2 := &w1.Nodes[r.IntN(len(w1.Nodes))], &w2.Nodes[r.IntN(len(w2.Nodes))]
	switch r.IntN(5) {
	case 0: // a node id with two URLs, or one node where there were two
		n2.ID = n1.ID
	case 1: // a URL with two node ids, or none
		n2.URL = n1.URL
	case 2: // one version with two dates
		n2.ID, n2.URL, n2.Version = n1.ID, n1.URL, n1.Version
		n2.Modified = n1.Modified.AddDate(0, 0, 1)
	case 3: // two versions of one (URL, date)
		n2.ID, n2.URL, n2.Version, n2.Modified = n1.ID, n1.URL, n1.Version+"'", n1.Modified
	case 4: // a node without a date
		n2.Modified = time.Time{}
	}
}
