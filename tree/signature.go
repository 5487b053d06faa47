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
	return labelOf(n.Kind, n.Value, n.Attrs, hashString(fnvOffset^uint64(n.Kind), n.Name))
}

// labelOf is Label given the hash h of the node's kind and name. maphash's
// output is already well mixed: each value is folded in with a multiply and
// mixed once.
func labelOf(kind Kind, value string, attrs []Attr, h uint64) Signature {
	if kind != Element {
		return Signature(mix(h*fnvPrime ^ maphash.String(hashSeed, value)))
	}
	var sum uint64
	for _, a := range attrs {
		// Order-independent: the sum of mixed per-attribute hashes.
		sum += mix(maphash.String(hashSeed, a.Name)*fnvPrime ^ maphash.String(hashSeed, a.Value))
	}
	return Signature(mix(h ^ (sum+uint64(len(attrs)))*0x9e3779b97f4a7c15))
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

// Measure holds the signature and weight of every node of a flat tree,
// indexed by post-order position. It embeds the tree, so that its arrays
// (Size, Parent, Pos) and methods (Children, ChildCount) read as the
// measure's own.
type Measure struct {
	*Flat
	Signature []Signature // subtree signature of node i; nil from WeighFlat
	Weight    []float32   // subtree weight of node i (see measure)
}

// MeasureTree flattens n's subtree (setting each node's Post to its
// 1-based post-order rank) and measures it.
func MeasureTree(n *Node) *Measure {
	f, _ := Flatten(n)
	return MeasureFlat(f)
}

// MeasureFlat computes the signature and weight of every node of f, in one
// pass over its arrays.
func MeasureFlat(f *Flat) *Measure { return measure(f, true) }

// WeighFlat is MeasureFlat without signatures, for callers that need only
// the weights.
func WeighFlat(f *Flat) *Measure { return measure(f, false) }

func measure(f *Flat, signatures bool) *Measure {
	n := f.Len()
	m := &Measure{Flat: f, Weight: make([]float32, n)}
	// The hash of each (kind, name) pair that occurs, by name index: a
	// name is hashed once, not once per node. kindName[k] is the hash of
	// the k-th (kind, name) pair, 0 until computed.
	var kindName []uint64
	if signatures {
		m.Signature = make([]Signature, n)
		kindName = make([]uint64, len(f.names)*4)
	}
	// nameHash returns the hash of node i's kind and name. Its first
	// lines are the loop's own (a closure call a node is a visible share of
	// measuring): cached returns the hash when it is known.
	nameHash := func(i int32) uint64 {
		if f.Kind[i]-1 >= 4 {
			// An invalid kind (a tree built by hand): not cached.
			return hashString(fnvOffset^uint64(f.Kind[i]), f.names[f.name[i]])
		}
		k := int(f.name[i])*4 + int(f.Kind[i]-1)
		h := kindName[k]
		if h == 0 {
			h = hashString(fnvOffset^uint64(f.Kind[i]), f.names[f.name[i]])
			kindName[k] = h
		}
		return h
	}
	names := f.name[:n]
	cached := func(i int, k Kind) uint64 {
		if k-1 < 4 {
			if h := kindName[int(names[i])*4+int(k-1)]; h != 0 {
				return h
			}
		}
		return nameHash(int32(i))
	}
	// Post-order: every child is complete before its parent, and the
	// children of a node come in document order. The first child (Pos 0)
	// seeds its parent's running hash with the parent's label and opens
	// its running weight at 1; each child then folds itself in. The
	// running weights are float64 sums, kept on a stack of the parents
	// still open (the path to the node at hand), and stored rounded to
	// float32 once the parent is complete: every weight is the float64
	// sum of its children's float64 weights, in order, as if the array
	// held float64. Node i's value and attributes start where node i-1's
	// end: the loop keeps those ends rather than reading them again
	// (Value and Attrs), and slices a value or attributes only for a node
	// whose label or weight reads them (an element's label has no value,
	// another node's no attributes: see labelOf).
	kind, size, parent, pos := f.Kind[:n], f.Size[:n], f.Parent[:n], f.Pos[:n]
	valueEnd, attrEnd := f.valueEnd[:n], f.attrEnd[:n]
	weight, sig := m.Weight[:n], m.Signature
	var openBuf [64]float64
	open := openBuf[:0] // running weights of the parents still open
	valueStart, attrStart := uint32(0), int32(0)
	for i := range n {
		k := kind[i]
		vStart, aStart := valueStart, attrStart
		valueStart, attrStart = valueEnd[i], attrEnd[i]
		var w float64
		if size[i] > 1 && len(open) > 0 {
			// Its children are done: its running weight is on top.
			w = open[len(open)-1]
			open = open[:len(open)-1]
		}
		if k != Element {
			// A leaf's weight is its value's, even with children (a tree
			// built by hand).
			value := f.text[vStart:valueStart]
			w = leafWeight(len(value))
			if signatures && size[i] == 1 {
				// labelOf's leaf case, written out: leaves are most
				// nodes, and labelOf, with its loop, is not inlined.
				sig[i] = Signature(mix(cached(i, k)*fnvPrime ^ maphash.String(hashSeed, value)))
			}
		} else if size[i] == 1 {
			w = 1
			if signatures {
				sig[i] = labelOf(Element, "", f.attrs[aStart:attrStart:attrStart], cached(i, k))
			}
		}
		weight[i] = float32(w)
		p := parent[i]
		if p < 0 {
			continue
		}
		if pos[i] == 0 {
			open = append(open, 1)
			if signatures {
				sig[p] = labelOf(kind[p], f.Value(p), f.Attrs(p), cached(int(p), kind[p]))
			}
		} else if len(open) == 0 {
			// Elements a FlatBuilder was told to close out of order (the
			// builder does not check): weights that mean nothing, but no
			// panic.
			open = append(open, 1)
		}
		open[len(open)-1] += w
		if signatures {
			sig[p] = Signature(combine(uint64(sig[p]), uint64(sig[i])))
		}
	}
	return m
}

// SignatureOf returns the subtree signature of n.
func SignatureOf(n *Node) Signature {
	m := MeasureTree(n)
	return m.Signature[len(m.Signature)-1]
}

// WeightOf returns the subtree weight of n.
func WeightOf(n *Node) float64 {
	m := MeasureTree(n)
	return float64(m.Weight[len(m.Weight)-1])
}
