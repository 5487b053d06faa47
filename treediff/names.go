package treediff

import "github.com/vigil-web/vigil/tree"

// classes holds the name class of every node of one version: a number that
// two nodes share exactly when they have the same kind and name, what
// canMatch compares. A document has few distinct (kind, name) pairs, so a
// class takes two bytes a node (lo); hi holds the high half of each class
// when there are more than 1<<16 pairs, and is nil otherwise.
type classes struct {
	lo, hi []uint16
}

// at returns the class of node i.
func (c *classes) at(i int32) int32 {
	if c.hi == nil {
		return int32(c.lo[i])
	}
	return int32(c.lo[i]) | int32(c.hi[i])<<16
}

// nameClasses returns the name classes of the nodes of old and of new.
// Names are compared once per distinct name (a flat tree interns them), not
// once per node.
func nameClasses(old, new *tree.Flat) (oldClass, newClass classes) {
	return classesOf(old, new, false)
}

// classesOf is nameClasses; wide numbers the classes and keeps their high
// halves even when the packed ones would do (for the tests).
func classesOf(old, new *tree.Flat, wide bool) (oldClass, newClass classes) {
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
	if (len(oldNames)+len(newNames))*4 <= 1<<16 && !wide {
		if oldClass.lo, newClass.lo = packedClasses(old, new, shared); oldClass.lo != nil {
			return oldClass, newClass
		}
	}
	return numberedClasses(old, new, shared, wide)
}

// packedClasses returns the classes of few enough names to pack a name's
// number and its kind into two bytes, the kind in the low two bits: the
// cheapest to compute, a shift a node. It returns nils when a node is of
// none of the four kinds (a tree built by hand).
func packedClasses(old, new *tree.Flat, shared []int32) (oldClass, newClass []uint16) {
	// The kinds less one, or-ed together: 4 or more when any is not one
	// of the four, found once the loops are done rather than by a test a
	// node.
	var kinds tree.Kind
	oldClass = make([]uint16, old.Len())
	for i := range oldClass {
		k := old.Kind[i] - 1
		kinds |= k
		oldClass[i] = uint16(old.NameID(int32(i))<<2 | int32(k&3))
	}
	newClass = make([]uint16, new.Len())
	for j := range newClass {
		k := new.Kind[j] - 1
		kinds |= k
		newClass[j] = uint16(shared[new.NameID(int32(j))]<<2 | int32(k&3))
	}
	if kinds >= 4 {
		return nil, nil
	}
	return oldClass, newClass
}

// numberedClasses returns the classes of any names and kinds: each (name,
// kind) pair numbered where it first occurs, in two bytes a node, and two
// more (the high halves) when there are more than 1<<16 pairs or wide is
// set.
func numberedClasses(old, new *tree.Flat, shared []int32, wide bool) (oldClass, newClass classes) {
	// number[name*4+kind-1] is the class of a pair of one of the four
	// kinds plus one, 0 until numbered; the pairs of other kinds (a tree
	// built by hand) are numbered in a map.
	number := make([]int32, (len(old.Names())+len(new.Names()))*4)
	type nameKind struct {
		name int32
		kind tree.Kind
	}
	var odd map[nameKind]int32
	classes := int32(0)
	classOf := func(name int32, kind tree.Kind) int32 {
		if kind-1 < 4 {
			k := int(name)*4 + int(kind-1)
			if number[k] == 0 {
				classes++
				number[k] = classes
			}
			return number[k] - 1
		}
		if odd == nil {
			odd = map[nameKind]int32{}
		}
		c, ok := odd[nameKind{name, kind}]
		if !ok {
			c = classes
			classes++
			odd[nameKind{name, kind}] = c
		}
		return c
	}
	oldClass.lo = make([]uint16, old.Len())
	for i := range oldClass.lo {
		oldClass.lo[i] = uint16(classOf(old.NameID(int32(i)), old.Kind[i]))
	}
	newClass.lo = make([]uint16, new.Len())
	for j := range newClass.lo {
		newClass.lo[j] = uint16(classOf(shared[new.NameID(int32(j))], new.Kind[j]))
	}
	if classes > 1<<16 || wide {
		// Some class does not fit in its low half: the high halves of
		// every node, the classes all numbered now.
		oldClass.hi = make([]uint16, old.Len())
		for i := range oldClass.hi {
			oldClass.hi[i] = uint16(classOf(old.NameID(int32(i)), old.Kind[i]) >> 16)
		}
		newClass.hi = make([]uint16, new.Len())
		for j := range newClass.hi {
			newClass.hi[j] = uint16(classOf(shared[new.NameID(int32(j))], new.Kind[j]) >> 16)
		}
	}
	return oldClass, newClass
}
