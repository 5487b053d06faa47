package treediff

import (
	"github.com/vigil-web/vigil/tree"
)

// matching is the state the phases share: both versions measured, and the
// pairs found so far, indexed by post-order position (tree.Node.Post - 1).
type matching struct {
	old, new *tree.Measure
	// oldMatch[i] is the index of the new node matched with old node i, or
	// -1; newMatch likewise.
	oldMatch, newMatch []int32
	// oldSize and newSize are subtree sizes: the subtree of node i occupies
	// the post-order range [i-size+1, i].
	oldSize, newSize []int32
	// oldKey and newKey are ID keys: 0 for a node without an ID attribute,
	// otherwise a hash of its name, ID attribute and value. Nodes with
	// different keys are never matched.
	oldKey, newKey []uint64
	// oldName and newName hash each node's kind and name.
	oldName, newName []uint64
	// zipped[j] is true when new node j was matched as part of an identical
	// subtree, so that its whole subtree is matched.
	zipped []bool
	// newPos[j] is the 0-based index of new node j among its siblings.
	newPos []int32
}

func newMatching(old, new *tree.Document, opt *Options) *matching {
	m := &matching{
		old: old.Measure(),
		new: new.Measure(),
	}
	m.oldMatch = filled(len(m.old.Nodes), -1)
	m.newMatch = filled(len(m.new.Nodes), -1)
	m.oldSize = m.old.Size
	m.newSize = m.new.Size
	m.oldName = nameKeys(m.old)
	m.newName = nameKeys(m.new)
	keys := keyAttrs(old, opt)
	m.oldKey = idKeys(m.old, keys)
	m.newKey = idKeys(m.new, keys)
	m.zipped = make([]bool, len(m.new.Nodes))
	m.newPos = make([]int32, len(m.new.Nodes))
	for _, n := range m.new.Nodes {
		for k, c := range n.Children {
			m.newPos[newIndex(c)] = int32(k)
		}
	}
	return m
}

func filled(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func nameKeys(t *tree.Measure) []uint64 {
	keys := make([]uint64, len(t.Nodes))
	for i, n := range t.Nodes {
		keys[i] = tree.NameKey(n)
	}
	return keys
}

// canMatch reports whether old node i and new node j may be paired: both
// free, the same kind and name, and the same ID key.
func (m *matching) canMatch(i, j int32) bool {
	return m.oldMatch[i] < 0 && m.newMatch[j] < 0 &&
		m.oldName[i] == m.newName[j] && m.oldKey[i] == m.newKey[j]
}

// pair records that old node i and new node j are the same node.
func (m *matching) pair(i, j int32) {
	m.oldMatch[i] = j
	m.newMatch[j] = i
}

// zip pairs the identical subtrees rooted at old node i and new node j node by
// node (their post-order ranges line up), skipping nodes already matched.
func (m *matching) zip(i, j int32) {
	size := m.oldSize[i]
	oi, nj := i-size+1, j-size+1
	for k := int32(0); k < size; k++ {
		if m.oldMatch[oi+k] < 0 && m.newMatch[nj+k] < 0 && m.oldKey[oi+k] == m.newKey[nj+k] {
			m.pair(oi+k, nj+k)
			m.zipped[nj+k] = true
		}
	}
}

// oldIndex and newIndex return a node's index in the measure arrays.
func oldIndex(n *tree.Node) int32 { return n.Post - 1 }
func newIndex(n *tree.Node) int32 { return n.Post - 1 }

// parentIndex returns the index of n's parent, or -1 for the root.
func parentIndex(n *tree.Node) int32 {
	if n.Parent == nil {
		return -1
	}
	return n.Parent.Post - 1
}
