package webtable

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// This file is the notes' executable reference (000-whoweda-deltas.md,
// Appendix A) re-expressed in Go: Figs. 6-8 and 11-14 with repairs R1-R6,
// written as plainly as the Python, with the web join built pair by pair.
// It differs from the Python in four ways, each noted where it happens:
// Fig. 11's choice between Fig. 13 and Fig. 14 is made once, as the figure
// says (the Python re-tests |A| = |D| = 0 before every joined tuple; the
// literal flag restores that); R7 (Strict), R8 (Cover) and Options.Complete
// are applied rather than only reported; unpaired outer tuples enter ΔM
// alone, as the notes' §4.8 recommends; and tuples keep their nodes in order,
// which R8 and Complete use to choose deterministically.

type refTable struct {
	ver    map[string]string   // node id → version id
	order  []string            // tuple ids in table order
	list   map[string][]string // tuple id → node ids in order
	tuples map[string]set      // tuple id → node ids
}

type set map[string]bool

func setOf(xs ...string) set {
	s := set{}
	for _, x := range xs {
		s[x] = true
	}
	return s
}

func (s set) and(t set) set {
	out := set{}
	for x := range s {
		if t[x] {
			out[x] = true
		}
	}
	return out
}

func (s set) or(t set) set {
	out := set{}
	for x := range s {
		out[x] = true
	}
	for x := range t {
		out[x] = true
	}
	return out
}

func (s set) minus(t set) set {
	out := set{}
	for x := range s {
		if !t[x] {
			out[x] = true
		}
	}
	return out
}

func (s set) subsetOf(t set) bool { return len(s.minus(t)) == 0 }

func (s set) equal(t set) bool { return s.subsetOf(t) && t.subsetOf(s) }

func (s set) String() string {
	var xs []string
	for x := range s {
		xs = append(xs, x)
	}
	slices.Sort(xs)
	return strings.Join(xs, " ")
}

func refOf(t *Table) refTable {
	r := refTable{ver: map[string]string{}, list: map[string][]string{}, tuples: map[string]set{}}
	for _, n := range t.Nodes {
		r.ver[string(n.ID)] = string(n.Version)
	}
	for _, tu := range t.Tuples {
		id := string(tu.ID)
		r.order = append(r.order, id)
		for _, n := range tu.Nodes {
			r.list[id] = append(r.list[id], string(n))
		}
		r.tuples[id] = setOf(r.list[id]...)
	}
	return r
}

func (r refTable) ids() set {
	s := set{}
	for _, ts := range r.tuples {
		s = s.or(ts)
	}
	return s
}

// refResult is everything the reference computes, with sets as sorted
// strings and lists of tuples in the order found.
type refResult struct {
	J, Del, Add, Upd, K, U string
	Wj, Wlo, Wro           []string
	Temp1, Temp2           string
	OuterA, OuterD         string
	Fig14                  bool
	Plus, Minus            []string
	Mod                    []string
	Uncovered, Final       string
}

// refDelta is Algorithm Delta. With literal set, the choice between Fig. 13
// and Fig. 14 is made before every joined tuple, as the Python does.
func refDelta(W1, W2 refTable, opt Options, literal bool) refResult {
	N1, N2 := W1.ids(), W2.ids()
	J := set{} // Fig. 6
	for n := range N1.and(N2) {
		if W1.ver[n] == W2.ver[n] {
			J[n] = true
		}
	}
	type pairT struct{ a, b string }
	var Wj []pairT // Fig. 7, provenance kept
	for _, a := range W1.order {
		for _, b := range W2.order {
			if len(W1.tuples[a].and(W2.tuples[b]).and(J)) > 0 {
				Wj = append(Wj, pairT{a, b})
			}
		}
	}
	outer := func(W refTable) []string { // Fig. 8 (R1)
		var out []string
		for _, k := range W.order {
			if len(W.tuples[k].and(J)) == 0 {
				out = append(out, k)
			}
		}
		return out
	}
	Wlo, Wro := outer(W1), outer(W2)
	dels, adds := N1.minus(N2), N2.minus(N1)
	upd := N1.minus(J).minus(dels).or(N2.minus(J).minus(adds))
	Nj := set{}
	for _, p := range Wj {
		Nj = Nj.or(W1.tuples[p.a]).or(W2.tuples[p.b])
	}
	K := upd.minus(Nj.minus(J))
	U := Nj.minus(J).and(upd)
	A, D := adds.or(nil), dels.or(nil)
	var ins, dele []string
	t1 := map[string][]string{}
	t2 := map[string][]string{}
	outerScan := func(rows []string, W refTable, S set, side string, out *[]string) set { // Fig. 12 (R2)
		found := set{}
		for _, r := range rows {
			s := W.tuples[r]
			if len(s.and(S)) > 0 {
				*out = append(*out, r)
				found = found.or(s.and(S))
				if len(K) > 0 && len(s.and(K)) > 0 {
					t2[side] = append(t2[side], r)
				}
			} else {
				t1[side] = append(t1[side], r)
			}
		}
		return S.minus(found)
	}
	A = outerScan(Wro, W2, A, "R", &ins)
	D = outerScan(Wlo, W1, D, "L", &dele)
	res := refResult{OuterA: A.String(), OuterD: D.String()}
	fig13 := len(A) == 0 && len(D) == 0 // Fig. 11 line 15, once
	var mod []string
	for _, p := range Wj {
		s1, s2 := W1.tuples[p.a], W2.tuples[p.b]
		if literal {
			fig13 = len(A) == 0 && len(D) == 0
		}
		if fig13 { // Fig. 13 (R3, R4)
			X := s1.or(s2).and(U)
			if len(X) > 0 && len(X.minus(X.and(s1).and(s2))) == 0 {
				mod = append(mod, p.a+"⋈"+p.b)
			}
			continue
		}
		Y := s1.or(s2).minus(J) // Fig. 14 (R4, R5)
		if len(Y) == 0 {
			continue
		}
		both := Y.and(s1).and(Y.and(s2))
		R := Y.minus(both)
		if len(R) == 0 {
			mod = append(mod, p.a+"⋈"+p.b)
			continue
		}
		if R.subsetOf(A.or(D)) && (!opt.Strict || len(both) > 0) { // R7
			mod = append(mod, p.a+"⋈"+p.b)
		}
		if len(R.and(A)) > 0 && !slices.Contains(ins, p.b) {
			ins = append(ins, p.b)
		}
		if len(R.and(D)) > 0 && !slices.Contains(dele, p.a) {
			dele = append(dele, p.a)
		}
		A, D = A.minus(R), D.minus(R)
	}
	// Integration (R6).
	L := slices.Clone(t1["L"])
	for _, x := range t2["L"] {
		if !slices.Contains(t1["L"], x) {
			L = append(L, x)
		}
	}
	Rr := slices.Clone(t1["R"])
	for _, x := range t2["R"] {
		if !slices.Contains(t1["R"], x) {
			Rr = append(Rr, x)
		}
	}
	type side struct{ s, id string }
	paired := map[side]bool{}
	for _, l := range L {
		for _, r := range Rr {
			sl, sr := W1.tuples[l], W2.tuples[r]
			if len(sl.and(sr).and(K)) > 0 || sl.equal(sr) {
				mod = append(mod, l+"⊕"+r)
				paired[side{"L", l}], paired[side{"R", r}] = true, true
			}
		}
	}
	// Unpaired tuples enter ΔM alone (the Python lists them apart).
	for _, l := range L {
		if !paired[side{"L", l}] {
			mod = append(mod, l+"⊕")
		}
	}
	for _, r := range Rr {
		if !paired[side{"R", r}] {
			mod = append(mod, "⊕"+r)
		}
	}
	constituents := func(m string) (string, string) {
		if a, b, ok := strings.Cut(m, "⋈"); ok {
			return a, b
		}
		if a, b, ok := strings.Cut(m, "⊕"); ok {
			return a, b
		}
		a, rest, _ := strings.Cut(m, "+")
		b, _, _ := strings.Cut(rest, "(")
		return a, b
	}
	shownBy := func(mod []string) set {
		shown := set{}
		for _, m := range mod {
			if a, b := constituents(m); a != "" && b != "" {
				shown = shown.or(W1.tuples[a].and(W2.tuples[b]).and(upd))
			}
		}
		return shown
	}
	firstHolding := func(W refTable, n string) string {
		for _, k := range W.order {
			if W.tuples[k][n] {
				return k
			}
		}
		return ""
	}
	if opt.Cover { // R8
		shown := shownBy(mod)
		for _, a := range W1.order {
			for _, n := range W1.list[a] {
				if upd[n] && !shown[n] {
					b := firstHolding(W2, n)
					mod = append(mod, fmt.Sprintf("%s+%s(cover)", a, b))
					shown = shown.or(W1.tuples[a].and(W2.tuples[b]).and(upd))
				}
			}
		}
	}
	if opt.Complete { // R9, and every changed tuple in some delta table
		ins, dele = nil, nil
		for _, b := range W2.order {
			if len(W2.tuples[b].and(adds)) > 0 {
				ins = append(ins, b)
			}
		}
		for _, a := range W1.order {
			if len(W1.tuples[a].and(dels)) > 0 {
				dele = append(dele, a)
			}
		}
		in1, in2 := setOf(dele...), setOf(ins...)
		for _, m := range mod {
			a, b := constituents(m)
			in1[a], in2[b] = true, true
		}
		firstUpd := func(W refTable, k string) string {
			for _, n := range W.list[k] {
				if upd[n] {
					return n
				}
			}
			return ""
		}
		for _, a := range W1.order {
			if n := firstUpd(W1, a); !in1[a] && n != "" {
				b := firstHolding(W2, n)
				mod = append(mod, fmt.Sprintf("%s+%s(complete)", a, b))
				in1[a], in2[b] = true, true
			}
		}
		for _, b := range W2.order {
			if n := firstUpd(W2, b); !in2[b] && n != "" {
				a := firstHolding(W1, n)
				mod = append(mod, fmt.Sprintf("%s+%s(complete)", a, b))
				in1[a], in2[b] = true, true
			}
		}
	}
	for _, p := range Wj {
		res.Wj = append(res.Wj, p.a+"⋈"+p.b)
	}
	res.J, res.Del, res.Add, res.Upd, res.K, res.U = J.String(), dels.String(), adds.String(), upd.String(), K.String(), U.String()
	res.Wlo, res.Wro = Wlo, Wro
	res.Temp1 = "L[" + strings.Join(t1["L"], " ") + "] R[" + strings.Join(t1["R"], " ") + "]"
	res.Temp2 = "L[" + strings.Join(t2["L"], " ") + "] R[" + strings.Join(t2["R"], " ") + "]"
	res.Fig14 = len(res.OuterA)+len(res.OuterD) > 0
	res.Plus, res.Minus, res.Mod = ins, dele, mod
	res.Uncovered = upd.minus(shownBy(mod)).String()
	res.Final = A.or(D).String()
	return res
}

// Fig. 11 chooses between Fig. 13 and Fig. 14 once, and so does Diff; the
// notes' Python chooses again before every joined tuple, which on tables
// like these gives another ΔM. (On the worked examples the two agree; see
// checkWant.)
func TestFig11ChoosesOnce(t *testing.T) {
	w1 := build("old", "t1 n4 n2", "t2 n2 n5 n6", "t3 n7 n8", "t4 n8 n5")
	w2 := build("new", "s1 n1", "s2 n0 n8' n7", "s3 n4 n0")
	if !sameAsReference(t, w1, w2, Options{}) {
		t.Fatal("Diff differs from the reference")
	}
	once, literal := refDelta(refOf(w1), refOf(w2), Options{}, false), refDelta(refOf(w1), refOf(w2), Options{}, true)
	if slices.Equal(once.Mod, literal.Mod) {
		t.Errorf("ΔM %v either way", once.Mod)
	}
	t.Logf("ΔM %v; choosing per tuple: %v", once.Mod, literal.Mod)
}
