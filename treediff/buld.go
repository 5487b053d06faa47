package treediff

import (
	"container/heap"
	"math"

	"github.com/vigil-web/vigil/tree"
)

// Constants of the candidate search (thesis §3.3, §3.5.3; the XyDiff tool's
// values, see doc.go).
const (
	// minLookupDepth is the number of ancestor levels always searched for an
	// anchor, whatever the weight of the subtree.
	minLookupDepth = 3
	// lookupFactor scales the extra levels a heavy subtree may search:
	// dmax = minLookupDepth + floor(lookupFactor * ln(N) * W / W0).
	lookupFactor = 5
	// indexThreshold is the number of candidates above which the candidates
	// of a signature are indexed by ancestor instead of scanned.
	indexThreshold = 16
)

// buldPhase is the seed's phase 3, "bottom-up, lazy-down": the subtrees of
// the new version are taken heaviest first from a priority queue and
// matched with an identical old subtree, preferring the candidate whose
// ancestor is already matched with the new subtree's ancestor at the lowest
// level; on success the ancestors are matched too, as far as the anchor.
type buldPhase struct{}

func (buldPhase) name() string { return "buld" }

func (buldPhase) run(m *matching) {
	c := newCandidates(m)
	newRoot := int32(len(m.new.Nodes) - 1)
	w0 := m.new.Weight[newRoot]
	logN := math.Log(float64(len(m.new.Nodes)) + 1)
	q := &queue{m: m}
	q.push(newRoot)
	for q.Len() > 0 {
		j := heap.Pop(q).(int32)
		if m.zipped[j] {
			continue // inside an identical subtree: everything below is matched
		}
		if m.newMatch[j] < 0 {
			dmax := minLookupDepth + int(lookupFactor*logN*m.new.Weight[j]/w0)
			if i, level := c.best(j, dmax); i >= 0 {
				m.zip(i, j)
				m.forceAncestors(i, j, level-1)
				continue
			}
		}
		for _, ch := range m.new.Nodes[j].Children {
			q.push(newIndex(ch))
		}
	}
}

// forceAncestors matches up to levels ancestors of old node i and new node j
// pairwise, stopping at the first pair that cannot be matched (already
// matched, or a different name or ID).
func (m *matching) forceAncestors(i, j int32, levels int) {
	for ; levels > 0; levels-- {
		i, j = parentIndex(m.old.Nodes[i]), parentIndex(m.new.Nodes[j])
		if i < 0 || j < 0 || !m.canMatch(i, j) {
			return
		}
		m.pair(i, j)
	}
}

// queue is a max-heap of new nodes by subtree weight; ties go to the node
// that comes first in post-order, so the order is deterministic.
type queue struct {
	m     *matching
	items []int32
}

func (q *queue) Len() int { return len(q.items) }
func (q *queue) Less(a, b int) bool {
	wa, wb := q.m.new.Weight[q.items[a]], q.m.new.Weight[q.items[b]]
	if wa != wb {
		return wa > wb
	}
	return q.items[a] < q.items[b]
}
func (q *queue) Swap(a, b int) { q.items[a], q.items[b] = q.items[b], q.items[a] }
func (q *queue) Push(x any)    { q.items = append(q.items, x.(int32)) }
func (q *queue) Pop() any {
	x := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return x
}
func (q *queue) push(j int32) { heap.Push(q, j) }

// candidates indexes the old subtrees by signature, in document order.
type candidates struct {
	m      *matching
	bySig  map[tree.Signature][]int32
	newSig map[tree.Signature]int32 // number of new subtrees per signature, counted lazily
	// byAnc indexes long candidate lists by (signature, level, old ancestor).
	byAnc map[ancKey][]int32
	built map[tree.Signature]bool
}

type ancKey struct {
	sig   tree.Signature
	level int
	anc   int32
}

func newCandidates(m *matching) *candidates {
	c := &candidates{
		m:     m,
		bySig: make(map[tree.Signature][]int32, len(m.old.Nodes)/2),
		byAnc: map[ancKey][]int32{},
		built: map[tree.Signature]bool{},
	}
	for i, s := range m.old.Signature {
		if m.oldMatch[i] < 0 {
			c.bySig[s] = append(c.bySig[s], int32(i))
		}
	}
	return c
}

// ancestor returns the index of the level-th ancestor of node n in the
// measure t, or -1.
func ancestor(n *tree.Node, level int) int32 {
	for ; level > 0 && n != nil; level-- {
		n = n.Parent
	}
	if n == nil {
		return -1
	}
	return n.Post - 1
}

// best returns the old subtree to match with new node j, and the level of
// the ancestor that anchors it, or -1.
//
// A candidate is an unmatched old subtree with the same signature. For
// level k = 1..dmax, if the new node's k-th ancestor is matched, the first
// free candidate whose k-th ancestor is that ancestor's match wins. When no
// ancestor anchors a candidate, a signature that occurs exactly once in each
// version is matched anyway (a move), with its ancestors up to dmax levels.
func (c *candidates) best(j int32, dmax int) (int32, int) {
	m := c.m
	sig := m.new.Signature[j]
	list := c.bySig[sig]
	if len(list) == 0 {
		return -1, 0
	}
	v := m.new.Nodes[j]
	a := v
	for k := 1; k <= dmax; k++ {
		a = a.Parent
		if a == nil {
			break
		}
		target := m.newMatch[newIndex(a)]
		if target < 0 {
			continue
		}
		if i := c.anchored(sig, list, k, target, j); i >= 0 {
			return i, k
		}
	}
	// Unique on both sides: the same content, wherever it went.
	if free := c.free(sig, list); len(free) == 1 && c.countNew(sig) == 1 && m.canMatch(free[0], j) {
		return free[0], dmax
	}
	return -1, 0
}

// anchored returns the first free candidate of sig whose level-th ancestor is
// old node target.
func (c *candidates) anchored(sig tree.Signature, list []int32, level int, target, j int32) int32 {
	m := c.m
	if len(list) > indexThreshold {
		if !c.built[sig] {
			c.built[sig] = true
			for _, i := range list {
				for k := 1; k <= minLookupDepth; k++ {
					if a := ancestor(m.old.Nodes[i], k); a >= 0 {
						key := ancKey{sig, k, a}
						c.byAnc[key] = append(c.byAnc[key], i)
					}
				}
			}
		}
		if level <= minLookupDepth {
			for _, i := range c.byAnc[ancKey{sig, level, target}] {
				if m.canMatch(i, j) {
					return i
				}
			}
			return -1
		}
	}
	for _, i := range list {
		if m.canMatch(i, j) && ancestor(m.old.Nodes[i], level) == target {
			return i
		}
	}
	return -1
}

// free returns the unmatched candidates of sig, compacting the list as a
// side effect so that matched candidates are not scanned again.
func (c *candidates) free(sig tree.Signature, list []int32) []int32 {
	out := list[:0]
	for _, i := range list {
		if c.m.oldMatch[i] < 0 {
			out = append(out, i)
		}
	}
	c.bySig[sig] = out
	return out
}

// countNew returns the number of new subtrees with signature sig (counted
// once, on first use).
func (c *candidates) countNew(sig tree.Signature) int32 {
	if c.newSig == nil {
		c.newSig = make(map[tree.Signature]int32, len(c.m.new.Nodes)/2)
		for _, s := range c.m.new.Signature {
			c.newSig[s]++
		}
	}
	return c.newSig[sig]
}
