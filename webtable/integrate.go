package webtable

import (
	"encoding/binary"
	"slices"
)

// integrate puts the tuples of temp1 and temp2 in ΔM (Fig. 11 lines 19-22),
// by a pairing rule the seed does not give (repair R6): a dangling tuple of
// the old table and one of the new are combined into one tuple when they
// share a node of K, or hold the same node ids; old tuples in the order of
// temp1 then temp2, and for each its partners in the same order. A tuple that
// finds no partner enters ΔM alone rather than being lost.
func (d *differ) integrate() {
	left := slices.Concat(d.temp1L, d.temp2L)
	right := slices.Concat(d.temp1R, d.temp2R)
	if len(left) == 0 && len(right) == 0 {
		return
	}
	byK := make(map[int32][]int32)    // K node → positions in right
	bySet := make(map[string][]int32) // node set → positions in right
	var buf []int32
	var key []byte
	setKey := func(row []int32) string {
		buf = append(buf[:0], row...)
		slices.Sort(buf)
		key = key[:0]
		for _, g := range buf {
			key = binary.LittleEndian.AppendUint32(key, uint32(g))
		}
		return string(key)
	}
	for i, b := range right {
		row := d.t2.row(b)
		for _, g := range row {
			if d.inK[g] {
				byK[g] = append(byK[g], int32(i))
			}
		}
		k := setKey(row)
		bySet[k] = append(bySet[k], int32(i))
	}
	pairedL := make([]bool, len(left))
	pairedR := make([]bool, len(right))
	mark := make([]int32, len(right))
	var cand []int32
	for i, a := range left {
		cand = cand[:0]
		add := func(j int32) {
			if mark[j] != int32(i+1) {
				mark[j] = int32(i + 1)
				cand = append(cand, j)
			}
		}
		row := d.t1.row(a)
		for _, g := range row {
			for _, j := range byK[g] {
				add(j)
			}
		}
		for _, j := range bySet[setKey(row)] {
			add(j)
		}
		slices.Sort(cand)
		for _, j := range cand {
			d.mod = append(d.mod, modPair{a: a, b: right[j], origin: FromOuter})
			pairedL[i], pairedR[j] = true, true
		}
	}
	for i, a := range left {
		if !pairedL[i] {
			d.mod = append(d.mod, modPair{a: a, b: -1, origin: FromOuter})
		}
	}
	for j, b := range right {
		if !pairedR[j] {
			d.mod = append(d.mod, modPair{a: -1, b: b, origin: FromOuter})
		}
	}
}

// cover is repair R8: for each modified node that no ΔM tuple holds in both
// versions, in the order of the old table, ΔM gets the tuple made of the
// first old tuple and the first new tuple that hold it.
func (d *differ) cover() {
	shown := make([]bool, d.n)
	show := func(a, b int32) {
		d.stamp++
		for _, g := range d.t2.row(b) {
			d.m2[g] = d.stamp
		}
		for _, g := range d.t1.row(a) {
			if d.cls[g] == updated && d.m2[g] == d.stamp {
				shown[g] = true
			}
		}
	}
	for _, m := range d.mod {
		if m.a >= 0 && m.b >= 0 {
			show(m.a, m.b)
		}
	}
	first2 := d.firstHolders(d.t2, updated)
	for a := range d.t1.len() {
		for _, g := range d.t1.row(a) {
			if d.cls[g] == updated && !shown[g] {
				b := first2[g]
				d.mod = append(d.mod, modPair{a: a, b: b, origin: FromCover})
				show(a, b)
			}
		}
	}
}

// complete is repair R9 and its extension (Options.Complete): Δ+ and Δ- get
// every tuple that holds an added or deleted node, and every tuple with a
// modified node that is still in no delta table is paired, in table order,
// with the first tuple of the other table that holds its first modified
// node.
func (d *differ) complete() {
	in1 := make([]bool, d.t1.len())
	in2 := make([]bool, d.t2.len())
	mark := func(r rows, c class, set, in []bool) {
		for i := range r.len() {
			for _, g := range r.row(i) {
				if d.cls[g] == c {
					set[i] = true
				}
			}
			in[i] = set[i]
		}
	}
	mark(d.t1, deleted, d.minus, in1)
	mark(d.t2, added, d.plus, in2)
	for _, m := range d.mod {
		if m.a >= 0 {
			in1[m.a] = true
		}
		if m.b >= 0 {
			in2[m.b] = true
		}
	}
	firstModified := func(row []int32) int32 {
		for _, g := range row {
			if d.cls[g] == updated {
				return g
			}
		}
		return -1
	}
	first1 := d.firstHolders(d.t1, updated)
	first2 := d.firstHolders(d.t2, updated)
	for a := range d.t1.len() {
		if g := firstModified(d.t1.row(a)); !in1[a] && g >= 0 {
			b := first2[g]
			d.mod = append(d.mod, modPair{a: a, b: b, origin: FromComplete})
			in1[a], in2[b] = true, true
		}
	}
	for b := range d.t2.len() {
		if g := firstModified(d.t2.row(b)); !in2[b] && g >= 0 {
			a := first1[g]
			d.mod = append(d.mod, modPair{a: a, b: b, origin: FromComplete})
			in1[a], in2[b] = true, true
		}
	}
}
