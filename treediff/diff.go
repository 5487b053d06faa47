package treediff

import (
	"fmt"

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
		return []phase{idPhase{}, buldPhase{minLookupDepth}, bottomUp{}, topDown{}}, nil
	case Vigil:
		return []phase{idPhase{}, align{}, buldPhase{vigilLookupDepth}, bottomUp{}, topDown{}, recovery{}, leftovers{}, recovery{leftoversOnly: true}}, nil
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
// nothing else in either document.
func Diff(old, new *tree.Document, opt *Options) (*delta.Delta, error) {
	if old == nil || new == nil || old.Root == nil || new.Root == nil {
		return nil, fmt.Errorf("treediff: both versions need a root element")
	}
	pipeline, err := phases(opt.algorithm())
	if err != nil {
		return nil, err
	}
	first := old.Root.XID == 0
	m := newMatching(old, new, opt)
	// The roots always match; a different name becomes a rename.
	m.pair(int32(len(m.old.Nodes)-1), int32(len(m.new.Nodes)-1))
	for _, p := range pipeline {
		p.run(m)
	}
	same := m.sameSubtrees()
	// Signatures and name keys served the matching only: let a collection
	// during the delta's construction take them back.
	m.old.Signature, m.old.Name, m.new.Signature, m.new.Name = nil, nil, nil, nil
	m.oldName, m.newName, m.oldKey, m.newKey = nil, nil, nil, nil
	oldXIDs, newXIDs := m.assignXIDs(old, new, first)
	d, err := delta.BuildMatched(old, new, &delta.Matching{
		Old: m.old, New: m.new, NewToOld: m.newMatch, OldToNew: m.oldMatch, Same: same,
		OldXIDs: oldXIDs, NewXIDs: newXIDs,
	})
	if err != nil {
		return nil, fmt.Errorf("treediff: %w", err)
	}
	return d, nil
}

// sameSubtrees marks the new nodes whose whole subtree was zipped node for
// node with an identical old subtree: every node zipped, each child matched
// to a child of the node's match, in order.
func (m *matching) sameSubtrees() []bool {
	same := make([]bool, len(m.new.Nodes))
	for j := range m.new.Nodes { // post-order: children first
		if !m.zipped[j] {
			continue
		}
		i := m.newMatch[j]
		// Children side by side, from the last: each pair must be an
		// identical subtree, matched to each other.
		c, d := int32(j)-1, i-1
		startC, startD := int32(j)-m.new.Size[j], i-m.old.Size[i]
		ok := true
		for ; ok && c > startC && d > startD; c, d = c-m.new.Size[c], d-m.old.Size[d] {
			ok = same[c] && m.newMatch[c] == d
		}
		same[j] = ok && c == startC && d == startD
	}
	return same
}

// assignXIDs gives every new node the XID of its match, or a fresh one,
// and returns the XIDs of both versions in post-order. When first is set,
// old is a first version and gets XIDs too: its post-order ranks from 1.
func (m *matching) assignXIDs(old, new *tree.Document, first bool) (oldXIDs, newXIDs []tree.XID) {
	oldXIDs = make([]tree.XID, len(m.old.Nodes))
	if first {
		old.NextXID = tree.XID(len(m.old.Nodes) + 1)
	}
	var max tree.XID
	for i, n := range m.old.Nodes {
		if first {
			n.XID = tree.XID(i + 1)
		}
		oldXIDs[i] = n.XID
		if n.XID > max {
			max = n.XID
		}
	}
	next := old.NextXID
	if next <= max {
		next = max + 1
	}
	newXIDs = make([]tree.XID, len(m.new.Nodes))
	for j, n := range m.new.Nodes {
		if i := m.newMatch[j]; i >= 0 {
			n.XID = oldXIDs[i]
		} else {
			n.XID = next
			next++
		}
		newXIDs[j] = n.XID
	}
	new.NextXID = next
	return oldXIDs, newXIDs
}
