package treediff

import (
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// keyAttrs returns, per element name, the attributes that identify an
// element: the ID attributes the DTDs of both versions declare (unless
// ignored; the old version's first, where the two declare different ones)
// and the user's keys, which apply to every element ("*"). An ID declared
// by the new version alone still identifies: the old version's elements
// carry the attribute, undeclared.
func keyAttrs(old, new *tree.Flat, opt *Options) map[string][]string {
	keys := map[string][]string{}
	if opt == nil || !opt.IgnoreDTD {
		for elem, attr := range old.IDAttrs {
			keys[elem] = append(keys[elem], attr)
		}
		for elem, attr := range new.IDAttrs {
			if !slices.Contains(keys[elem], attr) {
				keys[elem] = append(keys[elem], attr)
			}
		}
	}
	if opt != nil && len(opt.KeyAttrs) > 0 {
		keys["*"] = append(keys["*"], opt.KeyAttrs...)
	}
	return keys
}

// idKeys returns the ID key of every node: a hash of the element's name, its
// first key attribute and that attribute's value, or 0.
func idKeys(t *tree.Measure, keys map[string][]string) []uint64 {
	out := make([]uint64, t.Len())
	if len(keys) == 0 {
		return out
	}
	star := keys["*"]
	for i := range int32(t.Len()) {
		if t.Kind[i] != tree.Element || len(t.Attrs(i)) == 0 {
			continue
		}
		name := t.Name(i)
		for _, list := range [2][]string{keys[name], star} {
			for _, a := range list {
				if v, ok := t.Attr(i, a); ok {
					// Any nonzero, collision-resistant value will do; reuse the
					// tree's label hash on a synthetic element.
					out[i] = uint64(tree.Label(&tree.Node{Kind: tree.Element, Name: name, Attrs: []tree.Attr{{Name: a, Value: v}}})) | 1
					break
				}
			}
			if out[i] != 0 {
				break
			}
		}
	}
	return out
}

// idPhase is the seed's phase 1: nodes that carry the same ID key in both
// versions are matched, then their ancestors through a bottom-up pass.
type idPhase struct{}

func (idPhase) name() string { return "id" }

func (idPhase) run(m *matching) {
	byKey := map[uint64]int32{}
	for i, k := range m.oldKey {
		if k == 0 {
			continue
		}
		if _, dup := byKey[k]; dup {
			byKey[k] = -1 // ambiguous: an ID repeated in one version is not an identity
			continue
		}
		byKey[k] = int32(i)
	}
	if len(byKey) == 0 {
		return
	}
	seen := map[uint64]int{}
	for _, k := range m.newKey {
		if k != 0 {
			seen[k]++
		}
	}
	for j, k := range m.newKey {
		if k == 0 || seen[k] > 1 {
			continue
		}
		if i, ok := byKey[k]; ok && i >= 0 && m.canMatch(i, int32(j)) {
			m.pair(i, int32(j))
		}
	}
	bottomUp{}.run(m)
}
