package treediff

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// phase is one step of the matching. Phases share the matching state and run
// in order; each only adds pairs.
type phase interface {
	name() string
	run(m *matching)
}

// phases returns the matching pipeline of an algorithm.
func phases(a Algorithm) ([]phase, error) {
	switch a {
	case XyDiff:
		return []phase{idPhase{}, buldPhase{minDepth: minLookupDepth}, bottomUp{}, topDown{}}, nil
	case Vigil:
		return []phase{idPhase{}, align{}, buldPhase{minDepth: vigilLookupDepth, siblings: true}, bottomUp{}, strayMoves{}, topDown{inOrder: true}, recovery{}, leftovers{}, recovery{leftoversOnly: true}}, nil
	}
	return nil, fmt.Errorf("treediff: unknown algorithm %q", a)
}

// Diff computes the delta that turns old into new.
//
// If old has no XIDs yet (its root's XID is 0), it is given the XIDs of a
// first version (post-order from 1). new is given XIDs: a matched node takes
// the XID of its old counterpart, an unmatched one a fresh XID from
// old.NextXID, in post-order, and new.NextXID is set past them, so that new
// can be stored and diffed against the next version in turn. Diff changes
// nothing else in either document but the nodes' Post fields.
//
// Diff lays both trees out as tree.Flat and calls DiffFlat: a caller that
// parses its documents for the diff alone does better to parse them flat
// (markup.ParseXMLFlat) and call DiffFlat itself.
func Diff(old, new *tree.Document, opt *Options) (*delta.Delta, error) {
	if old == nil || new == nil || old.Root == nil || new.Root == nil {
		return nil, fmt.Errorf("treediff: both versions need a root element")
	}
	of, oldNodes := tree.FlattenDocument(old)
	nf, newNodes := tree.FlattenDocument(new)
	first := of.XID == nil
	d, err := DiffFlat(of, nf, opt)
	if err != nil {
		return nil, err
	}
	if first {
		for i, n := range oldNodes {
			n.XID = of.XID[i]
		}
		old.NextXID = of.NextXID
	}
	for j, n := range newNodes {
		n.XID = nf.XID[j]
	}
	new.NextXID = nf.NextXID
	return d, nil
}

// DiffFlat is Diff on flat trees. old gets the XIDs of a first version if
// its XID is nil; new gets its XIDs and NextXID as Diff gives them, in a new
// array. Nothing else changes in either tree. The delta shares the trees'
// strings and, as its XID-maps, their XID arrays (a copy would cost 16
// bytes a node): do not modify old.XID or new.XID while the delta is in
// use.
func DiffFlat(old, new *tree.Flat, opt *Options) (*delta.Delta, error) {
	if old == nil || new == nil || old.Len() == 0 || new.Len() == 0 {
		return nil, fmt.Errorf("treediff: both versions need a root element")
	}
	if old.XID != nil && len(old.XID) != old.Len() {
		return nil, fmt.Errorf("treediff: the old version has %d XIDs for %d nodes", len(old.XID), old.Len())
	}
	first := old.XID == nil || old.XID[old.Root()] == 0
	m, err := match(old, new, opt)
	if err != nil {
		return nil, err
	}
	return m.buildDelta(first)
}

// buildDelta gives the new version its XIDs (and the old one a first
// version's, when first is set) and builds the delta of the matching, once
// the phases are done. It fails, leaving new's XIDs as they were, when the
// XIDs would run out.
func (m *matching) buildDelta(first bool) (*delta.Delta, error) {
	new := m.new.Flat
	same := m.sameSubtrees()
	// Signatures and name classes served the matching only: the
	// signatures' arrays, eight bytes a node as the XIDs are, become the
	// XIDs' (see xidRoom); a collection during the delta's construction
	// may take the name classes back.
	oldSigs, newSigs := m.old.Signature, m.new.Signature
	m.old.Signature, m.new.Signature = nil, nil
	m.oldName, m.newName, m.oldKey, m.newKey = classes{}, classes{}, nil, nil
	newXID, newNext := new.XID, new.NextXID
	if err := m.assignXIDsIn(first, oldSigs, newSigs); err != nil {
		new.XID, new.NextXID = newXID, newNext
		return nil, err
	}
	d, err := delta.BuildMatched(&delta.Matching{
		Old: m.old, New: m.new, NewToOld: m.newMatch, OldToNew: m.oldMatch, Same: same,
		Consistent: true, // every phase pairs nodes of one kind, and assignXIDs gave the XIDs
	})
	if err != nil {
		return nil, fmt.Errorf("treediff: %w", err)
	}
	return d, nil
}

// match pairs the nodes of old and new with the phases of opt's algorithm.
func match(old, new *tree.Flat, opt *Options) (*matching, error) {
	pipeline, err := phases(opt.algorithm())
	if err != nil {
		return nil, err
	}
	m := newMatching(old, new, opt)
	// The roots always match; a different name becomes a rename.
	m.pair(m.old.Root(), m.new.Root())
	for _, p := range pipeline {
		p.run(m)
	}
	return m, nil
}

// sameSubtrees marks the new nodes whose whole subtree is matched node for
// node with an identical old subtree: each node zipped with its match or of
// the same signature, each child matched to a child of the node's match, in
// order, and marked in turn. The phases after the heaviest-first one pair
// many such subtrees one node at a time (the unchanged fields of a changed
// record): marked, the delta need not compare their values or look inside.
// An equal signature stands for equal content, as it does for the zip.
//
// The marks take over zipped's array, a byte a new node, which the phases
// no longer need: node j's mark is written once zipped[j] is read, and the
// marks read are those of nodes before j. Call it once, after the phases;
// zipped is nil after.
func (m *matching) sameSubtrees() []bool {
	same := m.zipped
	m.zipped = nil
	for j := range m.new.Len() { // post-order: children first
		i := m.newMatch[j]
		if i < 0 {
			same[j] = false
			continue
		}
		// Children side by side, from the last: each pair must be an
		// identical subtree, matched to each other. (A child that is
		// one is as large as its match: the walk along old steps by the
		// new child's size.)
		c, d := int32(j)-1, i-1
		startC, startD := int32(j)-m.new.Size[j], i-m.old.Size[i]
		ok := true
		for ; ok && c > startC && d > startD; c, d = c-m.new.Size[c], d-m.new.Size[c] {
			ok = same[c] && m.newMatch[c] == d
		}
		// The signatures last: eight bytes a node on each side, read
		// only for a node whose children passed.
		same[j] = ok && c == startC && d == startD &&
			(same[j] || m.old.Signature[i] == m.new.Signature[j])
	}
	return same
}

// assignXIDs gives every new node the XID of its match, or a fresh one.
// When first is set, old is a first version and gets XIDs too: its
// post-order ranks from 1. It fails when the fresh XIDs would run past
// the largest XID, math.MaxUint64, kept unallocated so that NextXID stays
// above every XID: an old version that holds it, or whose NextXID leaves
// too few below it for the new nodes.
func (m *matching) assignXIDs(first bool) error { return m.assignXIDsIn(first, nil, nil) }

// assignXIDsIn is assignXIDs, given arrays no longer used (the signatures
// of old and new, or nil) that the XIDs may take over (see xidRoom).
func (m *matching) assignXIDsIn(first bool, oldRoom, newRoom []tree.Signature) error {
	old, new := m.old.Flat, m.new.Flat
	// Always a new array: an earlier delta's XID-map may be new's former
	// XIDs (see DiffFlat).
	new.XID = xidRoom(newRoom, new.Len())
	if first {
		old.XID = xidRoom(oldRoom, old.Len())
		for i := range old.XID {
			old.XID[i] = tree.XID(i + 1)
		}
		old.NextXID = tree.XID(old.Len() + 1)
		// A matched node's XID is its match's rank: known without a read
		// of old.XID at the match, a place in memory the pass over new
		// does not otherwise touch.
		next := old.NextXID
		for j, i := range m.newMatch {
			if i >= 0 {
				new.XID[j] = tree.XID(i + 1)
			} else {
				new.XID[j] = next
				next++
			}
		}
		new.NextXID = next
		return nil
	}
	next := old.NextXID
	for _, x := range old.XID {
		if x >= next {
			next = x + 1
		}
	}
	start := next
	for j, i := range m.newMatch {
		if i >= 0 {
			new.XID[j] = old.XID[i]
		} else {
			new.XID[j] = next
			next++
		}
	}
	new.NextXID = next
	switch {
	case start == 0: // the largest plus one
		return fmt.Errorf("treediff: the old version holds XID %d, the largest, which leaves none to allocate next", uint64(math.MaxUint64))
	case next < start || next == math.MaxUint64:
		return fmt.Errorf("treediff: the old version's next XID %d leaves too few below %d, the largest, for the %d nodes the new version adds", start, uint64(math.MaxUint64), next-start)
	}
	return nil
}

// xidRoom returns an array for n XIDs, every one of which the caller
// sets: room's memory, when room holds n signatures no longer needed, or
// a new array. A diff measures both versions for their signatures, eight
// bytes a node, and gives them XIDs, eight bytes a node too, once the
// signatures have served: one array serves both. On a pair of 10 MB
// documents that is 10 MB the diff does not ask the runtime for, which it
// would clear and, when it had given those pages back to the system,
// fault in again one page at a time (a tenth of what the diff allocates,
// and a tenth of its page faults).
func xidRoom(room []tree.Signature, n int) []tree.XID {
	if len(room) != n || n == 0 {
		return make([]tree.XID, n)
	}
	// Both are 64-bit integers: the declarations below check it.
	return unsafe.Slice((*tree.XID)(unsafe.Pointer(unsafe.SliceData(room))), n)
}

// These fail to compile unless a signature and an XID have the same size.
var (
	_ [unsafe.Sizeof(tree.XID(0)) - unsafe.Sizeof(tree.Signature(0))]struct{}
	_ [unsafe.Sizeof(tree.Signature(0)) - unsafe.Sizeof(tree.XID(0))]struct{}
)
