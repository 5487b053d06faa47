package markup

import "github.com/vigil-web/vigil/tree"

// manyAttrs is the number of attributes of a tag from which attrNames
// finds duplicates through a set of the names rather than by scanning
// them: a tag with thousands would otherwise take time quadratic in their
// number.
const manyAttrs = 16

// attrNames tells whether a tag's attributes kept so far already have a
// name, as they are read one by one. The zero value is ready to use; one
// may serve tag after tag (its set is rebuilt when a tag reaches
// manyAttrs).
type attrNames struct {
	seen map[string]bool
}

// has reports whether kept, the attributes of the tag kept so far, has one
// called name, and notes name as kept (the caller keeps the attribute when
// it is new).
func (s *attrNames) has(kept []tree.Attr, name string) bool {
	if len(kept) < manyAttrs {
		for _, a := range kept {
			if a.Name == name {
				return true
			}
		}
		return false
	}
	if len(kept) == manyAttrs || s.seen == nil {
		if s.seen == nil {
			s.seen = make(map[string]bool)
		}
		clear(s.seen)
		for _, a := range kept {
			s.seen[a.Name] = true
		}
	}
	if s.seen[name] {
		return true
	}
	s.seen[name] = true
	return false
}
