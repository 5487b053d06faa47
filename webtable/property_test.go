package webtable

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// allOptions are the eight combinations of the optional repairs.
var allOptions = func() []Options {
	var out []Options
	for i := range 8 {
		out = append(out, Options{Strict: i&1 != 0, Cover: i&2 != 0, Complete: i&4 != 0})
	}
	return out
}()

// randomTables returns two small tables over a few node ids, each id in
// the old table, the new one or both, with the same version or not; the
// tuples are random sets of them. Small universes make every branch of
// Algorithm Delta likely: shared hubs, dangling tuples of every category,
// nodes consumed early (F7) and updates no joined tuple shows (F6).
func randomTables(r *rand.Rand) (*Table, *Table) {
	k := 1 + r.IntN(9)
	w1 := &Table{Name: "old", Nodes: []Node{}}
	w2 := &Table{Name: "new", Nodes: []Node{}}
	var ids1, ids2 []NodeID
	for i := range k {
		id := NodeID(fmt.Sprintf("n%d", i))
		switch x := r.IntN(10); {
		case x < 4: // unchanged
			w1.Nodes = append(w1.Nodes, fixtureNode(id, "1"))
			w2.Nodes = append(w2.Nodes, fixtureNode(id, "1"))
			ids1, ids2 = append(ids1, id), append(ids2, id)
		case x < 6: // modified
			w1.Nodes = append(w1.Nodes, fixtureNode(id, "1"))
			w2.Nodes = append(w2.Nodes, fixtureNode(id, "2"))
			ids1, ids2 = append(ids1, id), append(ids2, id)
		case x < 8: // deleted
			w1.Nodes = append(w1.Nodes, fixtureNode(id, "1"))
			ids1 = append(ids1, id)
		default: // added
			w2.Nodes = append(w2.Nodes, fixtureNode(id, "1"))
			ids2 = append(ids2, id)
		}
	}
	fill := func(w *Table, ids []NodeID, prefix string) {
		if len(ids) == 0 {
			return
		}
		for i := range r.IntN(6) {
			perm := r.Perm(len(ids))[:1+r.IntN(min(4, len(ids)))]
			tu := Tuple{ID: TupleID(fmt.Sprintf("%s%d", prefix, i+1))}
			for _, p := range perm {
				tu.Nodes = append(tu.Nodes, ids[p])
			}
			w.Tuples = append(w.Tuples, tu)
		}
	}
	fill(w1, ids1, "t")
	fill(w2, ids2, "s")
	return w1, w2
}

func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		w1, w2 := randomTables(r)
		for _, opt := range allOptions {
			if !sameAsReference(t, w1, w2, opt) {
				t.Fatalf("tables:\n%s\n%s", tableText(w1), tableText(w2))
			}
		}
	}
}

// sameAsReference compares everything Diff and Join compute on w1 and w2
// with the reference, and reports whether they agree.
func sameAsReference(t *testing.T, w1, w2 *Table, opt Options) bool {
	t.Helper()
	d, err := run(w1, w2, &opt)
	if err != nil {
		t.Fatal(err)
	}
	got := describe(t, d)
	r1, r2 := refOf(w1), refOf(w2)
	want := refDelta(r1, r2, opt, false)
	inOrder := func(ids []string, order []string) string {
		ids = slices.Clone(ids)
		slices.SortFunc(ids, func(x, y string) int { return slices.Index(order, x) - slices.Index(order, y) })
		return strings.Join(ids, " ")
	}
	ok := true
	for _, c := range []struct{ name, got, want string }{
		{"J", got.J, want.J}, {"delNodeSet", got.Del, want.Del}, {"addNodeSet", got.Add, want.Add},
		{"updateNodeSet", got.Upd, want.Upd}, {"K", got.K, want.K}, {"U", got.U, want.U},
		{"W_j", got.WjText, strings.Join(want.Wj, " ")},
		{"W_lo", got.Wlo, strings.Join(want.Wlo, " ")}, {"W_ro", got.Wro, strings.Join(want.Wro, " ")},
		{"temp1", got.Temp1, want.Temp1}, {"temp2", got.Temp2, want.Temp2},
		{"A after the outer scans", got.OuterA, want.OuterA}, {"D after the outer scans", got.OuterD, want.OuterD},
		{"Fig. 14", fmt.Sprint(got.Fig14), fmt.Sprint(want.Fig14)},
		{"Δ+", got.Plus, inOrder(want.Plus, r2.order)}, {"Δ-", got.Minus, inOrder(want.Minus, r1.order)},
		{"ΔM", got.Mod, strings.Join(want.Mod, " ")},
		{"uncovered", got.Uncovered, want.Uncovered}, {"A and D at the end", got.Final, want.Final},
	} {
		if c.got != c.want {
			t.Errorf("%+v: %s = %q, reference %q", opt, c.name, c.got, c.want)
			ok = false
		}
	}
	return ok
}

// TestInvariants checks on random tables what holds for every Options: the
// post-conditions of §4.11 and Definition 1 (notes §3.3), and, for each
// option, the guarantee it adds.
func TestInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 2000
	if testing.Short() {
		n = 200
	}
	for range n {
		w1, w2 := randomTables(r)
		if r.IntN(2) == 0 {
			w1, w2 = webTables(r)
		}
		for _, opt := range allOptions {
			if msg := invariants(w1, w2, opt); msg != "" {
				t.Fatalf("%+v: %s\n%s\n%s", opt, msg, tableText(w1), tableText(w2))
			}
		}
	}
}

// invariants returns what is wrong with Diff(w1, w2, &opt), or "".
func invariants(w1, w2 *Table, opt Options) string {
	d, err := run(w1, w2, &opt)
	if err != nil {
		return err.Error()
	}
	delta := d.delta()
	for _, w := range []*Table{delta.Plus, delta.Minus, delta.Mod.Old, delta.Mod.New} {
		if err := w.Validate(); err != nil {
			return "delta table: " + err.Error()
		}
	}
	// Phase 2 from the definitions, on the tables themselves.
	ver1, ver2 := versions(w1), versions(w2)
	var add, del, mod []NodeID
	for id, v := range ver1 {
		if v2, ok := ver2[id]; !ok {
			del = append(del, id)
		} else if v2 != v {
			mod = append(mod, id)
		}
	}
	for id := range ver2 {
		if _, ok := ver1[id]; !ok {
			add = append(add, id)
		}
	}
	slices.Sort(add)
	slices.Sort(del)
	slices.Sort(mod)
	if !slices.Equal(add, delta.Added) || !slices.Equal(del, delta.Deleted) || !slices.Equal(mod, delta.Modified) {
		return fmt.Sprintf("node sets %v %v %v, want %v %v %v", delta.Added, delta.Deleted, delta.Modified, add, del, mod)
	}
	// §4.11: A = D = ∅ after Phase 3.
	for g, in := range d.resid {
		if in {
			return fmt.Sprintf("node %s left in A or D", d.id(int32(g)))
		}
	}
	// temp1 and temp2 are disjoint and hold dangling tuples.
	for _, s := range []struct {
		t1, t2 []int32
		dang   []bool
	}{{d.temp1L, d.temp2L, d.dang1}, {d.temp1R, d.temp2R, d.dang2}} {
		for _, i := range s.t1 {
			if slices.Contains(s.t2, i) || !s.dang[i] {
				return fmt.Sprintf("tuple %d in temp1 and temp2, or not dangling", i)
			}
		}
	}
	// Definition 1: T_Δ+ ⊆ T2, each tuple with an added node; T_Δ- ⊆ T1,
	// each with a deleted node; and (with A = D = ∅) every added or
	// deleted node is shown by some tuple of Δ+ or Δ-.
	for _, c := range []struct {
		name      string
		delta, w  *Table
		c         Change
		nodes     []NodeID
		completed bool
	}{{"Δ+", delta.Plus, w2, Added, delta.Added, opt.Complete}, {"Δ-", delta.Minus, w1, Deleted, delta.Deleted, opt.Complete}} {
		if msg := subsetOf(c.delta, c.w); msg != "" {
			return c.name + ": " + msg
		}
		shown := map[NodeID]bool{}
		for _, tu := range c.delta.Tuples {
			has := false
			for _, id := range tu.Nodes {
				if delta.Change(id) == c.c {
					has, shown[id] = true, true
				}
			}
			if !has {
				return fmt.Sprintf("%s tuple %s shows no %v node", c.name, tu.ID, c.c)
			}
		}
		for _, id := range c.nodes {
			if !shown[id] {
				return fmt.Sprintf("%v node %s in no %s tuple", c.c, id, c.name)
			}
		}
		if c.completed { // R9: every tuple with such a node
			for _, tu := range c.w.Tuples {
				has := slices.ContainsFunc(tu.Nodes, func(id NodeID) bool { return delta.Change(id) == c.c })
				if has != slices.ContainsFunc(c.delta.Tuples, func(x Tuple) bool { return x.ID == tu.ID }) {
					return fmt.Sprintf("Complete: %s holds tuple %s: %v; it has a %v node: %v", c.name, tu.ID, !has, c.c, has)
				}
			}
		}
	}
	// ΔM: constituents from the tables; no tuple without a change
	// (R3, R5); with Strict, joined tuples show a node in both versions
	// (R7); with Cover, every modified node is shown in both versions
	// (R8); with Complete, every changed tuple is in some delta table.
	if msg := subsetOf(delta.Mod.Old, w1); msg != "" {
		return "ΔM old: " + msg
	}
	if msg := subsetOf(delta.Mod.New, w2); msg != "" {
		return "ΔM new: " + msg
	}
	shown := map[NodeID]bool{}
	for _, m := range delta.Mod.Tuples {
		old, cur := tupleNodes(delta.Mod.Old, m.Old), tupleNodes(delta.Mod.New, m.New)
		if (m.Old == "" || m.New == "") && m.Origin != FromOuter {
			return fmt.Sprintf("ΔM tuple %v: one constituent", m)
		}
		changed, both := false, false
		for _, id := range slices.Concat(old, cur) {
			changed = changed || delta.Change(id) != Unchanged
		}
		for _, id := range old {
			if delta.Change(id) == Modified && slices.Contains(cur, id) {
				both, shown[id] = true, true
			}
		}
		if !changed {
			return fmt.Sprintf("ΔM tuple %v: nothing changed", m)
		}
		if opt.Strict && m.Origin == FromJoin && !both {
			return fmt.Sprintf("Strict: ΔM tuple %v shows no node in both versions", m)
		}
	}
	if opt.Cover {
		for _, id := range delta.Modified {
			if !shown[id] {
				return fmt.Sprintf("Cover: modified node %s shown in both versions by no ΔM tuple", id)
			}
		}
	}
	if opt.Complete {
		for _, c := range []struct {
			w     *Table
			in    []*Table
			tuple func(ModTuple) TupleID
		}{
			{w1, []*Table{delta.Minus, delta.Mod.Old}, func(m ModTuple) TupleID { return m.Old }},
			{w2, []*Table{delta.Plus, delta.Mod.New}, func(m ModTuple) TupleID { return m.New }},
		} {
			for _, tu := range c.w.Tuples {
				changed := slices.ContainsFunc(tu.Nodes, func(id NodeID) bool { return delta.Change(id) != Unchanged })
				shown := slices.ContainsFunc(c.in[0].Tuples, func(x Tuple) bool { return x.ID == tu.ID }) ||
					slices.ContainsFunc(delta.Mod.Tuples, func(m ModTuple) bool { return c.tuple(m) == tu.ID })
				if changed && !shown {
					return fmt.Sprintf("Complete: changed tuple %s in no delta table", tu.ID)
				}
			}
		}
	}
	return ""
}

func versions(w *Table) map[NodeID]VersionID {
	v := map[NodeID]VersionID{}
	ver := map[NodeID]VersionID{}
	for _, n := range w.Nodes {
		ver[n.ID] = n.Version
	}
	for _, tu := range w.Tuples {
		for _, id := range tu.Nodes {
			v[id] = ver[id]
		}
	}
	return v
}

// subsetOf reports a tuple of sub that w does not hold as it is, or a node
// of sub's pool that w's pool does not hold.
func subsetOf(sub, w *Table) string {
	for _, tu := range sub.Tuples {
		i := slices.IndexFunc(w.Tuples, func(x Tuple) bool { return x.ID == tu.ID })
		if i < 0 || !slices.Equal(tu.Nodes, w.Tuples[i].Nodes) || !slices.Equal(tu.Links, w.Tuples[i].Links) {
			return fmt.Sprintf("tuple %s is not a tuple of %s", tu.ID, w.Name)
		}
	}
	for _, n := range sub.Nodes {
		if m, ok := node(w, n.ID); !ok || m != n {
			return fmt.Sprintf("node %s is not a node of %s", n.ID, w.Name)
		}
	}
	return ""
}

// With Complete, the delta tables rebuild the new table from the old one:
// new = old − Δ- − old(ΔM) + Δ+ + new(ΔM), comparing tuples by their nodes
// (id and version) and links, when both tables are results of one coupling
// query, so that tuples whose nodes did not change are in both. webTables
// makes such pairs.
func TestRebuild(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 2000
	if testing.Short() {
		n = 200
	}
	for range n {
		w1, w2 := webTables(r)
		for _, opt := range allOptions {
			if !opt.Complete {
				continue
			}
			d, err := Diff(w1, w2, &opt)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := rebuild(w1, d), contents(w2, w2.Tuples); !slices.Equal(got, want) {
				t.Fatalf("%+v: rebuilt\n%s\nwant\n%s\nold:\n%s\nnew:\n%s", opt,
					strings.Join(got, "\n"), strings.Join(want, "\n"), tableText(w1), tableText(w2))
			}
		}
	}
}

// rebuild applies d to w1 and returns the contents of the result's tuples.
func rebuild(w1 *Table, d *Delta) []string {
	gone := map[TupleID]bool{}
	for _, tu := range d.Minus.Tuples {
		gone[tu.ID] = true
	}
	var modNew []Tuple
	for _, m := range d.Mod.Tuples {
		gone[m.Old] = true
		if m.New != "" {
			modNew = append(modNew, Tuple{ID: m.New, Nodes: tupleNodes(d.Mod.New, m.New), Links: tupleLinks(d.Mod.New, m.New)})
		}
	}
	var kept []Tuple
	for _, tu := range w1.Tuples {
		if !gone[tu.ID] {
			kept = append(kept, tu)
		}
	}
	out := slices.Concat(contents(w1, kept), contents(d.Plus, d.Plus.Tuples), contents(d.Mod.New, modNew))
	slices.Sort(out)
	return slices.Compact(out)
}

func tupleLinks(w *Table, id TupleID) []LinkID {
	for _, tu := range w.Tuples {
		if tu.ID == id {
			return tu.Links
		}
	}
	return nil
}

// contents returns, sorted, each tuple's nodes (id@version) and links
// (from>to), resolved in w's pools.
func contents(w *Table, tuples []Tuple) []string {
	ver := versionsOfPool(w)
	link := map[LinkID]Link{}
	for _, l := range w.Links {
		link[l.ID] = l
	}
	var out []string
	for _, tu := range tuples {
		var parts []string
		for _, id := range tu.Nodes {
			parts = append(parts, string(id)+"@"+string(ver[id]))
		}
		slices.Sort(parts)
		var ls []string
		for _, id := range tu.Links {
			ls = append(ls, string(link[id].From)+">"+string(link[id].To))
		}
		slices.Sort(ls)
		out = append(out, strings.Join(parts, " ")+" | "+strings.Join(ls, " "))
	}
	slices.Sort(out)
	return out
}

func versionsOfPool(w *Table) map[NodeID]VersionID {
	ver := map[NodeID]VersionID{}
	for _, n := range w.Nodes {
		ver[n.ID] = n.Version
	}
	return ver
}

// webTables returns two polls of one coupling query on a small random site
// that changed in between: pages modified (a new version, maybe new links),
// deleted, added and linked from modified pages. The query binds the start
// page p0, a page it links to, and optionally a page that one links to;
// each binding is a tuple with its links. A page that did not change keeps
// its links, so a tuple whose pages all stayed the same is in both polls.
func webTables(r *rand.Rand) (*Table, *Table) {
	type page struct {
		ver   int
		links []int
	}
	n := 3 + r.IntN(8)
	randomLinks := func(self, n int) []int {
		var ls []int
		for _, p := range r.Perm(n)[:r.IntN(min(4, n))] {
			if p != self {
				ls = append(ls, p)
			}
		}
		return ls
	}
	site := make([]*page, n)
	for i := range site {
		site[i] = &page{ver: 1, links: randomLinks(i, n)}
	}
	next := make([]*page, n, n+3)
	for i, p := range site {
		switch x := r.IntN(10); {
		case x < 6 || (i == 0 && x < 9):
			next[i] = &page{ver: p.ver, links: p.links}
		case x < 8 || i == 0:
			next[i] = &page{ver: p.ver + 1, links: p.links}
			if r.IntN(2) == 0 {
				next[i].links = randomLinks(i, n)
			}
		default: // deleted: links to it lead nowhere now
		}
	}
	for range r.IntN(3) {
		next = append(next, &page{ver: 1, links: randomLinks(len(next), len(next))})
		from := r.IntN(len(next) - 1)
		if p := next[from]; p != nil && !slices.Contains(p.links, len(next)-1) {
			next[from] = &page{ver: p.ver + 1, links: append(slices.Clone(p.links), len(next)-1)}
		}
	}
	query := func(name, prefix string, site []*page) *Table {
		w := &Table{Name: name, Nodes: []Node{}}
		used := map[int]bool{}
		linked := map[[2]int]bool{}
		id := func(p int) NodeID { return NodeID(fmt.Sprintf("p%d", p)) }
		lid := func(a, b int) LinkID { return LinkID(fmt.Sprintf("p%d>p%d", a, b)) }
		exists := func(p int) bool { return p < len(site) && site[p] != nil }
		bind := func(path ...int) {
			tu := Tuple{ID: TupleID(fmt.Sprintf("%s%d", prefix, len(w.Tuples)+1))}
			for i, p := range path {
				tu.Nodes = append(tu.Nodes, id(p))
				used[p] = true
				if i > 0 {
					tu.Links = append(tu.Links, lid(path[i-1], p))
					linked[[2]int{path[i-1], p}] = true
				}
			}
			w.Tuples = append(w.Tuples, tu)
		}
		if !exists(0) {
			return w
		}
		for _, x := range site[0].links {
			if !exists(x) {
				continue
			}
			bind(0, x)
			for _, y := range site[x].links {
				if exists(y) && y != 0 {
					bind(0, x, y)
				}
			}
		}
		for p := range site {
			if used[p] {
				nd := fixtureNode(id(p), VersionID(fmt.Sprint(site[p].ver)))
				nd.Modified = nd.Modified.AddDate(0, 0, site[p].ver)
				w.Nodes = append(w.Nodes, nd)
			}
		}
		for p := range site {
			for q := range site {
				if linked[[2]int{p, q}] {
					w.Links = append(w.Links, Link{ID: lid(p, q), From: id(p), To: id(q), Type: Local})
				}
			}
		}
		return w
	}
	return query("poll 1", "t", site), query("poll 2", "s", next)
}

// Diff of a table with itself is empty, whatever the options.
func TestDiffSelf(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 500 {
		w, _ := randomTables(r)
		for _, opt := range allOptions {
			d, err := Diff(w, w, &opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Plus.Tuples)+len(d.Minus.Tuples)+len(d.Mod.Tuples)+len(d.Added)+len(d.Deleted)+len(d.Modified) != 0 {
				t.Fatalf("Diff(w, w) not empty:\n%s", tableText(w))
			}
		}
	}
}

// With Complete, Δ+ and Δ- are filters: swapping the tables swaps them, and
// the order of the tuples does not change them (unlike the seed's, notes
// §4.11 (d)).
func TestCompleteIsOrderFree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	opt := &Options{Complete: true}
	for range 1000 {
		w1, w2 := randomTables(r)
		d, err := Diff(w1, w2, opt)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Diff(w2, w1, opt)
		if err != nil {
			t.Fatal(err)
		}
		if tupleIDs(back.Plus) != tupleIDs(d.Minus) || tupleIDs(back.Minus) != tupleIDs(d.Plus) {
			t.Fatalf("swapped: Δ+ %s Δ- %s, want %s and %s", tupleIDs(back.Plus), tupleIDs(back.Minus), tupleIDs(d.Minus), tupleIDs(d.Plus))
		}
		p1, p2 := *w1, *w2
		p1.Tuples, p2.Tuples = slices.Clone(w1.Tuples), slices.Clone(w2.Tuples)
		r.Shuffle(len(p1.Tuples), func(i, j int) { p1.Tuples[i], p1.Tuples[j] = p1.Tuples[j], p1.Tuples[i] })
		r.Shuffle(len(p2.Tuples), func(i, j int) { p2.Tuples[i], p2.Tuples[j] = p2.Tuples[j], p2.Tuples[i] })
		s, err := Diff(&p1, &p2, opt)
		if err != nil {
			t.Fatal(err)
		}
		sorted := func(w *Table) string {
			ids := strings.Fields(tupleIDs(w))
			slices.Sort(ids)
			return strings.Join(ids, " ")
		}
		if sorted(s.Plus) != sorted(d.Plus) || sorted(s.Minus) != sorted(d.Minus) {
			t.Fatalf("shuffled: Δ+ %s Δ- %s, want %s and %s", sorted(s.Plus), sorted(s.Minus), sorted(d.Plus), sorted(d.Minus))
		}
	}
}

// Every tuple is either dangling or a constituent of a joined tuple, never
// both (notes §4.3), and Join finds exactly the pairs that share a
// joinable node.
func TestJoinPartition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		w1, w2 := randomTables(r)
		ref1, ref2 := refOf(w1), refOf(w2)
		want := refDelta(ref1, ref2, Options{}, false)
		seq, err := Join(w1, w2)
		if err != nil {
			t.Fatal(err)
		}
		joined1, joined2 := map[TupleID]bool{}, map[TupleID]bool{}
		var got []string
		for p := range seq {
			joined1[p.Old], joined2[p.New] = true, true
			got = append(got, string(p.Old)+"⋈"+string(p.New))
		}
		if !slices.Equal(got, want.Wj) {
			t.Fatalf("Join = %v, reference %v", got, want.Wj)
		}
		lo, _ := LeftOuterJoin(w1, w2)
		ro, _ := RightOuterJoin(w1, w2)
		for _, c := range []struct {
			w, outer *Table
			joined   map[TupleID]bool
		}{{w1, lo, joined1}, {w2, ro, joined2}} {
			dangling := map[TupleID]bool{}
			for _, tu := range c.outer.Tuples {
				dangling[tu.ID] = true
			}
			for _, tu := range c.w.Tuples {
				if dangling[tu.ID] == c.joined[tu.ID] {
					t.Fatalf("tuple %s: dangling %v, joined %v\n%s\n%s", tu.ID, dangling[tu.ID], c.joined[tu.ID], tableText(w1), tableText(w2))
				}
			}
		}
	}
}
