package webtable_test

import (
	"fmt"
	"time"

	"github.com/vigil-web/vigil/webtable"
)

// poll returns a table of the site's drug pages; a page listed with a
// trailing ' is its version of 15 Feb 2001, the others of 15 Jan.
func poll(name string, tuples map[string][]string) *webtable.Table {
	w := &webtable.Table{Name: name}
	seen := map[string]bool{}
	for _, id := range []string{"t1", "t2", "t3", "s1", "s2", "s3"} {
		pages, ok := tuples[id]
		if !ok {
			continue
		}
		tu := webtable.Tuple{ID: webtable.TupleID(id)}
		for _, p := range pages {
			version, date := "1", time.Date(2001, 1, 15, 0, 0, 0, 0, time.UTC)
			if p[len(p)-1] == '\'' {
				p, version, date = p[:len(p)-1], "2", date.AddDate(0, 1, 0)
			}
			tu.Nodes = append(tu.Nodes, webtable.NodeID(p))
			if !seen[p] {
				seen[p] = true
				w.Nodes = append(w.Nodes, webtable.Node{ID: webtable.NodeID(p), Version: webtable.VersionID(version),
					URL: "http://www.panacea.gov/" + p, Modified: date})
			}
		}
		w.Tuples = append(w.Tuples, tu)
	}
	return w
}

// Two polls of a query for drugs with their side-effects and uses pages: the
// start page a0 changed, the Hirudin pages changed, Niacin's side-effects
// page d7 appeared (so Niacin now matches), and the drug on page u4 left.
func Example() {
	old := poll("Drugs", map[string][]string{
		"t1": {"a0", "b0", "u0", "d0", "k0"},
		"t2": {"a0", "b2", "u2", "d3", "k3"},
		"t3": {"a0", "b2", "u4", "d5", "k6"},
	})
	cur := poll("New Drugs", map[string][]string{
		"s1": {"a0'", "b0", "u0", "d0", "k0"},
		"s2": {"a0'", "b2", "u2'", "d3'", "k3'"},
		"s3": {"a0'", "b2", "u3", "d7", "k4"},
	})
	d, err := webtable.Diff(old, cur, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("added:", d.Added, "deleted:", d.Deleted, "modified:", d.Modified)
	for _, t := range d.Plus.Tuples {
		fmt.Println("Δ+", t.ID, t.Nodes)
	}
	for _, t := range d.Minus.Tuples {
		fmt.Println("Δ-", t.ID, t.Nodes)
	}
	for _, m := range d.Mod.Tuples {
		fmt.Printf("ΔM %s⋈%s (%v):", m.Old, m.New, m.Origin)
		for _, t := range []struct {
			w  *webtable.Table
			id webtable.TupleID
		}{{d.Mod.Old, m.Old}, {d.Mod.New, m.New}} {
			for _, tu := range t.w.Tuples {
				if tu.ID != t.id {
					continue
				}
				for _, n := range tu.Nodes {
					switch d.Change(n) {
					case webtable.Modified:
						fmt.Printf(" %s@%s", n, t.id)
					case webtable.Unchanged:
						if t.w == d.Mod.Old {
							fmt.Printf(" %s", n)
						}
					default:
						fmt.Printf(" %s(%v)", n, d.Change(n))
					}
				}
			}
		}
		fmt.Println()
	}
	// Output:
	// added: [d7 k4 u3] deleted: [d5 k6 u4] modified: [a0 d3 k3 u2]
	// Δ+ s3 [a0 b2 u3 d7 k4]
	// Δ- t3 [a0 b2 u4 d5 k6]
	// ΔM t1⋈s1 (join): a0@t1 b0 u0 d0 k0 a0@s1
	// ΔM t2⋈s2 (join): a0@t2 b2 u2@t2 d3@t2 k3@t2 a0@s2 u2@s2 d3@s2 k3@s2
}

// The web join pairs the tuples that share an unchanged page; here every
// pair shares b2.
func ExampleJoin() {
	old := poll("Drugs", map[string][]string{"t1": {"a0", "b2", "u2"}, "t2": {"a0", "b2", "u4"}})
	cur := poll("New Drugs", map[string][]string{"s1": {"a0'", "b2", "u2'"}, "s2": {"a0'", "b2", "u3"}})
	pairs, err := webtable.Join(old, cur)
	if err != nil {
		fmt.Println(err)
		return
	}
	for p := range pairs {
		fmt.Println(p.Old, "⋈", p.New)
	}
	// Output:
	// t1 ⋈ s1
	// t1 ⋈ s2
	// t2 ⋈ s1
	// t2 ⋈ s2
}
