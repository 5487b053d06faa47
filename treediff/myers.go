package treediff

import "github.com/vigil-web/vigil/tree"

// myers is the working space of commonRun, kept from call to call.
type myers struct {
	sa, sb []tree.Signature
	bag    []bagSlot // common's table
	v      []int32   // furthest x on each diagonal k, at v[k+off]
	trace  []int32   // v of every step d, diagonals -d..d, from trace[d*d]
	// budget is the work (diagonal steps) left for the whole diff: a gap
	// gets as many edits as the budget pays for, so that many long gaps
	// with many changes cost a bounded multiple of the documents' size.
	budget int
}

// commonRun appends to out the pairs of a longest common subsequence, by
// signature, of the old children a[la:ha] and the new children b[lb:hb]
// (indexes into a and b, increasing on both sides), found by Myers' O(ND)
// algorithm when the two differ by at most maxD deletions and insertions
// (and the diff's budget pays for that many); it reports false, appending
// nothing, when they differ by more. minD is a lower bound of the edits
// (from signature counts, 0 if unknown): a gap that needs more than the
// budget pays for is given up before any work. Repeated
// children have no unique signature to anchor on: in a list a, b, c, a,
// b, c... in which a few items moved, pairing each old child with the next
// identical new one pairs most of them one item off, and the delta then
// moves a third of the list.
func (m *matching) commonRun(out [][2]int32, a, b []int32, la, ha, lb, hb, minD, maxD int) ([][2]int32, bool) {
	my := &m.myers
	n, k := ha-la, hb-lb
	if n+k == 0 {
		return out, true
	}
	maxD = min(maxD, n+k, my.budget/(n+k), 1024)
	if maxD < 1 || minD > maxD {
		return out, false
	}
	my.sa, my.sb = my.sa[:0], my.sb[:0]
	for _, x := range a[la:ha] {
		my.sa = append(my.sa, m.old.Signature[x])
	}
	for _, y := range b[lb:hb] {
		my.sb = append(my.sb, m.new.Signature[y])
	}
	sa, sb := my.sa, my.sb
	off := maxD + 1
	v := grow(&my.v, 2*maxD+3)
	v[off+1] = 0
	trace := my.trace[:0]
	for d := 0; d <= maxD; d++ {
		my.budget -= n + k
		for diag := -d; diag <= d; diag += 2 {
			var x int32
			if diag == -d || diag != d && v[off+diag-1] < v[off+diag+1] {
				x = v[off+diag+1] // down: an insertion
			} else {
				x = v[off+diag-1] + 1 // right: a deletion
			}
			y := x - int32(diag)
			for int(x) < n && int(y) < k && sa[x] == sb[y] {
				x, y = x+1, y+1
			}
			v[off+diag] = x
			if int(x) >= n && int(y) >= k {
				trace = append(trace, v[off-d:off+d+1]...)
				my.trace = trace
				start := len(out)
				out = appendSnakes(out, trace, d, n, k, la, lb)
				m.markDisplaced(out[start:], a, b, la, ha, lb, hb)
				return out, true
			}
		}
		trace = append(trace, v[off-d:off+d+1]...)
	}
	my.trace = trace
	return out, false
}

// appendSnakes walks Myers' trace back from (n, k), reached at step d, and
// appends the diagonal moves (the common elements) to out in increasing
// order, offset by la and lb.
func appendSnakes(out [][2]int32, trace []int32, d, n, k, la, lb int) [][2]int32 {
	start := len(out)
	x, y := n, k
	at := func(step, diag int) int { return int(trace[step*step+diag+step]) }
	for ; d > 0; d-- {
		diag := x - y
		var prev int
		if diag == -d || diag != d && at(d-1, diag-1) < at(d-1, diag+1) {
			prev = diag + 1
		} else {
			prev = diag - 1
		}
		px := at(d-1, prev)
		py := px - prev
		for x > px && y > py {
			x, y = x-1, y-1
			out = append(out, [2]int32{int32(la + x), int32(lb + y)})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		out = append(out, [2]int32{int32(la + x), int32(lb + y)})
	}
	// Found from the end: put them in order.
	for i, j := start, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// markDisplaced marks the children of a[la:ha] and b[lb:hb] left off the
// common run paired that have an identical child left off on the other
// side: repeated children that changed places (see displaced.swapped).
func (m *matching) markDisplaced(paired [][2]int32, a, b []int32, la, ha, lb, hb int) {
	if len(paired) == ha-la || len(paired) == hb-lb {
		return // one side is all paired: nothing changed places
	}
	counts := m.sigCounts.reset(ha - la - len(paired))
	k := 0
	for x := la; x < ha; x++ {
		if k < len(paired) && int(paired[k][0]) == x {
			k++
			continue
		}
		counts.addOld(m.old.Signature[a[x]])
	}
	k = 0
	for y := lb; y < hb; y++ {
		if k < len(paired) && int(paired[k][1]) == y {
			k++
			continue
		}
		if c := counts.find(m.new.Signature[b[y]]); c != nil {
			c.b = 1
			m.displaced.markNew(m, b[y])
		}
	}
	k = 0
	for x := la; x < ha; x++ {
		if k < len(paired) && int(paired[k][0]) == x {
			k++
			continue
		}
		if c := counts.find(m.old.Signature[a[x]]); c != nil && c.b != 0 {
			m.displaced.markOld(m, a[x])
		}
	}
}

// bagSlot counts the old children of one signature in common's table.
type bagSlot struct {
	key   tree.Signature
	count int32
	used  bool
}

// common returns how many pairs of identical children the old children a
// and the new children b have, order aside: the sum over signatures of the
// smaller count. No common run pairs more, so n + k - 2 * common edits at
// least are left; it costs a look-up a child, against Myers' n + k a step.
func (my *myers) common(m *matching, a, b []int32) int {
	slot := my.emptyBag(len(a))
	for _, x := range a {
		c := slot(m.old.Signature[x])
		c.key, c.used = m.old.Signature[x], true
		c.count++
	}
	n := 0
	for _, y := range b {
		if c := slot(m.new.Signature[y]); c.used && c.count > 0 {
			c.count--
			n++
		}
	}
	return n
}

// emptyBag clears the bag for up to n signatures and returns its look-up:
// the slot of a signature, its own or the empty one it would take.
func (my *myers) emptyBag(n int) func(tree.Signature) *bagSlot {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	if cap(my.bag) < size {
		my.bag = make([]bagSlot, size)
	} else {
		my.bag = my.bag[:size]
		clear(my.bag)
	}
	mask := uint64(size - 1)
	return func(sig tree.Signature) *bagSlot {
		for s := uint64(sig) * 0x9e3779b97f4a7c15 >> 7 & mask; ; s = (s + 1) & mask {
			if c := &my.bag[s]; !c.used || c.key == sig {
				return c
			}
		}
	}
}
