package treediff

import "github.com/vigil-web/vigil/tree"

// nameClasses returns, for each node of old and of new, a number that two
// nodes share exactly when they have the same kind and name: what canMatch
// compares. Names are compared once per distinct name (a flat tree interns
// them), not once per node, and a class takes four bytes a node where a
// hash of the name would take eight.
func nameClasses(old, new *tree.Flat) (oldClass, newClass []int32) {
	return classesOf(old, new, len(old.Names())+len(new.Names()) <= maxPackedNames)
}

// classesOf is nameClasses, with the name's number and the kind packed into
// a class when pack is set (there are few enough names), or each (name,
// kind) pair that occurs numbered in turn.
func classesOf(old, new *tree.Flat, pack bool) (oldClass, newClass []int32) {
	oldNames, newNames := old.Names(), new.Names()
	// shared[k] is the number of new name k among the names of both
	// versions: the old index of the same name, or an index past the old
	// names.
	index := make(map[string]int32, len(oldNames))
	for k, name := range oldNames {
		index[name] = int32(k)
	}
	shared := make([]int32, len(newNames))
	for k, name := range newNames {
		if o, ok := index[name]; ok {
			shared[k] = o
		} else {
			shared[k] = int32(len(oldNames) + k)
		}
	}
	if pack {
		oldClass = make([]int32, old.Len())
		for i := range oldClass {
			oldClass[i] = old.NameID(int32(i))<<kindBits | int32(old.Kind[i])
		}
		newClass = make([]int32, new.Len())
		for j := range newClass {
			newClass[j] = shared[new.NameID(int32(j))]<<kindBits | int32(new.Kind[j])
		}
		return oldClass, newClass
	}
	// Too many names to pack: number each (name, kind) pair that occurs.
	type nameKind struct {
		name int32
		kind tree.Kind
	}
	dense := map[nameKind]int32{}
	number := func(name int32, kind tree.Kind) int32 {
		k := nameKind{name, kind}
		c, ok := dense[k]
		if !ok {
			c = int32(len(dense))
			dense[k] = c
		}
		return c
	}
	oldClass = make([]int32, old.Len())
	for i := range oldClass {
		oldClass[i] = number(old.NameID(int32(i)), old.Kind[i])
	}
	newClass = make([]int32, new.Len())
	for j := range newClass {
		newClass[j] = number(shared[new.NameID(int32(j))], new.Kind[j])
	}
	return oldClass, newClass
}

// A packed name class holds a name's number above kindBits bits of kind;
// maxPackedNames is the most names of both versions that fit.
const (
	kindBits       = 8
	maxPackedNames = 1 << (31 - kindBits)
)
