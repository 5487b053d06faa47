package treediff

import (
	"fmt"
	"testing"
)

// TestNameClasses checks that two nodes share a name class exactly when
// they have the same kind and name, within a version and across both,
// packed and numbered.
func TestNameClasses(t *testing.T) {
	m := matchingOf(t,
		`<r><a>x</a><b/><?a data?><!--c--><a/></r>`,
		`<r><c/><a>y</a><?a other?><d/><!--e--></r>`)
	old, new := m.old.Flat, m.new.Flat
	key := func(kind fmt.Stringer, name string) string { return kind.String() + " " + name }
	for _, pack := range []bool{true, false} {
		oc, nc := classesOf(old, new, pack)
		type node struct {
			key   string
			class int32
		}
		var nodes []node
		for i := range old.Len() {
			nodes = append(nodes, node{key(old.Kind[i], old.Name(int32(i))), oc[i]})
		}
		for j := range new.Len() {
			nodes = append(nodes, node{key(new.Kind[j], new.Name(int32(j))), nc[j]})
		}
		for _, x := range nodes {
			for _, y := range nodes {
				if (x.key == y.key) != (x.class == y.class) {
					t.Errorf("pack %v: %q has class %d, %q class %d", pack, x.key, x.class, y.key, y.class)
				}
			}
		}
	}
}
