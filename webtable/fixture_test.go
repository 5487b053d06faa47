package webtable

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// want is what the notes give for a fixture: the node sets of Phases 1-3
// (sorted), the joined table, the outer joined tables and temp1/temp2 (in
// scan order), A and D after the outer scans, and the delta tables. Δ+ and Δ-
// are in table order: the notes list them in the order the reference found
// them.
type want struct {
	J, Del, Add, Upd, K, U string
	Wj, Wlo, Wro           string
	Temp1, Temp2           string // "L[..] R[..]"
	OuterA, OuterD         string
	Fig14                  bool
	Plus, Minus, Mod       string
	Uncovered              string
}

func TestFixtures(t *testing.T) {
	tests := []struct {
		name     string
		old, new []string
		opt      Options
		want     want
	}{{
		name: "F1 mini-panacea",
		old:  f1Old, new: f1New,
		want: want{
			J:      "b0 b2 d0 d1 d6 k0 k1 k7 u0 u1",
			Del:    "b3 d12 d4 d5 k12 k5 k6 u10 u4 u6 u8",
			Add:    "d10 d7 d8 d9 k10 k4 k8 k9 u11 u12 u13 u3",
			Upd:    "a0 b1 b4 b5 d2 d3 k2 k3 u2 u5 u7",
			Wj:     "t1⋈s1 t1⋈s2 t2⋈s1 t2⋈s2 t4⋈s4 t4⋈s5 t6⋈s7",
			Wlo:    "t3 t5 t7 t8",
			Wro:    "s3 s6 s8 s9",
			K:      "b1 b5 d2 k2 u5",
			U:      "a0 b4 d3 k3 u2 u7",
			Temp1:  "L[t3] R[s3]",
			Temp2:  "L[t8] R[s9]",
			OuterA: "d7 k4 u3",
			OuterD: "u8",
			Fig14:  true,
			Plus:   "s5 s6 s8 s9", // the notes: [s6, s8, s9, s5]
			Minus:  "t5 t6 t7 t8", // the notes: [t5, t7, t8, t6]
			Mod:    "t1⋈s1 t1⋈s2 t2⋈s1 t2⋈s2 t4⋈s4 t6⋈s7 t3⊕s3 t8⊕s9",
		},
	}, {
		name: "F1 with every option",
		old:  f1Old, new: f1New,
		opt: Options{Strict: true, Cover: true, Complete: true},
		want: want{
			J:      "b0 b2 d0 d1 d6 k0 k1 k7 u0 u1",
			Del:    "b3 d12 d4 d5 k12 k5 k6 u10 u4 u6 u8",
			Add:    "d10 d7 d8 d9 k10 k4 k8 k9 u11 u12 u13 u3",
			Upd:    "a0 b1 b4 b5 d2 d3 k2 k3 u2 u5 u7",
			Wj:     "t1⋈s1 t1⋈s2 t2⋈s1 t2⋈s2 t4⋈s4 t4⋈s5 t6⋈s7",
			Wlo:    "t3 t5 t7 t8",
			Wro:    "s3 s6 s8 s9",
			K:      "b1 b5 d2 k2 u5",
			U:      "a0 b4 d3 k3 u2 u7",
			Temp1:  "L[t3] R[s3]",
			Temp2:  "L[t8] R[s9]",
			OuterA: "d7 k4 u3",
			OuterD: "u8",
			Fig14:  true,
			Plus:   "s5 s6 s8 s9", // "complete" Δ+ and Δ- (R9) are the same sets here
			Minus:  "t5 t6 t7 t8",
			Mod:    "t1⋈s1 t1⋈s2 t2⋈s1 t2⋈s2 t4⋈s4 t6⋈s7 t3⊕s3 t8⊕s9",
		},
	}, {
		// Category-1 tuples are ignored (R3); every pair joins through
		// the unchanged hub a0.
		name: "F2 identical copy",
		old:  f1Old,
		new:  renamed(f1Old, "t", "s"),
		want: want{
			J:   "a0 b0 b1 b2 b3 b4 b5 d0 d1 d12 d2 d3 d4 d5 d6 k0 k1 k12 k2 k3 k5 k6 k7 u0 u1 u10 u2 u4 u5 u6 u7 u8",
			Wj:  "64 pairs",
			Mod: "",
		},
	}, {
		name: "F3 all modified",
		old:  []string{"t r x y"},
		new:  []string{"s r' x' y'"},
		want: want{
			Upd: "r x y", K: "r x y",
			Wlo: "t", Wro: "s",
			Temp1: "L[t] R[s]",
			Mod:   "t⊕s",
		},
	}, {
		name: "F4 moved content is delete and add",
		old:  []string{"t r x"},
		new:  []string{"s q y"},
		want: want{
			Del: "r x", Add: "q y",
			Wlo: "t", Wro: "s",
			Plus: "s", Minus: "t",
		},
	}, {
		name: "F5 only the root changed",
		old:  []string{"t r x y"},
		new:  []string{"s r' x y"},
		want: want{
			J: "x y", Upd: "r", U: "r",
			Wj:  "t⋈s",
			Mod: "t⋈s",
		},
	}, {
		name: "F6 uncovered update",
		old:  []string{"t1 j1 m", "t4 j2"},
		new:  []string{"s2 j1", "s3 j2 m'"},
		want: want{
			J: "j1 j2", Upd: "m", U: "m",
			Wj:        "t1⋈s2 t4⋈s3",
			Uncovered: "m",
		},
	}, {
		name: "F6 with Cover (R8)",
		old:  []string{"t1 j1 m", "t4 j2"},
		new:  []string{"s2 j1", "s3 j2 m'"},
		opt:  Options{Cover: true},
		want: want{
			J: "j1 j2", Upd: "m", U: "m",
			Wj:  "t1⋈s2 t4⋈s3",
			Mod: "t1+s3(cover)",
		},
	}, {
		name: "F6 with Complete",
		old:  []string{"t1 j1 m", "t4 j2"},
		new:  []string{"s2 j1", "s3 j2 m'"},
		opt:  Options{Complete: true},
		want: want{
			J: "j1 j2", Upd: "m", U: "m",
			Wj:  "t1⋈s2 t4⋈s3",
			Mod: "t1+s3(complete)",
		},
	}, {
		// n is consumed in the right outer scan, so Fig. 13 runs and
		// s1 never reaches Δ+.
		name: "F7 order dependence",
		old:  []string{"t r x"},
		new:  []string{"s1 r' x n", "s2 r' z n"},
		want: want{
			J: "x", Add: "n z", Upd: "r", U: "r",
			Wj: "t⋈s1", Wro: "s2",
			Plus: "s2",
			Mod:  "t⋈s1",
		},
	}, {
		name: "F7 with Complete (R9)",
		old:  []string{"t r x"},
		new:  []string{"s1 r' x n", "s2 r' z n"},
		opt:  Options{Complete: true},
		want: want{
			J: "x", Add: "n z", Upd: "r", U: "r",
			Wj: "t⋈s1", Wro: "s2",
			Plus: "s1 s2",
			Mod:  "t⋈s1",
		},
	}, {
		// Nothing was modified, yet branch (12) puts the pair in ΔM.
		name: "F8 added node only",
		old:  []string{"t r x"},
		new:  []string{"s r x n"},
		want: want{
			J: "r x", Add: "n",
			Wj:     "t⋈s",
			OuterA: "n", Fig14: true,
			Plus: "s",
			Mod:  "t⋈s",
		},
	}, {
		name: "F8 with Strict (R7)",
		old:  []string{"t r x"},
		new:  []string{"s r x n"},
		opt:  Options{Strict: true},
		want: want{
			J: "r x", Add: "n",
			Wj:     "t⋈s",
			OuterA: "n", Fig14: true,
			Plus: "s",
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w1, w2 := build("old", tc.old...), build("new", tc.new...)
			checkWant(t, w1, w2, tc.opt, tc.want)
		})
	}
}

// checkWant runs Diff and Join on w1 and w2 and compares everything with w,
// and with the reference. The notes' Python re-tests |A| = |D| = 0 before
// every joined tuple, where Fig. 11 tests once: on the worked examples both
// give the same results.
func checkWant(t *testing.T, w1, w2 *Table, opt Options, w want) {
	t.Helper()
	sameAsReference(t, w1, w2, opt)
	once, literal := refDelta(refOf(w1), refOf(w2), opt, false), refDelta(refOf(w1), refOf(w2), opt, true)
	if !reflect.DeepEqual(once, literal) {
		t.Errorf("the reference with the per-tuple test differs:\n%+v\n%+v", literal, once)
	}
	d, err := run(w1, w2, &opt)
	if err != nil {
		t.Fatal(err)
	}
	got := describe(t, d)
	for _, c := range []struct{ name, got, want string }{
		{"J", got.J, w.J}, {"delNodeSet", got.Del, w.Del}, {"addNodeSet", got.Add, w.Add},
		{"updateNodeSet", got.Upd, w.Upd}, {"K", got.K, w.K}, {"U", got.U, w.U},
		{"W_lo", got.Wlo, w.Wlo}, {"W_ro", got.Wro, w.Wro},
		{"temp1", got.Temp1, orEmptySides(w.Temp1)}, {"temp2", got.Temp2, orEmptySides(w.Temp2)},
		{"A after the outer scans", got.OuterA, w.OuterA}, {"D after the outer scans", got.OuterD, w.OuterD},
		{"Δ+", got.Plus, w.Plus}, {"Δ-", got.Minus, w.Minus}, {"ΔM", got.Mod, w.Mod},
		{"uncovered updates", got.Uncovered, w.Uncovered},
		{"A and D after Phase 3", got.Final, ""},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if got.Fig14 != w.Fig14 {
		t.Errorf("Fig. 14 used = %v, want %v", got.Fig14, w.Fig14)
	}
	if strings.HasSuffix(w.Wj, " pairs") {
		if n := fmt.Sprint(strings.Count(got.WjText, "⋈")); n != strings.TrimSuffix(w.Wj, " pairs") {
			t.Errorf("W_j has %s pairs, want %s", n, w.Wj)
		}
	} else if got.WjText != w.Wj {
		t.Errorf("W_j = %q, want %q", got.WjText, w.Wj)
	}
}

func orEmptySides(s string) string {
	if s == "" {
		return "L[] R[]"
	}
	return s
}

// described is a differ's state as the notes write it.
type described struct {
	J, Del, Add, Upd, K, U string
	WjText, Wlo, Wro       string
	Temp1, Temp2           string
	OuterA, OuterD         string
	Fig14                  bool
	Plus, Minus, Mod       string
	Uncovered, Final       string
}

func describe(t *testing.T, d *differ) described {
	t.Helper()
	nodes := func(keep func(g int32) bool) string {
		var ids []string
		for g := range int32(d.n) {
			if keep(g) {
				ids = append(ids, string(d.id(g)))
			}
		}
		slices.Sort(ids)
		return strings.Join(ids, " ")
	}
	of := func(c class) func(int32) bool { return func(g int32) bool { return d.cls[g] == c } }
	t1 := func(a int32) string { return string(d.p1.t.Tuples[a].ID) }
	t2 := func(b int32) string { return string(d.p2.t.Tuples[b].ID) }
	list := func(ts []int32, name func(int32) string) string {
		var out []string
		for _, i := range ts {
			out = append(out, name(i))
		}
		return strings.Join(out, " ")
	}
	shown := map[int32]bool{}
	var mod []string
	for _, m := range d.mod {
		switch {
		case m.origin == FromJoin:
			mod = append(mod, t1(m.a)+"⋈"+t2(m.b))
		case m.origin == FromOuter && m.a < 0:
			mod = append(mod, "⊕"+t2(m.b))
		case m.origin == FromOuter && m.b < 0:
			mod = append(mod, t1(m.a)+"⊕")
		case m.origin == FromOuter:
			mod = append(mod, t1(m.a)+"⊕"+t2(m.b))
		default:
			mod = append(mod, fmt.Sprintf("%s+%s(%s)", t1(m.a), t2(m.b), m.origin))
		}
		if m.a >= 0 && m.b >= 0 {
			for _, g := range d.t1.row(m.a) {
				if slices.Contains(d.t2.row(m.b), g) {
					shown[g] = true
				}
			}
		}
	}
	var wj []string
	seq, err := Join(d.p1.t, d.p2.t)
	if err != nil {
		t.Fatal(err)
	}
	for p := range seq {
		wj = append(wj, string(p.Old)+"⋈"+string(p.New))
	}
	return described{
		J: nodes(of(joinable)), Del: nodes(of(deleted)), Add: nodes(of(added)), Upd: nodes(of(updated)),
		K:         nodes(func(g int32) bool { return d.inK[g] }),
		U:         nodes(func(g int32) bool { return d.cls[g] == updated && !d.inK[g] }),
		WjText:    strings.Join(wj, " "),
		Wlo:       list(indexes(d.dang1), t1),
		Wro:       list(indexes(d.dang2), t2),
		Temp1:     "L[" + list(d.temp1L, t1) + "] R[" + list(d.temp1R, t2) + "]",
		Temp2:     "L[" + list(d.temp2L, t1) + "] R[" + list(d.temp2R, t2) + "]",
		OuterA:    nodes(func(g int32) bool { return slices.Contains(d.outerA, g) }),
		OuterD:    nodes(func(g int32) bool { return slices.Contains(d.outerD, g) }),
		Fig14:     d.fig14,
		Plus:      list(indexes(d.plus), t2),
		Minus:     list(indexes(d.minus), t1),
		Mod:       strings.Join(mod, " "),
		Uncovered: nodes(func(g int32) bool { return d.cls[g] == updated && !shown[g] }),
		Final:     nodes(func(g int32) bool { return d.resid[g] }),
	}
}
