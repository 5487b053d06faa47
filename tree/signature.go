package tree

import (
	"hash/maphash"
	"math"
	"math/bits"
)

// Signature is a 64-bit hash of a subtree: equal subtrees have equal
// signatures, and different ones almost surely differ. Signatures are keyed
// by a seed chosen when the process starts, so they compare only within one
// process: never store them.
type Signature uint64

// Hash constants: an offset for the first string, and the FNV prime as a
// multiplier between fields.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashSeed keys every string hash of this process. maphash uses the
// runtime's hardware-assisted hash, several times faster than a byte loop
// on the texts that make most of a document.
var hashSeed = maphash.MakeSeed()

// hashString mixes the hash of s into h.
func hashString(h uint64, s string) uint64 {
	return mix(h ^ maphash.String(hashSeed, s))
}

// mix is a strong 64-bit finaliser (from SplitMix64).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// combine folds a child signature into its parent's running hash; the result
// depends on the order of the children.
func combine(h, child uint64) uint64 {
	return mix(bits.RotateLeft64(h, 17) ^ child*0x9e3779b97f4a7c15)
}

// Label returns the hash of a node's own content: its kind and name, its
// attributes as a set, and for leaves its value. Two nodes with equal labels
// can be matched as a pair.
func Label(n *Node) Signature {
	return label(n, hashString(fnvOffset^uint64(n.Kind), n.Name))
}

// label is Label given the hash of n's kind and name.
func label(n *Node, h uint64) Signature {
	if n.Kind != Element {
		h = hashString(h*fnvPrime, n.Value)
		return Signature(mix(h))
	}
	var attrs uint64
	for _, a := range n.Attrs {
		// Order-independent: the sum of mixed per-attribute hashes.
		attrs += mix(hashString(hashString(fnvOffset, a.Name)*fnvPrime, a.Value))
	}
	return Signature(mix(h ^ mix(attrs+uint64(len(n.Attrs)))))
}

// NameKey returns the hash of a node's kind and name only: what two nodes must
// share to be matched as the same element (or the same kind of leaf).
func NameKey(n *Node) uint64 {
	return mix(hashString(fnvOffset^uint64(n.Kind), n.Name))
}

// labelAndName returns Label(n) and NameKey(n), hashing the name once.
func labelAndName(n *Node) (Signature, uint64) {
	h := hashString(fnvOffset^uint64(n.Kind), n.Name)
	return label(n, h), mix(h)
}

// Weight of a leaf with a value of the given length in bytes, as the seed
// defines it: 1 + ln(length), and 1 when empty.
func leafWeight(length int) float64 {
	if length < len(shortLeafWeights) {
		return shortLeafWeights[length]
	}
	return 1 + math.Log(float64(length))
}

// shortLeafWeights holds the weights of the short leaves that make most of
// a document, computed once: the logarithm is a visible share of measuring
// a large tree.
var shortLeafWeights = func() (w [1024]float64) {
	for n := range w {
		w[n] = 1
		if n > 1 {
			w[n] = 1 + math.Log(float64(n))
		}
	}
	return w
}()

// Measure holds the signature and weight of every node of a subtree, indexed
// by post-order position.
type Measure struct {
	Nodes     []*Node     // the subtree in post-order
	Signature []Signature // subtree signature of Nodes[i]
	// Name is NameKey(Nodes[i]); like Signature, nil from Weigh.
	Name   []uint64
	Weight []float64 // subtree weight of Nodes[i]
	// Size is the number of nodes in the subtree of Nodes[i]: the subtree
	// occupies the post-order range [i-Size[i]+1, i].
	Size []int32
	// Parent is the post-order index of the parent of Nodes[i], -1 for the
	// measured root; Pos is the 0-based index of Nodes[i] among its
	// siblings (0 for the root). Algorithms read them instead of following
	// pointers: on a large document the arrays stay in cache, the nodes do
	// not.
	Parent, Pos []int32
}

// MeasureTree computes the post-order list, the signature and the weight of
// every node in n's subtree in one iterative pass, and sets each node's Post
// to its 1-based index in that list.
func MeasureTree(n *Node) *Measure { return measure(n, true, 0) }

// Weigh is MeasureTree without signatures (Measure.Signature is nil), for
// callers that need only the post-order numbering and the weights.
func Weigh(n *Node) *Measure { return measure(n, false, 0) }

// Measure is MeasureTree of the document's root, sized in advance from the
// number of nodes the document has allocated.
func (d *Document) Measure() *Measure { return measure(d.Root, true, d.allocated) }

// Weigh is Weigh of the document's root, sized in advance.
func (d *Document) Weigh() *Measure { return measure(d.Root, false, d.allocated) }

func measure(n *Node, signatures bool, capacity int) *Measure {
	m := &Measure{
		Nodes:  make([]*Node, 0, capacity),
		Weight: make([]float64, 0, capacity),
		Size:   make([]int32, 0, capacity),
		Parent: make([]int32, 0, capacity),
		Pos:    make([]int32, 0, capacity),
	}
	if signatures {
		m.Signature = make([]Signature, 0, capacity)
		m.Name = make([]uint64, 0, capacity)
	}
	// Post-order with an explicit stack of running child hashes and weights.
	type frame struct {
		node   *Node
		next   int
		hash   uint64
		name   uint64
		weight float64
		size   int32
	}
	push := func(stack []frame, n *Node) []frame {
		f := frame{node: n, weight: 1, size: 1}
		if signatures {
			var l Signature
			l, f.name = labelAndName(n)
			f.hash = uint64(l)
		}
		return append(stack, f)
	}
	stack := push(nil, n)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.node.Children) {
			c := top.node.Children[top.next]
			top.next++
			stack = push(stack, c)
			continue
		}
		node, h, w, size := top.node, top.hash, top.weight, top.size
		if signatures {
			m.Name = append(m.Name, top.name)
		}
		if node.Kind != Element {
			w = leafWeight(len(node.Value))
		}
		stack = stack[:len(stack)-1]
		i := int32(len(m.Nodes))
		m.Nodes = append(m.Nodes, node)
		node.Post = i + 1
		if signatures {
			m.Signature = append(m.Signature, Signature(h))
		}
		m.Weight = append(m.Weight, w)
		m.Size = append(m.Size, size)
		m.Parent = append(m.Parent, -1)
		m.Pos = append(m.Pos, 0)
		// The children are the subtrees that end just before i, from the
		// last back: each starts where the previous one began.
		for c, k := i-1, int32(len(node.Children)-1); k >= 0; c, k = c-m.Size[c], k-1 {
			m.Parent[c], m.Pos[c] = i, k
		}
		if len(stack) > 0 {
			p := &stack[len(stack)-1]
			p.size += size
			if signatures {
				p.hash = combine(p.hash, h)
			}
			p.weight += w
		}
	}
	return m
}

// Children calls visit with the post-order index of each child of node i,
// last child first, using only the measure's arrays.
func (m *Measure) Children(i int32, visit func(c int32)) {
	for c, start := i-1, i-m.Size[i]; c > start; c -= m.Size[c] {
		visit(c)
	}
}

// ChildCount returns the number of children of node i: one more than the
// position of its last child.
func (m *Measure) ChildCount(i int32) int {
	if m.Size[i] == 1 {
		return 0
	}
	return int(m.Pos[i-1]) + 1
}

// ChildList returns the post-order indexes of the children of node i in
// document order, appended to buf[:0].
func (m *Measure) ChildList(i int32, buf []int32) []int32 {
	buf = buf[:0]
	for c, start := i-1, i-m.Size[i]; c > start; c -= m.Size[c] {
		buf = append(buf, c)
	}
	for a, b := 0, len(buf)-1; a < b; a, b = a+1, b-1 {
		buf[a], buf[b] = buf[b], buf[a]
	}
	return buf
}

// SignatureOf returns the subtree signature of n.
func SignatureOf(n *Node) Signature {
	m := MeasureTree(n)
	return m.Signature[len(m.Signature)-1]
}

// WeightOf returns the subtree weight of n.
func WeightOf(n *Node) float64 {
	m := MeasureTree(n)
	return m.Weight[len(m.Weight)-1]
}
