package webtable

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchTables returns two polls of a synthetic drug site of n tuples, in
// which the fraction changed of the tuples changed. Each tuple is a start
// page a0, a category page (100 tuples a category), a drug page and its
// side-effects and uses pages, with the four links between them. A changed
// tuple has, in turn, its side-effects page modified, its drug page
// modified, its drug pages deleted, or a new tuple (new drug pages in an
// existing category) is added. The start and category pages stay the same:
// a changed page that k tuples share puts k² "category 3" pairs in ΔM
// (notes §4.2, §4.10), which measures the size of the answer, not the work.
//
// The tables are built one after the other, each at its final size, so
// that each lies in memory as a table decoded on its own would, rather than
// interleaved with the other.
func benchTables(n int, changed float64) (*Table, *Table) {
	r := rand.New(rand.NewPCG(uint64(n), 1))
	kind := make([]int, n) // 0 unchanged, 1-4 the changes
	c := int(float64(n) * changed)
	for j, i := range r.Perm(n)[:c] {
		kind[i] = 1 + j%4
	}
	cats := (n + 99) / 100
	one := [3]VersionID{"1", "1", "1"}
	build := func(name string, tuples int, fill func(tuple func(id string, cat, i int, ver [3]VersionID))) *Table {
		w := &Table{Name: name, Nodes: make([]Node, 0, 1+cats+3*tuples), Links: make([]Link, 0, 4*tuples), Tuples: make([]Tuple, 0, tuples)}
		node := func(id string, ver VersionID) { w.Nodes = append(w.Nodes, fixtureNode(NodeID(id), ver)) }
		node("a0", "1")
		for c := range cats {
			node("b"+strconv.Itoa(c), "1")
		}
		// tuple adds tuple id: category cat, drug pages numbered i.
		fill(func(id string, cat, i int, ver [3]VersionID) {
			num := strconv.Itoa(i)
			b, u, d, k := "b"+strconv.Itoa(cat), "u"+num, "d"+num, "k"+num
			node(u, ver[0])
			node(d, ver[1])
			node(k, ver[2])
			links := []Link{{"ab" + LinkID(u), "a0", NodeID(b), "", Local}, {"bu" + LinkID(u), NodeID(b), NodeID(u), "", Local},
				{"ud" + LinkID(u), NodeID(u), NodeID(d), "side effects", Local}, {"uk" + LinkID(u), NodeID(u), NodeID(k), "uses", Local}}
			w.Links = append(w.Links, links...)
			w.Tuples = append(w.Tuples, Tuple{ID: TupleID(id), Nodes: []NodeID{"a0", NodeID(b), NodeID(u), NodeID(d), NodeID(k)},
				Links: []LinkID{links[0].ID, links[1].ID, links[2].ID, links[3].ID}})
		})
		return w
	}
	w1 := build("Drugs", n, func(tuple func(string, int, int, [3]VersionID)) {
		for i := range n {
			tuple("t"+strconv.Itoa(i), i/100, i, one)
		}
	})
	tuples2 := n
	for _, k := range kind {
		switch k {
		case 3:
			tuples2--
		case 4:
			tuples2++
		}
	}
	w2 := build("New Drugs", tuples2, func(tuple func(string, int, int, [3]VersionID)) {
		added := n
		for i := range n {
			cat, id := i/100, "s"+strconv.Itoa(i)
			switch kind[i] {
			case 0:
				tuple(id, cat, i, one)
			case 1:
				tuple(id, cat, i, [3]VersionID{"1", "2", "1"})
			case 2:
				tuple(id, cat, i, [3]VersionID{"2", "1", "1"})
			case 3: // deleted
			case 4:
				tuple(id, cat, i, one)
				tuple("s"+strconv.Itoa(added), cat, added, one)
				added++
			}
		}
	})
	return w1, w2
}

var large = flag.Bool("large", false, "also benchmark tables of 1 000 000 tuples (go test ./webtable -bench . -large)")

// sizes are the table sizes of the benchmarks.
func sizes() []int {
	if *large {
		return []int{10_000, 100_000, 1_000_000}
	}
	return []int{10_000, 100_000}
}

func BenchmarkDiff(b *testing.B) {
	for _, n := range sizes() {
		for _, changed := range []float64{0.01, 0.10} {
			b.Run(fmt.Sprintf("tuples=%d/changed=%g%%", n, changed*100), func(b *testing.B) {
				w1, w2 := benchTables(n, changed)
				var d *Delta
				for b.Loop() {
					var err error
					if d, err = Diff(w1, w2, nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tuple")
				b.ReportMetric(float64(len(d.Plus.Tuples)), "Δ+")
				b.ReportMetric(float64(len(d.Minus.Tuples)), "Δ-")
				b.ReportMetric(float64(len(d.Mod.Tuples)), "ΔM")
			})
		}
	}
}

// BenchmarkDiffShuffled is BenchmarkDiff at 1 % changed on the same tables
// with their node and link pools in random order: Diff's predictors, which
// follow the order of a pool that lists the nodes and links of the tuples
// as they come, then never guess right, and every id is looked up at a
// random place in the pools.
func BenchmarkDiffShuffled(b *testing.B) {
	for _, n := range sizes() {
		b.Run(fmt.Sprintf("tuples=%d", n), func(b *testing.B) {
			w1, w2 := benchTables(n, 0.01)
			r := rand.New(rand.NewPCG(uint64(n), 2))
			shuffle(r, w1)
			shuffle(r, w2)
			for b.Loop() {
				if _, err := Diff(w1, w2, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tuple")
		})
	}
}

// BenchmarkValidate validates the two tables BenchmarkDiff compares: the
// part of Diff that builds the indexes of node, link and tuple ids.
func BenchmarkValidate(b *testing.B) {
	for _, n := range sizes() {
		b.Run(fmt.Sprintf("tuples=%d", n), func(b *testing.B) {
			w1, w2 := benchTables(n, 0.01)
			for b.Loop() {
				if w1.Validate() != nil || w2.Validate() != nil {
					b.Fatal("invalid")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tuple")
		})
	}
}

// BenchmarkMapBaseline is the cost of one Go map over the same data: every
// node id of both tables inserted, and every node of every tuple looked up.
// Diff's indexes are such maps; at these sizes their cost per entry grows
// with the size as they outgrow the caches, and Diff's with it.
func BenchmarkMapBaseline(b *testing.B) {
	for _, n := range sizes() {
		b.Run(fmt.Sprintf("tuples=%d", n), func(b *testing.B) {
			w1, w2 := benchTables(n, 0.01)
			for b.Loop() {
				m := make(map[NodeID]int32, len(w1.Nodes)+len(w2.Nodes))
				for _, w := range []*Table{w1, w2} {
					for i, nd := range w.Nodes {
						m[nd.ID] = int32(i)
					}
				}
				s := int32(0)
				for _, w := range []*Table{w1, w2} {
					for _, tu := range w.Tuples {
						for _, id := range tu.Nodes {
							s += m[id]
						}
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tuple")
		})
	}
}
