package webtable

import (
	"slices"
	"strings"
	"testing"
)

func tupleIDs(w *Table) string {
	var ids []string
	for _, tu := range w.Tuples {
		ids = append(ids, string(tu.ID))
	}
	return strings.Join(ids, " ")
}

func nodeIDs(w *Table) string {
	var ids []string
	for _, n := range w.Nodes {
		ids = append(ids, string(n.ID))
	}
	return strings.Join(ids, " ")
}

// The notes' F1: W_j = [(t1,s1),(t1,s2),(t2,s1),(t2,s2),(t4,s4),(t4,s5),
// (t6,s7)], W_lo = [t3,t5,t7,t8], W_ro = [s3,s6,s8,s9].
func TestJoinF1(t *testing.T) {
	w1, w2 := build("Drugs", f1Old...), build("New Drugs", f1New...)
	seq, err := Join(w1, w2)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for p := range seq {
		got = append(got, string(p.Old)+"⋈"+string(p.New))
	}
	if want := "t1⋈s1 t1⋈s2 t2⋈s1 t2⋈s2 t4⋈s4 t4⋈s5 t6⋈s7"; strings.Join(got, " ") != want {
		t.Errorf("Join = %s\nwant   %s", strings.Join(got, " "), want)
	}
	for p := range seq { // a stopped iteration stops
		if p.Old != "t1" || p.New != "s1" {
			t.Errorf("first pair %v", p)
		}
		break
	}
	lo, err := LeftOuterJoin(w1, w2)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tupleIDs(lo), "t3 t5 t7 t8"; got != want {
		t.Errorf("LeftOuterJoin tuples %s, want %s", got, want)
	}
	if got, want := nodeIDs(lo), "a0 b1 u5 d2 k2 b4 u4 d5 k6 b3 u6 d4 k5 b5 u10 d12 k12"; got != want {
		t.Errorf("LeftOuterJoin nodes %s\nwant %s", got, want)
	}
	if lo.Name != "Drugs" {
		t.Errorf("LeftOuterJoin name %q: the schema and name of W1", lo.Name)
	}
	ro, err := RightOuterJoin(w1, w2)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tupleIDs(ro), "s3 s6 s8 s9"; got != want {
		t.Errorf("RightOuterJoin tuples %s, want %s", got, want)
	}
	if err := lo.Validate(); err != nil {
		t.Error(err)
	}
	if err := ro.Validate(); err != nil {
		t.Error(err)
	}
}

// The outer joins carry the tuples' links and only the nodes and links they
// use.
func TestOuterJoinLinks(t *testing.T) {
	w1 := valid()
	w2 := valid()
	w2.Nodes[0].Version, w2.Nodes[0].Modified = "2", w2.Nodes[0].Modified.AddDate(0, 1, 0)
	w2.Nodes[1].Version, w2.Nodes[1].Modified = "2", w2.Nodes[1].Modified.AddDate(0, 1, 0)
	// t2 = a0 b0 holds no unchanged node: dangling on both sides.
	lo, err := LeftOuterJoin(w1, w2)
	if err != nil {
		t.Fatal(err)
	}
	if tupleIDs(lo) != "t2" || nodeIDs(lo) != "a0 b0" || len(lo.Links) != 1 || lo.Links[0].ID != "l1" {
		t.Errorf("LeftOuterJoin = %+v", lo)
	}
	ro, err := RightOuterJoin(w1, w2)
	if err != nil {
		t.Fatal(err)
	}
	if tupleIDs(ro) != "t2" || ro.Nodes[0].Version != "2" {
		t.Errorf("RightOuterJoin = %+v", ro)
	}
}

// A hub page that did not change joins every pair of tuples holding it
// (fixture F2: 8 × 8 = 64 pairs).
func TestJoinHub(t *testing.T) {
	w1, w2 := build("Drugs", f1Old...), build("Drugs", renamed(f1Old, "t", "s")...)
	seq, err := Join(w1, w2)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range seq {
		n++
	}
	if n != 64 {
		t.Errorf("%d pairs, want 64", n)
	}
}

// renamed copies fixture lines, giving tuple ids the prefix to instead of
// from.
func renamed(lines []string, from, to string) []string {
	out := slices.Clone(lines)
	for i, l := range out {
		out[i] = to + strings.TrimPrefix(l, from)
	}
	return out
}
