package treediff

import "github.com/vigil-web/vigil/tree"

// wordCand is a node that the leftovers phase may pair by its words: an
// unmatched node in a deleted or inserted region, depth levels below the
// region's root, whose name class is region.
type wordCand struct {
	node, region, depth int32
}

// rootCands returns the region roots given as candidates.
func rootCands(roots []int32) []wordCand {
	out := make([]wordCand, len(roots))
	for k, r := range roots {
		out[k] = wordCand{node: r, region: -1}
	}
	return out
}

// wordRule says which candidates a search by words may pair.
type wordRule struct {
	// nested allows only pairs of which one side at least lies inside its
	// region, in regions of different names: two regions of the same
	// name were weighed as wholes already, and their parts sharing words
	// (a byline, a "read more") do not make the same item.
	nested bool
}

// words returns the options of the word sets a search compares, given
// the matches of a version: the words of a region root, as they are; in
// the search of nested candidates, the pairs of consecutive words of the
// texts not matched elsewhere, so that only a text that kept most of its
// words in order makes a pair (a paragraph with a word changed), not one
// of the same vocabulary.
func (r wordRule) words(match []int32) wordOptions {
	if !r.nested {
		return wordOptions{}
	}
	return wordOptions{pairs: true, match: match}
}

// allows reports whether the rule lets old candidate c pair with new
// candidate y.
func (r wordRule) allows(c *leftover, y wordCand) bool {
	return !r.nested || ((c.depth > 0 || y.depth > 0) && c.region != y.region)
}

// newAncestorPaired reports whether a node between new candidate y and
// its region's root, the root included, is matched.
func (m *matching) newAncestorPaired(y wordCand) bool {
	j := y.node
	for range y.depth {
		j = m.newParent[j]
		if m.newMatch[j] >= 0 {
			return true
		}
	}
	return false
}

// nestedCands returns the unmatched elements of the regions whose roots
// are given (in post-order), the roots included, down to leftoverDepth
// levels below the roots: level by level, each in document order. Those
// of one region have its root's name class. It works in the scratch
// slice kids.
func nestedCands(t *tree.Measure, match []int32, names *classes, roots []int32, kids *[]int32) []wordCand {
	var out []wordCand
	for _, r := range roots {
		if match[r] < 0 {
			out = append(out, wordCand{node: r, region: names.at(r)})
		}
	}
	for level, start := int32(1), 0; level <= leftoverDepth && start < len(out); level++ {
		end := len(out)
		for _, c := range out[start:end] {
			*kids = t.ChildList(c.node, *kids)
			for _, k := range *kids {
				if match[k] < 0 && t.Kind[k] == tree.Element {
					out = append(out, wordCand{node: k, region: c.region, depth: level})
				}
			}
		}
		start = end
	}
	return out
}
