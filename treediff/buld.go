package treediff

import (
	"math"
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// Constants of the candidate search (thesis §3.3, §3.5.3; the XyDiff tool's
// values, see doc.go).
const (
	// minLookupDepth is the number of ancestor levels always searched for an
	// anchor, whatever the weight of the subtree, by the XyDiff algorithm.
	minLookupDepth = 3
	// vigilLookupDepth is the same for the Vigil algorithm: a light subtree
	// looks only at its parent, as the thesis's formula d = 1 + h·W/W0 has
	// it; the exact recovery matches what is left nearby, better than a far
	// anchor would.
	vigilLookupDepth = 1
	// scanChildren is the largest number of children of an anchor that are
	// scanned for a level-1 candidate; above it, the candidate list is used.
	scanChildren = 64
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
type buldPhase struct {
	// minDepth is the number of ancestor levels always searched.
	minDepth int
	// siblings (Vigil's default) prefers, among the candidates of a
	// parent, the one beside the matches of the new node's siblings (see
	// candidates.beside).
	siblings bool
}

func (buldPhase) name() string { return "buld" }

func (p buldPhase) run(m *matching) {
	c := newCandidates(m)
	c.siblings = p.siblings
	newRoot := m.new.Root()
	w0 := float64(m.new.Weight[newRoot])
	logN := math.Log(float64(m.new.Len()) + 1)
	q := &queue{last: weightKey(w0), spare: &m.spare}
	// Only unmatched nodes are queued, each with what its look-up needs,
	// read while its parent is at hand: the queue yields nodes in weight
	// order, all over the tree, and a node's own arrays would cost a cache
	// miss each. A matched node is looked through to its children at once:
	// nothing else happens to it, and its children weigh less than the node
	// just popped, as the queue needs. A queued node stays unmatched until
	// it is popped: only the subtree and the ancestors of a popped node are
	// matched, and the ancestors were popped (or looked through) before.
	//
	// A node whose signature no unmatched old node has cannot be matched
	// when popped: it is looked through at once too, its children queued
	// while its subtree is at hand rather than when it would have been
	// popped, from memory. Its children weigh less than it, and it than the
	// node popped last, so the order of the pops is the same. The table is
	// looked up as a node is queued (the table does not change during the
	// phase): the look-ups of siblings, one after the other, wait for
	// memory together, where a look-up at each pop would wait alone; the
	// table's filter spares the look-up of most signatures it lacks.
	//
	// So is a node under an unmatched parent that searches its parent
	// alone (dmax 1) and whose signature is not unique on both sides: best
	// has nothing to find for it. Its parent stays unmatched: only
	// forceAncestors could match it, for a node below it matched at a
	// level above 1, which no node as light as the parent searches. On a
	// large document most of the nodes queued are such (the changed
	// records' fields, whose values repeat).
	depthOf := func(w float64) int { return p.minDepth + int(lookupFactor*logN*w/w0) }
	var through, kids []int32
	queueChildren := func(j int32) {
		through = append(through[:0], j)
		for len(through) > 0 {
			x := through[len(through)-1]
			through = through[:len(through)-1]
			// x's match, read once for all its children queued.
			target := m.newMatch[x]
			hopeless := target < 0 && depthOf(float64(m.new.Weight[x])) == 1
			kids = m.new.AppendChildren(kids[:0], x)
			for _, k := range kids {
				switch {
				case m.zipped[k]:
				case m.newMatch[k] >= 0:
					through = push(through, k)
				default:
					sig := m.new.Signature[k]
					if !c.old.mayHave(sig) {
						through = push(through, k)
						continue
					}
					e := c.old.lookup(sig)
					if e.first < 0 || hopeless && !e.uniqueBothSides() {
						through = push(through, k)
						continue
					}
					q.push(queued{key: weightKey(float64(m.new.Weight[k])), sig: sig, node: k, parent: x, target: target, sigEntry: e})
				}
			}
		}
	}
	if m.newMatch[newRoot] >= 0 {
		queueChildren(newRoot)
	} else {
		sig := m.new.Signature[newRoot]
		q.push(queued{key: weightKey(w0), sig: sig, node: newRoot, parent: -1, target: -1, sigEntry: c.old.lookup(sig)})
	}
	lightMoves := m.lightMoves[:0] // short values matched as unique on both sides
	for q.n > 0 {
		it := q.pop()
		dmax := depthOf(it.weight())
		if i, level, unique := c.best(it, dmax); i >= 0 {
			m.zip(i, it.node)
			if level > 1 {
				m.forceAncestors(i, it.node, level-1)
				c.forced = true
			}
			// The subtrees are identical: the new one's weight is the
			// old one's, read without a look at the old one's weights.
			if unique && level == 1 && it.weight() <= strayWeight && shortValue(m.oldSize[i], it.weight()) {
				lightMoves = push(lightMoves, [2]int32{i, it.node})
			}
			continue
		}
		queueChildren(it.node)
	}
	m.lightMoves = m.unpairStrayMoves(lightMoves)
	m.candidateWork += c.work
	c.old.release(&m.spare)
	q.release()
}

// forceAncestors matches up to levels ancestors of old node i and new node j
// pairwise, stopping at the first pair that cannot be matched (already
// matched, or a different name or ID).
func (m *matching) forceAncestors(i, j int32, levels int) {
	for ; levels > 0; levels-- {
		i, j = m.oldParent[i], m.newParent[j]
		if i < 0 || j < 0 || !m.canMatch(i, j) {
			return
		}
		m.pair(i, j)
	}
}

// twinFree reports whether old node i, of the signature of new node j,
// the node the phase popped, may be paired with it: whether i is unmatched
// and has j's ID key. The rest of canMatch holds already: equal signatures
// hash equal kinds and names (zip trusts them the same way for a whole
// subtree), and a queued node stays unmatched until it is popped (see run).
// The key is checked still: a tree built in code may give an element one
// attribute name twice, and the signature, which sums its attributes in
// any order, does not tell which value comes first, the one the key takes.
// Reading oldMatch alone, when no attribute is a key, spares the three
// other arrays canMatch reads, each a miss of the cache for a candidate
// anywhere in a large document.
func (m *matching) twinFree(i, j int32) bool { return m.oldMatch[i] < 0 && m.sameKey(i, j) }

// candidates finds old subtrees identical to a new one.
type candidates struct {
	m   *matching
	old *sigTable // unmatched old subtrees by signature, with new counts
	// byAnc indexes long candidate lists by (signature, level, old ancestor).
	byAnc map[ancKey]*candList
	built map[tree.Signature]bool
	// siblings: see buldPhase.
	siblings bool
	// forced says that forceAncestors matched ancestors of a match: the
	// only way a node the phase looked through gets matched after its
	// children were queued.
	forced bool
	// work counts the candidates anchored looked at and the places its
	// candidate lists' scans stepped through (candList.free): a count,
	// not a time, for the tests' check that it grows as the document
	// does and no scan goes quadratic.
	work int
}

type ancKey struct {
	sig   tree.Signature
	level int
	anc   int32
}

func newCandidates(m *matching) *candidates {
	c := &candidates{
		m:     m,
		old:   newSigTable(&m.spare, m.old.Signature, m.oldMatch),
		byAnc: map[ancKey]*candList{},
		built: map[tree.Signature]bool{},
	}
	c.old.countOthers(m.new.Signature)
	return c
}

// ancestor returns the index of the level-th ancestor of node i, given the
// parents of its tree, or -1.
func ancestor(parent []int32, i int32, level int) int32 {
	for ; level > 0 && i >= 0; level-- {
		i = parent[i]
	}
	return i
}

// best returns the old subtree to match with the queued new node j, and
// the level of the ancestor that anchors it, or -1; unique says it was
// matched by the "unique on both sides" rule, no ancestor anchoring it.
//
// A candidate is an unmatched old subtree with the same signature. For
// level k = 1..dmax, if the new node's k-th ancestor is matched, the first
// free candidate whose k-th ancestor is that ancestor's match wins. When no
// ancestor anchors a candidate, a signature that occurs exactly once in each
// version is matched anyway (a move), with its ancestors up to dmax levels.
func (c *candidates) best(it queued, dmax int) (i int32, level int, unique bool) {
	m := c.m
	j, sig := it.node, it.sig
	first, count := it.first, int32(it.count)
	if first < 0 {
		return -1, 0, false
	}
	for k, a := 1, it.parent; a >= 0; k++ {
		// The parent's match as it was when j was queued holds unless
		// an ancestor was forced since (see queued.target).
		target := it.target
		if k > 1 || (target < 0 && c.forced) {
			target = m.newMatch[a]
		}
		if target >= 0 {
			if i := c.anchored(sig, first, count, k, target, j); i >= 0 {
				return i, k, false
			}
		}
		if k == dmax {
			// Before the read of the next ancestor: at the last level,
			// the only one of most nodes, that read would be a miss of
			// the cache on a large document, its result unused.
			break
		}
		a = m.newParent[a]
	}
	// Unique on both sides: the same content, wherever it went.
	if it.uniqueBothSides() {
		if i := c.old.node(first); m.twinFree(i, j) {
			return i, dmax, true
		}
	}
	return -1, 0, false
}

// anchored returns the first free candidate of sig whose level-th ancestor is
// old node target. first is the first link of sig's chain in c.old (see
// sigTable.lookup), count its length. With siblings, a level-1 candidate
// is the one beside the matches of j's siblings if there is one, and
// otherwise the first that no other new node's siblings claim; for a
// text of no letter or digit (a separator, see pairIdenticalRegions),
// only one between the matches of its siblings, and none when no sibling
// near it is matched (see between). After maxClaimedSkips claimed
// candidates, it gives up.
func (c *candidates) anchored(sig tree.Signature, first, count int32, level int, target, j int32) int32 {
	m := c.m
	// take tells whether candidate i (free or not) is the one; stop, that
	// no candidate after it can be.
	take := func(i int32) (ok, stop bool) { c.work++; return m.twinFree(i, j), false }
	lo, hi := int32(-1), int32(m.old.Len())
	if level == 1 && c.siblings {
		if i := c.beside(sig, target, j); i >= 0 {
			return i
		}
		if m.new.Kind[j] == tree.Text && !hasWordChar(m.new.Value(j)) {
			// A separator does not move: only between the matches of
			// its siblings.
			var placed bool
			if lo, hi, placed = c.between(target, j); !placed {
				return -1
			}
		}
		skips := 0
		take = func(i int32) (ok, stop bool) {
			c.work++
			if !m.twinFree(i, j) {
				return false, false
			}
			if c.claimed(i, sig, j) {
				skips++
				return false, skips >= maxClaimedSkips
			}
			return true, false
		}
	}
	// Candidates come in document order: those at or before lo are passed
	// over and the scan ends at hi.
	if level == 1 && m.old.ChildCount(target) <= scanChildren {
		// The anchor's children are few: look among them directly.
		for _, i := range m.oldChildren(target) {
			if i <= lo || m.old.Signature[i] != sig {
				continue
			}
			if i >= hi {
				break
			}
			if ok, stop := take(i); ok {
				return i
			} else if stop {
				break
			}
		}
		return -1
	}
	if count > indexThreshold {
		if !c.built[sig] {
			c.built[sig] = true
			for l := first; l >= 0; l = c.old.next(l) {
				i := c.old.node(l)
				for k := 1; k <= minLookupDepth; k++ {
					if a := ancestor(m.oldParent, i, k); a >= 0 {
						key := ancKey{sig, k, a}
						list := c.byAnc[key]
						if list == nil {
							list = &candList{}
							c.byAnc[key] = list
						}
						list.nodes = append(list.nodes, i)
					}
				}
			}
		}
		if level <= minLookupDepth {
			list := c.byAnc[ancKey{sig, level, target}]
			if list == nil {
				return -1
			}
			for k := list.free(m.oldMatch, list.after(lo), &c.work); k < len(list.nodes); k = list.free(m.oldMatch, k+1, &c.work) {
				i := list.nodes[k]
				if i >= hi {
					break
				}
				if ok, stop := take(i); ok {
					return i
				} else if stop {
					break
				}
			}
			return -1
		}
	}
	for l := first; l >= 0; l = c.old.next(l) {
		i := c.old.node(l)
		if i <= lo || ancestor(m.oldParent, i, level) != target {
			continue
		}
		if i >= hi {
			break
		}
		if ok, stop := take(i); ok {
			return i
		} else if stop {
			break
		}
	}
	return -1
}

// candList is a list of old candidates, in document order, of one
// signature under one ancestor. Candidates get matched in any order, not
// only from the front: a scan passes over the matched ones through skip,
// so that each costs the scans O(1) amortised, where a scan from the first
// unmatched one would read a long list of repeated children again for
// each node (quadratic).
type candList struct {
	nodes []int32
	// skip[k] is a place at or before the first unmatched candidate from
	// k on (k itself if nodes[k] was unmatched when last looked at), with
	// paths compressed as in a union-find. It is nil until a scan first
	// meets a matched candidate after an unmatched one.
	skip []int32
	// head is the place of the first unmatched candidate when last looked
	// at: candidates are mostly taken in document order, and matched ones
	// gather at the front, passed over by moving head on, with nothing
	// to allocate (matches only grow while the phase scans).
	head int
}

// after returns the place of the first candidate after old node lo (the
// first when lo < 0).
func (l *candList) after(lo int32) int {
	if lo < 0 {
		return 0
	}
	k, _ := slices.BinarySearch(l.nodes, lo+1)
	return k
}

// free returns the place of the first unmatched candidate from place k
// on, or len(l.nodes), given the old nodes' matches; it adds the places it
// stepped through to *steps.
func (l *candList) free(match []int32, k int, steps *int) int {
	n := len(l.nodes)
	if k <= l.head {
		for l.head < n && match[l.nodes[l.head]] >= 0 {
			*steps++
			l.head++
		}
		return l.head
	}
	r := k
	for r < n {
		*steps++
		if l.skip != nil {
			if s := int(l.skip[r]); s != r {
				r = s
				continue
			}
		}
		if match[l.nodes[r]] < 0 {
			break
		}
		if l.skip == nil {
			l.skip = make([]int32, n)
			for x := range l.skip {
				l.skip[x] = int32(x)
			}
		}
		l.skip[r] = int32(r + 1)
		r++
	}
	for k < r && k < n { // compress the path
		*steps++
		next := int(l.skip[k])
		l.skip[k] = int32(r)
		k = next
	}
	return r
}

// maxClaimedSkips bounds the claimed candidates anchored passes over for
// one node (see candidates.claimed), so that a long list of repeated
// children costs a bounded look-up a node; past it, the node is left to
// the recovery.
const maxClaimedSkips = 64

// beside returns the candidate for new node j among the children of old
// node target, its parent's match, that j's siblings give: the child after
// the match of the sibling before j, or the child before the match of the
// sibling after j, when it is a free subtree identical to j; or -1. Taking
// the first free candidate of the parent instead pairs repeated children
// (the ", " between links) one place off from wherever one was inserted or
// deleted before them, and each pair after that is a move.
func (c *candidates) beside(sig tree.Signature, target, j int32) int32 {
	m := c.m
	if prev := prevSibling(m.new.Flat, j); prev >= 0 {
		if x := m.newMatch[prev]; x >= 0 && m.oldParent[x] == target {
			if i := nextSibling(m.old.Flat, x); i >= 0 && m.old.Signature[i] == sig && m.twinFree(i, j) {
				return i
			}
		}
	}
	if next := nextSibling(m.new.Flat, j); next >= 0 {
		if y := m.newMatch[next]; y >= 0 && m.oldParent[y] == target {
			if i := prevSibling(m.old.Flat, y); i >= 0 && m.old.Signature[i] == sig && m.twinFree(i, j) {
				return i
			}
		}
	}
	return -1
}

// claimed reports whether old candidate i, of signature sig, is the place
// another new node than j will get from beside: a free node of the same
// signature stands beside the match of one of i's siblings. (The separator
// after an inserted link would take the first free separator, the one
// after the next link, whose own new separator comes later.)
func (c *candidates) claimed(i int32, sig tree.Signature, j int32) bool {
	m := c.m
	if prev := prevSibling(m.old.Flat, i); prev >= 0 {
		if y := m.oldMatch[prev]; y >= 0 {
			if n := nextSibling(m.new.Flat, y); n >= 0 && n != j && m.newMatch[n] < 0 && m.new.Signature[n] == sig {
				return true
			}
		}
	}
	if next := nextSibling(m.old.Flat, i); next >= 0 {
		if y := m.oldMatch[next]; y >= 0 {
			if p := prevSibling(m.new.Flat, y); p >= 0 && p != j && m.newMatch[p] < 0 && m.new.Signature[p] == sig {
				return true
			}
		}
	}
	return false
}

// between returns the bounds (exclusive, as node indexes of the old
// version) between which j's siblings place its match among target's
// children: after the match of the nearest sibling before j matched to a
// child of target, before the subtree of the nearest such sibling after j,
// each looked for among alignWindow siblings; a side with no sibling
// before (after) j bounds nothing. ok is false when one side has more
// siblings than that and none matched there: j's place is not known, and
// a separator paired anywhere would be a move.
func (c *candidates) between(target, j int32) (lo, hi int32, ok bool) {
	m := c.m
	lo, hi = -1, int32(m.old.Len())
	prev := prevSibling(m.new.Flat, j)
	for k := 0; prev >= 0; k, prev = k+1, prevSibling(m.new.Flat, prev) {
		if k == alignWindow {
			return lo, hi, false
		}
		if x := m.newMatch[prev]; x >= 0 && m.oldParent[x] == target {
			lo = x
			break
		}
	}
	next := nextSibling(m.new.Flat, j)
	for k := 0; next >= 0; k, next = k+1, nextSibling(m.new.Flat, next) {
		if k == alignWindow {
			return lo, hi, false
		}
		if y := m.newMatch[next]; y >= 0 && m.oldParent[y] == target {
			hi = y - m.old.Size[y] + 1
			break
		}
	}
	return lo, hi, true
}
