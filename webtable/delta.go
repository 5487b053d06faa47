package webtable

import (
	"fmt"
	"slices"
)

// Options selects the repairs of Algorithm Delta that change its results
// (seed 000 notes §4.12, R7-R9). The zero Options is the seed's algorithm with
// the repairs that only make it run (R1-R6, R10).
type Options struct {
	// Strict (repair R7) admits a joined tuple to ΔM through Fig. 14's
	// branch (12), where every node it does not hold in both versions is
	// added or deleted, only when it holds some node in both versions: a
	// tuple with nothing modified is not a modification.
	Strict bool `json:"strict,omitempty"`
	// Cover (repair R8) adds to ΔM, for every modified node that no ΔM tuple
	// holds in both versions, the tuple made of the first tuple of the old
	// table and the first of the new that hold it (origin FromCover).
	Cover bool `json:"cover,omitempty"`
	// Complete (repair R9, extended) puts in Δ+ every tuple of the new table
	// that holds an added node and in Δ- every tuple of the old table that
	// holds a deleted node, and then pairs every tuple still in no delta
	// table that holds a modified node with the first tuple of the other
	// table holding its first such node (origin FromComplete). Every tuple
	// with a changed node is then in some delta table, and
	//
	//	new = old − Δ- − (old tuples of ΔM) + Δ+ + (new tuples of ΔM)
	//
	// up to tuple ids, when the tuples whose nodes all stayed the same are
	// the same in both tables (as they are when the same coupling query
	// produced both).
	Complete bool `json:"complete,omitempty"`
}

// Origin tells which step of Algorithm Delta put a tuple in ΔM.
type Origin uint8

// The origins of ΔM tuples.
const (
	// FromJoin: a tuple of the web join accepted by Fig. 13 or Fig. 14.
	FromJoin Origin = iota + 1
	// FromOuter: a dangling tuple of the old table and one of the new
	// integrated into one (Fig. 11 lines 19-22, repair R6), or a dangling
	// tuple that found no partner, alone.
	FromOuter
	// FromCover: added by Options.Cover.
	FromCover
	// FromComplete: added by Options.Complete.
	FromComplete
)

var originNames = [...]string{FromJoin: "join", FromOuter: "outer", FromCover: "cover", FromComplete: "complete"}

// String returns the origin's name: join, outer, cover or complete.
func (o Origin) String() string {
	if int(o) < len(originNames) && originNames[o] != "" {
		return originNames[o]
	}
	return fmt.Sprintf("Origin(%d)", o)
}

// MarshalText writes the origin's name.
func (o Origin) MarshalText() ([]byte, error) {
	if int(o) >= len(originNames) || originNames[o] == "" {
		return nil, fmt.Errorf("webtable: unknown origin %d", o)
	}
	return []byte(originNames[o]), nil
}

// UnmarshalText reads an origin's name.
func (o *Origin) UnmarshalText(b []byte) error {
	for i, name := range originNames {
		if name != "" && name == string(b) {
			*o = Origin(i)
			return nil
		}
	}
	return fmt.Errorf("webtable: unknown origin %q", b)
}

// ModTuple is a tuple of ΔM: an integrated tuple that holds the old and the
// new version of modified nodes together with the nodes around them. Old or
// New is empty for a dangling tuple that found no partner.
type ModTuple struct {
	Pair
	Origin Origin `json:"origin"`
}

// ModTable is the ΔM web table. Its tuples name their constituents in Old
// (tuples of the old table) and New (tuples of the new one). As in the seed,
// its node pools hold the old and the new version of every modified node,
// including any that no ΔM tuple holds.
type ModTable struct {
	Old    *Table     `json:"old"`
	New    *Table     `json:"new"`
	Tuples []ModTuple `json:"tuples"`
}

// Delta is the change from one web table to another, as delta web tables
// (seed 000 Definition 1) and the node ids of Phase 2.
type Delta struct {
	Options Options `json:"options"`
	// Plus is Δ+: the tuples of the new table that show added nodes, in its
	// order, with their nodes and links.
	Plus *Table `json:"plus"`
	// Minus is Δ-: the tuples of the old table that show deleted nodes.
	Minus *Table `json:"minus"`
	// Mod is ΔM: the integrated tuples that show modified nodes.
	Mod *ModTable `json:"mod"`
	// Added, Deleted and Modified are the node ids of the new table only
	// (addNodeSet), of the old table only (delNodeSet), and of both with
	// different versions (updateNodeSet), each sorted.
	Added    []NodeID `json:"added"`
	Deleted  []NodeID `json:"deleted"`
	Modified []NodeID `json:"modified"`
}

// Change is what happened to a node between two tables.
type Change uint8

// The changes of a node.
const (
	Unchanged Change = iota // same version in both tables, or in neither table
	Added                   // in the new table only
	Deleted                 // in the old table only
	Modified                // in both, with different versions
)

// String returns the change's name: unchanged, added, deleted or modified.
func (c Change) String() string {
	switch c {
	case Unchanged:
		return "unchanged"
	case Added:
		return "added"
	case Deleted:
		return "deleted"
	case Modified:
		return "modified"
	}
	return fmt.Sprintf("Change(%d)", c)
}

// Change returns what happened to the node id: it classifies the nodes of
// any tuple of the delta tables (in a ΔM tuple, a Modified node of the old
// constituent is the old version, of the new one the new version).
func (d *Delta) Change(id NodeID) Change {
	for _, c := range []struct {
		ids []NodeID
		c   Change
	}{{d.Added, Added}, {d.Deleted, Deleted}, {d.Modified, Modified}} {
		if _, found := slices.BinarySearch(c.ids, id); found {
			return c.c
		}
	}
	return Unchanged
}
